// SPDX-License-Identifier: GPL-2.0
/*
 * Plan, apply, verify, revert without the printing (tune.h): topology in,
 * plan out, originals saved before the first write, every write through
 * sys_write(), saved values found again by their stable identity.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cgroup.h"
#include "lib/cpuset.h"
#include "lib/devname.h"
#include "lib/dropin.h"
#include "lib/irqvec.h"
#include "lib/knobs.h"
#include "lib/parse.h"
#include "lib/ssdtdev.h"
#include "lib/sysfs.h"
#include "lib/tune.h"

/* The storage functions named @names (any name of a controller,
 * devname.h), as indexes into t->pcis. */
static int select_devices(const struct topo *t, char *const *names, int n,
			  int *sel, struct lib_err *err)
{
	int i, j, r;

	for (i = 0; i < n; i++) {
		char name[BDF_BUFSZ] = "";

		r = devname_bdf(names[i], name, sizeof(name), err);
		if (r == -EINVAL || r == -ENOTUNIQ)
			return r;
		for (j = 0; j < t->npcis; j++)
			if (!strcmp(t->pcis[j].bdf, name))
				break;
		if (j == t->npcis)
			return lib_errf(err, ENODEV, "unknown device '%s': no storage PCI function or ssdtune controller by that name (see 'ssdtune topology')",
					names[i]);
		sel[i] = j;
	}
	return 0;
}

int tune_plan(char *const *names, int nnames, const struct plan_opts *o,
	      struct topo *t, struct plan *p, struct lib_err *err)
{
	int *sel, r;

	memset(p, 0, sizeof(*p));
	r = topo_gather(t, err);
	if (r)
		return r;
	sel = calloc((size_t)nnames + 1, sizeof(*sel));
	if (!sel)
		return lib_enomem(err);
	r = select_devices(t, names, nnames, sel, err);
	if (!r) {
		r = plan_build(t, o, sel, nnames, p);
		if (r == -ENODEV)
			r = lib_errf(err, ENODEV, "no NVMe device to tune (see 'ssdtune topology')");
		else if (r)
			r = lib_enomem(err);
	}
	free(sel);
	return r;
}

int tune_applied_io_cpus(const char *dir, const char *bdf, char *cpus,
			 size_t len, char *prof, size_t plen,
			 struct lib_err *err)
{
	struct state s = { 0 };
	struct plan_opts o = { 0 };
	struct plan p = { 0 };
	struct topo t;
	int r, pr, sel;

	r = state_load(dir, &s, err);
	if (r)
		return r;
	snprintf(prof, plen, "%s", s.profile);
	o.isolate = s.isolate;
	o.io_cores = s.io_cores;
	state_free(&s);
	pr = plan_profile_parse(prof);
	if (pr < 0)
		return -ENOENT;	/* "set": knobs changed by hand, no plan */
	r = topo_gather(&t, err);
	if (!r) {
		for (sel = 0; sel < t.npcis; sel++)
			if (!strcmp(t.pcis[sel].bdf, bdf))
				break;
		if (sel == t.npcis)
			r = lib_errf(err, ENODEV, "%s is not in the PCI topology: cannot place I/O as the applied profile plans",
				     bdf);
	}
	if (!r) {
		o.profile = pr;
		r = plan_build(&t, &o, &sel, 1, &p);
		if (r)
			r = lib_errf(err, -r, "cannot plan the applied profile %s for %s",
				     prof, bdf);
		else
			snprintf(cpus, len, "%s", p.devs[0].io_cpus);
	}
	plan_free(&p);
	topo_free(&t);
	return r;
}

/* Where interrupt vector @entry of @bdf is now: /proc/irq/N/@file. */
static int vector_path(const char *bdf, int entry, const char *file,
		       char *buf, size_t len)
{
	int irq = irqvec_irq(bdf, entry);

	if (irq < 0)
		return irq;
	snprintf(buf, len, "/proc/irq/%d/%s", irq, file);
	return 0;
}

/* The live path of a saved entry (an IRQ number may have changed, an
 * ssdtune controller may have another index). */
