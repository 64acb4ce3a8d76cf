/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A client of the ssdtune driver's generic netlink family
 * (include/uapi/linux/ssdtune.h) over libnl-genl: the driver's events as
 * they come, and dumps of every controller's per-queue counters.  Messages
 * are decoded into the structs below; `monitor` (cmd/) shows them.
 */
#ifndef SSDTUNE_GENL_H
#define SSDTUNE_GENL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/error.h"

#define GENL_MAX_CTRLS	64
#define GENL_MAX_QUEUES	256

struct nl_sock;

struct genl_event;

struct genl {
	struct nl_sock *sk;	/* NULL until genl_open() */
	int family;
	/* genl_subscribe()'s */
	void (*event_fn)(void *ctx, const struct genl_event *ev);
	void *event_ctx;
};

/* Connect and resolve the family; @err says so if the module is absent.
 * 0 or -errno.  genl_close() in every case. */
int genl_open(struct genl *g, struct lib_err *err);
void genl_close(struct genl *g);

/* One event; what the driver did not send is NULL or not "has_". */
struct genl_event {
	const char *name;	/* "attached", ..., "knob", "async"; "unknown" */
	uint32_t ctrl;		/* ssdtN */
	bool has_time;
	uint64_t time_ns;	/* CLOCK_BOOTTIME */
	const char *pci_addr, *state, *knob, *value;
	bool has_queue, has_tag;
	uint32_t queue, tag;
	/* "async": the NVMe asynchronous event, and SMART's details */
	const char *ae_type;	/* "error", "smart", "notice", "other" */
	bool has_ae, has_smart;
	uint32_t ae_info, ae_log, crit_warning, temp_k;
};

/* Join the events group; genl_wait() passes every event that arrives to
 * @fn(@ctx, event).  0 or -errno with @err filled. */
int genl_subscribe(struct genl *g,
		   void (*fn)(void *ctx, const struct genl_event *ev),
		   void *ctx, struct lib_err *err);

/* Wait up to @ms (-1: no limit) for messages and handle them.  0 also on
 * timeout or a signal; else -errno with @err filled. */
int genl_wait(struct genl *g, int ms, struct lib_err *err);

/* Counters of one queue, of one controller, of every controller. */
struct genl_queue {
	uint32_t id, irq;
	uint64_t submitted, completed, interrupts, polled;
	uint64_t retries, stale;	/* 0 from a driver without them */
};

struct genl_ctrl {
	uint32_t ctrl;
	char pci[32], state[16], model[48], serial[32];
	size_t nq;
	struct genl_queue q[GENL_MAX_QUEUES];
};

struct genl_snapshot {
	size_t n;
	struct genl_ctrl c[GENL_MAX_CTRLS];
};

/* One dump of every controller into @s.  0 or -errno with @err filled. */
int genl_dump(struct genl *g, struct genl_snapshot *s, struct lib_err *err);

/* Queue @queue of controller @ctrl in @s (may be NULL), or NULL. */
const struct genl_queue *genl_find_queue(const struct genl_snapshot *s,
					 uint32_t ctrl, uint32_t queue);

#endif
