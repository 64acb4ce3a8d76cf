// SPDX-License-Identifier: GPL-2.0
/*
 * A seeded fuzz of the tool's own input parsers, built with ASan and UBSan
 * (make fuzz; Documentation/testing.md "Fuzzing the tool's inputs").
 *
 *	tests/fuzz [--seed S] [--time SECONDS] [--iters N] [--out DIR]
 *	tests/fuzz --replay FILE	(the target is FILE's directory name)
 *
 * Each target takes one input (bytes) and calls the real library
 * functions on it in-process: the configuration file (config.c), the
 * saved state (state.c), /proc/interrupts lines (irqvec.c), cpulists and
 * masks (cpuset.c), the procfs/sysfs text helpers (parse.c, bdf.c) and the
 * GRUB drop-in the tool wrote (dropin.c).  Inputs: the regression inputs
 * of tests/fuzz-corpus/TARGET first, the seeds of tests/fuzz-seeds/TARGET
 * (and the shipped example config, this host's /proc/interrupts), then
 * mutations of them and random bytes.  Input I of a target is made from
 * a generator seeded by (seed, target, I) alone, so a seed and an
 * iteration name one input.  A crash (ASan, UBSan: the death callback),
 * a hang or a broken property writes the input to OUT/TARGET/ and says
 * how to replay it.  TAP on stdout, one line per target.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>

#include "lib/bdf.h"
#include "lib/config.h"
#include "lib/cpuset.h"
#include "lib/dropin.h"
#include "lib/irqvec.h"
#include "lib/parse.h"
#include "lib/planner.h"
#include "lib/state.h"

#define INPUT_MAX	(64 * 1024)
#define MAX_SEEDS	64

static char fail_msg[512];

#define FAIL(...) do { \
	snprintf(fail_msg, sizeof(fail_msg), __VA_ARGS__); \
	return 1; \
} while (0)

/* The generator: splitmix64, one per input. */
static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static size_t below(size_t n)
{
	return n ? (size_t)(rnd() % n) : 0;
}

/* The harness's buffers of one input, freed after it (a failing check
 * returns early): what LeakSanitizer finds then is the library's. */
static void *allocs[32];
static int nallocs;

static void *alloc(size_t len)
{
	void *p = malloc(len);

	if (!p || nallocs == 32)
		abort();
	allocs[nallocs++] = p;
	return p;
}

static void free_allocs(void)
{
	while (nallocs)
		free(allocs[--nallocs]);
}

/* A copy of @in as a C string in a buffer of exactly n + 1 bytes, so that
 * ASan sees any read past its end. */
static char *cstr(const unsigned char *in, size_t n)
{
	char *s = alloc(n + 1);

	memcpy(s, in, n);
	s[n] = '\0';
	return s;
}

/* ---- the scratch directory, and proof that nothing in it changed ---- */

static char tmpdir[PATH_MAX];

struct snap {
	char text[8192];
};

