/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdtune power limiting (ssdt_power_dev.c): per-controller state of the
 * power_limit_* knobs, the energy estimate and the host-side throttle.
 */
#ifndef SSDT_POWER_DEV_H
#define SSDT_POWER_DEV_H

#include <linux/blk-mq.h>
#include <linux/hrtimer.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include "ssdt_budget.h"
#include "ssdt_power.h"

struct ssdt_ctrl;

/* Commands and bytes submitted, per CPU; the estimate prices them. */
struct ssdt_power_pcpu {
	u64 cmds[SSDT_OPC_NR];
	u64 bytes[SSDT_OPC_NR];
};

/* Per request: the host throttle's reservation while it waits. */
struct ssdt_power_rq {
	u64 go_ns;		/* 0: not waiting */
	u64 since_ns;		/* first refused */
	u32 gen;		/* bucket generation the reservation is for */
};

struct ssdt_powerlimit {
	struct mutex mutex;		/* knobs, estimate, hw state */
	bool stopped;			/* disks are going: no more limits */
	u32 limit_mw;			/* 0: unlimited */
	enum ssdt_power_mode mode;	/* as written: hw, host or auto */
	enum ssdt_power_mode active;	/* off, hw or host */
	struct ssdt_power_pcpu __percpu *pcpu;
	/* Under mutex; folded in by ssdt_power_fold(), never by a mere read. */
	struct ssdt_power_pcpu seen;	/* counts at the last fold */
	u64 fold_ns;			/* time of the last fold */
	u64 energy_nj;			/* energy until then, idle included */
	struct ssdt_estimate est;

	bool host_on;			/* the gate; READ_ONCE in queue_rq */
	spinlock_t lock;		/* everything below, and model writes */
	struct ssdt_energy_model model;
	struct ssdt_bucket bucket;
	u32 gen;			/* bumped when the bucket restarts */
	u64 events;
	u64 throttled_ns;
	u64 timer_at;			/* armed expiry, 0: not armed */
	bool refused;			/* a refusal since the timer fired */
	struct hrtimer timer;
};

static inline enum ssdt_op_class ssdt_rq_class(struct request *rq)
{
	switch (req_op(rq)) {
	case REQ_OP_READ:
		return SSDT_OPC_READ;
	case REQ_OP_WRITE:
		return SSDT_OPC_WRITE;
	default:
		return SSDT_OPC_OTHER;
	}
}

/* Count a submitted command for the estimate (every command, any limit). */
static inline void ssdt_power_account(struct ssdt_powerlimit *pl,
				      struct request *rq)
{
	enum ssdt_op_class c = ssdt_rq_class(rq);

	this_cpu_inc(pl->pcpu->cmds[c]);
	this_cpu_add(pl->pcpu->bytes[c], blk_rq_bytes(rq));
}

int ssdt_power_init(struct ssdt_ctrl *ctrl);
void ssdt_power_exit(struct ssdt_ctrl *ctrl);
void ssdt_power_stop(struct ssdt_ctrl *ctrl);
void ssdt_power_restore(struct ssdt_ctrl *ctrl);
blk_status_t ssdt_power_gate(struct ssdt_ctrl *ctrl, struct request *rq,
			     struct ssdt_power_rq *pw);
extern const struct attribute_group ssdt_power_group;

#endif
