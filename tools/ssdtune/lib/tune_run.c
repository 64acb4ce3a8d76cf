// SPDX-License-Identifier: GPL-2.0
/* One apply, start to end, without the printing (tune_run.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/knobs.h"
#include "lib/ssdtdev.h"
#include "lib/state.h"
#include "lib/tune_run.h"

/* The knobs of @c for the ssdtune controller @ctrl: @a filled and
 * resolved (every file there), @dir its directory.  0 or -errno, @err. */
static int config_knobs(const struct config *c, const char *ctrl, char *dir,
			size_t len, struct knob_set *a, struct lib_err *err)
{
	int i;

	ssdtdev_path(dir, len, ctrl, NULL);
	for (i = 0; i < c->nknobs; i++) {
		a[i].k = c->knobs[i].k;
		a[i].value = c->knobs[i].value;
	}
	return knob_resolve(dir, a, c->nknobs, err);
}

/* --config: each configured controller on ssdtune has every knob file
 * (so a missing one changes nothing); the others are tuned without the
 * knobs.  0 or -errno with @err filled. */
static int config_check(const struct tune_run_in *in,
			const struct tune_run_hooks *h, struct lib_err *err)
{
	struct knob_set a[CONFIG_MAX_KNOBS];
	char dir[PATH_MAX];
	int i, r;

	for (i = 0; i < in->nids; i++) {
		const struct ctrl_id *id = &in->ids[i];

		if (!ctrl_on_ssdtune(id)) {
			if (h->not_ssdtune)
				h->not_ssdtune(h->ctx, id);
			continue;
		}
		if (!in->conf->nknobs)
			continue;
		r = config_knobs(in->conf, id->ctrl, dir, sizeof(dir), a, err);
		if (r)
			return r;
	}
	return 0;
}

/* Save the originals of the configured knobs of every configured ssdtune
 * controller in @s (before any of them is written). */
static int config_knobs_save(const struct tune_run_in *in, struct state *s,
			     struct lib_err *err)
{
	struct knob_set a[CONFIG_MAX_KNOBS];
	const struct config *c = in->conf;
	char dir[PATH_MAX];
	int i, r;

	for (i = 0; i < in->nids && c->nknobs; i++) {
		if (!ctrl_on_ssdtune(&in->ids[i]))
			continue;
		r = config_knobs(c, in->ids[i].ctrl, dir, sizeof(dir), a, err);
		if (!r)
			r = knob_save(s, dir, a, c->nknobs, err);
		if (r)
			return r;
	}
	return 0;
}

/*
 * Write the configured knobs on every configured ssdtune controller, a
 * knob transaction each (as 'ssdtune set' does): a controller whose
 * driver refuses one gets its files back.  What the driver kept goes to
 * @s (NULL: a dry run).  0 with run->knobs_* filled, or -errno with
 * run->err filled.
 */
static int config_knobs_write(const struct tune_run_in *in, struct state *s,
			      const struct tune_run_hooks *h,
			      struct tune_run *run)
{
	struct knob_txn *t = malloc(sizeof(*t));
	struct knob_set a[CONFIG_MAX_KNOBS];
	const struct config *c = in->conf;
	char dir[PATH_MAX];
	int i, r = 0;

	if (!t)
		return lib_enomem(&run->err);
	for (i = 0; i < in->nids && c->nknobs; i++) {
		if (!ctrl_on_ssdtune(&in->ids[i]))
			continue;
		r = config_knobs(c, in->ids[i].ctrl, dir, sizeof(dir), a, &run->err);
		if (!r)
			r = knob_txn_begin(t, dir, a, c->nknobs, &run->err);
		if (r)
			break;
		r = knob_txn_commit(t, s, NULL, NULL, &run->err);
		if (t->failed && !run->knobs_failed)
			snprintf(run->knobs_first, sizeof(run->knobs_first), "%s",
				 t->first);
		run->knobs_failed += t->failed;
		run->knobs_set += t->failed ? 0 : c->nknobs;
		if (r < 0)
			break;
		r = 0;
		if (!t->failed && s && h->knobs_set)
			h->knobs_set(h->ctx, in->ids[i].ctrl, c->nknobs);
	}
	free(t);
	return r;
}

static int stop(struct tune_run *run, enum tune_run_fail why)
{
	run->fail = why;
	return 1;
}

