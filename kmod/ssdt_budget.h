/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdtune's host-side power budget: an energy model (idle power plus a cost
 * per command by kind and transferred bytes), a moving-average power
 * estimate and a token bucket.  Pure functions of their arguments and an
 * explicit clock (ns), so KUnit drives them with a fake one.
 *
 * Units: 1 mW for 1 us is 1 nJ; 1 mW for 1 ns is 1 pJ.
 */
#ifndef SSDT_BUDGET_H
#define SSDT_BUDGET_H

#include <linux/types.h>

enum ssdt_op_class {
	SSDT_OPC_READ,
	SSDT_OPC_WRITE,
	SSDT_OPC_OTHER,		/* flush, discard, write zeroes: no data moved */
	SSDT_OPC_NR,
};

struct ssdt_energy_model {
	u32 idle_mw;		/* drawn whether or not I/O runs */
	u32 read_nj;		/* per read command */
	u32 read_nj_per_kib;	/* per KiB read */
	u32 write_nj;
	u32 write_nj_per_kib;
	u32 other_nj;		/* per flush, discard or write zeroes */
};

#define SSDT_ENERGY_MAX_MW	1000000u	/* 1 kW: idle power bound */
#define SSDT_ENERGY_MAX_NJ	1000000000u	/* 1 J: per command or KiB */

extern const struct ssdt_energy_model ssdt_energy_default;

/* Energy (nJ) of one command of class @c moving @bytes. */
u64 ssdt_energy_cost(const struct ssdt_energy_model *m, enum ssdt_op_class c,
		     u32 bytes);
/* Energy (nJ) of @cmds commands moving @bytes bytes, per class. */
u64 ssdt_energy_of(const struct ssdt_energy_model *m,
		   const u64 cmds[SSDT_OPC_NR], const u64 bytes[SSDT_OPC_NR]);
/*
 * Parse "key=value ..." (whitespace separated, any subset of the keys that
 * ssdt_energy_format prints) onto *@m.  All or nothing: -EINVAL leaves *@m
 * untouched.
 */
int ssdt_energy_parse(struct ssdt_energy_model *m, const char *buf);
int ssdt_energy_format(const struct ssdt_energy_model *m, char *buf,
		       size_t len);

/*
 * Moving average of the dynamic power (above idle): an exponential average
 * in continuous time with half-life SSDT_EST_HALF_LIFE_NS, fed the energy
 * used since the previous update, however far apart updates are.
 */
#define SSDT_EST_HALF_LIFE_NS	(50 * NSEC_PER_MSEC)
/* power_estimate_mw: reads closer together than this share one value. */
#define SSDT_EST_MIN_READ_NS	(100 * NSEC_PER_MSEC)

struct ssdt_estimate {
	u64 stamp_ns;
	u64 avg_q10;		/* dynamic part only, mW << 10 */
};

void ssdt_est_init(struct ssdt_estimate *e, u64 now_ns);
/* Fold in @energy_nj used since the last update; returns avg_mw. */
u64 ssdt_est_update(struct ssdt_estimate *e, u64 now_ns, u64 energy_nj);
/* The average as of the last update, in mW. */
u64 ssdt_est_mw(const struct ssdt_estimate *e);

/*
 * Token bucket in picojoules.  It refills at @rate_mw, holds at most
 * @burst_nj, and may go into debt: a command goes when the level is not
 * negative and then pays its full cost, so one large command never waits
 * for a level the bucket cannot hold.  A command that may not go yet pays
 * at once and is given the time at which it may go: later commands queue
 * behind the debt it left, so waiting commands go in arrival order.
 */
struct ssdt_bucket {
	u64 rate_mw;
	s64 level_pj;
	s64 burst_pj;
	u64 stamp_ns;
};

void ssdt_bucket_init(struct ssdt_bucket *b, u32 rate_mw, u64 burst_nj,
		      u64 now_ns);
/* Level now (pJ), after refilling up to @now_ns. */
s64 ssdt_bucket_refill(struct ssdt_bucket *b, u64 now_ns);
/*
 * Charge @cost_nj at @now_ns.  True: go now.  False: paid, go at *@go_ns
 * (> @now_ns).
 */
bool ssdt_bucket_take(struct ssdt_bucket *b, u64 now_ns, u64 cost_nj,
		      u64 *go_ns);

#endif