static int entry_path(const struct state_entry *e, char *buf, size_t len)
{
	const char *file = strrchr(e->path, '/');
	char dir[PATH_MAX];

	if (e->vector >= 0)
		return vector_path(e->bdf, e->vector, "smp_affinity_list", buf, len);
	if (e->serial && e->model) {
		if (ssdtdev_find(e->serial, e->model, e->bdf, dir, sizeof(dir)))
			return -ENOENT;
		snprintf(buf, len, "%s%s", dir, file ? file : "");
		return 0;
	}
	snprintf(buf, len, "%s", e->path);
	return 0;
}

/* A value as it can be written back: a queue/scheduler file lists every
 * scheduler with the active one in brackets; only its name is written. */
static void as_written(const char *path, char *v, size_t len)
{
	size_t n = strlen(path), sl = strlen("/queue/scheduler");
	char name[64];

	if (n > sl && !strcmp(path + n - sl, "/queue/scheduler") && strchr(v, '[')) {
		sched_active(v, name, sizeof(name));
		snprintf(v, len, "%s\n", name);
	}
}

/*
 * A value as saved and compared: the file's bytes (as_written()), a
 * controller's "+NAME"/"-NAME", a partition's "" or "cpus=... partition=..."
 * (lib/cgroup.h).  0 or -errno.
 */
static int read_value(int type, const char *path, const char *val, char *buf,
		      size_t len)
{
	int r;

	if (type == TYPE_CONTROLLER)
		return cgroup_controller_read(path, val, buf, len);
	if (type == TYPE_PARTITION)
		return cgroup_partition_read(path, buf, len);
	if (type == TYPE_DROPIN)
		return dropin_read(path, buf, len);
	r = state_read_raw(path, buf, len);
	if (!r)
		as_written(path, buf, len);
	return r;
}

/* Write a value read_value() gave; @why gets the kernel's reason when a
 * partition is refused. */
static int write_value(int type, const char *path, const char *val, bool force,
		       char *why, size_t wlen)
{
	if (type == TYPE_PARTITION)
		return cgroup_partition_write(path, val, force, why, wlen);
	if (type == TYPE_DROPIN)
		return dropin_write(path, val);
	return sys_write(path, val);
}

static void strip(char *s)
{
	size_t n = strlen(s);

	while (n && s[n - 1] == '\n')
		s[--n] = '\0';
}

static bool same_value(const char *a, const char *b)
{
	char x[8192], y[8192];

	snprintf(x, sizeof(x), "%s", a);
	snprintf(y, sizeof(y), "%s", b);
	strip(x);
	strip(y);
	return !strcmp(x, y);
}

int tune_save(const char *dir, const struct plan *p, struct state *s,
	      struct lib_err *err)
{
	char raw[8192];
	int i, r;

	snprintf(s->profile, sizeof(s->profile), "%s", plan_profile_name(p->profile));
	s->isolate = p->isolate;
	s->io_cores = p->io_cores;
	for (i = 0; i < p->nitems; i++) {
		const struct plan_item *it = &p->items[i];
		struct state_entry *e;

		if (it->kind != PLAN_SET && it->kind != PLAN_KEEP)
			continue;
		e = state_find(s, it->key);
		if (e) {
			if (state_set(&e->val, it->val) || state_set(&e->path, it->path))
				return lib_enomem(err);
			continue;
		}
		r = read_value(it->type, it->path, it->val, raw, sizeof(raw));
		if (r)
			return lib_errf(err, -r, "cannot read %s: %s", it->path,
					strerror(-r));
		if (state_add(s, it->key, it->path, raw, it->val, it->bdf, it->vector) ||
		    state_identity(&s->e[s->n - 1], it->serial, it->model))
			return lib_enomem(err);
		s->e[s->n - 1].type = it->type;
	}
	return state_save(dir, s, err);
}

/*
 * Restoring newest first: a cpuset partition that could not be removed
 * (tasks in it) keeps the cpuset controller on, since turning it off would
 * dissolve the partition under its tasks.  Both wait for the next revert:
 * counted as failed.
 */