/* Plan @devs, lock (unless a dry run), plan again under the lock so what
 * another run changed meanwhile is seen; the devices are checked first,
 * so a bad one changes nothing (not even the state directory).  Load the
 * state (a dry run too: it shows the residue restores) and save the
 * originals, holding the lock (*@fd, -1 in a dry run) on success.  0,
 * or -errno with run->fail set. */
static int plan_and_save(const struct tune_run_in *in, char *const *devs,
			 int ndevs, struct state *s, int *fd,
			 struct tune_run *run)
{
	int r;

	*fd = -1;
	r = tune_plan(devs, ndevs, in->o, &run->t, &run->p, &run->err);
	if (!r && !in->dry_run) {
		plan_free(&run->p);
		topo_free(&run->t);
		*fd = state_lock(in->state_dir, &run->err);
		if (*fd < 0)
			r = *fd;
		else
			r = tune_plan(devs, ndevs, in->o, &run->t, &run->p, &run->err);
	}
	if (!r) {
		r = state_load(in->state_dir, s, &run->err);
		if (r == -ENOENT)
			r = 0;
	}
	if (!r && tune_foreign_partition(&run->p, s, &run->err)) {
		run->fail = TUNE_RUN_FOREIGN;
		r = -EEXIST;
	} else if (!r && !in->dry_run) {
		r = tune_save(in->state_dir, &run->p, s, &run->err);
	}
	if (r && !run->fail)
		run->fail = TUNE_RUN_ERR;
	return r;
}

/* The writes: the residue, the knobs' originals, the plan, the knobs,
 * and what the host kept recorded in @s. */
static int write_all(const struct tune_run_in *in,
		     const struct tune_run_hooks *h, struct state *s,
		     struct tune_run *run)
{
	struct state *keep = in->dry_run ? NULL : s;
	struct lib_err ignored;

	if (h->planned)
		h->planned(h->ctx, &run->p);
	tune_residue(&run->p, s, &run->residue);
	if (run->residue.failed)
		return stop(run, TUNE_RUN_RESIDUE);
	if (h->restored)
		h->restored(h->ctx, &run->p, run->residue.done);
	/* The configured knobs' originals, after the residue is back: what
	 * the host had before any profile; saved before any write. */
	if (in->conf && keep &&
	    (config_knobs_save(in, s, &run->err) ||
	     state_save(in->state_dir, s, &run->err)))
		return stop(run, TUNE_RUN_ERR);
	tune_apply(&run->p, keep, &run->w, keep ? h->written : NULL, h->ctx);
	run->wrote = true;
	if (run->w.failed)
		return stop(run, TUNE_RUN_WRITES);
	if (in->conf) {
		if (config_knobs_write(in, keep, h, run) < 0)
			return stop(run, TUNE_RUN_ERR);
		if (run->knobs_failed) {
			if (keep)
				tune_record(in->state_dir, s, &ignored);
			return stop(run, TUNE_RUN_KNOBS);
		}
	}
	if (keep && tune_record(in->state_dir, s, &run->err))
		return stop(run, TUNE_RUN_ERR);
	return 0;
}

int tune_run(const struct tune_run_in *in, const struct tune_run_hooks *h,
	     struct tune_run *run)
{
	char *names[CONFIG_MAX_CTRLS], *const *devs = in->devs;
	struct state s = { 0 };
	int i, fd, r, ndevs = in->ndevs;

	memset(run, 0, sizeof(*run));
	if (in->conf) {
		for (i = 0; i < in->nids && i < CONFIG_MAX_CTRLS; i++)
			names[i] = in->ids[i].bdf;
		if (config_check(in, h, &run->err))
			return stop(run, TUNE_RUN_ERR);
		devs = names;
		ndevs = i;
		/* Nothing selected, or not plugged in yet (ssdtune-attach@
		 * restarts the boot unit when it comes): nothing to change. */
		if (!ndevs) {
			run->none_present = true;
			return 0;
		}
	}
	if (plan_and_save(in, devs, ndevs, &s, &fd, run))
		r = 1;
	else
		r = write_all(in, h, &s, run);
	state_unlock(fd);
	state_free(&s);
	return r;
}

void tune_run_free(struct tune_run *run)
{
	plan_free(&run->p);
	topo_free(&run->t);
}
