// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune set [CTRL] KNOB=VALUE...: a validated front end to the driver's
 * knobs in /sys/class/ssdtune/ssdtN/.  Every value is checked before any
 * is written; what a knob write changes is saved first in the same state
 * directory as apply (state.c), so `ssdtune revert` undoes it.
 *
 * coalesce_profile writes set coalesce_mode, coalesce_threshold and
 * coalesce_time_us, and a profile file reading "custom" cannot be written
 * back, so every coalescing knob saves those three files (never the profile
 * file): revert restores the settings, and the profile name follows.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/bdf.h"
#include "cmd/cli.h"
#include "cmd/output.h"
#include "lib/parse.h"
#include "lib/state.h"
#include "lib/sysfs.h"

#define MAX_KNOBS	16

enum knob_type { KNOB_WORD, KNOB_UINT, KNOB_TEXT };

struct knob {
	const char *name;
	enum knob_type type;
	const char *const *words;	/* KNOB_WORD */
	unsigned long max;		/* KNOB_UINT */
	const char *const *saves;	/* files whose values a write changes */
};

static const char *const coalesce_modes[] = { "off", "hw", "host", "auto", NULL };
static const char *const coalesce_profiles[] = {
	"balanced", "iops", "latency", "adaptive", "off", NULL,
};
static const char *const power_modes[] = { "hw", "host", "auto", NULL };
static const char *const coalesce_files[] = {
	"coalesce_mode", "coalesce_threshold", "coalesce_time_us", NULL,
};
static const char *const power_limit_files[] = { "power_limit_mw", NULL };
static const char *const power_mode_files[] = { "power_limit_mode", NULL };
static const char *const energy_files[] = { "energy_model", NULL };

/* Ranges as Documentation/ABI/testing/sysfs-class-ssdtune gives them. */
static const struct knob knobs[] = {
	{ "coalesce_mode", KNOB_WORD, coalesce_modes, 0, coalesce_files },
	{ "coalesce_threshold", KNOB_UINT, NULL, 256, coalesce_files },
	{ "coalesce_time_us", KNOB_UINT, NULL, 25500, coalesce_files },
	{ "coalesce_profile", KNOB_WORD, coalesce_profiles, 0, coalesce_files },
	{ "power_limit_mw", KNOB_UINT, NULL, 1000000, power_limit_files },
	{ "power_limit_mode", KNOB_WORD, power_modes, 0, power_mode_files },
	{ "energy_model", KNOB_TEXT, NULL, 0, energy_files },
};

#define NKNOBS (sizeof(knobs) / sizeof(knobs[0]))

static const char *set_state_dir = STATE_DIR_DEFAULT;

enum { OPT_STATE_DIR = 0x200 };

static const struct option set_options[] = {
	{ "state-dir",	required_argument, NULL, OPT_STATE_DIR },
	{ NULL, 0, NULL, 0 },
};

static int set_option(struct cli *cli, int val, const char *arg)
{
	(void)cli;
	if (val == OPT_STATE_DIR) {
		if (!arg[0])
			return usage_error(NULL, "--state-dir needs a directory");
		set_state_dir = arg;
	}
	return 0;
}

/* DIR/NAME into @buf; controller directories are short, so a path that
 * does not fit is left empty (and then does not exist). */
static void knob_path(char *buf, size_t len, const char *dir, const char *name)
{
	if ((size_t)snprintf(buf, len, "%s/%s", dir, name) >= len)
		buf[0] = '\0';
}

static const struct knob *find_knob(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < NKNOBS; i++)
		if (strlen(knobs[i].name) == len && !strncmp(knobs[i].name, name, len))
			return &knobs[i];
	return NULL;
}

static void knob_names(char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < NKNOBS && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "",
				      knobs[i].name);
}

