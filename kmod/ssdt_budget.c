// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune's host-side power budget: energy model, moving-average estimate
 * and token bucket.  Pure: no hardware, no clock of its own (see
 * ssdt_budget.h for units and rules).
 */
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/time64.h>
#include "ssdt_budget.h"

/*
 * Defaults: assumptions shaped on the power-by-workload lines of public
 * datasheets for PCIe 3.0 x4 TLC data-centre drives (about 5 W idle, about
 * 10 W for 4 KiB random reads at ~600k IOPS or sequential reads at ~3 GB/s,
 * about 12 W for sequential writes at ~2 GB/s or steady-state 4 KiB random
 * writes at ~100k IOPS).  Not a measurement of any one drive: calibrate
 * through energy_model.  Derivation in Documentation/driver.md.
 */
const struct ssdt_energy_model ssdt_energy_default = {
	.idle_mw = 5000,
	.read_nj = 1500,
	.read_nj_per_kib = 1700,
	.write_nj = 55000,
	.write_nj_per_kib = 3600,
	.other_nj = 1500,
};

u64 ssdt_energy_cost(const struct ssdt_energy_model *m, enum ssdt_op_class c,
		     u32 bytes)
{
	switch (c) {
	case SSDT_OPC_READ:
		return m->read_nj + (((u64)bytes * m->read_nj_per_kib) >> 10);
	case SSDT_OPC_WRITE:
		return m->write_nj + (((u64)bytes * m->write_nj_per_kib) >> 10);
	default:
		return m->other_nj;
	}
}

u64 ssdt_energy_of(const struct ssdt_energy_model *m,
		   const u64 cmds[SSDT_OPC_NR], const u64 bytes[SSDT_OPC_NR])
{
	return cmds[SSDT_OPC_READ] * m->read_nj +
	       ((bytes[SSDT_OPC_READ] >> 10) * m->read_nj_per_kib) +
	       cmds[SSDT_OPC_WRITE] * m->write_nj +
	       ((bytes[SSDT_OPC_WRITE] >> 10) * m->write_nj_per_kib) +
	       cmds[SSDT_OPC_OTHER] * m->other_nj;
}

