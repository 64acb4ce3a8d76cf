/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host as the tuner sees it: NUMA nodes (libnuma), CPUs with their
 * cores and packages, storage PCI functions (libpci) with link and
 * interrupt vectors, cpuidle, cpufreq, irqbalance.  topo_gather() only
 * reads; the plan is a pure function of this structure.
 */
#ifndef SSDTUNE_TOPO_H
#define SSDTUNE_TOPO_H

#include <limits.h>
#include <stdbool.h>

#include "lib/bdf.h"
#include "lib/error.h"
#include "lib/pcie.h"

#define TOPO_LIST 1024		/* a cpulist string */

struct topo_node {
	int id;
	int *cpus;			/* ascending */
	int ncpus;
	long long mem_total, mem_free;	/* bytes; -1 unknown */
	int *distance;			/* [nnodes], by index */
};

struct topo_cpu {
	int id;
	bool online;
	int package, core, node;	/* -1 unknown */
	char siblings[64];		/* thread_siblings_list */
	char pm_qos[16];		/* power/pm_qos_resume_latency_us,
					 * "" if absent */
};

enum topo_managed { MANAGED_UNKNOWN = -1, MANAGED_NO = 0, MANAGED_YES = 1 };

struct topo_irq {
	int irq;
	int entry;			/* identity: MSI-X entry (irqvec.h) */
	int queue;			/* ssdtune: the queue it serves, or -1 */
	char qcpus[TOPO_LIST];		/* ... its submitting CPUs ("": none) */
	char name[64];			/* from /proc/interrupts */
	char affinity[TOPO_LIST];	/* smp_affinity_list */
	char effective[TOPO_LIST];	/* effective_affinity_list */
	bool vmd;			/* remapped by Intel VMD */
	enum topo_managed managed;
	const char *managed_why;
};

/* A whole disk of a storage function, and its block queue settings. */
struct topo_disk {
	char name[NAME_MAX + 1];	/* "nvme0n1", "ssdt0n1" */
	char scheduler[32];		/* the active one; "" if no file */
	char nomerges[8];		/* "" if no file */
	char rq_affinity[8];
};

struct topo_pci {
	char bdf[BDF_BUFSZ];
	unsigned int class24, vendor, device;
	char name[160];			/* vendor and device names (pci.ids) */
	int node;			/* -1 unknown */
	char driver[64];
	char ssdt[32];			/* ssdtune controller, "" if none */
	char ssdt_serial[64], ssdt_model[64];	/* its identity, "" unknown */
	char coalesce_profile[32];	/* its knobs; "" if absent */
	char poll_queues[16];		/* its poll queues; "" if absent */
	char io_queues[16];		/* all its I/O queues; "" if absent */
	char power_limit_mw[32];
	char apst[32];			/* apst_max_latency_us; "" absent */
	char quirks[256];		/* its quirks file ("none", names); "" absent */
	bool pcie;			/* has a PCI Express capability */
	struct pcie_link cap, cur;	/* this end's capability, trained */
	bool port_known;
	char port[BDF_BUFSZ];		/* upstream port */
	struct pcie_link port_cap;
	struct topo_disk *disks;	/* its namespaces' disks, by name */
	int ndisks;
	struct topo_irq *irqs;		/* ascending by entry */
	int nirqs;
	bool irqs_by_rank;		/* entries are ranks (irqvec.h) */
};

struct topo_idle_state {
	int index;			/* N of stateN: for the path only */
	char name[32];
	char desc[64];
	unsigned int latency_us;
	char disabled_on[TOPO_LIST];	/* CPUs where it is disabled */
};

struct topo_policy {
	int id;
	char cpus[TOPO_LIST];		/* affected_cpus as a cpulist */
	char governor[32];
	char epp[48];			/* "" if the driver has no EPP */
};

/* An interrupt of the host (/proc/irq/N), the device's or not. */
struct topo_host_irq {
	int irq;
	char name[64];			/* its first action ("" unused) */
	char affinity[TOPO_LIST];	/* smp_affinity_list */
	bool writable;			/* 6.12 makes it 0444 when userspace
					 * cannot set it (6.1 answers EIO) */
};

/* A child of the cgroup v2 root, with its cpuset partition state. */
struct topo_cgroup {
	char name[NAME_MAX + 1];
	char cpus[TOPO_LIST];		/* cpuset.cpus ("" inherits) */
	char partition[64];		/* cpuset.cpus.partition, "" if none */
};

/* What CPU isolation can use and what the host already isolates
 * (lib/isol.c). */
struct topo_isol {
	char default_affinity[TOPO_LIST];	/* /proc/irq/default_smp_affinity
						 * (a mask), "" if absent */
	struct topo_host_irq *irqs;
	int nirqs;
	char wq_mask[TOPO_LIST];	/* unbound workqueues' cpumask, "" */
	char wb_mask[TOPO_LIST];	/* the writeback workqueue's, "" */
	bool cgroup2;			/* cgroup v2 at /sys/fs/cgroup */
	bool cpuset;			/* its cpuset controller exists */
	bool cpuset_on;			/* ... and the root hands it down */
	struct topo_cgroup *cgroups;
	int ncgroups;
	char isolated[TOPO_LIST];	/* isolcpus= at boot, "" none */
	char nohz_full[TOPO_LIST];	/* nohz_full= at boot, "" none */
};

struct topo {
	struct topo_node *nodes;
	int nnodes;
	struct topo_cpu *cpus;
	int ncpus;
	struct topo_pci *pcis;		/* storage functions only */
	int npcis;

	bool idle_available;
	char idle_driver[32], idle_governor[32];
	struct topo_idle_state *idle_states;
	int nidle_states;

	bool freq_available;
	char freq_driver[32];
	struct topo_policy *policies;
	int npolicies;
	int turbo;			/* 1 on, 0 off, -1 unknown */
	const char *turbo_file;

	struct topo_isol isol;

	int irqbalance_pid;		/* 0: not running */
	bool irqbalance_unit;		/* as systemd's irqbalance.service */
	char irqbalance_exe[PATH_MAX];	/* its program, "" unknown */
	char irqbalance_dropin[8192];	/* ssdtune's drop-in, "" if none */
	bool update_grub;		/* update-grub is in PATH */
	char tuned_profile[64];		/* tuned runs: its profile ("?"), or "" */
	char ppd_profile[64];		/* power-profiles-daemon runs: its
					 * profile ("?"), or "" */
	char grub_dropin[4096];		/* ssdtune's GRUB drop-in, "" if none */
	bool proc_irq;			/* /proc/irq readable */
};

/* Read everything.  Returns 0, or -errno with @err naming the file that
 * was missing or malformed. */
int topo_gather(struct topo *t, struct lib_err *err);
void topo_free(struct topo *t);

#endif