static void word_list(const char *const *w, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (; *w && n < len; w++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", *w);
}

/* NULL if @v suits @k, else what is wrong (into @why). */
static const char *check_value(const struct knob *k, const char *v, char *why,
			       size_t len)
{
	const char *const *w;
	char words[128], *end;
	unsigned long n;

	switch (k->type) {
	case KNOB_WORD:
		for (w = k->words; *w; w++)
			if (!strcmp(*w, v))
				return NULL;
		word_list(k->words, words, sizeof(words));
		snprintf(why, len, "%s must be one of %s, not '%s'", k->name, words, v);
		return why;
	case KNOB_UINT:
		errno = 0;
		n = strtoul(v, &end, 10);
		if (v[0] < '0' || v[0] > '9' || *end || errno || n > k->max) {
			snprintf(why, len, "%s must be a whole number 0..%lu, not '%s'",
				 k->name, k->max, v);
			return why;
		}
		return NULL;
	case KNOB_TEXT:
		if (!v[0] || strpbrk(v, "\n")) {
			snprintf(why, len, "%s needs a one-line value", k->name);
			return why;
		}
		return NULL;
	}
	return NULL;
}

/* The controller directory for @arg (ssdtN or a PCI address), or the only
 * controller when @arg is NULL. */
static int find_ctrl(const char *arg, char *dir, size_t len)
{
	char name[64], pci[64], want[BDF_BUFSZ] = "", path[PATH_MAX];
	int i, found = 0;
	struct bdf b;

	if (arg && !bdf_parse(arg, &b))
		bdf_format(&b, want, sizeof(want));
	if (!sys_is_dir(SYS_SSDT_CLASS))
		return out_fail(EXIT_REFUSED,
				"set: no %s: is ssdtune.ko loaded?", SYS_SSDT_CLASS);
	for (i = 0; i < 1024; i++) {
		snprintf(name, sizeof(name), SSDTUNE_CTRL_PREFIX "%d", i);
		snprintf(path, sizeof(path), SYS_SSDT_CLASS "/%s", name);
		if (!sys_is_dir(path))
			continue;
		snprintf(path, sizeof(path), SYS_SSDT_CLASS "/%s/pci_address", name);
		if (sys_read(path, pci, sizeof(pci)))
			pci[0] = '\0';
		if (arg && strcmp(arg, name) && strcmp(want, pci))
			continue;
		if (found++)
			return out_fail(EXIT_USAGE,
					"set: more than one controller is attached to ssdtune: name one (ssdtN or its PCI address)");
		snprintf(dir, len, SYS_SSDT_CLASS "/%s", name);
	}
	if (found)
		return 0;
	if (arg)
		return out_fail(EXIT_REFUSED,
				"set: no ssdtune controller '%s' (see 'ssdtune topology')", arg);
	return out_fail(EXIT_REFUSED,
			"set: no controller is attached to ssdtune (see 'ssdtune attach')");
}

struct assignment {
	const struct knob *k;
	const char *value;
	char path[PATH_MAX];
};

static int parse_args(const struct command *cmd, struct cli *cli, const char **ctrl, struct assignment *a,
		      int *na)
{
	char why[256], names[256];
	int i;

	*ctrl = NULL;
	*na = 0;
	for (i = 0; i < cli->argc; i++) {
		const char *arg = cli->argv[i], *eq = strchr(arg, '=');

		if (!eq) {
			if (*ctrl)
				return usage_error(cmd, "'%s': expected KNOB=VALUE", arg);
			*ctrl = arg;
			continue;
		}
		if (*na == MAX_KNOBS)
			return usage_error(cmd, "at most %d knobs at once", MAX_KNOBS);
		a[*na].k = find_knob(arg, (size_t)(eq - arg));
		if (!a[*na].k) {
			knob_names(names, sizeof(names));
			return usage_error(cmd, "unknown knob '%.*s' (knobs: %s)",
					   (int)(eq - arg), arg, names);
		}
		a[*na].value = eq + 1;
		if (check_value(a[*na].k, a[*na].value, why, sizeof(why)))
			return usage_error(cmd, "%s", why);
		(*na)++;
	}
	if (!*na)
		return usage_error(cmd, "no KNOB=VALUE given");
	return 0;
}

/* Save (once: the first value is the original) every file @a changes. */
static int save_knob(struct state *s, const char *dir, const struct assignment *a)
{
	const char *const *f;
	char path[PATH_MAX], raw[4096];
	int r;

	for (f = a->k->saves; *f; f++) {
		knob_path(path, sizeof(path), dir, *f);
		if (state_find(s, path))
			continue;
		r = state_read_raw(path, raw, sizeof(raw));
		if (r)
			return out_fail(EXIT_REFUSED, "set: cannot read %s: %s", path,
					strerror(-r));
		if (state_add(s, path, path, raw, raw, NULL, -1))
			return out_fail(EXIT_REFUSED, "set: out of memory");
	}
	return 0;
}

/* After the writes: what each saved file of @dir reads now is what verify
 * expects (the driver may round, and a profile sets three files). */
static int record_now(struct state *s, const char *dir)
{
	char now[4096];
	size_t dl = strlen(dir);
	int i;

	for (i = 0; i < s->n; i++) {
		struct state_entry *e = &s->e[i];

		if (strncmp(e->path, dir, dl) || e->path[dl] != '/')
			continue;
		if (state_read_raw(e->path, now, sizeof(now)))
			continue;
		if (state_set(&e->val, now))
			return out_fail(EXIT_REFUSED, "set: out of memory");
	}
	return 0;
}

/* The files @a..@a+na change, as they read before this command. */
struct before {
	char path[PATH_MAX];
	char raw[4096];
};

static int snapshot(const char *dir, const struct assignment *a, int na,
		    struct before *b, int *nb)
{
	const char *const *f;
	int i, j, r;

	*nb = 0;
	for (i = 0; i < na; i++)
		for (f = a[i].k->saves; *f; f++) {
			char path[PATH_MAX];

			knob_path(path, sizeof(path), dir, *f);
			for (j = 0; j < *nb && strcmp(b[j].path, path); j++)
				;
			if (j < *nb)
				continue;
			if (*nb == MAX_KNOBS)
				return out_fail(EXIT_USAGE, "set: too many knobs at once");
			snprintf(b[j].path, sizeof(b[j].path), "%s", path);
			r = state_read_raw(path, b[j].raw, sizeof(b[j].raw));
			if (r)
				return out_fail(EXIT_REFUSED, "set: cannot read %s: %s",
						path, strerror(-r));
			(*nb)++;
		}
	return 0;
}

/* A write was refused: put back what this command changed, in reverse. */
static void roll_back(const struct before *b, int nb)
{
	char now[4096];

	while (nb--) {
		if (!state_read_raw(b[nb].path, now, sizeof(now)) &&
		    !strcmp(now, b[nb].raw))
			continue;
		sys_write(b[nb].path, b[nb].raw);
	}
}

static int cmd_set(const struct command *cmd, struct cli *cli)
{
	static struct before b[MAX_KNOBS];
	int nb;
	struct assignment a[MAX_KNOBS];
	char dir[PATH_MAX], err1[PATH_MAX + 128] = "";
	struct state s = { 0 };
	int r, i, na, fd = -1, failed = 0;
	struct lib_err err;
	const char *ctrl;

	r = parse_args(cmd, cli, &ctrl, a, &na);
	if (r)
		return r;
	r = find_ctrl(ctrl, dir, sizeof(dir));
	if (r)
		return r;
	for (i = 0; i < na; i++) {
		knob_path(a[i].path, sizeof(a[i].path), dir, a[i].k->name);
		if (!sys_exists(a[i].path))
			return out_fail(EXIT_REFUSED,
					"set: %s has no %s (a driver without this knob?)",
					dir, a[i].k->name);
	}
	out_set_str("controller", strrchr(dir, '/') + 1);
	r = snapshot(dir, a, na, b, &nb);
	if (r)
		return r;
	if (!cli->dry_run) {
		fd = state_lock(set_state_dir, &err);
		if (fd < 0)
			return out_fail_err(&err);
		r = state_load(set_state_dir, &s, &err);
		if (r == -ENOENT) {
			r = 0;
			snprintf(s.profile, sizeof(s.profile), "set");
		} else if (r) {
			r = out_fail_err(&err);
		}
		for (i = 0; !r && i < na; i++)
			r = save_knob(&s, dir, &a[i]);
		if (!r && state_save(set_state_dir, &s, &err))
			r = out_fail_err(&err);
		if (r)
			goto out;
	}
	for (i = 0; i < na; i++) {
		int w = sys_write(a[i].path, a[i].value);

		if (w && !failed++)
			snprintf(err1, sizeof(err1), "%s <- %s: %s", a[i].path,
				 a[i].value, strerror(-w));
		if (!w && !cli->dry_run && !out_json())
			printf("%s = %s\n", a[i].path, a[i].value);
	}
	if (failed && !cli->dry_run)
		roll_back(b, nb);
	if (!cli->dry_run) {
		r = record_now(&s, dir);
		if (!r && state_save(set_state_dir, &s, &err))
			r = out_fail_err(&err);
		if (r)
			goto out;
		json_object_object_add(out_obj(), "state_dir",
				       json_object_new_string(set_state_dir));
	}
	if (failed)
		r = out_fail(EXIT_REFUSED, "set: the driver refused %d of %d writes, so none is kept; first: %s",
			     failed, na, err1);
	else
		r = out_done();
out:
	state_unlock(fd);
	state_free(&s);
	return r;
}

const struct command set_command = {
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
};
