// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the knob writes (knobs.c) on a controller directory of
 * plain files in a scratch directory: resolve, snapshot, save for revert,
 * write, roll back, record, and the transaction that joins them.  A plain
 * file keeps what is written, as a driver that neither rounds nor refuses;
 * a refusal is a write to a file that does not exist.  Finding the
 * controller in /sys/class/ssdtune (knob_set_run(), ssdtdev_dir()) is left
 * to the bats tests (tests/host/cmd/set.bats).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tests.h"
#include "lib/knobs.h"
#include "lib/state.h"

/* A controller directory @name: the coalescing and power files. */
static void ctrl_dir(const char *name, char *dir, size_t len)
{
	scratch_dir(name, dir, len);
	scratch_put(dir, "coalesce_mode", "off\n");
	scratch_put(dir, "coalesce_threshold", "0\n");
	scratch_put(dir, "coalesce_time_us", "0\n");
	scratch_put(dir, "coalesce_profile", "off\n");
	scratch_put(dir, "power_limit_mw", "0\n");
}

static struct knob_set knob(const char *name, const char *value)
{
	return (struct knob_set){ .k = knob_find(name, strlen(name)), .value = value };
}

static int writes;
static const struct knob_set *last_written;

static void count_write(void *ctx, const struct knob_set *a)
{
	(void)ctx;
	writes++;
	last_written = a;
}

/* The value recorded for @key, or "(none)". */
static const char *val_of(struct state *s, const char *key)
{
	struct state_entry *e = state_find(s, key);

	return e ? e->val : "(none)";
}

static const char *old_of(struct state *s, const char *key)
{
	struct state_entry *e = state_find(s, key);

	return e ? e->old : "(none)";
}

static int path_is(const char *path, const char *dir, const char *file)
{
	char want[PATH_MAX];

	snprintf(want, sizeof(want), "%s/%s", dir, file);
	return !strcmp(path, want);
}

static void test_resolve_snapshot(void)
{
	struct knob_set a[3] = { knob("coalesce_profile", "latency"),
				 knob("power_limit_mw", "5000"),
				 knob("coalesce_threshold", "8") };
	struct knob_set poll = knob("poll_queues", "2");
	struct knob_before b[KNOB_MAX];
	char dir[SCRATCH_LEN], bare[SCRATCH_LEN];
	struct lib_err err = { 0 };
	int nb = -1, r;

	ctrl_dir("knobs-resolve", dir, sizeof(dir));
	CHECK(!knob_resolve(dir, a, 3, &err) && path_is(a[0].path, dir, "coalesce_profile") &&
	      path_is(a[1].path, dir, "power_limit_mw"),
	      "knob_resolve: each knob's file in the controller's directory");
	r = knob_resolve(dir, &poll, 1, &err);
	CHECK(r == -ENOENT && strstr(err.msg, "has no poll_queues (a driver without this knob?)") &&
	      !strncmp(err.msg, dir, strlen(dir)),
	      "knob_resolve: a knob file the directory lacks is -ENOENT, named");

	r = knob_snapshot(dir, a, 3, b, &nb, &err);
	CHECK(!r && nb == 4 && path_is(b[0].path, dir, "coalesce_mode") &&
	      !strcmp(b[0].raw, "off\n") && path_is(b[1].path, dir, "coalesce_threshold") &&
	      path_is(b[2].path, dir, "coalesce_time_us") &&
	      path_is(b[3].path, dir, "power_limit_mw") && !strcmp(b[3].raw, "0\n"),
	      "knob_snapshot: the files the writes change, each once, bytes as they are");

	scratch_dir("knobs-bare", bare, sizeof(bare));
	scratch_put(bare, "coalesce_profile", "off\n");
	memset(&err, 0, sizeof(err));
	r = knob_snapshot(bare, a, 1, b, &nb, &err);
	CHECK(r == -ENOENT && strstr(err.msg, "cannot read ") && strstr(err.msg, "/coalesce_mode: "),
	      "knob_snapshot: a file it cannot read is an error naming it");
}

