// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune: command line.  Global options, the command table, dispatch.
 * A command is one entry in commands[] plus its run function in its own
 * file; options it accepts besides --json/--help are its flags.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "cmd/cli.h"
#include "lib/output.h"
#include "lib/sysfs.h"
#include "uapi/linux/ssdtune.h"

static const struct command commands[] = {
	{
		.name = "bench",
		.args = "[DEVICE]",
		.summary = "measure with fio the SNIA PTS way ('bench compare A B': deltas)",
		.help =
"Run fio on DEVICE (default: the first ssdtune disk) over a matrix of block\n"
"sizes, queue depths and read/write mixes, in rounds (until SNIA PTS steady\n"
"state with --steady-state or a pts-* suite), and write bench.json (the\n"
"source of truth), bench.csv, bench.txt and gnuplot PNGs to --out DIR.\n"
"Per cell: IOPS, MB/s with its IO size, completion latency mean/p50/p99/\n"
"p99.9/p99.99, whole-system CPU, interrupts per I/O, and for ssdtune\n"
"controllers their knobs and temperature.  Writes, purge and precondition\n"
"destroy data: they need --destroy-data and a device nothing uses.\n"
"'ssdtune bench compare A.json B.json' prints the delta table of two\n"
"reports (median, min and max of their rounds).\n"
"\n"
"  --bs LIST          block sizes, 512..1m (default 4k,128k)\n"
"  --qd LIST          queue depths 1..256, or THREADSxDEPTH (default 1,32)\n"
"  --jobs N           fio threads per cell when --qd gives none (default 1)\n"
"  --rw LIST          read, write, randread, randwrite or R/W mixes (70/30)\n"
"  --random, --seq    access pattern of the mixes (default random)\n"
"  --ioengine E       libaio (default) or io_uring\n"
"  --runtime S        seconds per round (default 5; 60 for pts-*)\n"
"  --rounds N         rounds per cell, at least (default 3)\n"
"  --steady-state     rounds until PTS steady state, at most 25\n"
"  --purge            NVMe Format NVM (user data erase) first, else\n"
"                     blkdiscard\n"
"  --precondition     write the device twice, sequential 128k, first\n"
"  --suite S          quick (default), pts-iops, pts-throughput, pts-latency\n"
"  --out DIR          where the report goes (default ./ssdtune-bench-TIME)\n"
"  --cpus LIST        run fio on these CPUs (default: the I/O cores the\n"
"                     applied profile plans for the device, if one is applied)\n"
"  --temp-warn C      mark a round suspect at this temperature (default: the\n"
"                     drive's warning threshold where it reports one, else 70)\n"
"  --destroy-data     allow purge, precondition and writes\n"
"  --ab PROFILE       baseline, 'apply --profile PROFILE', rerun, 'revert',\n"
"                     compare\n"
"  --state-dir DIR    where apply saved its state (default /var/lib/ssdtune)\n"
"With --dry-run: print the fio jobs and change nothing.  See bench.md.\n",
		.flags = CMD_DRY_RUN,
		.min_args = 0, .max_args = 3,
		.run = cmd_bench,
		.options = bench_options,
		.option = bench_option,
	},
	{
		.name = "attach",
		.args = "BDF",
		.summary = "hand an NVMe controller from its driver to ssdtune",
		.help =
"Unbind the NVMe controller at PCI address BDF (e.g. 0000:41:00.0) from its\n"
"driver (normally nvme) and bind it to the ssdtune driver, which must be\n"
"loaded.  Refuses, changing nothing, if any namespace or partition of the\n"
"controller is mounted, used as swap, held by LVM, md or device-mapper, or\n"
"open by a process.  Prints: attached BDF as ssdtN: /dev/ssdtNn1 ...\n",
		.flags = CMD_DRY_RUN,
		.min_args = 1, .max_args = 1,
		.run = cmd_attach,
	},
	{
		.name = "detach",
		.args = "BDF",
		.summary = "give a controller on ssdtune back to the nvme driver",
		.help =
"Unbind the controller at PCI address BDF from ssdtune and let the kernel\n"
"probe it again, so that nvme takes it back.  Refuses, changing nothing,\n"
"while any of its /dev/ssdtNnM disks is mounted, swap, held or open.\n"
"Prints: detached BDF from ssdtN: bound to nvme\n",
		.flags = CMD_DRY_RUN,
		.min_args = 1, .max_args = 1,
		.run = cmd_detach,
	},
	{
		.name = "topology",
		.args = "",
		.summary = "show NUMA nodes, CPUs, storage devices, links, IRQs, power settings",
		.help =
"Print the host as the tuner sees it: NUMA nodes with CPUs, memory and\n"
"distances; packages, cores and SMT; every storage PCI function with its\n"
"NUMA node, driver, PCIe link (trained vs capable, and the bandwidth each\n"
"allows) and interrupt vectors (affinity, effective affinity, whether they\n"
"are kernel-managed); cpuidle states, cpufreq governor/EPP, turbo, and\n"
"whether irqbalance runs.  Changes nothing.\n",
		.min_args = 0, .max_args = 0,
		.run = cmd_topology,
	},
	{
		.name = "set",
		.args = "[CTRL] KNOB=VALUE...",
		.summary = "change ssdtune driver knobs, validated, saved for revert",
		.help =
"Write the driver's knobs of controller CTRL (ssdtN or its PCI address;\n"
"optional when one controller is attached):\n"
"  coalesce_mode=off|hw|host|auto      coalesce_threshold=0..256\n"
"  coalesce_time_us=0..25500           coalesce_profile=balanced|iops|\n"
"                                        latency|adaptive|off\n"
"  power_limit_mw=0..1000000 (0: none) power_limit_mode=hw|host|auto\n"
"  energy_model=VALUE (format: Documentation/ABI/testing/sysfs-class-ssdtune)\n"
"Every value is checked before any is written; a bad one writes nothing.\n"
"The files a knob changes are saved first in the state directory, as\n"
"apply does, so 'ssdtune revert' restores them and 'ssdtune verify'\n"
"checks they hold.  If the driver refuses a write (for example hw mode on\n"
"a device that cannot), this command's other writes are undone.\n\n"
"  --state-dir DIR   saved state (default /var/lib/ssdtune)\n",
		.flags = CMD_DRY_RUN,
		.min_args = 1, .max_args = 17,	/* CTRL and 16 knobs */
		.run = cmd_set,
		.options = set_options,
		.option = set_option,
	},
	{
		.name = "monitor",
		.args = "",
		.summary = "watch the driver: events, or per-queue counters (--stats)",
		.help =
"Listen to the ssdtune driver's generic netlink family (ssdtune.ko must be\n"
"loaded) and print its events as they come, one line each: attached,\n"
"detached, timeout (queue, tag), reset, reset_done, dead, knob (a sysfs\n"
"knob was written: name and value).  With --stats, print every attached\n"
"controller's per-queue counters once; with --stats --interval S, print\n"
"per-queue completions/s, interrupts/s and interrupts per I/O every S\n"
"seconds.  Changes nothing.\n\n"
"  --stats        counters instead of events\n"
"  --interval S   with --stats: rates every S seconds (fractions allowed)\n"
"  --count N      stop after N events (N samples with --interval)\n"
"  --timeout S    stop after S seconds\n"
"With --json, stdout is one object when monitor stops (--count, --timeout,\n"
"SIGINT or SIGTERM): \"events\", \"controllers\" or \"samples\".\n",
		.min_args = 0, .max_args = 0,
		.run = cmd_monitor,
		.options = monitor_options,
		.option = monitor_option,
	},
	{
		.name = "plan",
		.args = "[DEVICE...]",
		.summary = "show the tuning plan for this host (changes nothing)",
		.help =
"Plan interrupt affinity, I/O cores, C-state limits, governor/EPP/turbo and\n"
"(for ssdtune controllers) coalescing for the NVMe functions given as PCI\n"
"addresses or ssdtN names (default: every NVMe function), as a pure\n"
"function of the topology and the profile: latency, iops, throughput or\n"
"balanced (default).  Prints every change as 'path: old -> new  (reason)',\n"
"what is already set, what is skipped (not present, kernel-managed) and\n"
"advice that is printed only (boot isolation, cpuset, irqbalance).\n"
"  --profile P   latency, iops, throughput or balanced\n",
		.min_args = 0, .max_args = 64,
		.run = cmd_plan,
		.options = plan_options, .option = tune_option,
	},
	{
		.name = "apply",
		.args = "[DEVICE...]",
		.summary = "apply the plan, saving every value it touches first",
		.help =
"Compute the plan as 'ssdtune plan' does and write it.  Before the first\n"
"write, every value it touches is saved (atomically) in DIR/state.json,\n"
"interrupt vectors by PCI address and vector index; values saved by an\n"
"earlier apply are kept, so apply is idempotent and revert restores the\n"
"originals.  DIR/lock keeps two runs from interleaving.\n"
"  --profile P      latency, iops, throughput or balanced\n"
"  --state-dir DIR  where to save (default " "/var/lib/ssdtune" ")\n",
		.flags = CMD_DRY_RUN,
		.min_args = 0, .max_args = 64,
		.run = cmd_apply,
		.options = apply_options, .option = tune_option,
	},
	{
		.name = "verify",
		.args = "",
		.summary = "check that the applied plan still holds",
		.help =
"Compare every applied value with the live system; for interrupt vectors\n"
"also check that the effective affinity lies inside the applied mask.\n"
"Prints 'ok' or 'drift' per value; exit status 0 only if all hold.\n"
"  --state-dir DIR  where apply saved (default /var/lib/ssdtune)\n",
		.min_args = 0, .max_args = 0,
		.run = cmd_verify,
		.options = state_options, .option = tune_option,
	},
	{
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
	},
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const char common_help[] =
"  --json        print one JSON object on stdout (errors too)\n"
"  -h, --help    show help and exit\n";
static const char dry_run_help[] =
"  --dry-run     print every write as 'path <- value' and make none\n";

static void global_help(void)
{
	size_t i;

	printf("Usage: ssdtune [--json] [--dry-run] COMMAND [ARGS...]\n"
	       "       ssdtune COMMAND --help\n"
	       "       ssdtune --version\n\n"
	       "Tune a host for fast PCIe flash and hand NVMe controllers to the\n"
	       "ssdtune driver.\n\nCommands:\n");
	for (i = 0; i < NCOMMANDS; i++) {
		char head[64];

		snprintf(head, sizeof(head), "%s%s%s", commands[i].name,
			 commands[i].args[0] ? " " : "", commands[i].args);
		printf("  %-14s %s\n", head, commands[i].summary);
	}
	printf("\nOptions:\n%s%s  -V, --version print the version and exit\n\n"
	       "Exit status: 0 done, 1 refused or failed, 2 usage error.\n"
	       "See ssdtune(8).\n", common_help, dry_run_help);
}

static void command_help(const struct command *cmd)
{
	printf("Usage: ssdtune %s [--json]%s%s%s\n\n%s\nOptions:\n%s%s",
	       cmd->name, cmd->flags & CMD_DRY_RUN ? " [--dry-run]" : "",
	       cmd->args[0] ? " " : "", cmd->args, cmd->help, common_help,
	       cmd->flags & CMD_DRY_RUN ? dry_run_help : "");
}

int usage_error(const struct command *cmd, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (cmd)
		return out_fail(EXIT_USAGE, "%s: %s (see 'ssdtune %s --help')",
				cmd->name, msg, cmd->name);
	return out_fail(EXIT_USAGE, "%s (see 'ssdtune --help')", msg);
}

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

enum { OPT_JSON = 0x100, OPT_DRY_RUN, OPT_COMMAND = 0x200 };

static const struct option options[] = {
	{ "json",	no_argument, NULL, OPT_JSON },
	{ "dry-run",	no_argument, NULL, OPT_DRY_RUN },
	{ "help",	no_argument, NULL, 'h' },
	{ "version",	no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

#define MAX_OPTIONS 32

/* The common options followed by @cmd's own, into @all (NULL-terminated). */
static int merge_options(const struct command *cmd, struct option *all)
{
	size_t n = 0, i;

	for (i = 0; options[i].name; i++)
		all[n++] = options[i];
	for (i = 0; cmd->options && cmd->options[i].name; i++) {
		if (n + 1 >= MAX_OPTIONS)
			return -1;
		all[n++] = cmd->options[i];
	}
	memset(&all[n], 0, sizeof(all[n]));
	return 0;
}

/* The option getopt_long() just rejected, as the user typed it. */
static const char *bad_option(char **argv)
{
	static char shortopt[3];

	if (optopt && optopt < 0x100) {
		snprintf(shortopt, sizeof(shortopt), "-%c", optopt);
		return shortopt;
	}
	return argv[optind - 1];
}

int main(int argc, char **argv)
{
	const struct command *cmd = NULL;
	struct option opts[MAX_OPTIONS];
	struct cli cli = { 0 };
	bool help = false, dry_run_seen = false;
	int c, nargs;

	opterr = 0;
	/* Global options, up to the command ("+": stop at the first operand). */
	while ((c = getopt_long(argc, argv, "+:hV", options, NULL)) != -1) {
		switch (c) {
		case OPT_JSON:
			cli.json = true;
			break;
		case OPT_DRY_RUN:
			dry_run_seen = true;
			break;
		case 'h':
			global_help();
			return EXIT_OK;
		case 'V':
			printf("ssdtune %s\n", SSDTUNE_VERSION);
			return EXIT_OK;
		default:
			out_begin(NULL, cli.json);
			return usage_error(NULL, "unknown option '%s'",
					   bad_option(argv));
		}
	}
	if (optind >= argc) {
		out_begin(NULL, cli.json);
		return usage_error(NULL, "no command given");
	}
	cmd = find_command(argv[optind]);
	if (!cmd) {
		out_begin(NULL, cli.json);
		return usage_error(NULL, "unknown command '%s'", argv[optind]);
	}

	/* The command's own options, anywhere after it. */
	argc -= optind;
	argv += optind;
	out_begin(cmd->name, cli.json);
	out_set_array("writes");
	if (merge_options(cmd, opts))
		return out_fail(EXIT_USAGE, "%s: too many options", cmd->name);
	optind = 0;	/* glibc: start over with this argv */
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case OPT_JSON:
			cli.json = true;
			out_set_json(true);
			break;
		case OPT_DRY_RUN:
			dry_run_seen = true;
			break;
		case 'h':
			help = true;
			break;
		case ':':
			return usage_error(cmd, "option '%s' needs a value",
					   argv[optind - 1]);
		default:
			if (c >= OPT_COMMAND && cmd->option) {
				int r = cmd->option(&cli, c, optarg);

				if (r)
					return r;
				break;
			}
			return usage_error(cmd, "unknown option '%s'",
					   bad_option(argv));
		}
	}
	if (help) {
		command_help(cmd);
		return EXIT_OK;
	}
	if (dry_run_seen && !(cmd->flags & CMD_DRY_RUN))
		return usage_error(cmd, "--dry-run does not apply: %s changes nothing",
				   cmd->name);
	cli.dry_run = dry_run_seen;
	nargs = argc - optind;
	if (nargs < cmd->min_args)
		return usage_error(cmd, "missing %s", cmd->args);
	if (nargs > cmd->max_args)
		return usage_error(cmd, "unexpected argument '%s'",
				   argv[optind + cmd->max_args]);
	cli.argc = nargs;
	cli.argv = argv + optind;
	sys_write_mode(cli.dry_run, cli.json);
	return cmd->run(cmd, &cli);
}
