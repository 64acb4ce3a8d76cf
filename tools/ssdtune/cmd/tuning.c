// SPDX-License-Identifier: GPL-2.0
/*
 * The options plan, apply, verify and revert share, and how a plan is
 * shown (cmd/tuning.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cmd/output.h"
#include "cmd/tuning.h"
#include "lib/cgroup.h"
#include "lib/ctrls.h"
#include "lib/devname.h"
#include "lib/knobtab.h"
#include "lib/plangroup.h"
#include "lib/state.h"

enum { OPT_PROFILE = 0x200, OPT_STATE_DIR, OPT_FORCE, OPT_ISOLATE, OPT_PARTITION,
       OPT_BOOT, OPT_IO_CORES, OPT_CONFIG, OPT_VERBOSE };

const struct option plan_options[] = {
	{ "profile",	required_argument, NULL, OPT_PROFILE },
	{ "isolate",	no_argument, NULL, OPT_ISOLATE },
	{ "partition",	required_argument, NULL, OPT_PARTITION },
	{ "boot",	no_argument, NULL, OPT_BOOT },
	{ "io-cores",	required_argument, NULL, OPT_IO_CORES },
	{ "verbose",	no_argument, NULL, OPT_VERBOSE },
	{ NULL, 0, NULL, 0 },
};

const struct option apply_options[] = {
	{ "profile",	required_argument, NULL, OPT_PROFILE },
	{ "isolate",	no_argument, NULL, OPT_ISOLATE },
	{ "partition",	required_argument, NULL, OPT_PARTITION },
	{ "boot",	no_argument, NULL, OPT_BOOT },
	{ "io-cores",	required_argument, NULL, OPT_IO_CORES },
	{ "config",	required_argument, NULL, OPT_CONFIG },
	{ "state-dir",	required_argument, NULL, OPT_STATE_DIR },
	{ "verbose",	no_argument, NULL, OPT_VERBOSE },
	{ NULL, 0, NULL, 0 },
};

const struct option verify_options[] = {
	{ "config",	required_argument, NULL, OPT_CONFIG },
	{ "state-dir",	required_argument, NULL, OPT_STATE_DIR },
	{ "verbose",	no_argument, NULL, OPT_VERBOSE },
	{ NULL, 0, NULL, 0 },
};

const struct option config_state_options[] = {
	{ "config",	required_argument, NULL, OPT_CONFIG },
	{ "state-dir",	required_argument, NULL, OPT_STATE_DIR },
	{ NULL, 0, NULL, 0 },
};

const struct option state_options[] = {
	{ "state-dir",	required_argument, NULL, OPT_STATE_DIR },
	{ NULL, 0, NULL, 0 },
};

const struct option revert_options[] = {
	{ "state-dir",	required_argument, NULL, OPT_STATE_DIR },
	{ "force",	no_argument, NULL, OPT_FORCE },
	{ NULL, 0, NULL, 0 },
};

static struct plan_opts opts = { .profile = PROFILE_BALANCED };
static const char *state_dir, *config_path;
static bool force, verbose;
static const char *plan_option;		/* --profile, --isolate or --io-cores
					 * seen (the config's keys) */
static struct config config;
static bool config_loaded;

/* "auto" or 1..CONFIG_IO_CORES_MAX: the count; "auto" 0; -1 if bad */
static int io_cores_parse(const char *arg)
{
	char *end;
	long n;

	if (!strcmp(arg, "auto"))
		return 0;
	errno = 0;
	n = strtol(arg, &end, 10);
	if (arg[0] < '0' || arg[0] > '9' || *end || errno || n < 1 ||
	    n > CONFIG_IO_CORES_MAX)
		return -1;
	return (int)n;
}