static void test_save(void)
{
	struct knob_set a[2] = { knob("coalesce_profile", "latency"),
				 knob("power_limit_mw", "5000") };
	struct state s = { 0 };
	struct lib_err err = { 0 };
	char dir[SCRATCH_LEN], key[PATH_MAX];
	struct state_entry *e;
	int i, ok = 1;

	ctrl_dir("knobs-save", dir, sizeof(dir));
	CHECK(!knob_save(&s, dir, a, 2, &err) && s.n == 4,
	      "knob_save: one entry a file the writes change");
	for (i = 0; i < s.n; i++)
		ok &= !strcmp(s.e[i].key, s.e[i].path) && !strcmp(s.e[i].old, s.e[i].val) &&
		      s.e[i].by_set && s.e[i].vector < 0 && !s.e[i].serial;
	CHECK(ok && !strcmp(s.e[3].old, "0\n") && path_is(s.e[3].path, dir, "power_limit_mw"),
	      "knob_save: without a controller identity, keyed by path, marked as set's");
	scratch_put(dir, "power_limit_mw", "5000\n");
	CHECK(!knob_save(&s, dir, a, 2, &err) && s.n == 4 && !strcmp(s.e[3].old, "0\n"),
	      "knob_save: a file saved already keeps its first value (the original)");
	state_free(&s);

	scratch_put(dir, "serial", "SN1   \n");
	scratch_put(dir, "model", "Model X\n");
	scratch_put(dir, "pci_address", "0000:41:00.0\n");
	snprintf(key, sizeof(key), "ssdtune serial SN1    model Model X power_limit_mw");
	CHECK(!knob_save(&s, dir, &a[1], 1, &err) && s.n == 1 && (e = state_find(&s, key)) &&
	      !strcmp(e->serial, "SN1   ") && !strcmp(e->model, "Model X") &&
	      !strcmp(e->bdf, "0000:41:00.0") && path_is(e->path, dir, "power_limit_mw"),
	      "knob_save: a controller's file keyed by serial and model, with its PCI address");
	state_free(&s);
}

static void test_write_roll_back(void)
{
	struct knob_set a[2] = { knob("coalesce_threshold", "32"),
				 knob("power_limit_mw", "5000") };
	struct knob_before b[KNOB_MAX];
	struct lib_err err = { 0 };
	char dir[SCRATCH_LEN], first[PATH_MAX + 128] = "", buf[64], want[PATH_MAX + 128];
	int nb, n;

	ctrl_dir("knobs-write", dir, sizeof(dir));
	knob_resolve(dir, a, 2, &err);
	knob_snapshot(dir, a, 2, b, &nb, &err);
	writes = 0;
	n = knob_write(a, 2, first, sizeof(first), count_write, NULL);
	CHECK(!n && writes == 2 && last_written == &a[1] && !first[0] &&
	      !strcmp(scratch_get(dir, "coalesce_threshold", buf, sizeof(buf)), "32") &&
	      !strcmp(scratch_get(dir, "power_limit_mw", buf, sizeof(buf)), "5000"),
	      "knob_write: each value in order, the callback after each");
	knob_roll_back(b, nb);
	CHECK(!strcmp(scratch_get(dir, "coalesce_threshold", buf, sizeof(buf)), "0\n") &&
	      !strcmp(scratch_get(dir, "power_limit_mw", buf, sizeof(buf)), "0\n") &&
	      !strcmp(scratch_get(dir, "coalesce_mode", buf, sizeof(buf)), "off\n"),
	      "knob_roll_back: every file back to its snapshot");

	snprintf(a[0].path, sizeof(a[0].path), "%s/gone/coalesce_threshold", dir);
	writes = 0;
	n = knob_write(a, 2, first, sizeof(first), count_write, NULL);
	snprintf(want, sizeof(want), "%s <- 32: No such file or directory", a[0].path);
	CHECK(n == 1 && writes == 1 && last_written == &a[1] && !strcmp(first, want),
	      "knob_write: a refused write is counted and named, the next still written");
}

