// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune power limiting: the power_limit_mw / power_limit_mode knobs,
 * the energy estimate and the host-side throttle.
 *
 * hw: Set Features 0x02 to the fastest operational power state whose max
 * power fits the limit.  host: every command is priced by the energy model
 * and passes a token bucket in queue_rq; one that may not go yet has paid
 * already and is handed back with BLK_STS_DEV_RESOURCE, and an hrtimer
 * re-runs the hardware queues at the time it may go (Documentation/
 * driver.md says why this and not a requeue list).
 */
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include "ssdt.h"
#include "ssdt_power.h"

static unsigned int ssdt_power_burst_us = 400;
module_param_named(power_burst_us, ssdt_power_burst_us, uint, 0644);
MODULE_PARM_DESC(power_burst_us,
		 "host power limit: burst the budget tolerates, in us at the limit (default 400)");

/* After a wake-up that found waiters, wake again this soon as a backstop. */
#define SSDT_POWER_BACKSTOP_NS	(2 * NSEC_PER_MSEC)

/*
 * Re-run every namespace's hardware queues (waiting requests retry).  A
 * rescan may remove a disk meanwhile: it waits for an RCU grace period
 * between clearing ns[].disk and putting the disk.
 */
static void ssdt_power_kick(struct ssdt_ctrl *ctrl)
{
	unsigned int i, n = min_t(unsigned int, READ_ONCE(ctrl->nr_ns),
				  SSDT_MAX_NS);

	rcu_read_lock();
	for (i = 0; i < n; i++) {
		struct gendisk *disk = READ_ONCE(ctrl->ns[i].disk);

		if (disk)
			blk_mq_run_hw_queues(disk->queue, true);
	}
	rcu_read_unlock();
}

static enum hrtimer_restart ssdt_power_timer_fn(struct hrtimer *t)
{
	struct ssdt_powerlimit *pl = container_of(t, struct ssdt_powerlimit,
						  timer);
	struct ssdt_ctrl *ctrl = container_of(pl, struct ssdt_ctrl, power);
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	unsigned long flags;
	bool again;

	spin_lock_irqsave(&pl->lock, flags);
	again = pl->refused && pl->host_on;
	pl->refused = false;
	pl->timer_at = 0;
	spin_unlock_irqrestore(&pl->lock, flags);

	ssdt_power_kick(ctrl);
	if (!again)
		return HRTIMER_NORESTART;
	/*
	 * A kick that races with a refused request being put back on the
	 * dispatch list finds nothing to run: look again a little later.
	 */
	spin_lock_irqsave(&pl->lock, flags);
	if (!pl->timer_at) {
		pl->timer_at = ktime_get_ns() + SSDT_POWER_BACKSTOP_NS;
		hrtimer_set_expires(t, ns_to_ktime(pl->timer_at));
		ret = HRTIMER_RESTART;
	}
	spin_unlock_irqrestore(&pl->lock, flags);
	return ret;
}