/* Names, inode, size and mtime of everything in @dir (one level). */
static void snapshot(const char *dir, struct snap *sn)
{
	struct dirent *e;
	struct stat st;
	char p[PATH_MAX];
	size_t used = 0;
	DIR *d = opendir(dir);

	sn->text[0] = '\0';
	if (!d)
		return;
	while ((e = readdir(d)) && used + 256 < sizeof(sn->text)) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (lstat(p, &st))
			continue;
		used += (size_t)snprintf(sn->text + used, sizeof(sn->text) - used,
					 "%s %lu %lld %lld.%09ld|", e->d_name,
					 (unsigned long)st.st_ino, (long long)st.st_size,
					 (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	}
	closedir(d);
}

static int write_file(const char *path, const unsigned char *in, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	size_t done = 0;
	ssize_t w;

	if (fd < 0)
		return -1;
	while (done < n && (w = write(fd, in + done, n - done)) > 0)
		done += (size_t)w;
	close(fd);
	return done == n ? 0 : -1;
}

/* ---- targets ---- */

/* An error message: one line, naming @file. */
static int msg_ok(const struct lib_err *e, const char *file)
{
	return e->msg[0] && !strchr(e->msg, '\n') && strstr(e->msg, file);
}

static int config_check(const struct config *c)
{
	int i;

	if (c->nctrls < 0 || c->nctrls > CONFIG_MAX_CTRLS ||
	    c->nknobs < 0 || c->nknobs > CONFIG_MAX_KNOBS ||
	    c->io_cores < 0 || c->io_cores > CONFIG_IO_CORES_MAX ||
	    c->profile < 0 || (c->isolate && c->profile == PROFILE_BALANCED))
		return -1;
	for (i = 0; i < c->nctrls; i++) {
		struct bdf b;

		if (!c->ctrls[i].value[0] ||
		    (c->ctrls[i].by == CONFIG_BY_PCI && bdf_parse(c->ctrls[i].value, &b)))
			return -1;
	}
	for (i = 0; i < c->nknobs; i++) {
		char why[256];

		if (!c->knobs[i].k || knob_check(c->knobs[i].k, c->knobs[i].value,
						 why, sizeof(why)))
			return -1;
	}
	return 0;
}

static int fuzz_config(const unsigned char *in, size_t n)
{
	static struct config a, b;
	struct lib_err ea = { 0 }, eb = { 0 };
	char path[PATH_MAX], msg[sizeof(ea.msg)];
	struct snap before, after;
	char *text = cstr(in, n);
	int ra, rb;

	snprintf(path, sizeof(path), "%s/fuzz.conf", tmpdir);
	ra = config_parse_string(text, "fuzz.conf", &a, &ea);
	if (ra && (ra != -EINVAL || !msg_ok(&ea, "fuzz.conf:")))
		FAIL("config_parse_string: %d, error '%s'", ra, ea.msg);
	if (!ra && config_check(&a))
		FAIL("config_parse_string accepted a config out of its bounds");
	/* the same bytes as a file (NULs and all) */
	if (write_file(path, in, n))
		FAIL("cannot write %s", path);
	snapshot(tmpdir, &before);
	rb = config_load(path, &b, &eb);
	snapshot(tmpdir, &after);
	if (strcmp(before.text, after.text))
		FAIL("config_load changed %s", tmpdir);
	if (rb && (rb != -EINVAL || !msg_ok(&eb, path)))
		FAIL("config_load: %d, error '%s'", rb, eb.msg);
	if (!rb && config_check(&b))
		FAIL("config_load accepted a config out of its bounds");
	/* a text file: the string and the file say the same */
	if (!memchr(in, '\0', n)) {
		snprintf(msg, sizeof(msg), "%s", eb.msg);
		if (!strncmp(msg, path, strlen(path)))
			snprintf(msg, sizeof(msg), "fuzz.conf%s", eb.msg + strlen(path));
		if (ra != rb || (ra && strcmp(ea.msg, msg)))
			FAIL("string and file differ: %d '%s' against %d '%s'",
			     ra, ea.msg, rb, eb.msg);
		if (!ra && (a.nctrls != b.nctrls || a.nknobs != b.nknobs ||
			    a.io_cores != b.io_cores || a.profile != b.profile ||
			    a.isolate != b.isolate))
			FAIL("string and file give different configs");
	}
	return 0;
}

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* NULL, or what is out of bounds in a loaded state */
static const char *state_check(const struct state *s)
{
	struct bdf b;
	int i;

	if (s->n < 0 || s->n > s->cap)
		return "entry count";
	if (s->io_cores < 0)
		return "io_cores < 0";
	if (!memchr(s->profile, '\0', sizeof(s->profile)) ||
	    !memchr(s->boot_id, '\0', sizeof(s->boot_id)))
		return "unterminated profile or boot_id";
	for (i = 0; i < s->n; i++) {
		const struct state_entry *e = &s->e[i];

		if (!e->key || !e->path || !e->old || !e->val)
			return "a NULL string";
		if (e->type < TYPE_FILE || e->type > TYPE_DROPIN)
			return "type";
		if (e->vector < -1 || e->interrupts < -1)
			return "vector or interrupts < -1";
		if (!memchr(e->bdf, '\0', sizeof(e->bdf)))
			return "unterminated PCI address";
		if (e->vector >= 0 && bdf_parse(e->bdf, &b))
			return "a vector without a valid PCI address";
		if (!e->serial != !e->model)
			return "serial without model";
	}
	return NULL;
}

static int fuzz_state(const unsigned char *in, size_t n)
{
	static unsigned int saves;
	char dir[PATH_MAX], dir2[PATH_MAX], path[PATH_MAX];
	struct snap before, after;
	struct state s, t;
	struct lib_err e = { 0 };
	const char *why;
	int r, i;

	snprintf(dir, sizeof(dir), "%s/state", tmpdir);
	snprintf(dir2, sizeof(dir2), "%s/state2", tmpdir);
	mkdir(dir, 0700);
	snprintf(path, sizeof(path), "%s/" STATE_FILE, dir);
	if (write_file(path, in, n))
		FAIL("cannot write %s", path);
	snapshot(dir, &before);
	/* what revert --force reads of a damaged file: within bounds too */
	r = state_salvage(dir, &t, &i, &e);
	if (!r) {
		why = state_check(&t);
		state_free(&t);
		if (why)
			FAIL("state_salvage accepted an entry out of its bounds: %s", why);
	} else if (r == -ENOENT || !e.msg[0]) {
		FAIL("state_salvage: %d, error '%s'", r, e.msg);
	}
	r = state_load(dir, &s, &e);
	snapshot(dir, &after);
	if (strcmp(before.text, after.text))
		FAIL("state_load or state_salvage changed %s", dir);
	if (r) {
		if (r == -ENOENT || !msg_ok(&e, path))
			FAIL("state_load: %d, error '%s'", r, e.msg);
		if (s.e || s.n)
			FAIL("state_load failed but left %d entries", s.n);
		return 0;
	}
	why = state_check(&s);
	if (why) {
		state_free(&s);
		FAIL("state_load accepted a state out of its bounds: %s", why);
	}
	/* what loads, saves and loads again the same (every 16th: fsync) */
	if (saves++ % 16 == 0) {
		mkdir(dir2, 0700);
		if (state_save(dir2, &s, &e) || state_load(dir2, &t, &e)) {
			state_free(&s);
			FAIL("a loaded state does not save and load again: %s", e.msg);
		}
		r = t.n != s.n || strcmp(t.profile, s.profile) ||
		    t.isolate != s.isolate || t.io_cores != s.io_cores;
		for (i = 0; !r && i < s.n; i++) {
			const struct state_entry *x = &s.e[i], *y = &t.e[i];

			r = strcmp(x->key, y->key) || strcmp(x->path, y->path) ||
			    strcmp(x->old, y->old) || strcmp(x->val, y->val) ||
			    x->type != y->type || x->by_set != y->by_set ||
			    x->vector != y->vector ||
			    (x->vector >= 0 && (strcmp(x->bdf, y->bdf) ||
						x->interrupts != y->interrupts)) ||
			    !same_str(x->serial, y->serial) ||
			    !same_str(x->model, y->model);
		}
		state_free(&t);
		if (r) {
			state_free(&s);
			FAIL("state changed in a save and load (entry %d)", i - 1);
		}
	}
	state_free(&s);
	return 0;
}

/* A buffer of exactly @len bytes (len >= 1), for overflow checks. */
static char *outbuf(size_t len)
{
	char *b = alloc(len);

	memset(b, 'X', len);
	return b;
}

static const size_t small_lens[] = { 1, 2, 3, 8, 16, 64, 4096 };

static size_t some_len(void)
{
	return small_lens[below(sizeof(small_lens) / sizeof(small_lens[0]))];
}

static int fuzz_interrupts(const unsigned char *in, size_t n)
{
	static const char *const bdfs[] = { "0000:41:00.0", "0000:81:00.0",
					     "0000:00:04.0", "" };
	size_t off = 0;

	while (off < n) {
		const unsigned char *nl = memchr(in + off, '\n', n - off);
		size_t ll = nl ? (size_t)(nl - in - off) + 1 : n - off;
		char *line = cstr(in + off, ll);
		size_t len = some_len(), clen = some_len();
		char *name = outbuf(len), *chip = outbuf(clen);
		unsigned long long hw, total;
		int irq = -2, irq2 = -2, irq3 = -2, r, r2, r3, ent;

		off += ll;
		r = irqvec_parse_line(line, &irq, name, len);
		if (r != 0 && r != -1)
			FAIL("irqvec_parse_line: %d", r);
		if (!r && (irq < 0 || !memchr(name, '\0', len)))
			FAIL("irqvec_parse_line: irq %d, name unterminated", irq);
		r2 = irqvec_parse_hw(line, &irq2, chip, clen, &hw);
		if (r2 != 0 && r2 != -1)
			FAIL("irqvec_parse_hw: %d", r2);
		if (!r2 && (irq2 < 0 || !memchr(chip, '\0', clen)))
			FAIL("irqvec_parse_hw: irq %d, chip unterminated", irq2);
		if (!r && !r2 && irq != irq2)
			FAIL("parse_line and parse_hw read IRQs %d and %d", irq, irq2);
		r3 = irqvec_parse_total(line, &irq3, &total);
		if (r3 != 0 && r3 != -1)
			FAIL("irqvec_parse_total: %d", r3);
		if (!r && (r3 || irq3 != irq))
			FAIL("parse_line and parse_total disagree: %d/%d, %d/%d",
			     r, r3, irq, irq3);
		if (!r2) {
			ent = irqvec_msi_entry(chip, hw, bdfs[below(4)]);
			if (ent < -1)
				FAIL("irqvec_msi_entry: %d", ent);
		}
		free_allocs();
	}
	return 0;
}

static int cpulist_commas(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == ',';
	return n;
}

static const int ncpus_choice[] = { 1, 2, 4, 8, 63, 64, 65, 128, 1024, 4096 };

static int fuzz_cpulist(const unsigned char *in, size_t n)
{
	int ncpus = ncpus_choice[below(sizeof(ncpus_choice) / sizeof(int))];
	char *text = cstr(in, n), *half, *full, *part;
	static struct cpuset a, b;	/* static: a failed check leaks nothing */
	size_t len, plen;
	int r;

	cpuset_free(&a);
	cpuset_free(&b);
	if (cpuset_init(&a, ncpus) || cpuset_init(&b, ncpus))
		abort();
	len = (size_t)ncpus * 12 + 16;
	full = outbuf(len);
	r = cpuset_add_list(&a, text);
	if (r != 0 && r != -1)
		FAIL("cpuset_add_list: %d", r);
	if (!r) {
		cpuset_format(&a, full, len);
		if (cpuset_add_list(&b, full) || !cpuset_equal(&a, &b))
			FAIL("cpulist '%s' does not read back", full);
		/* a short buffer: a prefix, never a partial range */
		plen = 1 + below(32);
		part = outbuf(plen);
		cpuset_format(&a, part, plen);
		if (!memchr(part, '\0', plen) || strncmp(part, full, strlen(part)) ||
		    (part[0] && full[strlen(part)] && full[strlen(part)] != ','))
			FAIL("cpuset_format in %zu bytes: '%s' of '%s'", plen, part, full);
	}
	cpuset_clear(&a);
	cpuset_clear(&b);
	r = cpuset_add_mask(&a, text);
	if (r != 0 && r != -1)
		FAIL("cpuset_add_mask: %d", r);
	if (!r) {
		/* each word 8 digits and a comma; the first as in @text */
		size_t ml = 9 * (1 + (size_t)cpulist_commas(text)) + 2;
		char *m = outbuf(ml);

		cpuset_format_mask(&a, text, m, ml);
		if (cpuset_add_mask(&b, m) || !cpuset_equal(&a, &b))
			FAIL("mask '%s' formatted like '%s' does not read back", m, text);
	}
	/* two lists from one input */
	half = text + strlen(text) / 2;
	(void)cpulist_same(half, text, ncpus);
	return 0;
}

static int fuzz_parse(const unsigned char *in, size_t n)
{
	static struct mountinfo_entry me;
	char *text = cstr(in, n), *out, bbuf[BDF_BUFSZ];
	unsigned int ma, mi;
	size_t len = some_len();
	struct bdf b, b2;
	int r;

	r = parse_devnum(text, &ma, &mi);
	if (r != 0 && r != -1)
		FAIL("parse_devnum: %d", r);
	r = parse_mountinfo_line(text, &me);
	if (r != 0 && r != -1)
		FAIL("parse_mountinfo_line: %d", r);
	if (!r && (!memchr(me.mountpoint, '\0', sizeof(me.mountpoint)) ||
		   !memchr(me.source, '\0', sizeof(me.source))))
		FAIL("parse_mountinfo_line: unterminated field");
	out = outbuf(len);
	r = parse_swaps_line(text, out, len);
	if ((r != 0 && r != -1) || (!r && !memchr(out, '\0', len)))
		FAIL("parse_swaps_line: %d", r);
	unescape_octal(text, n, out, len);
	if (!memchr(out, '\0', len))
		FAIL("unescape_octal: unterminated");
	escape_value(text, out, len);
	if (!memchr(out, '\0', len))
		FAIL("escape_value: unterminated");
	for (r = 0; out[r]; r++)
		if ((unsigned char)out[r] < 0x20 || out[r] == 0x7f)
			FAIL("escape_value left byte 0x%02x", (unsigned char)out[r]);
	sched_active(text, out, len);
	if (!memchr(out, '\0', len))
		FAIL("sched_active: unterminated");
	if (!bdf_parse(text, &b)) {
		if (bdf_parse(bdf_format(&b, bbuf, sizeof(bbuf)), &b2) ||
		    memcmp(&b, &b2, sizeof(b)))
			FAIL("bdf '%s' does not read back", bbuf);
	}
	(void)all_digits(text);
	(void)path_is_under(text, text + strlen(text) / 2);
	return 0;
}

static int fuzz_dropin(const unsigned char *in, size_t n)
{
	char *text = cstr(in, n);
	size_t len = some_len();
	char *why = outbuf(len);

	if (dropin_pending(text, why, len) && !memchr(why, '\0', len))
		FAIL("dropin_pending: why unterminated");
	return 0;
}

struct target {
	const char *name;
	int (*run)(const unsigned char *in, size_t n);
	const char *extra[3];	/* seed files outside tests/fuzz-seeds */
};

static const struct target targets[] = {
	{ "config", fuzz_config, { "../../misc/ssdtune.conf" } },
	{ "state", fuzz_state, { 0 } },
	{ "interrupts", fuzz_interrupts, { "/proc/interrupts" } },
	{ "cpulist", fuzz_cpulist, { "/sys/devices/system/cpu/online",
				     "/sys/devices/system/cpu/possible",
				     "/proc/irq/default_smp_affinity" } },
	{ "parse", fuzz_parse, { "/proc/self/mountinfo", "/proc/swaps" } },
	{ "dropin", fuzz_dropin, { 0 } },
};
#define NTARGETS (sizeof(targets) / sizeof(targets[0]))

/* ---- inputs ---- */

struct blob {
	unsigned char *b;
	size_t n;
	char name[PATH_MAX];
};

static int read_blob(const char *path, struct blob *o)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	o->n = 0;
	o->b = malloc(INPUT_MAX);
	if (!o->b)
		abort();
	if (fd < 0) {
		free(o->b);
		o->b = NULL;
		return -1;
	}
	while (o->n < INPUT_MAX && (r = read(fd, o->b + o->n, INPUT_MAX - o->n)) > 0)
		o->n += (size_t)r;
	close(fd);
	snprintf(o->name, sizeof(o->name), "%s", path);
	return 0;
}

