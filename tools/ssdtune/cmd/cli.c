// SPDX-License-Identifier: GPL-2.0
/*
 * The command line every command shares: global options, --help, option
 * merging, the operand count, usage errors, then the command's run().
 * The table of commands is main.c's; each command is in its own file.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "cmd/output.h"
#include "lib/hostrec.h"
#include "lib/sysfs.h"
#include "uapi/linux/ssdtune.h"

static const char common_help[] =
"  -j, --json    print one JSON object on stdout (errors too)\n"
"  -h, --help    show help and exit\n";
static const char dry_run_help[] =
"  -n, --dry-run print every write as 'path <- value' and make none\n";

/* The global usage, to @f: stdout for --help, stderr for a bare ssdtune. */
static void global_help(FILE *f, const struct command *const *commands,
			size_t ncommands)
{
	size_t i;

	fprintf(f, "Usage: ssdtune [--json] [--dry-run] [--root DIR] COMMAND [ARGS...]\n"
		"       ssdtune COMMAND --help, ssdtune help [COMMAND]\n"
		"       ssdtune --version [--json]\n\n"
		"Tune a host for fast PCIe flash and hand NVMe controllers to the\n"
		"ssdtune driver.\n\nCommands:\n");
	for (i = 0; i < ncommands; i++) {
		char head[64];

		snprintf(head, sizeof(head), "%s%s%s", commands[i]->name,
			 commands[i]->args[0] ? " " : "", commands[i]->args);
		/* a long head gets a line of its own: 80 columns at most */
		if (strlen(head) > 14)
			fprintf(f, "  %s\n  %-14s %s\n", head, "",
				commands[i]->summary);
		else
			fprintf(f, "  %-14s %s\n", head, commands[i]->summary);
	}
	fprintf(f, "\nOptions:\n%s%s  --root DIR    read a host recorded by 'topology --save DIR' (topology,\n"
		"                plan; also SSDTUNE_ROOT)\n"
		"  -V, --version print the version and exit\n\n"
		"Exit status: 0 done, 1 refused or failed, 2 usage error,\n"
		"3 verify found drift.\n"
		"See ssdtune(8).\n", common_help, dry_run_help);
}

/*
 * Option @o's value name as its help line spells it ("--profile P":
 * "P"), into @buf; "ARG" if the help has none.  NULL for an option the
 * help marks deprecated: the synopsis leaves it out.
 */
static const char *option_arg(const struct command *cmd, const struct option *o,
			      char *buf, size_t len)
{
	char want[64];
	const char *at, *eol;
	size_t n;

	snprintf(want, sizeof(want), "--%s", o->name);
	snprintf(buf, len, "ARG");
	for (at = strstr(cmd->help, want); at; at = strstr(at + 1, want)) {
		const char *bol = at;

		while (bol > cmd->help && bol[-1] != '\n')
			bol--;
		/* an option line ("  -p, --profile P   ..."), at its head */
		if (strncmp(bol, "  -", 3) || strstr(bol + 2, "  ") < at ||
		    (at[strlen(want)] != ' ' && at[strlen(want)] != ','))
			continue;
		eol = strchr(at, '\n');
		if (eol && memmem(at, (size_t)(eol - at), "deprecated", 10))
			return NULL;
		at += strlen(want);
		if (*at != ' ' || at[1] < 'A' || at[1] > 'Z')
			break;
		n = strspn(at + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_");
		snprintf(buf, len, "%.*s", (int)n, at + 1);
		break;
	}
	return buf;
}

/* Append @word to the synopsis line, wrapped at 79 columns under @indent. */
static void synopsis_word(const char *word, size_t *col, size_t indent)
{
	if (*col + 1 + strlen(word) > 79) {
		printf("\n%*s", (int)indent, "");
		*col = indent;
	} else {
		putchar(' ');
		(*col)++;
	}
	fputs(word, stdout);
	*col += strlen(word);
}

/* "Usage: ssdtune CMD [--json] [--dry-run] [--OPT ARG]... OPERANDS" */
static void command_usage(const struct command *cmd)
{
	const struct option *o;
	char word[128], arg[32];
	size_t col, indent;

	col = indent = (size_t)printf("Usage: ssdtune %s", cmd->name) + 1;
	synopsis_word("[--json]", &col, indent);
	if (cmd->flags & CMD_DRY_RUN)
		synopsis_word("[--dry-run]", &col, indent);
	for (o = cmd->options; o && o->name; o++) {
		if (!option_arg(cmd, o, arg, sizeof(arg)))
			continue;
		snprintf(word, sizeof(word), "[--%s%s%s]", o->name,
			 o->has_arg == no_argument ? "" : " ",
			 o->has_arg == no_argument ? "" : arg);
		synopsis_word(word, &col, indent);
	}
	if (cmd->args[0])
		synopsis_word(cmd->args, &col, indent);
	printf("\n");
}

static void command_help(const struct command *cmd)
{
	command_usage(cmd);
	printf("\n%s\nOptions:\n%s", cmd->help, common_help);
	if (!(cmd->flags & CMD_DRY_RUN))
		return;
	if (cmd->dry_run)
		printf("  -n, --dry-run %s\n", cmd->dry_run);
	else
		fputs(dry_run_help, stdout);
}

/* The command whose options are being read: an option handler's usage
 * error points at its --help, as the command's own do. */
static const struct command *current;

int usage_error(const struct command *cmd, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!cmd)
		cmd = current;
	if (cmd)
		return out_fail(EXIT_USAGE, "%s: %s (see 'ssdtune %s --help')",
				cmd->name, msg, cmd->name);
	return out_fail(EXIT_USAGE, "%s (see 'ssdtune --help')", msg);
}