#define SSDT_EKEY(name, max) \
	{ #name, offsetof(struct ssdt_energy_model, name), max }

static const struct {
	const char *key;
	size_t off;
	u32 max;
} ssdt_energy_keys[] = {
	SSDT_EKEY(idle_mw, SSDT_ENERGY_MAX_MW),
	SSDT_EKEY(read_nj, SSDT_ENERGY_MAX_NJ),
	SSDT_EKEY(read_nj_per_kib, SSDT_ENERGY_MAX_NJ),
	SSDT_EKEY(write_nj, SSDT_ENERGY_MAX_NJ),
	SSDT_EKEY(write_nj_per_kib, SSDT_ENERGY_MAX_NJ),
	SSDT_EKEY(other_nj, SSDT_ENERGY_MAX_NJ),
};

static u32 *ssdt_energy_field(struct ssdt_energy_model *m, unsigned int k)
{
	return (u32 *)((char *)m + ssdt_energy_keys[k].off);
}

/* One "key=value" token of @len bytes at @tok onto *@m. */
static int ssdt_energy_token(struct ssdt_energy_model *m, const char *tok,
			     size_t len)
{
	char word[40];
	char *eq;
	unsigned int k;
	u32 v;

	if (len >= sizeof(word))
		return -EINVAL;
	memcpy(word, tok, len);
	word[len] = '\0';
	eq = strchr(word, '=');
	if (!eq)
		return -EINVAL;
	*eq = '\0';
	if (kstrtou32(eq + 1, 10, &v))
		return -EINVAL;
	for (k = 0; k < ARRAY_SIZE(ssdt_energy_keys); k++) {
		if (strcmp(word, ssdt_energy_keys[k].key))
			continue;
		if (v > ssdt_energy_keys[k].max)
			return -EINVAL;
		*ssdt_energy_field(m, k) = v;
		return 0;
	}
	return -EINVAL;
}

int ssdt_energy_parse(struct ssdt_energy_model *m, const char *buf)
{
	struct ssdt_energy_model next = *m;
	const char *p = buf;
	unsigned int n = 0;

	for (;;) {
		const char *tok;
		int ret;

		while (isspace(*p))
			p++;
		if (!*p)
			break;
		tok = p;
		while (*p && !isspace(*p))
			p++;
		ret = ssdt_energy_token(&next, tok, p - tok);
		if (ret)
			return ret;
		n++;
	}
	if (!n)
		return -EINVAL;
	*m = next;
	return 0;
}

int ssdt_energy_format(const struct ssdt_energy_model *m, char *buf,
		       size_t len)
{
	struct ssdt_energy_model c = *m;
	unsigned int k;
	int n = 0;

	for (k = 0; k < ARRAY_SIZE(ssdt_energy_keys); k++)
		n += scnprintf(buf + n, len - n, "%s%s=%u", k ? " " : "",
			       ssdt_energy_keys[k].key,
			       *ssdt_energy_field(&c, k));
	n += scnprintf(buf + n, len - n, "\n");
	return n;
}

void ssdt_est_init(struct ssdt_estimate *e, u64 now_ns)
{
	e->stamp_ns = now_ns;
	e->avg_q10 = 0;
}

/*
 * Weight (of 1024) the old average keeps after @dt_ns: 2^(-dt/half-life),
 * linear between whole half-lives.
 */
static u32 ssdt_est_keep(u64 dt_ns)
{
	u64 rem;
	u64 k = div64_u64_rem(dt_ns, SSDT_EST_HALF_LIFE_NS, &rem);
	u32 hi, lo;

	if (k >= 10)
		return 0;
	hi = 1024u >> k;
	lo = hi >> 1;
	return hi - (u32)div64_u64((u64)(hi - lo) * rem, SSDT_EST_HALF_LIFE_NS);
}

u64 ssdt_est_update(struct ssdt_estimate *e, u64 now_ns, u64 energy_nj)
{
	u64 dt = now_ns - e->stamp_ns, p;
	u32 keep;

	if ((s64)dt > 0) {
		/* nJ per ns is W: times 1000 for mW, 1024 for Q10 */
		p = mul_u64_u64_div_u64(energy_nj, 1000 * 1024, dt);
		keep = ssdt_est_keep(dt);
		e->avg_q10 = (e->avg_q10 * keep + p * (1024 - keep)) >> 10;
		e->stamp_ns = now_ns;
	}
	return ssdt_est_mw(e);
}

u64 ssdt_est_mw(const struct ssdt_estimate *e)
{
	return (e->avg_q10 + 512) >> 10;
}

void ssdt_bucket_init(struct ssdt_bucket *b, u32 rate_mw, u64 burst_nj,
		      u64 now_ns)
{
	b->rate_mw = max(rate_mw, 1u);
	b->burst_pj = burst_nj * 1000;
	b->level_pj = b->burst_pj;
	b->stamp_ns = now_ns;
}

s64 ssdt_bucket_refill(struct ssdt_bucket *b, u64 now_ns)
{
	u64 dt = now_ns - b->stamp_ns;
	u64 room;

	if ((s64)dt <= 0)
		return b->level_pj;
	b->stamp_ns = now_ns;
	room = b->burst_pj - b->level_pj;	/* level <= burst always */
	if (dt >= div64_u64(room, b->rate_mw) + 1)
		b->level_pj = b->burst_pj;
	else
		b->level_pj = min_t(s64, b->level_pj + dt * b->rate_mw,
				    b->burst_pj);
	return b->level_pj;
}

bool ssdt_bucket_take(struct ssdt_bucket *b, u64 now_ns, u64 cost_nj,
		      u64 *go_ns)
{
	s64 level = ssdt_bucket_refill(b, now_ns);

	b->level_pj -= cost_nj * 1000;
	if (level >= 0) {
		*go_ns = now_ns;
		return true;
	}
	/* the debt before this command is repaid at rate_mw pJ per ns */
	*go_ns = now_ns + div64_u64(-level + b->rate_mw - 1, b->rate_mw);
	return false;
}
