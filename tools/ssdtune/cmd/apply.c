// SPDX-License-Identifier: GPL-2.0
/* ssdtune apply: save every value the plan touches, then write the plan. */
#include <errno.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/output.h"
#include "cmd/tune.h"
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

static int cmd_apply(const struct command *cmd, struct cli *cli)
{
	const char *dir = tune_state_dir();
	struct tune_writes w;
	struct state s = { 0 };
	int r, fd = -1, set, keep, skip;
	struct lib_err err;
	struct topo t;
	struct plan p;
	const struct plan_opts *o = tune_opts(cmd, &r);

	if (r)
		return r;
	/*
	 * Plan under the lock, so what another run changed meanwhile is seen;
	 * but check the devices named first, so a bad one changes nothing
	 * (not even the state directory).
	 */
	r = tune_plan(cli->argv, cli->argc, o, &t, &p, &err);
	if (!r && !cli->dry_run) {
		plan_free(&p);
		topo_free(&t);
		fd = state_lock(dir, &err);
		if (fd < 0)
			return out_fail_err(&err);
		r = tune_plan(cli->argv, cli->argc, o, &t, &p, &err);
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
	report_plan(&p);
	tune_residue(&p, &s, &w);
	if (w.failed) {
		r = out_fail(EXIT_REFUSED, "%d values the profile before set, and %s does not, could not be restored; first: %s",
			     w.failed, plan_profile_name(p.profile), w.first);
		goto out;
	}
	json_object_object_add(out_obj(), "residue_restored", json_object_new_int(w.done));
	if (w.done && !out_json())
		printf("%s %d values the profile before set and %s does not\n",
		       cli->dry_run ? "would restore" : "restored", w.done,
		       plan_profile_name(p.profile));
	tune_apply(&p, cli->dry_run ? NULL : &s, &w, cli->dry_run ? NULL : written, NULL);
	plan_count(&p, &set, &keep, &skip);
	json_object_object_add(out_obj(), "state_dir", cli->dry_run ? NULL :
			       json_object_new_string(dir));
	if (w.failed) {
		r = out_fail(EXIT_REFUSED, "%d of %d writes failed; first: %s", w.failed,
			     set, w.first);
		goto out;
	}
	if (!cli->dry_run && tune_record(dir, &s, &err)) {
		r = out_fail_err(&err);
		goto out;
	}
	json_object_object_add(out_obj(), "refused_irqs", json_object_new_int(w.refused));
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
"  --state-dir DIR   where to save (default " "/var/lib/ssdtune" ")\n",
	.flags = CMD_DRY_RUN,
	.min_args = 0, .max_args = 64,
	.run = cmd_apply,
	.options = apply_options, .option = tune_option,
};