static void test_record(void)
{
	struct knob_set a[1] = { knob("power_limit_mw", "5000") };
	struct state s = { 0 };
	struct lib_err err = { 0 };
	char dir[SCRATCH_LEN], other[SCRATCH_LEN], opath[PATH_MAX], moved[PATH_MAX];

	ctrl_dir("knobs-record", dir, sizeof(dir));
	knob_save(&s, dir, a, 1, &err);
	/* a directory whose name starts with this one's is another's */
	ctrl_dir("knobs-record-other", other, sizeof(other));
	snprintf(opath, sizeof(opath), "%s/power_limit_mw", other);
	state_add(&s, opath, opath, "1\n", "1\n", NULL, -1);
	snprintf(moved, sizeof(moved), "%s-old/power_limit_mw", dir);
	scratch_put(dir, "power_limit_mw", "4999\n");
	CHECK(!knob_record(&s, dir, &err) && !strcmp(s.e[0].val, "4999\n") &&
	      !strcmp(s.e[0].old, "0\n") && !strcmp(s.e[1].val, "1\n"),
	      "knob_record: what the file reads now, for this directory's files only");
	state_free(&s);

	/* the same controller saved under another ssdtN: found by identity */
	scratch_put(dir, "serial", "SN2\n");
	scratch_put(dir, "model", "M\n");
	state_add(&s, "k", moved, "0\n", "0\n", "0000:41:00.0", -1);
	state_identity(&s.e[0], "SN2", "M");
	state_add(&s, "k2", moved, "0\n", "0\n", "0000:42:00.0", -1);
	state_identity(&s.e[1], "SN3", "M");
	CHECK(!knob_record(&s, dir, &err) && path_is(s.e[0].path, dir, "power_limit_mw") &&
	      !strcmp(s.e[0].val, "4999\n") && !strcmp(s.e[1].path, moved) &&
	      !strcmp(s.e[1].val, "0\n"),
	      "knob_record: a controller's entry moves to its directory of today, another's stays");
	state_free(&s);
}

static void test_txn(void)
{
	struct knob_set a[2] = { knob("coalesce_threshold", "32"),
				 knob("power_limit_mw", "5000") };
	struct knob_txn *t = calloc(1, sizeof(*t));
	struct state s = { 0 };
	struct lib_err err = { 0 };
	char dir[SCRATCH_LEN], buf[64];
	int r;

	if (!t)
		return;
	ctrl_dir("knobs-txn", dir, sizeof(dir));
	knob_resolve(dir, a, 2, &err);
	knob_save(&s, dir, a, 2, &err);
	r = knob_txn_begin(t, dir, a, 2, &err);
	CHECK(!r && t->nb == 4, "knob_txn_begin: the snapshot of what the writes change");
	r = knob_txn_commit(t, &s, NULL, NULL, &err);
	CHECK(!r && !t->failed &&
	      !strcmp(scratch_get(dir, "coalesce_threshold", buf, sizeof(buf)), "32") &&
	      !strcmp(val_of(&s, a[1].path), "5000") && !strcmp(old_of(&s, a[1].path), "0\n"),
	      "knob_txn_commit: all written, what the files read recorded, originals kept");

	snprintf(a[1].path, sizeof(a[1].path), "%s/gone/power_limit_mw", dir);
	a[0].value = "64";
	knob_txn_begin(t, dir, a, 2, &err);
	r = knob_txn_commit(t, &s, NULL, NULL, &err);
	CHECK(r == 1 && t->failed == 1 && strstr(t->first, "/gone/power_limit_mw <- 5000: ") &&
	      !strcmp(scratch_get(dir, "coalesce_threshold", buf, sizeof(buf)), "32") &&
	      !strcmp(val_of(&s, a[0].path), "32"),
	      "knob_txn_commit: one refused, all or none: the others put back");
	state_free(&s);
	free(t);
}

void test_knobs(void)
{
	test_resolve_snapshot();
	test_save();
	test_write_roll_back();
	test_record();
	test_txn();
}