int ssdt_power_init(struct ssdt_ctrl *ctrl)
{
	struct ssdt_powerlimit *pl = &ctrl->power;

	pl->pcpu = alloc_percpu(struct ssdt_power_pcpu);
	if (!pl->pcpu)
		return -ENOMEM;
	mutex_init(&pl->mutex);
	spin_lock_init(&pl->lock);
	pl->mode = SSDT_POWER_AUTO;
	pl->active = SSDT_POWER_OFF;
	pl->model = ssdt_energy_default;
	pl->fold_ns = ktime_get_ns();
	ssdt_est_init(&pl->est, pl->fold_ns);
	hrtimer_init(&pl->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	pl->timer.function = ssdt_power_timer_fn;
	return 0;
}

void ssdt_power_exit(struct ssdt_ctrl *ctrl)
{
	hrtimer_cancel(&ctrl->power.timer);
	free_percpu(ctrl->power.pcpu);
	ctrl->power.pcpu = NULL;
}

/* Start the host throttle at @limit_mw with @m, or stop it (0). */
static void ssdt_power_host(struct ssdt_ctrl *ctrl, u32 limit_mw,
			    const struct ssdt_energy_model *m)
{
	struct ssdt_powerlimit *pl = &ctrl->power;
	unsigned long flags;

	spin_lock_irqsave(&pl->lock, flags);
	pl->model = *m;
	if (limit_mw)
		ssdt_bucket_init(&pl->bucket, limit_mw - m->idle_mw,
				 (u64)limit_mw * READ_ONCE(ssdt_power_burst_us),
				 ktime_get_ns());
	pl->gen++;		/* reservations on the old bucket are void */
	WRITE_ONCE(pl->host_on, limit_mw != 0);
	spin_unlock_irqrestore(&pl->lock, flags);
	ssdt_power_kick(ctrl);	/* waiting requests go or re-reserve now */
}

/* Disks are going away: lift the limit for good, let everything through. */
void ssdt_power_stop(struct ssdt_ctrl *ctrl)
{
	struct ssdt_powerlimit *pl = &ctrl->power;

	mutex_lock(&pl->mutex);
	pl->stopped = true;
	ssdt_power_host(ctrl, 0, &pl->model);
	mutex_unlock(&pl->mutex);
	hrtimer_cancel(&pl->timer);
}

blk_status_t ssdt_power_gate(struct ssdt_ctrl *ctrl, struct request *rq,
			     struct ssdt_power_rq *pw)
{
	struct ssdt_powerlimit *pl = &ctrl->power;
	u64 now = ktime_get_ns(), go = 0;
	unsigned long flags;
	bool held, ok;

	spin_lock_irqsave(&pl->lock, flags);
	held = pw->go_ns && pw->gen == pl->gen;
	if (!pl->host_on) {
		ok = true;
	} else if (held) {
		go = pw->go_ns;		/* paid already: wait for its turn */
		ok = now >= go;
	} else {
		u64 cost = ssdt_energy_cost(&pl->model, ssdt_rq_class(rq),
					    blk_rq_bytes(rq));

		ok = ssdt_bucket_take(&pl->bucket, now, cost, &go);
		if (!ok) {
			pw->since_ns = now;
			pw->gen = pl->gen;
			pw->go_ns = go;
			pl->events++;
		}
	}
	if (ok) {
		if (held)
			pl->throttled_ns += now - pw->since_ns;
		pw->go_ns = 0;
	} else {
		pl->refused = true;
		if (!pl->timer_at || go < pl->timer_at) {
			pl->timer_at = go;
			hrtimer_start(&pl->timer, ns_to_ktime(go),
				      HRTIMER_MODE_ABS);
		}
	}
	spin_unlock_irqrestore(&pl->lock, flags);
	return ok ? BLK_STS_OK : BLK_STS_DEV_RESOURCE;
}

/* Set Features 0x02 to @ps and read it back. */
static int ssdt_power_set_state(struct ssdt_ctrl *ctrl, int ps)
{
	u32 cur;
	int ret;

	WRITE_ONCE(ctrl->ps_stamp, 0);	/* power_state asks again */
	ret = ssdt_set_feature(ctrl, NVME_FEAT_POWER_MGMT, ps);
	if (ret)
		return ret;
	ret = ssdt_get_feature(ctrl, NVME_FEAT_POWER_MGMT, 0, 0, &cur);
	if (ret)
		return ret;
	if ((cur & 0x1f) != ps) {
		dev_warn(ssdt_dev(ctrl), "power state %u after setting %d\n",
			 cur & 0x1f, ps);
		return -EIO;
	}
	return 0;
}

/*
 * Apply @v->power (the limit in its mode with its model); under pl->mutex.
 * On error nothing changed (a failed return to full speed from hw leaves
 * hw active).
 */
static int ssdt_power_apply(struct ssdt_ctrl *ctrl, const union ssdt_knob_val *v)
{
	struct ssdt_powerlimit *pl = &ctrl->power;
	const struct ssdt_energy_model *m = &v->power.model;
	enum ssdt_power_mode mode = v->power.mode;
	u32 limit_mw = v->power.limit_mw;
	bool changeable = ctrl->power_cap == SSDT_CAP_CHANGEABLE;
	enum ssdt_power_mode eff = SSDT_POWER_OFF;
	int ps = -ERANGE, ret = 0;

	if (pl->stopped)
		return -ENODEV;
	if (limit_mw) {
		ps = ssdt_ps_select(ctrl->psd, ctrl->npss, limit_mw);
		eff = mode;
		if (mode == SSDT_POWER_AUTO)
			eff = changeable && ps >= 0 ? SSDT_POWER_HW :
						      SSDT_POWER_HOST;
	}
	if (eff == SSDT_POWER_HW && ps < 0)
		return -ERANGE;		/* no operational state fits */
	if (eff == SSDT_POWER_HW && !changeable)
		return -EOPNOTSUPP;	/* power_caps says why */
	if (eff == SSDT_POWER_HOST && limit_mw <= m->idle_mw)
		return -ERANGE;		/* idle power alone is over it */

	if (eff == SSDT_POWER_HW || pl->active == SSDT_POWER_HW) {
		if (READ_ONCE(ctrl->state) != SSDT_LIVE)
			return -EBUSY;
		if (eff != SSDT_POWER_HW)
			ps = ssdt_ps_select(ctrl->psd, ctrl->npss, U32_MAX);
		if (ps >= 0)
			ret = ssdt_power_set_state(ctrl, ps);
		if (ret)
			return ret;
	}
	ssdt_power_host(ctrl, eff == SSDT_POWER_HOST ? limit_mw : 0, m);
	pl->limit_mw = limit_mw;
	pl->mode = mode;
	pl->active = eff;
	return 0;
}

/* After a reset the device is back in its default power state. */
void ssdt_power_restore(struct ssdt_ctrl *ctrl)
{
	struct ssdt_powerlimit *pl = &ctrl->power;
	int ps;

	mutex_lock(&pl->mutex);
	if (pl->active == SSDT_POWER_HW) {
		ps = ssdt_ps_select(ctrl->psd, ctrl->npss, pl->limit_mw);
		if (ps < 0 || ssdt_power_set_state(ctrl, ps))
			dev_warn(ssdt_dev(ctrl), "could not restore the power state\n");
	}
	mutex_unlock(&pl->mutex);
}

/*
 * The energy of what was submitted since the last fold (priced by the
 * model in force) and of the idle power over the time since then, in nJ;
 * pl->mutex held.  Changes nothing: @sum gets the counts it priced, and
 * @dyn_nj the part above idle.
 */
static u64 ssdt_power_since_fold(struct ssdt_ctrl *ctrl, u64 now,
				 struct ssdt_power_pcpu *sum, u64 *dyn_nj)
{
	struct ssdt_powerlimit *pl = &ctrl->power;
	struct ssdt_power_pcpu d;
	unsigned int c;
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		struct ssdt_power_pcpu *p = per_cpu_ptr(pl->pcpu, cpu);

		for (c = 0; c < SSDT_OPC_NR; c++) {
			sum->cmds[c] += READ_ONCE(p->cmds[c]);
			sum->bytes[c] += READ_ONCE(p->bytes[c]);
		}
	}
	for (c = 0; c < SSDT_OPC_NR; c++) {
		d.cmds[c] = sum->cmds[c] - pl->seen.cmds[c];
		d.bytes[c] = sum->bytes[c] - pl->seen.bytes[c];
	}
	*dyn_nj = ssdt_energy_of(&pl->model, d.cmds, d.bytes);
	/* mW times ns is pJ */
	return *dyn_nj + mul_u64_u64_div_u64(pl->model.idle_mw,
					     now - pl->fold_ns, 1000);
}

