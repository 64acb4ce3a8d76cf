// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune: the command table.  A command is a struct command in its own
 * file under cmd/; cmd/cli.c parses the command line and runs it.  The
 * order here is the order of 'ssdtune --help'.
 */
#include "cmd/cli.h"

static const struct command *const commands[] = {
	&bench_command,
	&attach_command,
	&detach_command,
	&qualify_command,
	&topology_command,
	&set_command,
	&monitor_command,
	&metrics_command,
	&plan_command,
	&apply_command,
	&verify_command,
	&status_command,
	&revert_command,
	&run_command,
	&check_config_command,
};

int main(int argc, char **argv)
{
	return cli_main(commands, sizeof(commands) / sizeof(commands[0]),
			argc, argv);
}
