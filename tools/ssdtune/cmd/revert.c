// SPDX-License-Identifier: GPL-2.0
/* ssdtune revert: restore every value apply (or set) saved. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/output.h"
#include "cmd/tune.h"
#include "lib/tune.h"

static int cmd_revert(const struct command *cmd, struct cli *cli)
{
	const char *dir = tune_state_dir();
	struct state s = { 0 };
	struct tune_writes w;
	struct lib_err err;
	int r, fd = -1;

	(void)cmd;
	if (!cli->dry_run) {
		fd = state_lock(dir, &err);
		if (fd < 0)
			return out_fail_err(&err);
	}
	if (tune_load(dir, &s, &err)) {
		r = out_fail_err(&err);
		goto out;
	}
	tune_restore(&s, &w);
	if (w.failed) {
		r = out_fail(EXIT_REFUSED, "%d saved values could not be restored (state kept in %s); first: %s",
			     w.failed, dir, w.first);
		goto out;
	}
	if (!cli->dry_run && state_remove(dir, &err)) {
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
"  --state-dir DIR  where apply saved (default /var/lib/ssdtune)\n",
	.flags = CMD_DRY_RUN,
	.min_args = 0, .max_args = 0,
	.run = cmd_revert,
	.options = state_options, .option = tune_option,
};