static bool waits_for_partition(const struct state_entry *e, bool kept,
				struct tune_writes *w)
{
	if (e->type != TYPE_CONTROLLER || !kept)
		return false;
	w->failed++;
	return true;
}

bool tune_foreign_partition(const struct plan *p, const struct state *s,
			    struct lib_err *err)
{
	int i, j;

	for (i = 0; i < p->nitems; i++) {
		const struct plan_item *it = &p->items[i];
		bool ours = false;

		if (it->type != TYPE_PARTITION || !it->old[0] ||
		    (it->kind != PLAN_SET && it->kind != PLAN_KEEP))
			continue;
		for (j = 0; j < s->n; j++)
			ours |= !strcmp(s->e[j].key, it->key) && !s->e[j].old[0];
		if (!ours) {
			lib_errf(err, EEXIST, "%s exists and ssdtune did not create it: choose another --partition",
				 it->path);
			return true;
		}
	}
	return false;
}

/* One failed write, once: what the kernel said, and what it means. */
static void write_failed(struct tune_writes *w, int type, const char *path,
			 int err, const char *why)
{
	if (w->failed++)
		return;
	if (type == TYPE_PARTITION && err == -EBUSY)
		snprintf(w->first, sizeof(w->first), "%s: tasks still run in it (started with 'ssdtune run'): stop them, or 'revert --force' moves them to the root cgroup",
			 path);
	else if (type == TYPE_PARTITION && why && why[0])
		snprintf(w->first, sizeof(w->first), "%s: the kernel made the partition invalid: %s",
			 path, why);
	else if (!strncmp(path, "/proc/irq/", 10) && (err == -EIO || err == -EPERM))
		snprintf(w->first, sizeof(w->first), "%s: %s: the kernel refused the affinity, the vector is kernel-managed (EIO before 6.12, EPERM from 6.12); 'ssdtune attach' the controller to steer it",
			 path, strerror(-err));
	else
		snprintf(w->first, sizeof(w->first), "%s: %s", path, strerror(-err));
}

static bool planned(const struct plan *p, const char *key)
{
	int i;

	for (i = 0; i < p->nitems; i++)
		if ((p->items[i].kind == PLAN_SET || p->items[i].kind == PLAN_KEEP) &&
		    !strcmp(p->items[i].key, key))
			return true;
	return false;
}

enum { PUT_HOLDS, PUT_WRITTEN, PUT_WAITS };

/*
 * Write @e's saved value back to @path unless it is there already (a
 * partition's member CPUs wait for the partition: PUT_WAITS).  PUT_HOLDS
 * or PUT_WRITTEN, or -errno with the failure counted in @w; a partition
 * that fails is kept in *@kept_partition.
 */
static int put_back(const struct state_entry *e, const char *path, bool force,
		    bool *kept_partition, struct tune_writes *w)
{
	char now[8192], why[128];
	int r = read_value(e->type, path, e->val, now, sizeof(now));

	if (!r && same_value(now, e->old))
		return PUT_HOLDS;
	if (waits_for_partition(e, *kept_partition, w))
		return PUT_WAITS;
	r = write_value(e->type, path, e->old, force, why, sizeof(why));
	if (r) {
		write_failed(w, e->type, path, r, why);
		*kept_partition |= e->type == TYPE_PARTITION;
		return r;
	}
	w->done++;
	return PUT_WRITTEN;
}

void tune_residue(const struct plan *p, struct state *s, struct tune_writes *w)
{
	char path[PATH_MAX];
	bool kept_partition = false;
	int i, r;

	memset(w, 0, sizeof(*w));
	for (i = s->n - 1; i >= 0; i--) {
		const struct state_entry *e = &s->e[i];

		if (e->by_set || planned(p, e->key))
			continue;
		if (!entry_path(e, path, sizeof(path))) {
			r = put_back(e, path, false, &kept_partition, w);
			if (r < 0 || r == PUT_WAITS)
				continue;	/* kept: revert retries */
		}
		if (!sys_dry_run())
			state_drop(s, i);
	}
}

/* A host IRQ the kernel would not move: drop it from @s (nothing was
 * changed, so nothing is to verify or restore). */
