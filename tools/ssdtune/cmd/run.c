// SPDX-License-Identifier: GPL-2.0
/* ssdtune run: start a command in the applied cpuset partition. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/output.h"
#include "cmd/tuning.h"
#include "lib/cgroup.h"
#include "lib/tune.h"

/* The applied partition of @s that holds, into @c.  0 or an exit code. */
static int find_partition(const struct state *s, struct tune_check *c,
			  const struct state_entry **found)
{
	char now[40];
	int i;

	if (tune_stale(s, now, sizeof(now)))
		return out_fail(EXIT_REFUSED, "not applied since boot: 'ssdtune apply --isolate' again");
	for (i = 0; i < s->n; i++)
		if (s->e[i].type == TYPE_PARTITION)
			break;
	if (i == s->n)
		return out_fail(EXIT_REFUSED, "no cpuset partition applied: 'ssdtune apply --isolate --profile P' makes one (profile %s was applied without it)",
				s->profile[0] ? s->profile : "?");
	*found = &s->e[i];
	tune_check(*found, c);
	if (!c->ok)
		return out_fail(EXIT_REFUSED, "the partition %s does not hold (%s): 'ssdtune verify', then apply again",
				(*found)->path, c->why);
	return 0;
}

static int cmd_run(const struct command *cmd, struct cli *cli)
{
	const struct state_entry *e = NULL;
	struct tune_check c;
	const char *cpus;
	struct lib_err err;
	struct state s;
	int r, i;

	if (cli->json && !cli->dry_run)
		return usage_error(cmd, "--json needs --dry-run: what the command prints is its own");
	if (tune_load(tuning_state_dir(), &s, &err))
		return out_fail_err(&err);
	r = find_partition(&s, &c, &e);
	if (r)
		goto out;
	json_object_object_add(report_obj(), "partition", json_object_new_string(e->path));
	/* the saved value is "cpus=LIST partition=TYPE": the LIST */
	cpus = strncmp(e->val, "cpus=", 5) ? e->val : e->val + 5;
	json_object_object_add(report_obj(), "cpus",
			       json_object_new_string_len(cpus, (int)strcspn(cpus, " ")));
	r = cgroup_enter(e->path);
	if (r) {
		r = out_fail(EXIT_REFUSED, "cannot enter %s: %s", e->path, strerror(-r));
		goto out;
	}
	if (cli->dry_run) {
		struct json_object *argv = json_object_new_array();

		for (i = 0; i < cli->argc; i++)
			json_object_array_add(argv, json_object_new_string(cli->argv[i]));
		json_object_object_add(report_obj(), "command", argv);
		if (!out_json())
			printf("would run %s in %s\n", cli->argv[0], e->path);
		r = out_done();
		goto out;
	}
	fflush(NULL);
	execvp(cli->argv[0], cli->argv);
	r = out_fail(127, "cannot run %s: %s", cli->argv[0], strerror(errno));
out:
	state_free(&s);
	return r;
}

const struct command run_command = {
	.name = "run",
	.args = "[--] COMMAND [ARG...]",
	.summary = "run a command on the I/O cores, in the applied partition",
	.help =
"Start COMMAND inside the isolated cpuset partition that 'ssdtune apply\n"
"--isolate' made of the I/O cores, so the planned I/O cores are the only\n"
"CPUs it and its children use, and no other task runs there.  ssdtune\n"
"moves itself into the partition and then executes COMMAND: the exit\n"
"status is COMMAND's (127 if it cannot be run).  Options end at COMMAND.\n"
"  --state-dir DIR  where apply saved (default " "/var/lib/ssdtune" ")\n"
"With --dry-run (and --json), say where COMMAND would run.\n",
	.dry_run = "say where COMMAND would run, and run nothing",
	.flags = CMD_DRY_RUN | CMD_OPERANDS_LAST,
	.min_args = 1, .max_args = 4096,
	.run = cmd_run,
	.options = state_options, .option = tuning_option,
};