/*
 * Fold what was submitted since the last fold into the energy total and
 * the moving average; pl->mutex held.  Runs before the model changes (what
 * was submitted until then is priced at the old one) and when
 * power_estimate_mw is read at least SSDT_EST_MIN_READ_NS after the last
 * fold: reads closer together get the value of that fold.
 */
static void ssdt_power_fold(struct ssdt_ctrl *ctrl)
{
	struct ssdt_powerlimit *pl = &ctrl->power;
	struct ssdt_power_pcpu sum;
	u64 now = ktime_get_ns(), dyn;

	pl->energy_nj += ssdt_power_since_fold(ctrl, now, &sum, &dyn);
	pl->seen = sum;
	pl->fold_ns = now;
	ssdt_est_update(&pl->est, now, dyn);
}

/* ---- sysfs knobs -------------------------------------------------------- */

static struct mutex *ssdt_power_lock(struct ssdt_ctrl *ctrl)
{
	return &ctrl->power.mutex;
}

/* The fields a knob of one field reads without pl->mutex. */
static void ssdt_power_peek(struct ssdt_ctrl *ctrl, union ssdt_knob_val *v)
{
	v->power.limit_mw = READ_ONCE(ctrl->power.limit_mw);
	v->power.mode = READ_ONCE(ctrl->power.mode);
}

/* All of them; pl->mutex held. */
static void ssdt_power_get(struct ssdt_ctrl *ctrl, union ssdt_knob_val *v)
{
	ssdt_power_peek(ctrl, v);
	v->power.model = ctrl->power.model;
}

static const struct ssdt_knob_group ssdt_power_knobs = {
	.lock = ssdt_power_lock,
	.get = ssdt_power_get,
	.peek = ssdt_power_peek,
};