static const struct command *find_command(const struct command *const *commands,
					   size_t ncommands, const char *name)
{
	size_t i;

	for (i = 0; i < ncommands; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

enum { OPT_JSON = 0x100, OPT_DRY_RUN, OPT_ROOT, OPT_COMMAND = 0x200 };

static const struct option options[] = {
	{ "json",	no_argument, NULL, OPT_JSON },
	{ "dry-run",	no_argument, NULL, OPT_DRY_RUN },
	{ "root",	required_argument, NULL, OPT_ROOT },
	{ "help",	no_argument, NULL, 'h' },
	{ "version",	no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

#define MAX_OPTIONS 32

/*
 * The short options, one letter for a common long one wherever a command
 * takes it: -j --json, -n --dry-run, -p --profile, -c --config.
 */
static const struct {
	char c;
	const char *name;
} shorts[] = {
	{ 'j', "json" }, { 'n', "dry-run" }, { 'p', "profile" }, { 'c', "config" },
};

/* The getopt string for @opts: "+:h" or ":h", and each short option
 * whose long one @opts has (with ':' when it takes a value). */
static void short_string(const struct option *opts, bool operands_last,
			 char *buf, size_t len)
{
	size_t i, j, n;

	n = (size_t)snprintf(buf, len, "%s:h", operands_last ? "+" : "");
	for (i = 0; i < sizeof(shorts) / sizeof(shorts[0]); i++)
		for (j = 0; opts[j].name; j++)
			if (!strcmp(opts[j].name, shorts[i].name) && n + 3 < len) {
				buf[n++] = shorts[i].c;
				if (opts[j].has_arg == required_argument)
					buf[n++] = ':';
				buf[n] = '\0';
			}
}

/* getopt_long's answer for a short option: the val of its long one. */
static int short_to_long(int c, const struct option *opts)
{
	size_t i, j;

	for (i = 0; i < sizeof(shorts) / sizeof(shorts[0]); i++) {
		if (shorts[i].c != c)
			continue;
		for (j = 0; opts[j].name; j++)
			if (!strcmp(opts[j].name, shorts[i].name))
				return opts[j].val;
	}
	return c;
}

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

/* --dry-run and --root, before the command or after it. */
static void run_option(int c, struct cli *cli, bool *dry_run)
{
	if (c == OPT_DRY_RUN)
		*dry_run = true;
	else
		cli->root = optarg;
}

/* The global options, up to the command ("+": stop at the first
 * operand).  true if that is all: the exit status in *@status. */
static bool global_options(const struct command *const *commands,
			   size_t ncommands, int argc, char **argv,
			   struct cli *cli, bool *dry_run, int *status)
{
	bool version = false;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:hVjn", options, NULL)) != -1) {
		c = short_to_long(c, options);
		switch (c) {
		case OPT_JSON:
			cli->json = true;
			break;
		case OPT_DRY_RUN:
		case OPT_ROOT:
			run_option(c, cli, dry_run);
			break;
		case 'h':
			global_help(stdout, commands, ncommands);
			*status = EXIT_OK;
			return true;
		case 'V':
			version = true;
			break;
		case ':':
			out_begin(NULL, cli->json);
			*status = usage_error(NULL, "option '%s' needs a value",
					      argv[optind - 1]);
			return true;
		default:
			out_begin(NULL, cli->json);
			*status = usage_error(NULL, "unknown option '%s'",
					      bad_option(argv));
			return true;
		}
	}
	if (version) {
		/* --json anywhere among the global options */
		if (cli->json)
			printf("{ \"version\": \"%s\" }\n", SSDTUNE_VERSION);
		else
			printf("ssdtune %s\n", SSDTUNE_VERSION);
		*status = EXIT_OK;
		return true;
	}
	return false;
}

/* The command's own options, anywhere after it.  0, or the exit status
 * of an error already reported. */
static int command_options(const struct command *cmd, int argc, char **argv,
			   struct cli *cli, bool *help, bool *dry_run)
{
	struct option opts[MAX_OPTIONS];
	char optstring[32];
	int c, r;

	if (merge_options(cmd, opts))
		return out_fail(EXIT_USAGE, "%s: too many options", cmd->name);
	short_string(opts, cmd->flags & CMD_OPERANDS_LAST, optstring,
		     sizeof(optstring));
	optind = 0;	/* glibc: start over with this argv */
	while ((c = getopt_long(argc, argv, optstring, opts, NULL)) != -1) {
		c = short_to_long(c, opts);
		switch (c) {
		case OPT_JSON:
			cli->json = true;
			out_set_json(true);
			break;
		case OPT_DRY_RUN:
		case OPT_ROOT:
			run_option(c, cli, dry_run);
			break;
		case 'h':
			*help = true;
			break;
		case ':':
			return usage_error(cmd, "option '%s' needs a value",
					   argv[optind - 1]);
		default:
			if (c >= OPT_COMMAND && cmd->option) {
				r = cmd->option(cli, c, optarg);
				if (r)
					return r;
				break;
			}
			return usage_error(cmd, "unknown option '%s'",
					   bad_option(argv));
		}
	}
	return 0;
}

/*
 * --root DIR (or SSDTUNE_ROOT): run @cmd again in a mount namespace where
 * DIR's recording sits over /sys and /proc's pieces; libnuma has read
 * /sys before main(), hence the exec.  0 once inside; an exit status
 * otherwise.
 */
static int replay_root(const struct command *cmd, const char *root,
		       char **argv)
{
	const char *inside = getenv("SSDTUNE_ROOT_INSIDE");
	struct lib_err err;
	int r;

	if (!(cmd->flags & CMD_REPLAY))
		return usage_error(cmd, "--root (or SSDTUNE_ROOT) replays a recorded host: only topology and plan read one");
	if (inside && !strcmp(inside, root))
		return 0;
	r = hostrec_enter(root, &err);
	if (r == -EINVAL)
		return usage_error(cmd, "%s", err.msg);
	if (r)
		return out_fail_err(&err);
	if (setenv("SSDTUNE_ROOT_INSIDE", root, 1))
		return out_fail(EXIT_REFUSED, "--root: out of memory");
	execv("/proc/self/exe", argv);
	return out_fail(EXIT_REFUSED, "--root: cannot run ssdtune again: %s",
			strerror(errno));
}

/* ssdtune help [COMMAND]: COMMAND --help, or --help. */
static int help_command(const struct command *const *commands,
			size_t ncommands, int argc, char **argv, bool json)
{
	const struct command *cmd;

	if (argc == 1) {
		global_help(stdout, commands, ncommands);
		return EXIT_OK;
	}
	out_begin(NULL, json);
	if (argc > 2)
		return usage_error(NULL, "help takes one command, not '%s'",
				   argv[2]);
	cmd = find_command(commands, ncommands, argv[1]);
	if (!cmd)
		return usage_error(NULL, "help: unknown command '%s'", argv[1]);
	command_help(cmd);
	return EXIT_OK;
}

int cli_main(const struct command *const *commands, size_t ncommands,
	     int argc, char **argv)
{
	const struct command *cmd = NULL;
	struct cli cli = { 0 };
	char **all_argv = argv;
	bool help = false, dry_run_seen = false;
	int r, nargs;

	if (global_options(commands, ncommands, argc, argv, &cli, &dry_run_seen,
			   &r))
		return r;
	if (argc == 1) {
		/* a bare ssdtune: what it can do, as a usage error */
		global_help(stderr, commands, ncommands);
		return EXIT_USAGE;
	}
	if (optind >= argc) {
		out_begin(NULL, cli.json);
		return usage_error(NULL, "no command given");
	}
	if (!strcmp(argv[optind], "help"))
		return help_command(commands, ncommands, argc - optind,
				    argv + optind, cli.json);
	cmd = find_command(commands, ncommands, argv[optind]);
	if (!cmd) {
		out_begin(NULL, cli.json);
		return usage_error(NULL, "unknown command '%s'", argv[optind]);
	}
	argc -= optind;
	argv += optind;
	out_begin(cmd->name, cli.json);
	report_set_array("writes");
	current = cmd;
	r = command_options(cmd, argc, argv, &cli, &help, &dry_run_seen);
	if (r)
		return r;
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
	if (!cli.root && getenv("SSDTUNE_ROOT") && getenv("SSDTUNE_ROOT")[0])
		cli.root = getenv("SSDTUNE_ROOT");
	if (cli.root && (r = replay_root(cmd, cli.root, all_argv)))
		return r;
	sys_write_mode(cli.dry_run);
	out_dry_run_writes(cli.json);
	return cmd->run(cmd, &cli);
}