static void refused(struct state *s, const struct plan_item *it,
		    struct tune_writes *w)
{
	int i;

	w->refused++;
	for (i = 0; s && i < s->n; i++)
		if (!strcmp(s->e[i].key, it->key)) {
			state_drop(s, i);
			break;
		}
}

/*
 * The value of vector item @it that follows its queue, from the queue's
 * CPUs now (an earlier write may have mapped the queues anew), into the
 * item and its state entry.  0, 1 if the vector is there already (no
 * write: revert restores only what was changed), or -errno (the item
 * keeps its value).
 */
static int follow_queue(struct plan_item *it, struct state *s)
{
	char cpus[TOPO_LIST], want[TOPO_LIST], now[TOPO_LIST];
	struct state_entry *e;
	char *v;
	int r;

	r = state_read_raw(it->follow, cpus, sizeof(cpus));
	if (!r)
		r = plan_follow_target(cpus, it->within, want, sizeof(want));
	if (r)
		return r;
	v = strdup(want);
	if (!v)
		return -ENOMEM;
	free(it->val);
	it->val = v;
	e = s ? state_find(s, it->key) : NULL;
	if (e && state_set(&e->val, want))
		return -ENOMEM;
	return !state_read_raw(it->path, now, sizeof(now)) && same_value(now, want);
}

void tune_apply(struct plan *p, struct state *s, struct tune_writes *w,
		void (*written)(void *ctx, int done), void *ctx)
{
	char why[128];
	int i, r;

	memset(w, 0, sizeof(*w));
	for (i = 0; i < p->nitems; i++) {
		struct plan_item *it = &p->items[i];

		/* a vector that follows its queue may have to move after all */
		if (it->kind != PLAN_SET && !(it->kind == PLAN_KEEP && it->follow))
			continue;
		if (it->follow && (r = follow_queue(it, s))) {
			if (r < 0)
				write_failed(w, it->type, it->follow, r,
					     "cannot read the queue's CPUs");
			continue;
		}
		r = write_value(it->type, it->path, it->val, false, why, sizeof(why));
		if (r && it->may_refuse && (r == -EIO || r == -EPERM || r == -EINVAL)) {
			refused(s, it, w);
			continue;
		}
		if (r) {
			write_failed(w, it->type, it->path, r, why);
			continue;
		}
		w->done++;
		if (written)
			written(ctx, w->done);
	}
}

int tune_record(const char *dir, struct state *s, struct lib_err *err)
{
	int i, irq;

	for (i = 0; i < s->n; i++) {
		struct state_entry *e = &s->e[i];

		if (e->vector < 0)
			continue;
		irq = irqvec_irq(e->bdf, e->vector);
		e->interrupts = irq < 0 ? -1 : irqvec_count(irq);
	}
	return state_save(dir, s, err);
}

int tune_summary(const char *dir, struct tune_summary *out,
		 struct lib_err *err)
{
	struct tune_check *c;
	struct state s;
	char now[40];
	int r, i;

	memset(out, 0, sizeof(*out));
	r = tune_load(dir, &s, err);
	if (r == -ENOENT)
		return 0;
	if (r)
		return r;
	c = malloc(sizeof(*c));	/* 12 KiB: not on the stack */
	if (!c) {
		state_free(&s);
		return lib_enomem(err);
	}
	out->applied = true;
	snprintf(out->profile, sizeof(out->profile), "%s", s.profile);
	out->isolate = s.isolate;
	out->stale = tune_stale(&s, now, sizeof(now));
	out->settings = s.n;
	for (i = 0; i < s.n; i++) {
		tune_check(&s.e[i], c);
		out->drifted += !c->ok;
		out->pending += c->pending;
	}
	free(c);
	state_free(&s);
	return 0;
}

bool tune_stale(const struct state *s, char *now, size_t len)
{
	return s->boot_id[0] && !state_boot_id(now, len) &&
	       strcmp(s->boot_id, now);
}