/* A new model prices what was submitted until now at the old one. */
static int ssdt_power_apply_model(struct ssdt_ctrl *ctrl,
				  const union ssdt_knob_val *v)
{
	ssdt_power_fold(ctrl);
	return ssdt_power_apply(ctrl, v);
}

static ssize_t power_limit_mw_show(const union ssdt_knob_val *v, char *buf)
{
	return sysfs_emit(buf, "%u\n", v->power.limit_mw);
}

static ssize_t power_limit_mode_show(const union ssdt_knob_val *v, char *buf)
{
	return sysfs_emit(buf, "%s\n", ssdt_power_mode_names[v->power.mode]);
}

/* Six coefficients that go together, so read under pl->mutex. */
static ssize_t energy_model_show(const union ssdt_knob_val *v, char *buf)
{
	return ssdt_energy_format(&v->power.model, buf, PAGE_SIZE);
}

SSDT_KNOB(power_limit_mw, ssdt_power_knobs,
	  ssdt_power_parse_limit, ssdt_power_apply, false);
SSDT_KNOB(power_limit_mode, ssdt_power_knobs,
	  ssdt_power_parse_mode, ssdt_power_apply, false);
SSDT_KNOB(energy_model, ssdt_power_knobs,
	  ssdt_power_parse_model, ssdt_power_apply_model, true);

SSDT_CTRL_ATTR_RO(power_limit_active, "%s",
		  ssdt_power_mode_names[READ_ONCE(ctrl->power.active)]);

static ssize_t power_estimate_mw_show(struct device *dev,
				      struct device_attribute *attr, char *buf)
{
	struct ssdt_ctrl *ctrl = dev_get_drvdata(dev);
	u64 mw;

	mutex_lock(&ctrl->power.mutex);
	if (ktime_get_ns() - ctrl->power.fold_ns >= SSDT_EST_MIN_READ_NS)
		ssdt_power_fold(ctrl);
	mw = ctrl->power.model.idle_mw + ssdt_est_mw(&ctrl->power.est);
	mutex_unlock(&ctrl->power.mutex);
	return sysfs_emit(buf, "%llu\n", mw);
}
SSDT_ATTR_RO(power_estimate_mw);

/* The estimated energy so far, as RAPL's energy_uj: a read stores nothing. */
static ssize_t energy_uj_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct ssdt_ctrl *ctrl = dev_get_drvdata(dev);
	struct ssdt_power_pcpu sum;
	u64 nj, dyn;

	mutex_lock(&ctrl->power.mutex);
	nj = ctrl->power.energy_nj +
	     ssdt_power_since_fold(ctrl, ktime_get_ns(), &sum, &dyn);
	mutex_unlock(&ctrl->power.mutex);
	/* nJ to uJ */
	return sysfs_emit(buf, "%llu\n", div_u64(nj, 1000));
}

/*
 * Root only, as RAPL's energy_uj since the Platypus attack (CVE-2020-8694):
 * the energy of the commands is a side channel on what others run.
 */
SSDT_ATTR_ADMIN_RO(energy_uj);

/* A counter the throttle updates under power.lock (64 bits on 32-bit too). */
static u64 ssdt_power_counter(struct ssdt_ctrl *ctrl, const u64 *v)
{
	unsigned long flags;
	u64 ret;

	spin_lock_irqsave(&ctrl->power.lock, flags);
	ret = *v;
	spin_unlock_irqrestore(&ctrl->power.lock, flags);
	return ret;
}

SSDT_CTRL_ATTR_RO(throttle_events, "%llu",
		  ssdt_power_counter(ctrl, &ctrl->power.events));
SSDT_CTRL_ATTR_RO(throttled_us, "%llu",
		  div_u64(ssdt_power_counter(ctrl, &ctrl->power.throttled_ns),
			  NSEC_PER_USEC));

static struct attribute *ssdt_power_attrs[] = {
	&ssdt_knob_power_limit_mw.attr.attr,
	&ssdt_knob_power_limit_mode.attr.attr,
	&dev_attr_power_limit_active.attr,
	&dev_attr_power_estimate_mw.attr,
	&dev_attr_energy_uj.attr,
	&ssdt_knob_energy_model.attr.attr,
	&dev_attr_throttle_events.attr,
	&dev_attr_throttled_us.attr,
	NULL,
};

const struct attribute_group ssdt_power_group = {
	.attrs = ssdt_power_attrs,
};
