/* SPDX-License-Identifier: GPL-2.0 */
/* The command table and what every command gets from the command line. */
#ifndef SSDTUNE_CLI_H
#define SSDTUNE_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

struct cli {
	bool json;
	bool dry_run;
	const char *root;	/* --root DIR or SSDTUNE_ROOT: a recorded host */
	int argc;		/* operands after the options */
	char **argv;
	void *opts;		/* the command's own parsed options */
};

/* What a command accepts besides --json and --help. */
#define CMD_DRY_RUN	0x1	/* state-changing: takes --dry-run */
#define CMD_OPERANDS_LAST 0x2	/* options end at the first operand (the
				 * rest is a command line of its own) */
#define CMD_REPLAY	0x4	/* reads only the host: may read a recorded
				 * one (--root, lib/hostrec.h) */

struct command {
	const char *name;
	const char *args;	/* operand synopsis, "BDF" */
	const char *summary;	/* one line for the global --help */
	const char *help;	/* the rest of "ssdtune CMD --help" */
	/* what --dry-run does, for its --help line (CMD_DRY_RUN; NULL: it
	 * prints every write as 'path <- value' and makes none) */
	const char *dry_run;
	unsigned int flags;
	int min_args, max_args;
	int (*run)(const struct command *cmd, struct cli *cli);
	/* Options of this command only (getopt_long table, val >= 0x200),
	 * and the function that takes each; it returns 0 or an exit code. */
	const struct option *options;
	int (*option)(struct cli *cli, int val, const char *arg);
};

/* The commands, each defined in its own file. */
extern const struct command bench_command, attach_command, detach_command,
	topology_command, set_command, monitor_command, plan_command,
	apply_command, verify_command, revert_command, run_command,
	check_config_command, metrics_command, status_command,
	qualify_command;

/* Run the command line against @commands (main.c's table). */
int cli_main(const struct command *const *commands, size_t ncommands,
	     int argc, char **argv);

/* A usage error: one line, exit status 2. */
int usage_error(const struct command *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
