// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune apply: save every value the plan touches, then write the plan;
 * with --config, for the configured controllers, and their knobs too.
 */
#include <errno.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/output.h"
#include "cmd/tuning.h"
#include "lib/knobs.h"
#include "lib/ssdtdev.h"
#include "lib/sysfs.h"
#include "lib/tune.h"

/* Test hook: SSDTUNE_TEST_ABORT_AFTER=N kills the process (SIGKILL)
 * after N writes, to prove a crash mid-apply can be reverted.  Test-only. */
static void maybe_abort(int done)
{
	const char *s = getenv("SSDTUNE_TEST_ABORT_AFTER");

	if (s && *s && done >= atoi(s))
		kill(getpid(), SIGKILL);
}

static void written(void *ctx, int done)
{
	(void)ctx;
	maybe_abort(done);
}

/* The knobs of --config for the ssdtune controller @ctrl: @a filled and
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

/*
 * --config: the configured controllers present, by PCI address, into
 * @names (what the plan is for), each one's knob files checked so a
 * missing one changes nothing.  0 or an exit status (reported).
 */
static int config_devices(const struct config *c, struct ctrl_id **ids, int *n,
			  char **names)
{
	struct knob_set a[CONFIG_MAX_KNOBS];
	char dir[PATH_MAX];
	struct lib_err err;
	int i, r;

	r = tuning_config_ctrls(c, ids, n);
	if (r)
		return r;
	for (i = 0; i < *n; i++) {
		const struct ctrl_id *id = &(*ids)[i];

		names[i] = (*ids)[i].bdf;
		if (!ctrl_on_ssdtune(id)) {
			if (!out_json())
				printf("note: %s (%s) is on %s, not ssdtune: tuning what is there%s\n",
				       id->bdf, id->ctrl[0] ? id->ctrl : "no controller",
				       id->driver[0] ? id->driver : "no driver",
				       c->nknobs ? ", without the knobs; 'ssdtune attach --config' hands it over" : "");
			continue;
		}
		if (c->nknobs && config_knobs(c, id->ctrl, dir, sizeof(dir), a, &err))
			return out_fail_err(&err);
	}
	return 0;
}

/* Save the originals of the configured knobs of every configured ssdtune
 * controller in @s (before any of them is written). */
static int config_knobs_save(const struct config *c, const struct ctrl_id *ids,
			     int n, struct state *s, struct lib_err *err)
{
	struct knob_set a[CONFIG_MAX_KNOBS];
	char dir[PATH_MAX];
	int i, r;

	for (i = 0; i < n && c->nknobs; i++) {
		if (!ctrl_on_ssdtune(&ids[i]))
			continue;
		r = config_knobs(c, ids[i].ctrl, dir, sizeof(dir), a, err);
		if (!r)
			r = knob_save(s, dir, a, c->nknobs, err);
		if (r)
			return r;
	}
	return 0;
}

/*
 * Write the configured knobs on every configured ssdtune controller as
 * 'ssdtune set' does: a controller whose driver refuses one gets its
 * files back as they were.  Then what the driver kept is recorded in @s
 * (unless @s is NULL: a dry run).  Returns how many writes failed, the
 * first in @first; -errno with @err filled if recording failed.
 */
