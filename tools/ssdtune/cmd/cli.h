/* SPDX-License-Identifier: GPL-2.0 */
/* The command table and what every command gets from the command line. */
#ifndef SSDTUNE_CLI_H
#define SSDTUNE_CLI_H

#include <getopt.h>
#include <stdbool.h>


struct cli {
	bool json;
	bool dry_run;
	int argc;		/* operands after the options */
	char **argv;
	void *opts;		/* the command's own parsed options */
};

/* What a command accepts besides --json and --help. */
#define CMD_DRY_RUN	0x1	/* state-changing: takes --dry-run */

struct command {
	const char *name;
	const char *args;	/* operand synopsis, "BDF" */
	const char *summary;	/* one line for the global --help */
	const char *help;	/* the rest of "ssdtune CMD --help" */
	unsigned int flags;
	int min_args, max_args;
	int (*run)(const struct command *cmd, struct cli *cli);
	/* Options of this command only (getopt_long table, val >= 0x200),
	 * and the function that takes each; it returns 0 or an exit code. */
	const struct option *options;
	int (*option)(struct cli *cli, int val, const char *arg);
};

/* attach.c */
int cmd_attach(const struct command *cmd, struct cli *cli);
int cmd_detach(const struct command *cmd, struct cli *cli);
/* topology.c */
int cmd_topology(const struct command *cmd, struct cli *cli);
/* set.c */
int cmd_set(const struct command *cmd, struct cli *cli);
int set_option(struct cli *cli, int val, const char *arg);
extern const struct option set_options[];
/* monitor.c */
int cmd_monitor(const struct command *cmd, struct cli *cli);
int monitor_option(struct cli *cli, int val, const char *arg);
extern const struct option monitor_options[];
/* tune.c */
int cmd_plan(const struct command *cmd, struct cli *cli);
int cmd_apply(const struct command *cmd, struct cli *cli);
int cmd_verify(const struct command *cmd, struct cli *cli);
int cmd_revert(const struct command *cmd, struct cli *cli);
int tune_option(struct cli *cli, int val, const char *arg);
int tune_applied_io_cpus(const char *dir, const char *bdf, char *cpus,
			 size_t len, char *prof, size_t plen);
extern const struct option plan_options[], apply_options[], state_options[];

/* A usage error: one line, exit status 2. */
int usage_error(const struct command *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