int tuning_option(struct cli *cli, int val, const char *arg)
{
	(void)cli;
	if (val == OPT_PROFILE || val == OPT_ISOLATE || val == OPT_IO_CORES)
		plan_option = val == OPT_PROFILE ? "--profile" :
			      val == OPT_ISOLATE ? "--isolate" : "--io-cores";
	if (val == OPT_PROFILE) {
		opts.profile = plan_profile_parse(arg);
		if (opts.profile < 0)
			return usage_error(NULL, "unknown profile '%s' (latency, iops, throughput or balanced)",
					   arg);
	} else if (val == OPT_ISOLATE) {
		opts.isolate = true;
	} else if (val == OPT_BOOT) {
		opts.boot = true;
	} else if (val == OPT_PARTITION) {
		if (!cgroup_name_valid(arg))
			return usage_error(NULL, "--partition '%s': not a cgroup name the tool may create (letters, digits, '-', '_', '.'; not starting with '.', 'cgroup.' or 'cpuset.')",
					   arg);
		opts.partition = arg;
	} else if (val == OPT_STATE_DIR) {
		if (!arg[0])
			return usage_error(NULL, "--state-dir needs a directory");
		state_dir = arg;
	} else if (val == OPT_FORCE) {
		force = true;
	} else if (val == OPT_VERBOSE) {
		verbose = true;
	} else if (val == OPT_IO_CORES) {
		opts.io_cores = io_cores_parse(arg);
		if (opts.io_cores < 0)
			return usage_error(NULL, "--io-cores '%s': auto, or a whole number 1..%d",
					   arg, CONFIG_IO_CORES_MAX);
	} else if (val == OPT_CONFIG) {
		if (!arg[0])
			return usage_error(NULL, "--config needs a file");
		config_path = arg;
	}
	return 0;
}

int tuning_names(const struct command *cmd, const struct cli *cli)
{
	char bdf[BDF_BUFSZ];
	struct lib_err err;
	int i, r;

	for (i = 0; i < cli->argc; i++) {
		r = devname_bdf(cli->argv[i], bdf, sizeof(bdf), &err);
		if (r == -EINVAL || r == -ENOTUNIQ)
			return usage_error(cmd, "%s", err.msg);
	}
	return 0;
}

int tuning_config(const struct command *cmd, const struct config **c)
{
	struct lib_err err;
	int i;

	*c = NULL;
	if (!config_path)
		return 0;
	if (plan_option)
		return usage_error(cmd, "%s cannot go with --config: the profile, isolate and io_cores come from %s",
				   plan_option, config_path);
	if (!config_loaded) {
		if (config_load(config_path, &config, &err))
			return out_fail(EXIT_USAGE, "%s", err.msg);
		config_loaded = true;
		opts.profile = config.profile;
		opts.isolate = config.isolate;
		opts.io_cores = config.io_cores;
		for (i = 0; i < config.nknobs; i++) {
			const char *name = config.knobs[i].k->name;

			opts.keep_coalesce |= !strncmp(name, "coalesce_", 9);
			opts.keep_power |= !strcmp(name, KNOB_FILE(power_limit_mw));
			opts.keep_apst |= !strcmp(name, KNOB_FILE(apst_max_latency_us));
			opts.keep_poll |= !strcmp(name, KNOB_FILE(poll_queues));
		}
	}
	*c = &config;
	return 0;
}

bool tuning_verbose(void)
{
	return verbose;
}

bool tuning_force(void)
{
	return force;
}