static int config_knobs_write(const struct config *c, const struct ctrl_id *ids,
			      int n, struct state *s, int *done, char *first,
			      size_t len, struct lib_err *err)
{
	static struct knob_before b[KNOB_MAX];
	struct knob_set a[CONFIG_MAX_KNOBS];
	char dir[PATH_MAX], one[PATH_MAX + 128];
	int i, nb, failed = 0, f;

	*done = 0;
	for (i = 0; i < n && c->nknobs; i++) {
		if (!ctrl_on_ssdtune(&ids[i]))
			continue;
		if (config_knobs(c, ids[i].ctrl, dir, sizeof(dir), a, err) ||
		    knob_snapshot(dir, a, c->nknobs, b, &nb, err))
			return -1;
		one[0] = '\0';
		f = knob_write(a, c->nknobs, one, sizeof(one), NULL, NULL);
		if (f && s)
			knob_roll_back(b, nb);
		if (f && !failed)
			snprintf(first, len, "%s", one);
		failed += f;
		*done += f ? 0 : c->nknobs;
		if (s && knob_record(s, dir, err))
			return -1;
		if (!f && !s)
			continue;
		if (!f && !out_json())
			printf("%s: %d knobs set from %s\n", ids[i].ctrl, c->nknobs, c->file);
	}
	return failed;
}

static int cmd_apply(const struct command *cmd, struct cli *cli)
{
	const char *dir = tuning_state_dir();
	char *names[CONFIG_MAX_CTRLS], **devs = cli->argv;
	char kfirst[PATH_MAX + 128] = "";
	int r, fd = -1, set, keep, skip, ndevs = cli->argc, kdone = 0;
	const struct config *conf;
	struct ctrl_id *ids = NULL;
	struct tune_writes w;
	struct state s = { 0 };
	struct lib_err err;
	struct topo t = { 0 };
	struct plan p = { 0 };
	const struct plan_opts *o = tuning_opts(cmd, &r);

	if (r)
		return r;
	tuning_config(cmd, &conf);
	if (conf && cli->argc)
		return usage_error(cmd, "DEVICE cannot go with --config: %s names the controllers",
				   conf->file);
	if (conf) {
		r = config_devices(conf, &ids, &ndevs, names);
		if (r)
			goto out;
		devs = names;
		/* Nothing selected, or not plugged in yet (ssdtune-attach@
		 * restarts the boot unit when it comes): nothing to change. */
		if (!ndevs) {
			report_set_str("status", "none_present");
			if (!out_json())
				printf("no controller %s selects is present: nothing to do\n",
				       conf->file);
			r = out_done();
			goto out;
		}
	}
	/*
	 * Plan under the lock, so what another run changed meanwhile is seen;
	 * but check the devices named first, so a bad one changes nothing
	 * (not even the state directory).
	 */
	r = tune_plan(devs, ndevs, o, &t, &p, &err);
	if (!r && !cli->dry_run) {
		plan_free(&p);
		topo_free(&t);
		fd = state_lock(dir, &err);
		if (fd < 0) {
			r = out_fail_err(&err);
			goto out;
		}
		r = tune_plan(devs, ndevs, o, &t, &p, &err);
	}
	if (r) {
		r = out_fail_err(&err);
		goto out;
	}
	/* A dry run reads the state too: it shows the residue restores. */
	r = state_load(dir, &s, &err);
	if (r == -ENOENT)
		r = 0;
	if (!r && tune_foreign_partition(&p, &s, &err)) {
		r = out_fail(EXIT_USAGE, "%s", err.msg);
		goto out;
	}
	if (!r && !cli->dry_run)
		r = tune_save(dir, &p, &s, &err);
	if (r) {
		r = out_fail_err(&err);
		goto out;
	}
	tuning_show_plan(&p);
	tune_residue(&p, &s, &w);
	if (w.failed) {
		r = out_fail(EXIT_REFUSED, "%d values the profile before set, and %s does not, could not be restored; first: %s",
			     w.failed, plan_profile_name(p.profile), w.first);
		goto out;
	}
	json_object_object_add(report_obj(), "residue_restored", json_object_new_int(w.done));
	if (w.done && !out_json())
		printf("%s %d values the profile before set and %s does not\n",
		       cli->dry_run ? "would restore" : "restored", w.done,
		       plan_profile_name(p.profile));
	/* The configured knobs' originals, after the residue is back: what
	 * the host had before any profile; saved before any write. */
	if (conf && !cli->dry_run &&
	    (config_knobs_save(conf, ids, ndevs, &s, &err) || state_save(dir, &s, &err))) {
		r = out_fail_err(&err);
		goto out;
	}
	tune_apply(&p, cli->dry_run ? NULL : &s, &w, cli->dry_run ? NULL : written, NULL);
	tuning_count(&p, &set, &keep, &skip);
	json_object_object_add(report_obj(), "state_dir", cli->dry_run ? NULL :
			       json_object_new_string(dir));
	if (w.failed) {
		r = out_fail(EXIT_REFUSED, "%d of %d writes failed; first: %s", w.failed,
			     set, w.first);
		goto out;
	}
	if (conf) {
		r = config_knobs_write(conf, ids, ndevs, cli->dry_run ? NULL : &s, &kdone,
				       kfirst, sizeof(kfirst), &err);
		json_object_object_add(report_obj(), "knobs_set", json_object_new_int(kdone));
		if (r < 0) {
			r = out_fail_err(&err);
			goto out;
		}
		if (r) {
			if (!cli->dry_run)
				tune_record(dir, &s, &err);
			r = out_fail(EXIT_REFUSED, "the driver refused %d configured knob writes, so that controller's are not kept; first: %s",
				     r, kfirst);
			goto out;
		}
	}
	if (!cli->dry_run && tune_record(dir, &s, &err)) {
		r = out_fail_err(&err);
		goto out;
	}
	json_object_object_add(report_obj(), "refused_irqs", json_object_new_int(w.refused));
	if (w.refused && !out_json())
		printf("%d host interrupts the kernel would not move (kernel-managed): left alone\n",
		       w.refused);
	if (!out_json())
		printf("%s %d, %d already set, %d skipped%s%s\n",
		       cli->dry_run ? "would change" : "changed", w.done, keep, skip,
		       cli->dry_run ? "" : "; saved originals in ", cli->dry_run ? "" : dir);
	r = out_done();
out:
	state_unlock(fd);
	state_free(&s);
	plan_free(&p);
	topo_free(&t);
	free(ids);
	return r;
}