/* The files of @dir, sorted by name, appended to @v. */
static int read_dir(const char *dir, struct blob *v, int nv, int max)
{
	struct dirent **names;
	char p[PATH_MAX];
	int i, k = scandir(dir, &names, NULL, alphasort);

	for (i = 0; i < k; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && nv < max && !read_blob(p, &v[nv]))
			nv++;
		free(names[i]);
	}
	if (k >= 0)
		free(names);
	return nv;
}

static const char *const tokens[] = {
	"0", "1", "-1", "255", "256", "4095", "4096", "4097", "65535", "65536",
	"2147483647", "2147483648", "-2147483648", "4294967295", "4294967296",
	"9223372036854775807", "9223372036854775808", "18446744073709551615",
	"18446744073709551616", "99999999999999999999999999", "1048576",
	"1048577", "0x10", "1e9", "NaN", "null", "true", "false", "\"\"", "[]",
	"{}", "\\u0000", "\\\"", "\\", "#", "=", " = ", ":", ",", "-", "--",
	"\t", "\r", "\r\n", "\n", " ", "\"", "'", "ffffffff", "ffffffff,",
	"0-", "-0", "0--1", ",,", "\\040", "\\0", "%s%n", "serial:", "model:",
	"pci:", "controller", "profile", "isolate", "io_cores", "yes", "no",
	"auto", "latency", "coalesce_profile", "power_limit_mw",
	"\"entries\"", "\"vector\":", "\"type\":\"dropin\"", "\"key\":",
	"\"interrupts\":", "PCI-MSIX-0000:41:00.0", "PCI-MSI", "IR-PCI-MSI",
	"0-edge", "524288-edge", "GRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT ",
	"0000:41:00.0", "[none]", "[", "]",
};
#define NTOKENS (sizeof(tokens) / sizeof(tokens[0]))