int tuning_config_ctrls(const struct config *c, struct ctrl_id **ids, int *n)
{
	struct json_object *o = json_object_new_object(), *arr = json_object_new_array(),
		*absent = json_object_new_array();
	bool matched[CONFIG_MAX_CTRLS];
	struct lib_err err;
	int i;

	json_object_object_add(o, "file", json_object_new_string(c->file));
	json_object_object_add(o, "controllers", arr);
	json_object_object_add(o, "absent", absent);
	json_object_object_add(report_obj(), "config", o);
	*n = ctrls_configured(c, ids, matched, &err);
	if (*n < 0)
		return out_fail_err(&err);
	for (i = 0; i < *n; i++) {
		const struct ctrl_id *id = &(*ids)[i];
		struct json_object *j = json_object_new_object();

		json_object_object_add(j, "pci_address", json_object_new_string(id->bdf));
		json_object_object_add(j, "driver", json_object_new_string(id->driver));
		json_object_object_add(j, "controller", id->ctrl[0] ?
				       json_object_new_string(id->ctrl) : NULL);
		json_object_object_add(j, "line", json_object_new_int(id->line));
		json_object_array_add(arr, j);
	}
	for (i = 0; i < c->nctrls; i++) {
		char sel[300];

		if (matched[i])
			continue;
		snprintf(sel, sizeof(sel), "%s:%s", config_by_name(c->ctrls[i].by),
			 c->ctrls[i].value);
		json_object_array_add(absent, json_object_new_string(sel));
		if (!out_json())
			printf("note: %s:%d: controller = %s is not present\n", c->file,
			       c->ctrls[i].line, sel);
	}
	return 0;
}

const struct plan_opts *tuning_opts(const struct command *cmd, int *usage)
{
	const struct config *c;

	*usage = tuning_config(cmd, &c);
	if (*usage)
		return &opts;
	if ((opts.isolate || opts.boot) && opts.profile == PROFILE_BALANCED)
		*usage = usage_error(cmd, "--%s needs the latency, iops or throughput profile (balanced keeps no I/O cores apart)",
				     opts.isolate ? "isolate" : "boot");
	else if (opts.partition && !opts.isolate)
		*usage = usage_error(cmd, "--partition names the partition of --isolate");
	return &opts;
}

const char *tuning_state_dir(void)
{
	return state_dir ? state_dir : state_dir_env();
}

static const char *kind_name(enum plan_kind k)
{
	static const char *const names[] = { "set", "keep", "skip", "note" };

	return names[k];
}

/* The irqbalance the plan found running, or NULL (null) for none. */
static struct json_object *json_irqbalance(const struct plan *p)
{
	struct json_object *ib;

	if (!p->irqbalance.pid)
		return NULL;
	ib = json_object_new_object();
	json_object_object_add(ib, "pid", json_object_new_int(p->irqbalance.pid));
	json_object_object_add(ib, "systemd_unit",
			       json_object_new_boolean(p->irqbalance.unit));
	json_object_object_add(ib, "args", json_object_new_string(p->irqbalance.args));
	json_object_object_add(ib, "banned_cpulist",
			       json_object_new_string(p->irqbalance.banned_cpus));
	return ib;
}

static struct json_object *json_devices(const struct plan *p)
{
	struct json_object *devs = json_object_new_array();
	int i;

	for (i = 0; i < p->ndevs; i++) {
		const struct plan_dev *d = &p->devs[i];
		struct json_object *j = json_object_new_object();

		json_object_object_add(j, "pci_address", json_object_new_string(d->bdf));
		json_object_object_add(j, "driver", json_object_new_string(d->driver));
		json_object_object_add(j, "controller", d->ssdt[0] ?
				       json_object_new_string(d->ssdt) : NULL);
		json_object_object_add(j, "numa_node", json_object_new_int(d->node));
		json_object_object_add(j, "irq_cpus", json_object_new_string(d->irq_cpus));
		json_object_object_add(j, "io_cpus", json_object_new_string(d->io_cpus));
		json_object_object_add(j, "vectors", json_object_new_int(d->nvectors));
		json_object_object_add(j, "managed_vectors", json_object_new_int(d->nmanaged));
		json_object_array_add(devs, j);
	}
	return devs;
}

static struct json_object *json_changes(const struct plan *p)
{
	struct json_object *items = json_object_new_array();
	int i;