const struct command apply_command = {
	.name = "apply",
	.args = "[DEVICE...]",
	.summary = "apply the plan, saving every value it touches first",
	.help =
"Compute the plan as 'ssdtune plan' does and write it.  Before the first\n"
"write, every value it touches is saved (atomically) in DIR/state.json,\n"
"interrupt vectors by PCI address and vector index; values saved by an\n"
"earlier apply are kept, so apply is idempotent and revert restores the\n"
"originals.  DIR/lock keeps two runs from interleaving.\n"
"  --profile P       latency, iops, throughput or balanced\n"
"  --isolate         also isolate the I/O cores at run time (see\n"
"                    'ssdtune plan --help'); 'ssdtune run' starts a\n"
"                    workload on them\n"
"  --partition NAME  the cpuset partition's cgroup (default ssdtune); a\n"
"                    cgroup of that name ssdtune did not create is refused\n"
"  --boot            also write boot isolation for GRUB and run update-grub\n"
"                    (takes effect at the next boot)\n"
"  --io-cores N      at most N whole cores of a device's node for I/O\n"
"                    (default auto: every core that is not an interrupt core)\n"
"  --config FILE     take profile, isolate and io_cores from FILE (see\n"
"                    'ssdtune check-config --help'; not with DEVICE or the\n"
"                    options they stand for), plan for the controllers it\n"
"                    selects that are present, and set its knobs on those\n"
"                    on ssdtune as 'ssdtune set' does (saved first; the\n"
"                    plan leaves them).  It attaches nothing: that is\n"
"                    'ssdtune attach --config'\n"
"  --state-dir DIR   where to save (default " "/var/lib/ssdtune" ")\n",
	.flags = CMD_DRY_RUN,
	.min_args = 0, .max_args = 64,
	.run = cmd_apply,
	.options = apply_options, .option = tuning_option,
};