static size_t insert(unsigned char *b, size_t n, size_t at, const void *what,
		     size_t wl)
{
	if (n + wl > INPUT_MAX)
		wl = INPUT_MAX - n;
	memmove(b + at + wl, b + at, n - at);
	memcpy(b + at, what, wl);
	return n + wl;
}

/* Input @iter of a target: seeds and mutations of them, or random bytes. */
static size_t generate(unsigned char *b, const struct blob *seeds, int nseeds)
{
	size_t n = 0, at, l, i;
	int k, muts;

	switch (below(16)) {
	case 0:			/* random bytes */
		n = below(below(4) ? 256 : 8192);
		for (i = 0; i < n; i++)
			b[i] = (unsigned char)rnd();
		return n;
	case 1:			/* random printable text of tokens */
		for (k = (int)below(64); k > 0; k--) {
			const char *t = tokens[below(NTOKENS)];

			n = insert(b, n, n, t, strlen(t));
		}
		return n;
	default:
		break;
	}
	if (nseeds) {
		const struct blob *s = &seeds[below((size_t)nseeds)];

		n = s->n;
		memcpy(b, s->b, n);
	}
	for (muts = 1 + (int)below(8); muts > 0; muts--) {
		at = below(n + 1);
		switch (below(11)) {
		case 0:			/* flip a bit */
			if (n)
				b[below(n)] ^= (unsigned char)(1u << below(8));
			break;
		case 1:			/* a random byte */
			if (n)
				b[below(n)] = (unsigned char)rnd();
			break;
		case 2: case 3:		/* a token */
			k = (int)below(NTOKENS);
			n = insert(b, n, at, tokens[k], strlen(tokens[k]));
			break;
		case 4:			/* delete a range */
			l = below(n - at + 1);
			memmove(b + at, b + at + l, n - at - l);
			n -= l;
			break;
		case 5:			/* truncate */
			n = at;
			break;
		case 6: {		/* repeat a range: long lines */
			size_t times = 1 + below(below(4) ? 8 : 2048);

			l = 1 + below(16);
			if (at + l > n)
				break;
			while (times-- && n + l <= INPUT_MAX)
				n = insert(b, n, at, b + at, l);
			break;
		}
		case 7:			/* a NUL */
			n = insert(b, n, at, "", 1);
			break;
		case 8:			/* a digit run: a huge number */
			for (k = 1 + (int)below(40); k > 0; k--)
				n = insert(b, n, at, "9", 1);
			break;
		case 9:			/* splice another seed in */
			if (nseeds) {
				const struct blob *s = &seeds[below((size_t)nseeds)];
				size_t from = below(s->n + 1);

				n = insert(b, n, at, s->b + from, below(s->n - from + 1));
			}
			break;
		default:		/* swap two bytes */
			if (n > 1) {
				size_t x = below(n), y = below(n);
				unsigned char c = b[x];

				b[x] = b[y];
				b[y] = c;
			}
		}
	}
	return n;
}