	for (i = 0; i < p->nitems; i++) {
		const struct plan_item *it = &p->items[i];
		struct json_object *j = json_object_new_object();

		json_object_object_add(j, "action", json_object_new_string(kind_name(it->kind)));
		if (it->kind != PLAN_NOTE) {
			json_object_object_add(j, "path", json_object_new_string(it->path));
			json_object_object_add(j, "old", json_object_new_string(it->old));
			json_object_object_add(j, "new", json_object_new_string(it->val));
		}
		json_object_object_add(j, "reason", json_object_new_string(it->reason));
		if (it->vector >= 0) {
			json_object_object_add(j, "pci_address", json_object_new_string(it->bdf));
			json_object_object_add(j, "vector", json_object_new_int(it->vector));
		}
		json_object_array_add(items, j);
	}
	return items;
}

#define PLAN_INDENT	4

/*
 * The width a plan's text is wrapped to: on a terminal its width (80 if
 * it does not say), else 0: one line an entry, "path: old -> new
 * (reason)", for grep and for the golden plans.
 */
static int plan_cols(void)
{
	static int cols = -1;
	struct winsize ws;

	if (cols >= 0)
		return cols;
	cols = 0;
	if (isatty(STDOUT_FILENO))
		cols = !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col >= 40 ?
			ws.ws_col : 80;
	return cols;
}

/*
 * Print @text word-wrapped at plan_cols() columns: the first line from
 * column @col0 (what precedes it there is printed), the others indented
 * by @indent.  A word longer than a line (a path) keeps a line of its own.
 */
static void print_wrapped(const char *text, int col0, int indent)
{
	int col = col0, cols = plan_cols();

	while (*text) {
		size_t w = strcspn(text, " ");

		if (col > col0 && col + 1 + (int)w > cols) {
			printf("\n%*s", indent, "");
			col = indent;
		} else if (col > col0) {
			putchar(' ');
			col++;
		}
		printf("%.*s", (int)w, text);
		col += (int)w;
		text += w;
		text += strspn(text, " ");
	}
	putchar('\n');
}

/*
 * A change, "WHAT: HOW  (REASON)" (a skip: "WHAT: skipped: REASON").  On
 * a terminal: "WHAT: HOW" (wrapped lines indented by 8), the reason on
 * lines of its own indented by 4.
 */
static void print_change(const char *what, const char *how, const char *reason)
{
	bool skip = !strcmp(how, "skipped");
	char line[PATH_MAX + 512];

	if (!plan_cols()) {
		printf(skip ? "%s: %s: %s\n" : "%s: %s  (%s)\n", what, how, reason);
		return;
	}
	snprintf(line, sizeof(line), "%s: %s", what, how);
	print_wrapped(line, 0, 2 * PLAN_INDENT);
	printf("%*s", PLAN_INDENT, "");
	print_wrapped(reason, PLAN_INDENT, PLAN_INDENT);
}

static void print_line(const char *text)
{
	if (plan_cols())
		print_wrapped(text, 0, PLAN_INDENT);
	else
		printf("%s\n", text);
}

static void print_item(const struct plan_item *it)
{
	char how[512];

	switch (it->kind) {
	case PLAN_SET:
		if (it->type == TYPE_DROPIN)	/* a file: its gist */
			snprintf(how, sizeof(how), "%s -> written",
				 it->old[0] ? "other content" : "absent");
		else
			snprintf(how, sizeof(how), "%s -> %s",
				 it->old[0] ? it->old : "\"\"", it->val);
		print_change(it->path, how, it->reason);
		break;
	case PLAN_KEEP:
		snprintf(how, sizeof(how), "%s already",
			 it->type == TYPE_DROPIN ? "written" : it->val);
		print_change(it->path, how, it->reason);
		break;
	case PLAN_SKIP:
		print_change(it->path, "skipped", it->reason);
		break;
	case PLAN_NOTE:
		printf("note: ");
		if (plan_cols())
			print_wrapped(it->reason, (int)strlen("note: "), PLAN_INDENT);
		else
			printf("%s\n", it->reason);
		break;
	}
}

/* One entry a group of items (lib/plangroup.h); with --verbose, or if
 * memory runs short, one an item. */
