// SPDX-License-Identifier: GPL-2.0
/* The configuration file (config.h): text in, struct config out. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/bdf.h"
#include "lib/config.h"
#include "lib/planner.h"

/* The keys besides the knobs, in the order errors list them; each scalar
 * key has its bit in c->seen. */
enum { KEY_CONTROLLER, KEY_PROFILE, KEY_ISOLATE, KEY_IO_CORES, NKEYS };
static const char *const keys[NKEYS] = {
	"controller", "profile", "isolate", "io_cores",
};

void config_init(struct config *c, const char *file)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->file, sizeof(c->file), "%s", file);
	c->profile = PROFILE_BALANCED;
}

/* "FILE:LINE: what", -EINVAL */
static int bad(const struct config *c, struct lib_err *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int bad(const struct config *c, struct lib_err *err, const char *fmt, ...)
{
	char what[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return lib_errf(err, EINVAL, "%s:%d: %s", c->file, c->line, what);
}

static bool blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' ||
	       ch == '\v' || ch == '\f';
}

/* @s without blanks at either end, in place. */
static char *trim(char *s)
{
	size_t n;

	while (blank(*s))
		s++;
	n = strlen(s);
	while (n && blank(s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* Cut a comment: '#' at the start of the line or after a blank. */
static void uncomment(char *s)
{
	char *p;

	for (p = s; *p; p++)
		if (*p == '#' && (p == s || blank(p[-1]))) {
			*p = '\0';
			return;
		}
}

static int parse_controller(struct config *c, const char *v, struct lib_err *err)
{
	static const struct { const char *prefix; enum config_by by; } sel[] = {
		{ "serial:", CONFIG_BY_SERIAL },
		{ "model:", CONFIG_BY_MODEL },
		{ "pci:", CONFIG_BY_PCI },
	};
	struct config_ctrl *cc;
	const char *what = NULL;
	char val[256], *t;
	size_t i, n;
	struct bdf b;

	for (i = 0; i < sizeof(sel) / sizeof(sel[0]) && !what; i++) {
		n = strlen(sel[i].prefix);
		if (!strncmp(v, sel[i].prefix, n))
			what = v + n;
	}
	if (!what)
		return bad(c, err, "bad controller selector '%s' (serial:SERIAL, model:MODEL or pci:DDDD:BB:DD.F)",
			   v);
	i--;
	if ((size_t)snprintf(val, sizeof(val), "%s", what) >= sizeof(val))
		return bad(c, err, "controller value too long (at most %zu bytes)",
			   sizeof(val) - 1);
	/* "serial: X": the blanks after the colon are not the serial's */
	t = trim(val);
	memmove(val, t, strlen(t) + 1);
	if (!val[0])
		return bad(c, err, "controller = %s needs a value after the ':'",
			   config_by_name(sel[i].by));
	if (sel[i].by == CONFIG_BY_PCI) {
		if (bdf_parse(val, &b))
			return bad(c, err, "bad PCI address '%s' (DDDD:BB:DD.F, e.g. 0000:41:00.0)",
				   val);
		bdf_format(&b, val, sizeof(val));
	}
	if (c->nctrls == CONFIG_MAX_CTRLS)
		return bad(c, err, "more than %d controller lines", CONFIG_MAX_CTRLS);
	cc = &c->ctrls[c->nctrls++];
	cc->by = sel[i].by;
	cc->line = c->line;
	snprintf(cc->value, sizeof(cc->value), "%s", val);
	return 0;
}

static int parse_io_cores(struct config *c, const char *v, struct lib_err *err)
{
	unsigned long n;
	char *end;

	if (!strcmp(v, "auto")) {
		c->io_cores = 0;
		return 0;
	}
	errno = 0;
	n = strtoul(v, &end, 10);
	if (!isdigit((unsigned char)v[0]) || *end || errno || n < 1 ||
	    n > CONFIG_IO_CORES_MAX)
		return bad(c, err, "bad number '%s' for io_cores (auto, or a whole number 1..%d)",
			   v, CONFIG_IO_CORES_MAX);
	c->io_cores = (int)n;
	return 0;
}

/* The list of keys for an error: "controller, profile, ..., knobs" */
static void key_names(char *buf, size_t len)
{
	char knobs[256];
	size_t i, n = 0;

	knob_names(knobs, sizeof(knobs));
	buf[0] = '\0';
	for (i = 0; i < NKEYS && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s, ", keys[i]);
	if (n < len)
		snprintf(buf + n, len - n, "%s", knobs);
}

static int key_index(const char *key)
{
	int i;

	for (i = 0; i < NKEYS; i++)
		if (!strcmp(keys[i], key))
			return i;
	return -1;
}

int config_line(struct config *c, const char *text, struct lib_err *err)
{
	char buf[CONFIG_LINE_MAX + 1], why[256], names[512], *line, *eq, *key, *v;
	const struct knob *k = NULL;
	int i;

	c->line++;
	if (strlen(text) > CONFIG_LINE_MAX)
		return bad(c, err, "line longer than %d bytes", CONFIG_LINE_MAX);
	snprintf(buf, sizeof(buf), "%s", text);
	uncomment(buf);
	line = trim(buf);
	if (!line[0])
		return 0;
	eq = strchr(line, '=');
	if (!eq)
		return bad(c, err, "missing '=' in '%s' (KEY = VALUE)", line);
	*eq = '\0';
	key = trim(line);
	v = trim(eq + 1);
	if (!key[0])
		return bad(c, err, "missing key before '='");
	i = key_index(key);
	if (i < 0)
		k = knob_find(key, strlen(key));
	if (i < 0 && !k) {
		key_names(names, sizeof(names));
		return bad(c, err, "unknown key '%s' (keys: %s)", key, names);
	}
	if (!v[0])
		return bad(c, err, "empty value for '%s'", key);
	if (k) {
		for (i = 0; i < c->nknobs; i++)
			if (c->knobs[i].k == k)
				return bad(c, err, "'%s' given twice (first on line %d)",
					   key, c->knobs[i].line);
		if (knob_check(k, v, why, sizeof(why)))
			return bad(c, err, "%s", why);
		if (c->nknobs == CONFIG_MAX_KNOBS)
			return bad(c, err, "more than %d knobs", CONFIG_MAX_KNOBS);
		if ((size_t)snprintf(c->knobs[c->nknobs].value,
				     sizeof(c->knobs[0].value), "%s", v) >=
		    sizeof(c->knobs[0].value))
			return bad(c, err, "the value of '%s' is too long", key);
		c->knobs[c->nknobs].k = k;
		c->knobs[c->nknobs++].line = c->line;
		return 0;
	}
	if (i == KEY_CONTROLLER)
		return parse_controller(c, v, err);
	if (c->seen & (1u << i))
		return bad(c, err, "'%s' given twice", key);
	c->seen |= 1u << i;
	switch (i) {
	case KEY_PROFILE:
		c->profile = plan_profile_parse(v);
		if (c->profile < 0)
			return bad(c, err, "bad profile '%s' (latency, iops, throughput or balanced)",
				   v);
		return 0;
	case KEY_ISOLATE:
		if (strcmp(v, "yes") && strcmp(v, "no"))
			return bad(c, err, "bad value '%s' for isolate (yes or no)", v);
		c->isolate = !strcmp(v, "yes");
		return 0;
	default:
		return parse_io_cores(c, v, err);
	}
}

int config_finish(struct config *c, struct lib_err *err)
{
	if (c->isolate && c->profile == PROFILE_BALANCED)
		return lib_errf(err, EINVAL, "%s: isolate = yes needs the latency, iops or throughput profile (balanced keeps no I/O cores apart)",
				c->file);
	return 0;
}

int config_parse_file(FILE *f, const char *file, struct config *c,
		      struct lib_err *err)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int r = 0;

	config_init(c, file);
	while (!r && (n = getline(&line, &cap, f)) >= 0) {
		if ((size_t)n != strlen(line)) {
			c->line++;
			r = bad(c, err, "a NUL byte: not a text file");
			break;
		}
		/* the newline is not the line's: 1024 bytes fit, as in a string */
		if (n && line[n - 1] == '\n')
			line[n - 1] = '\0';
		r = config_line(c, line, err);
	}
	free(line);
	if (!r && ferror(f))
		r = lib_errf(err, EIO, "%s: cannot read: %s", file, strerror(EIO));
	return r ? r : config_finish(c, err);
}

int config_load(const char *path, struct config *c, struct lib_err *err)
{
	FILE *f = fopen(path, "r");
	int r;

	config_init(c, path);
	if (!f)
		return lib_errf(err, errno, "cannot read %s: %s", path, strerror(errno));
	r = config_parse_file(f, path, c, err);
	fclose(f);
	return r;
}

int config_parse_string(const char *text, const char *file, struct config *c,
			struct lib_err *err)
{
	char line[CONFIG_LINE_MAX + 2];
	const char *p = text, *nl;
	size_t n;
	int r;

	config_init(c, file);
	while (*p) {
		nl = strchr(p, '\n');
		n = nl ? (size_t)(nl - p) : strlen(p);
		/* one byte more than a line may have: config_line says so */
		if (n > CONFIG_LINE_MAX + 1)
			n = CONFIG_LINE_MAX + 1;
		memcpy(line, p, n);
		line[n] = '\0';
		r = config_line(c, line, err);
		if (r)
			return r;
		p = nl ? nl + 1 : p + strlen(p);
	}
	return config_finish(c, err);
}

/* @a and @b equal, blanks at the ends aside (sysfs pads some). */
static bool same_trimmed(const char *a, const char *b)
{
	size_t la, lb;

	while (blank(*a))
		a++;
	while (blank(*b))
		b++;
	la = strlen(a);
	lb = strlen(b);
	while (la && blank(a[la - 1]))
		la--;
	while (lb && blank(b[lb - 1]))
		lb--;
	return la && la == lb && !strncmp(a, b, la);
}

bool config_ctrl_matches(const struct config_ctrl *cc, const char *bdf,
			 const char *serial, const char *model)
{
	return (cc->by == CONFIG_BY_PCI && bdf && !strcmp(cc->value, bdf)) ||
	       (cc->by == CONFIG_BY_SERIAL && serial && same_trimmed(cc->value, serial)) ||
	       (cc->by == CONFIG_BY_MODEL && model && same_trimmed(cc->value, model));
}

int config_selects(const struct config *c, const char *bdf,
		   const char *serial, const char *model)
{
	int i;

	for (i = 0; i < c->nctrls; i++)
		if (config_ctrl_matches(&c->ctrls[i], bdf, serial, model))
			return i;
	return -1;
}

const char *config_by_name(enum config_by by)
{
	/* lint-names: the configuration's keys */
	static const char *const names[] = { "serial", "model", "pci" };

	return names[by];
}