int tune_load(const char *dir, struct state *s, struct lib_err *err)
{
	int r = state_load(dir, s, err);

	if (r == -ENOENT)
		return lib_errf(err, ENOENT, "nothing applied: no %s/%s", dir,
				STATE_FILE);
	return r;
}

/* Does interrupt vector entry @e hold?  Its affinity was read into @now
 * (the live mask); the mask the kernel really uses must lie inside what
 * was asked, or the vector must not have fired since apply (x86 moves a
 * vector at its next interrupt: the move is pending). */
static bool vector_holds(const struct state_entry *e, const char *now,
			 bool *pending, char *why, size_t wlen)
{
	char eff[TOPO_LIST], ep[PATH_MAX];
	struct cpuset want, got;
	int irq;
	bool ok;

	if (!cpulist_same(now, e->val, 8192)) {
		snprintf(why, wlen, "applied %s, now %s", e->val, now);
		return false;
	}
	if (vector_path(e->bdf, e->vector, "effective_affinity_list", ep, sizeof(ep)) ||
	    state_read_raw(ep, eff, sizeof(eff))) {
		snprintf(why, wlen, "cannot read its effective_affinity_list");
		return false;
	}
	strip(eff);
	if (cpuset_init(&want, 8192))
		return false;
	if (cpuset_init(&got, 8192)) {
		cpuset_free(&want);
		return false;
	}
	ok = !cpuset_add_list(&want, e->val) && !cpuset_add_list(&got, eff) &&
	     cpuset_count(&got) && cpuset_subset(&got, &want);
	cpuset_free(&want);
	cpuset_free(&got);
	if (ok)
		return true;
	irq = irqvec_irq(e->bdf, e->vector);
	if (e->interrupts >= 0 && irq >= 0 && irqvec_count(irq) == e->interrupts) {
		*pending = true;
		snprintf(why, wlen, "effective affinity %s moves into %s at the vector's next interrupt (none since apply)",
			 eff, e->val);
		return true;
	}
	snprintf(why, wlen, "effective affinity %s is outside the applied %s (x86 moves a vector at its next interrupt)",
		 eff, e->val);
	return false;
}

void tune_check(const struct state_entry *e, struct tune_check *c)
{
	int r;

	c->now[0] = '\0';
	c->why[0] = '\0';
	c->pending = false;
	if (entry_path(e, c->path, sizeof(c->path))) {
		snprintf(c->path, sizeof(c->path), "%s", e->key);
		snprintf(c->why, sizeof(c->why), "gone (device or vector not found)");
		c->ok = false;
		return;
	}
	r = read_value(e->type, c->path, e->val, c->now, sizeof(c->now));
	strip(c->now);
	if (r) {
		snprintf(c->why, sizeof(c->why), "cannot read: %s", strerror(-r));
		c->ok = false;
	} else if (e->type == TYPE_DROPIN) {
		snprintf(c->why, sizeof(c->why), "%s since apply",
			 c->now[0] ? "changed" : "removed");
		c->ok = same_value(c->now, e->val);
		c->pending = c->ok && dropin_pending(e->val, c->why, sizeof(c->why));
	} else if (e->vector < 0) {
		snprintf(c->why, sizeof(c->why), "applied %s, now %s", e->val,
			 c->now[0] ? c->now : "nothing");
		c->ok = same_value(c->now, e->val);
	} else {
		c->ok = vector_holds(e, c->now, &c->pending, c->why, sizeof(c->why));
	}
}

void tune_restore(const struct state *s, bool force, struct tune_writes *w,
		  void (*skipped)(void *ctx, const char *key), void *ctx)
{
	char path[PATH_MAX];
	bool kept_partition = false;
	int i;

	memset(w, 0, sizeof(*w));
	for (i = s->n - 1; i >= 0; i--) {
		const struct state_entry *e = &s->e[i];

		if (entry_path(e, path, sizeof(path))) {
			if (force) {
				w->skipped++;
				if (skipped)
					skipped(ctx, e->key);
			} else if (!w->failed++) {
				snprintf(w->first, sizeof(w->first),
					 "%s: gone (device or vector not found)", e->key);
			}
			continue;
		}
		put_back(e, path, force, &kept_partition, w);
	}
}
