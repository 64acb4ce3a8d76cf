// SPDX-License-Identifier: GPL-2.0
/* ssdtune revert: restore every value apply (or set) saved. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/output.h"
#include "cmd/tuning.h"
#include "lib/report.h"
#include "lib/state.h"
#include "lib/sysfs.h"
#include "lib/tune.h"

static void skipped(void *ctx, const char *key)
{
	(void)ctx;
	report_append_str("skipped", key);
	if (!out_json())
		printf("skipped %s: gone (device or vector not found)\n", key);
}

/*
 * The state is from an earlier boot: show what would be restored (the
 * dry-run lines) and refuse.  The values were read before that reboot;
 * the admin decides with --force.
 */
static int refuse_stale(const struct state *s, const char *now)
{
	struct tune_writes w;
	bool dry = sys_dry_run();

	sys_write_mode(true);
	tune_restore(s, true, &w, NULL, NULL);
	sys_write_mode(dry);
	report_set_bool("stale", true);
	return out_fail(EXIT_REFUSED, "the state in %s was saved before the last reboot (boot %s, now %s): %d of %d saved values would be restored (%s); 'ssdtune revert --force' restores them",
			tuning_state_dir(), s->boot_id, now, w.done, s->n,
			out_json() ? "\"writes\"" : "above");
}

/*
 * The state file is damaged: with --force, the entries it still proves
 * (whole lines that load, state_salvage()); the file is kept beside as
 * STATE_FILE.damaged.  *@lost: the entry lines that did not load.
 */
static int load_damaged(const char *dir, struct state *s, int *lost,
			struct lib_err *err)
{
	char why[sizeof(err->msg)];
	int r;

	if (!tuning_force()) {
		snprintf(why, sizeof(why), "%s", err->msg);
		return lib_errf(err, EINVAL, "%s; 'ssdtune revert --force' restores the values it can still read",
				why);
	}
	r = state_salvage(dir, s, lost, err);
	if (r)
		return r;
	report_set_bool("damaged", true);
	json_object_object_add(report_obj(), "lost", json_object_new_int(*lost));
	if (!out_json())
		printf("%s/%s is damaged: %d saved values still read whole, %d entries unreadable\n",
		       dir, STATE_FILE, s->n, *lost);
	return 0;
}

/* After the restore: the damaged file is kept beside, for the admin. */
static int keep_damaged(const char *dir, int lost, struct lib_err *err)
{
	char p[PATH_MAX], kept[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", dir, STATE_FILE);
	snprintf(kept, sizeof(kept), "%s/%s.damaged", dir, STATE_FILE);
	if (rename(p, kept))
		return lib_errf(err, errno, "cannot move %s aside: %s", p, strerror(errno));
	if (lost)
		return lib_errf(err, EIO, "%d entries of the damaged state could not be read: restore them by hand (the file is kept as %s)",
				lost, kept);
	return 0;
}

static int cmd_revert(const struct command *cmd, struct cli *cli)
{
	const char *dir = tuning_state_dir();
	char now[40];
	struct state s = { 0 };
	struct tune_writes w;
	struct lib_err err;
	int r, fd = -1, lost = -1;

	(void)cmd;
	if (!cli->dry_run) {
		fd = state_lock(dir, &err);
		if (fd < 0)
			return out_fail_err(&err);
	}
	r = tune_load(dir, &s, &err);
	if (r == -ENOENT) {
		/* nothing to undo: done, as tuned-adm off and systemctl stop */
		report_set_array("skipped");
		report_set_bool("nothing_applied", true);
		if (!out_json())
			printf("nothing to revert: %s\n", err.msg);
		r = out_done();
		goto out;
	}
	if (r == -EINVAL)
		r = load_damaged(dir, &s, &lost, &err);
	if (r) {
		r = out_fail_err(&err);
		goto out;
	}
	if (!tuning_force() && tune_stale(&s, now, sizeof(now))) {
		r = refuse_stale(&s, now);
		goto out;
	}
	report_set_array("skipped");
	tune_restore(&s, tuning_force(), &w, skipped, NULL);
	if (w.failed) {
		r = out_fail(EXIT_REFUSED, "%d saved values could not be restored (state kept in %s); first: %s",
			     w.failed, dir, w.first);
		goto out;
	}
	if (!cli->dry_run && (lost >= 0 ? keep_damaged(dir, lost, &err) :
				      state_remove(dir, &err))) {
		r = out_fail_err(&err);
		goto out;
	}
	if (!out_json())
		printf("%s %d of %d saved values%s\n", cli->dry_run ? "would restore" : "restored",
		       w.done, s.n, cli->dry_run ? "" : "; state removed");
	r = out_done();
out:
	state_unlock(fd);
	state_free(&s);
	return r;
}

const struct command revert_command = {
	.name = "revert",
	.args = "",
	.summary = "restore every value apply saved, then remove the state",
	.help =
"Write back, byte for byte, every value saved by apply that differs from\n"
"the live one (interrupt vectors found again by PCI address and vector\n"
"index), then remove the state.  Works after an apply that was killed.\n"
"A state saved before the last reboot is not restored without --force:\n"
"revert lists what it would write and stops.\n"
"  --state-dir DIR  where apply saved (default /var/lib/ssdtune)\n"
"  --force          restore a state from an earlier boot; skip (and name)\n"
"                   saved devices or vectors that are gone; from a damaged\n"
"                   state file, restore each entry still whole (the file\n"
"                   is kept as state.json.damaged; exit 1 if any was lost)\n",
	.flags = CMD_DRY_RUN,
	.min_args = 0, .max_args = 0,
	.run = cmd_revert,
	.options = revert_options, .option = tuning_option,
};