static void print_items(const struct plan *p)
{
	struct plan_group *g = NULL;
	char what[PATH_MAX + 64], how[TOPO_LIST + 128];
	int i, n = 0;

	if (verbose || plan_group(p, &g, &n)) {
		for (i = 0; i < p->nitems; i++)
			print_item(&p->items[i]);
		return;
	}
	for (i = 0; i < n; i++) {
		const struct plan_item *it = &p->items[g[i].first];

		if (g[i].n == 1) {
			print_item(it);
			continue;
		}
		snprintf(what, sizeof(what), "%s on %s", g[i].what, g[i].who);
		if (g[i].mixed)	/* vectors, each its own value */
			snprintf(how, sizeof(how), "%s CPUs %s, each vector on one of them (--verbose: each)",
				 it->kind == PLAN_SET ? "->" : "already on", g[i].val);
		else if (it->kind == PLAN_SET && g[i].val[0])	/* vectors */
			snprintf(how, sizeof(how), "-> %s", it->val);
		else if (it->kind == PLAN_SET)
			snprintf(how, sizeof(how), "%s -> %s",
				 it->old[0] ? it->old : "\"\"", it->val);
		else if (it->kind == PLAN_KEEP)
			snprintf(how, sizeof(how), "%s already", it->val);
		else
			snprintf(how, sizeof(how), "skipped");
		print_change(what, how, g[i].reason);
	}
	free(g);
}

static void print_plan(const struct plan *p)
{
	char line[1024];
	size_t o;
	int i;

	o = (size_t)snprintf(line, sizeof(line), "profile %s", plan_profile_name(p->profile));
	if (plan_latency_bound_us(p->profile) >= 0)
		o += (size_t)snprintf(line + o, sizeof(line) - o,
				      ": C-states with exit latency above %d us off on the chosen cores",
				      plan_latency_bound_us(p->profile));
	if (plan_rules(p->profile)->trade && o < sizeof(line))
		snprintf(line + o, sizeof(line) - o, "; trades %s",
			 plan_rules(p->profile)->trade);
	print_line(line);
	for (i = 0; i < p->ndevs; i++) {
		const struct plan_dev *d = &p->devs[i];

		o = (size_t)snprintf(line, sizeof(line),
				     "device %s (%s%s%s, node %d): interrupt cores %s, I/O cores %s",
				     d->bdf, d->driver[0] ? d->driver : "no driver",
				     d->ssdt[0] ? " " : "", d->ssdt, d->node, d->irq_cpus,
				     d->io_cpus);
		if (d->nmanaged && o < sizeof(line))
			snprintf(line + o, sizeof(line) - o,
				 "; %d of %d vectors kernel-managed (not steerable)",
				 d->nmanaged, d->nvectors);
		print_line(line);
	}
	print_items(p);
}

void tuning_show_plan(const struct plan *p)
{
	struct json_object *o = report_obj();

	json_object_object_add(o, "profile", json_object_new_string(plan_profile_name(p->profile)));
	json_object_object_add(o, "cstate_latency_bound_us",
			       json_object_new_int(plan_latency_bound_us(p->profile)));
	json_object_object_add(o, "irq_cpus", json_object_new_string(p->irq_cpus));
	json_object_object_add(o, "io_cpus", json_object_new_string(p->io_cpus));
	json_object_object_add(o, "housekeeping_cpus", json_object_new_string(p->housekeeping));
	json_object_object_add(o, "boot_cmdline", json_object_new_string(p->cmdline));
	json_object_object_add(o, "irqbalance", json_irqbalance(p));
	json_object_object_add(o, "devices", json_devices(p));
	json_object_object_add(o, "changes", json_changes(p));
	if (!out_json())
		print_plan(p);
}

void tuning_count(const struct plan *p, int *set, int *keep, int *skip)
{
	int i;

	*set = *keep = *skip = 0;
	for (i = 0; i < p->nitems; i++) {
		*set += p->items[i].kind == PLAN_SET;
		*keep += p->items[i].kind == PLAN_KEEP;
		*skip += p->items[i].kind == PLAN_SKIP;
	}
}
