// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune apply: save every value the plan touches, then write the plan;
 * with --config, for the configured controllers, and their knobs too.
 * The run is lib/tune_run.c's; here are its options and what it shows.
 */
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "cmd/output.h"
#include "cmd/tuning.h"
#include "lib/tune_run.h"

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

static void not_ssdtune(void *ctx, const struct ctrl_id *id)
{
	const struct config *c = ((const struct tune_run_in *)ctx)->conf;

	if (!out_json())
		printf("note: %s (%s) is on %s, not ssdtune: tuning what is there%s\n",
		       id->bdf, id->ctrl[0] ? id->ctrl : "no controller",
		       id->driver[0] ? id->driver : "no driver",
		       c->nknobs ? ", without the knobs; 'ssdtune attach --config' hands it over" : "");
}

static void planned(void *ctx, const struct plan *p)
{
	(void)ctx;
	tuning_show_plan(p);
}

static void restored(void *ctx, const struct plan *p, int done)
{
	const struct tune_run_in *in = ctx;

	json_object_object_add(report_obj(), "residue_restored", json_object_new_int(done));
	if (done && !out_json())
		printf("%s %d values the profile before set and %s does not\n",
		       in->dry_run ? "would restore" : "restored", done,
		       plan_profile_name(p->profile));
}

static void knobs_set(void *ctx, const char *ctrl, int n)
{
	const struct config *c = ((const struct tune_run_in *)ctx)->conf;

	if (!out_json())
		printf("%s: %d knobs set from %s\n", ctrl, n, c->file);
}

/* Why the run stopped, as the one error line; its exit status. */
static int show_failure(const struct tune_run *run, int set)
{
	switch (run->fail) {
	case TUNE_RUN_FOREIGN:
		return out_fail(EXIT_USAGE, "%s", run->err.msg);
	case TUNE_RUN_RESIDUE:
		return out_fail(EXIT_REFUSED, "%d values the profile before set, and %s does not, could not be restored; first: %s",
				run->residue.failed, plan_profile_name(run->p.profile),
				run->residue.first);
	case TUNE_RUN_WRITES:
		return out_fail(EXIT_REFUSED, "%d of %d writes failed; first: %s",
				run->w.failed, set, run->w.first);
	case TUNE_RUN_KNOBS:
		return out_fail(EXIT_REFUSED, "the driver refused %d configured knob writes, so that controller's are not kept; first: %s",
				run->knobs_failed, run->knobs_first);
	default:
		return out_fail_err(&run->err);
	}
}

/* What the run did, after its plan and residue were shown. */
static int show_run(const struct tune_run_in *in, const struct tune_run *run)
{
	int set, keep, skip;

	if (run->none_present) {
		report_set_str("status", "none_present");
		if (!out_json())
			printf("no controller %s selects is present: nothing to do\n",
			       in->conf->file);
		return out_done();
	}
	tuning_count(&run->p, &set, &keep, &skip);
	if (run->wrote)
		json_object_object_add(report_obj(), "state_dir", in->dry_run ? NULL :
				       json_object_new_string(in->state_dir));
	if (run->wrote && in->conf && run->fail != TUNE_RUN_WRITES)
		json_object_object_add(report_obj(), "knobs_set",
				       json_object_new_int(run->knobs_set));
	if (run->fail)
		return show_failure(run, set);
	json_object_object_add(report_obj(), "refused_irqs", json_object_new_int(run->w.refused));
	if (run->w.refused && !out_json())
		printf("%d host interrupts the kernel would not move (kernel-managed): left alone\n",
		       run->w.refused);
	if (!out_json())
		printf("%s %d, %d already set, %d skipped%s%s\n",
		       in->dry_run ? "would change" : "changed", run->w.done, keep, skip,
		       in->dry_run ? "" : "; saved originals in ", in->dry_run ? "" : in->state_dir);
	return out_done();
}

static int cmd_apply(const struct command *cmd, struct cli *cli)
{
	struct tune_run_in in = {
		.devs = cli->argv, .ndevs = cli->argc,
		.state_dir = tuning_state_dir(), .dry_run = cli->dry_run,
	};
	struct tune_run_hooks h = {
		.not_ssdtune = not_ssdtune, .planned = planned,
		.restored = restored, .written = written, .knobs_set = knobs_set,
	};
	struct tune_run run;
	int r;

	in.o = tuning_opts(cmd, &r);
	if (!r)
		r = tuning_names(cmd, cli);
	if (r)
		return r;
	tuning_config(cmd, &in.conf);
	if (in.conf && cli->argc)
		return usage_error(cmd, "DEVICE cannot go with --config: %s names the controllers",
				   in.conf->file);
	if (in.conf) {
		r = tuning_config_ctrls(in.conf, &in.ids, &in.nids);
		if (r) {
			free(in.ids);
			return r;
		}
	}
	h.ctx = &in;
	tune_run(&in, &h, &run);
	r = show_run(&in, &run);
	tune_run_free(&run);
	free(in.ids);
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
"  -p, --profile P   latency, iops, throughput or balanced\n"
"  --isolate         also isolate the I/O cores at run time (see\n"
"                    'ssdtune plan --help'); 'ssdtune run' starts a\n"
"                    workload on them\n"
"  --partition NAME  the cpuset partition's cgroup (default ssdtune); a\n"
"                    cgroup of that name ssdtune did not create is refused\n"
"  --boot            also write boot isolation for GRUB and run update-grub\n"
"                    (takes effect at the next boot)\n"
"  --io-cores N      at most N whole cores of a device's node for I/O\n"
"                    (default auto: every core that is not an interrupt core)\n"
"  -c, --config FILE take profile, isolate and io_cores from FILE (see\n"
"                    'ssdtune check-config --help'; not with DEVICE or the\n"
"                    options they stand for), plan for the controllers it\n"
"                    selects that are present, and set its knobs on those\n"
"                    on ssdtune as 'ssdtune set' does (saved first; the\n"
"                    plan leaves them).  It attaches nothing: that is\n"
"                    'ssdtune attach --config'\n"
"  --verbose         show the plan one line per CPU and per vector\n"
"  --state-dir DIR   where to save (default " "/var/lib/ssdtune" ")\n",
	.flags = CMD_DRY_RUN,
	.min_args = 0, .max_args = 64,
	.run = cmd_apply,
	.options = apply_options, .option = tuning_option,
};