/* ---- running, and telling ---- */

static const char *out_dir = "fuzz-failures";
static const struct target *cur_target;
static const unsigned char *cur_in;
static size_t cur_n;
static char cur_what[128];
static int tap_no;

/* mkdir -p @dir */
static void mkdirs(const char *dir)
{
	char d[PATH_MAX], *s;

	snprintf(d, sizeof(d), "%s", dir);
	for (s = strchr(d + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(d, 0755);
		*s = '/';
	}
	mkdir(d, 0755);
}

/* Write the input being run to OUT/TARGET/WHAT and say how to replay it. */
static void save_failure(const char *why)
{
	char p[PATH_MAX], d[PATH_MAX];

	if (!cur_target)
		return;
	snprintf(d, sizeof(d), "%s/%s", out_dir, cur_target->name);
	mkdirs(d);
	snprintf(p, sizeof(p), "%s/%s", d, cur_what);
	if (write_file(p, cur_in, cur_n))
		snprintf(p, sizeof(p), "(cannot write the input under %s)", d);
	printf("not ok %d - %s: %s (%s)\n", tap_no, cur_target->name, why, cur_what);
	printf("# input: %s (%zu bytes)\n# replay: make -C tools/ssdtune fuzz-replay FILE=%s\n",
	       p, cur_n, p);
	fflush(stdout);
}

static void on_death(void)
{
	save_failure("crashed (sanitizer report above)");
}

static void on_signal(int sig)
{
	save_failure(sig == SIGALRM ? "hung (no return in 10 s)" : strsignal(sig));
	_exit(1);
}

/* Run one input: 0, or 1 with fail_msg said and the input saved. */
static int run_one(const struct target *t, const unsigned char *in, size_t n,
		   const char *what)
{
	int r;

	cur_target = t;
	cur_in = in;
	cur_n = n;
	snprintf(cur_what, sizeof(cur_what), "%s", what);
	fail_msg[0] = '\0';
	/* the target's own choices (buffer sizes) follow from the input */
	rng_state = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < n; i++)
		rng_state = (rng_state ^ in[i]) * 0x100000001b3ULL;
	r = t->run(in, n);
	free_allocs();
	if (!r)
		return 0;
	save_failure(fail_msg);
	return 1;
}

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static int replay(const char *file)
{
	char dir[PATH_MAX], *slash;
	struct blob b;
	size_t i;

	snprintf(dir, sizeof(dir), "%s", file);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	for (i = 0; i < NTARGETS; i++)
		if (slash && !strcmp(base(dir), targets[i].name))
			break;
	if (i == NTARGETS) {
		fprintf(stderr, "fuzz: %s: the directory must name a target\n", file);
		return 2;
	}
	if (read_blob(file, &b)) {
		fprintf(stderr, "fuzz: cannot read %s: %s\n", file, strerror(errno));
		return 2;
	}
	tap_no = 1;
	out_dir = "/dev/null/";	/* a replay writes nothing */
	if (run_one(&targets[i], b.b, b.n, base(file)))
		return 1;
	printf("ok 1 - %s: %s\n1..1\n", targets[i].name, file);
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void cleanup_tmp(void)
{
	char cmd[PATH_MAX + 16];

	if (tmpdir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd))
			fprintf(stderr, "fuzz: cannot remove %s\n", tmpdir);
	}
}

