/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The plan as data: the profiles and their rules, what the tuner asks for
 * (struct plan_opts), and the plan's items, which the planner's files
 * (planner.c, planner_isol.c) append and the rest of the tool reads,
 * writes, saves and prints.
 */
#ifndef SSDTUNE_PLAN_H
#define SSDTUNE_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/topo.h"

enum plan_profile {
	PROFILE_LATENCY,
	PROFILE_IOPS,
	PROFILE_THROUGHPUT,
	PROFILE_BALANCED,
	PROFILE_COUNT
};

/* A profile's rules (Documentation/tuning.md). */
struct plan_rules {
	const char *name;
	int latency_us;		/* C-state exit latency bound, -1 none */
	int irq_cores_per8;	/* interrupt cores per 8 cores of a node */
	const char *governor;	/* NULL: leave it */
	const char *epp;	/* with a governor that keeps EPP */
	int turbo;		/* 1 on, -1 leave it */
	const char *coalesce;	/* ssdtune coalesce_profile */
	bool irq_local;		/* an ssdtune I/O vector completes on the
				 * CPUs that submit to its queue, those of
				 * the I/O cores first (no cross-CPU
				 * wake-up at low depth); else it goes to
				 * the interrupt cores */
	/* block queue of the device's disks; NULL: leave it */
	const char *scheduler, *nomerges, *rq_affinity;
	const char *trade;	/* what the profile gives up, for plan's
				 * summary line; NULL: nothing */
};

/* The rules of @profile, a valid enum plan_profile. */
const struct plan_rules *plan_rules(int profile);

int plan_profile_parse(const char *name);	/* -1 if unknown */
const char *plan_profile_name(int profile);
/* The deepest C-state exit latency the profile allows, -1: no bound. */
int plan_latency_bound_us(int profile);

/* What the tuner asks of plan_build(). */
struct plan_opts {
	int profile;
	bool isolate;		/* runtime CPU isolation (latency, iops,
				 * throughput): host IRQs, workqueues and
				 * a cpuset partition off/on the I/O cores */
	const char *partition;	/* its cgroup name; NULL: the default */
	bool boot;		/* boot isolation: a GRUB drop-in with the
				 * isolating kernel command line */
	int io_cores;		/* at most this many (whole) cores of a
				 * device's node for I/O; 0: all that are
				 * not interrupt cores */
	bool keep_coalesce;	/* the configuration sets the coalescing */
	bool keep_power;	/* ... the power limit knob */
	bool keep_apst;		/* ... apst_max_latency_us */
	bool keep_poll;		/* ... poll_queues: the plan leaves them
				 * (apply --config) */
};

enum plan_kind {
	PLAN_SET,	/* path: old -> new */
	PLAN_KEEP,	/* already holds the value */
	PLAN_SKIP,	/* setting not present or not steerable */
	PLAN_NOTE,	/* advice: printed, never written */
};

/* How a value is read and written (lib/tune.c, lib/cgroup.h). */
enum plan_type {
	TYPE_FILE,		/* a file's bytes */
	TYPE_CONTROLLER,	/* "+cpuset"/"-cpuset" in cgroup.subtree_control */
	TYPE_PARTITION,		/* a cpuset partition directory: "" or
				 * "cpus=LIST partition=TYPE" */
	TYPE_DROPIN,		/* a configuration file the tool owns: ""
				 * or its content (lib/dropin.h) */
};

struct plan_item {
	enum plan_kind kind;
	enum plan_type type;
	bool may_refuse;	/* a host IRQ: the kernel may refuse it
				 * (kernel-managed on 6.1): left alone */
	char *key;		/* stable identity the state is saved under */
	char *path;		/* "" for notes */
	char *old, *val;	/* current, wanted ("" if none) */
	char *reason;
	char bdf[BDF_BUFSZ];	/* an interrupt vector: its function ... */
	int vector;		/* ... and MSI-X entry (irqvec.h); else -1 */
	char *serial, *model;	/* a file of an ssdtune controller: its
				 * identity (and bdf); else NULL */
	char *follow;		/* a vector that follows its queue: the
				 * queue's cpus file, read again when
				 * apply writes it (an earlier poll_queues
				 * write re-maps the queues); else NULL */
	char *within;		/* ... and the CPUs it prefers there */
};

struct plan_dev {
	char bdf[BDF_BUFSZ];
	char driver[64], ssdt[32];
	int node;		/* the node used (the device's, or 0) */
	char irq_cpus[TOPO_LIST], io_cpus[TOPO_LIST];
	int nvectors, nmanaged;
};

struct plan {
	int profile;
	bool isolate, boot;
	int io_cores;		/* as asked (plan_opts), 0: all */
	char partition[80];	/* its path, "" without --isolate */
	struct plan_dev *devs;
	int ndevs;
	struct plan_item *items;
	int nitems, cap;
	char irq_cpus[TOPO_LIST], io_cpus[TOPO_LIST];	/* all devices */
	char housekeeping[TOPO_LIST];	/* everything else */
	char cmdline[4 * TOPO_LIST + 128];	/* boot isolation, printed */
	struct {
		int pid;			/* 0: not running */
		bool unit;			/* systemd's irqbalance.service */
		char args[4096];		/* "--banirq=N ..." */
		char banned_cpus[TOPO_LIST];	/* IRQBALANCE_BANNED_CPULIST */
	} irqbalance;			/* how to keep it off */
};

/* Free what the plan holds; @p is then empty.  Safe on a zeroed plan. */
void plan_free(struct plan *p);

/* Append an item (the strings are copied).  0 or -ENOMEM. */
int plan_add(struct plan *p, enum plan_kind kind, const char *key,
	     const char *path, const char *old, const char *val,
	     const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/*
 * Where a vector that follows its queue goes: the CPUs of @qcpus that are
 * in @within, or all of @qcpus when none is (both cpulists).  @buf gets
 * the cpulist; 0, or -EINVAL if either is malformed or @qcpus is empty,
 * -ENOMEM.
 */
int plan_follow_target(const char *qcpus, const char *within, char *buf,
		       size_t len);

/* The key of interrupt vector (MSI-X entry) @index of @bdf. */
void plan_irq_key(const char *bdf, int index, char *buf, size_t len);
/* The key of file @file of the ssdtune controller @serial/@model: by
 * identity, since ssdtN is only an index. */
void plan_ctrl_key(const char *serial, const char *model, const char *file,
		   char *buf, size_t len);

/* A cpuset partition's saved value (TYPE_PARTITION) for CPUs @cpus. */
void plan_partition_value(const char *cpus, char *buf, size_t len);

#endif