int main(int argc, char **argv)
{
	static struct blob seeds[MAX_SEEDS], corpus[MAX_SEEDS];
	unsigned long long seed = (unsigned long long)time(NULL) ^ (unsigned long long)getpid() << 16;
	unsigned long long iters = 0;
	double total = 30, t0, per, start;
	const char *tmproot = getenv("TMPDIR");
	struct sigaction sa = { 0 };
	char p[PATH_MAX], what[128];
	unsigned char *buf;
	int i, failed = 0;
	size_t ti;

	setvbuf(stdout, NULL, _IOLBF, 0);
	__sanitizer_set_death_callback(on_death);
	sa.sa_handler = on_signal;
	sigaction(SIGALRM, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--replay") && i + 1 < argc)
			return replay(argv[++i]);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--time") && i + 1 < argc)
			total = strtod(argv[++i], NULL);
		else if (!strcmp(argv[i], "--iters") && i + 1 < argc)
			iters = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--out") && i + 1 < argc)
			out_dir = argv[++i];
		else {
			fprintf(stderr, "usage: fuzz [--seed S] [--time SECONDS] [--iters N] [--out DIR] | --replay FILE\n");
			return 2;
		}
	}
	if (!tmproot || !tmproot[0])
		tmproot = access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm";
	snprintf(tmpdir, sizeof(tmpdir), "%s/ssdtune-fuzz.XXXXXX", tmproot);
	if (!mkdtemp(tmpdir)) {
		fprintf(stderr, "fuzz: cannot make a directory in %s: %s\n", tmproot,
			strerror(errno));
		return 2;
	}
	atexit(cleanup_tmp);
	/* nothing the state loader reads or writes lies outside tmpdir */
	setenv("SSDTUNE_STATE_DIR", tmpdir, 1);
	buf = malloc(INPUT_MAX);
	if (!buf)
		abort();
	per = total / NTARGETS;
	printf("# fuzz: seed %llu, %s per target, inputs under %s\n", seed,
	       iters ? "an input count" : "a time", tmpdir);
	if (iters)
		printf("# %llu generated inputs per target\n", iters);
	else
		printf("# %.1f s per target\n", per);
	t0 = now();
	for (ti = 0; ti < NTARGETS; ti++) {
		const struct target *t = &targets[ti];
		int ns = 0, nc = 0, k, bad = 0;
		unsigned long long it;

		tap_no = (int)ti + 1;
		snprintf(p, sizeof(p), "tests/fuzz-corpus/%s", t->name);
		nc = read_dir(p, corpus, 0, MAX_SEEDS);
		snprintf(p, sizeof(p), "tests/fuzz-seeds/%s", t->name);
		ns = read_dir(p, seeds, 0, MAX_SEEDS);
		for (k = 0; k < 3 && t->extra[k] && ns < MAX_SEEDS; k++)
			if (!read_blob(t->extra[k], &seeds[ns]))
				ns++;
		start = now();
		/* the regression inputs first, then the seeds as they are */
		for (k = 0; k < nc && !bad; k++) {
			alarm(10);
			bad = run_one(t, corpus[k].b, corpus[k].n, base(corpus[k].name));
		}
		for (k = 0; k < ns && !bad; k++) {
			alarm(10);
			snprintf(what, sizeof(what), "seed-%s", base(seeds[k].name));
			bad = run_one(t, seeds[k].b, seeds[k].n, what);
		}
		for (it = 0; !bad && (iters ? it < iters : now() - start < per); it++) {
			size_t n;

			rng_state = seed ^ ((unsigned long long)ti << 56) ^ (it * 0x100000001b3ULL);
			rnd();
			n = generate(buf, seeds, ns);
			snprintf(what, sizeof(what), "seed-%llu-iter-%llu", seed, it);
			alarm(10);
			bad = run_one(t, buf, n, what);
		}
		alarm(0);
		if (!bad && __lsan_do_recoverable_leak_check()) {
			printf("not ok %d - %s: leaked memory (report above)\n", tap_no, t->name);
			bad = 1;
		} else if (!bad)
			printf("ok %d - %s: %d regression, %d seed and %llu generated inputs in %.1f s\n",
			       tap_no, t->name, nc, ns, it, now() - start);
		else
			printf("# %s: failed at generated input %llu (seed %llu): FUZZ_SEED=%llu FUZZ_ITERS=%llu reproduces the run\n",
			       t->name, it ? it - 1 : 0, seed, seed, it);
		failed += bad;
		cur_target = NULL;
		for (k = 0; k < MAX_SEEDS; k++) {
			free(seeds[k].b);
			free(corpus[k].b);
			seeds[k].b = corpus[k].b = NULL;
		}
	}
	printf("1..%zu\n# %zu targets, %d failed, %.1f s\n", NTARGETS, NTARGETS,
	       failed, now() - t0);
	free(buf);
	return failed ? 1 : 0;
}
