// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of plan, apply, verify and revert without the printing
 * (tune.c), on plain files in a scratch directory standing in for sysfs:
 * what tune_save() keeps, what tune_apply() writes, what tune_check()
 * calls drift, what tune_restore() and tune_residue() put back, and the
 * summary of a saved state.  Left to the bats tests (tests/host/cmd/tune.bats
 * against fixture trees): what needs the host's /sys and /proc, that is
 * tune_plan() and tune_applied_io_cpus() (topo_gather()), interrupt
 * vectors (tune_record(), their checks and restores by PCI address and
 * MSI-X entry), cgroup partitions and controllers, drop-ins, and an IRQ
 * the kernel refuses to move.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tests.h"
#include "lib/planner.h"
#include "lib/state.h"
#include "lib/sysfs.h"
#include "lib/tune.h"

static char sys[SCRATCH_LEN];	/* the stand-in for sysfs */

/* @file of the stand-in sysfs, as a path. */
static const char *at(const char *file)
{
	static char p[8][PATH_MAX + 64];
	static int n;

	n = (n + 1) % 8;
	snprintf(p[n], sizeof(p[n]), "%s/%s", sys, file);
	return p[n];
}

static const char *get(const char *file)
{
	static char buf[256];

	return scratch_get(sys, file, buf, sizeof(buf));
}

static int progress[8], nprogress;

static void written(void *ctx, int done)
{
	(void)ctx;
	if (nprogress < 8)
		progress[nprogress++] = done;
}

static char skipped_key[128];

static void skipped(void *ctx, const char *key)
{
	(*(int *)ctx)++;
	snprintf(skipped_key, sizeof(skipped_key), "%s", key);
}

/* A latency plan: a file to set, one kept, one skipped, a note, and a
 * scheduler whose file lists every scheduler. */
static void latency_plan(struct plan *p)
{
	memset(p, 0, sizeof(*p));
	p->profile = PROFILE_LATENCY;
	p->isolate = true;
	p->io_cores = 2;
	plan_add(p, PLAN_SET, NULL, at("state2_disable"), "0\n", "1", "C6: exit latency");
	plan_add(p, PLAN_KEEP, "governor of policy4", at("governor"), "performance",
		 "performance", "already");
	plan_add(p, PLAN_SKIP, NULL, at("absent"), "", "", "not present");
	plan_add(p, PLAN_NOTE, NULL, "", "", "", "advice");
	plan_add(p, PLAN_SET, NULL, at("queue/scheduler"), "mq-deadline", "none", "scheduler");
}

static void sys_files(void)
{
	scratch_put(sys, "state2_disable", "0\n");
	scratch_put(sys, "governor", "performance\n");
	scratch_put(sys, "queue/scheduler", "none [mq-deadline] kyber\n");
}

static void test_save_apply(const char *dir)
{
	struct lib_err err = { 0 };
	struct tune_writes w;
	struct state s = { 0 }, l;
	struct state_entry *e;
	struct plan p;

	latency_plan(&p);
	CHECK(!tune_save(dir, &p, &s, &err) && s.n == 3 && !strcmp(s.profile, "latency") &&
	      s.isolate && s.io_cores == 2 && !state_find(&s, at("absent")),
	      "tune_save: what the plan sets or keeps, with its profile and options; no skips, no notes");
	e = state_find(&s, at("state2_disable"));
	CHECK(e && !strcmp(e->old, "0\n") && !strcmp(e->val, "1") &&
	      (e = state_find(&s, "governor of policy4")) && !strcmp(e->old, "performance\n") &&
	      !strcmp(e->path, at("governor")),
	      "tune_save: the file's bytes as the original, the plan's value as applied, by key");
	e = state_find(&s, at("queue/scheduler"));
	CHECK(e && !strcmp(e->old, "mq-deadline\n"),
	      "tune_save: a scheduler's original is the active one, as it can be written back");
	CHECK(!state_load(dir, &l, &err) && l.n == 3 && !strcmp(l.e[0].old, "0\n"),
	      "tune_save: the state is saved before the first write");
	state_free(&l);

	nprogress = 0;
	tune_apply(&p, &s, &w, written, NULL);
	CHECK(w.done == 2 && !w.failed && !w.refused && nprogress == 2 && progress[0] == 1 &&
	      progress[1] == 2 && !strcmp(get("state2_disable"), "1") &&
	      !strcmp(get("queue/scheduler"), "none") && !strcmp(get("governor"), "performance\n"),
	      "tune_apply: each set written, kept ones untouched, progress after each");

	sys_write_mode(true);
	scratch_put(sys, "state2_disable", "0\n");
	tune_apply(&p, &s, &w, NULL, NULL);
	sys_write_mode(false);
	CHECK(w.done == 2 && !strcmp(get("state2_disable"), "0\n"),
	      "tune_apply in a dry run: counted, nothing written");

	scratch_put(sys, "state2_disable", "1");
	plan_free(&p);
	latency_plan(&p);
	free(p.items[0].val);
	p.items[0].val = strdup("2");
	CHECK(!tune_save(dir, &p, &s, &err) && s.n == 3 &&
	      (e = state_find(&s, at("state2_disable"))) && !strcmp(e->old, "0\n") &&
	      !strcmp(e->val, "2"),
	      "tune_save again: the first original stays, the new value is the applied one");

	plan_add(&p, PLAN_SET, NULL, at("gone/x"), "1", "2", "a file that is not there");
	CHECK(tune_save(dir, &p, &s, &err) == -ENOENT && strstr(err.msg, "cannot read ") &&
	      strstr(err.msg, "/gone/x: No such file or directory"),
	      "tune_save: a file it cannot read is an error naming it");
	tune_apply(&p, NULL, &w, NULL, NULL);
	CHECK(w.failed == 1 && w.done == 2 && strstr(w.first, "/gone/x: No such file or directory"),
	      "tune_apply: a failed write is counted and named, the others still written");
	plan_free(&p);
	state_free(&s);
}

static void test_check(void)
{
	struct state s = { 0 };
	struct tune_check *c = malloc(sizeof(*c));

	if (!c)
		return;
	state_add(&s, "k1", at("c1"), "0\n", "1", NULL, -1);
	state_add(&s, "k2", at("c2"), "0\n", "1", NULL, -1);
	state_add(&s, "k3", at("c3"), "0\n", "1", NULL, -1);
	state_add(&s, "ssdtune serial NOSUCH model unit test power_limit_mw",
		  "/sys/class/ssdtune/ssdt99/power_limit_mw", "0\n", "5", "0000:41:00.0", -1);
	state_identity(&s.e[3], "NOSUCH", "unit test");
	scratch_put(sys, "c1", "1\n");
	scratch_put(sys, "c2", "2\n");
	tune_check(&s.e[0], c);
	CHECK(c->ok && !strcmp(c->now, "1") && !strcmp(c->path, at("c1")),
	      "tune_check: the applied value holds, trailing newline aside");
	tune_check(&s.e[1], c);
	CHECK(!c->ok && !strcmp(c->why, "applied 1, now 2"), "tune_check: another value is drift");
	tune_check(&s.e[2], c);
	CHECK(!c->ok && !strcmp(c->why, "cannot read: No such file or directory"),
	      "tune_check: a file it cannot read is drift, said so");
	tune_check(&s.e[3], c);
	CHECK(!c->ok && !strcmp(c->path, s.e[3].key) &&
	      !strcmp(c->why, "gone (device or vector not found)"),
	      "tune_check: a controller found by no serial and model is gone, shown by its key");
	free(c);
	state_free(&s);
}

static void test_scheduler_check(void)
{
	struct state s = { 0 };
	struct tune_check *c = malloc(sizeof(*c));

	if (!c)
		return;
	state_add(&s, "k", at("queue/scheduler"), "mq-deadline\n", "none", NULL, -1);
	scratch_put(sys, "queue/scheduler", "[none] mq-deadline kyber\n");
	tune_check(&s.e[0], c);
	CHECK(c->ok && !strcmp(c->now, "none"),
	      "tune_check: a scheduler file holds when its active scheduler is the applied one");
	scratch_put(sys, "queue/scheduler", "none [mq-deadline] kyber\n");
	tune_check(&s.e[0], c);
	CHECK(!c->ok && !strcmp(c->why, "applied none, now mq-deadline"),
	      "tune_check: another active scheduler is drift");
	free(c);
	state_free(&s);
}

static void test_restore(void)
{
	struct state s = { 0 };
	struct tune_writes w;
	int n = 0;

	/* two applies' entries for one file: newest first, the oldest wins */
	state_add(&s, "r1", at("r"), "orig\n", "v1", NULL, -1);
	state_add(&s, "r2", at("r"), "mid\n", "v2", NULL, -1);
	state_add(&s, "same", at("same"), "same\n", "x", NULL, -1);
	scratch_put(sys, "r", "v2");
	scratch_put(sys, "same", "same");
	tune_restore(&s, false, &w, NULL, NULL);
	CHECK(w.done == 2 && !w.failed && !w.skipped && !strcmp(get("r"), "orig\n") &&
	      !strcmp(get("same"), "same"),
	      "tune_restore: newest first, what already holds its original left alone");

	state_add(&s, "ssdtune serial NOSUCH model unit test coalesce_mode",
		  "/sys/class/ssdtune/ssdt99/coalesce_mode", "off\n", "host", "0000:41:00.0", -1);
	state_identity(&s.e[3], "NOSUCH", "unit test");
	scratch_put(sys, "r", "v1");
	tune_restore(&s, false, &w, skipped, &n);
	CHECK(w.failed == 1 && w.done == 2 && !n &&
	      !strcmp(w.first, "ssdtune serial NOSUCH model unit test coalesce_mode: "
			 "gone (device or vector not found)"),
	      "tune_restore: a device that is gone is a failure, the rest still restored");
	scratch_put(sys, "r", "v1");
	tune_restore(&s, true, &w, skipped, &n);
	CHECK(!w.failed && w.skipped == 1 && n == 1 && w.done == 2 &&
	      !strcmp(skipped_key, s.e[3].key),
	      "tune_restore --force: a device that is gone is skipped, by its key");
	state_free(&s);
}

static void test_residue(void)
{
	struct state s = { 0 };
	struct tune_writes w;
	struct plan p = { 0 };

	state_add(&s, "planned", at("p"), "p0\n", "p1", NULL, -1);
	state_add(&s, "left", at("l"), "l0\n", "l1", NULL, -1);
	state_add(&s, "by set", at("b"), "b0\n", "b1", NULL, -1);
	s.e[2].by_set = true;
	state_add(&s, "holds", at("h"), "h0\n", "h1", NULL, -1);
	scratch_put(sys, "p", "p1");
	scratch_put(sys, "l", "l1");
	scratch_put(sys, "b", "b1");
	scratch_put(sys, "h", "h0\n");
	plan_add(&p, PLAN_SET, "planned", at("p"), "p1", "p2", "the new profile's");
	plan_add(&p, PLAN_SKIP, "left", at("l"), "", "", "a skip does not keep it");
	sys_write_mode(true);
	tune_residue(&p, &s, &w);
	sys_write_mode(false);
	CHECK(w.done == 1 && s.n == 4 && !strcmp(get("l"), "l1"),
	      "tune_residue in a dry run: counted, nothing written, nothing dropped");
	tune_residue(&p, &s, &w);
	CHECK(w.done == 1 && !w.failed && s.n == 2 && !strcmp(s.e[0].key, "planned") &&
	      !strcmp(s.e[1].key, "by set") && !strcmp(get("l"), "l0\n") &&
	      !strcmp(get("p"), "p1") && !strcmp(get("b"), "b1"),
	      "tune_residue: what the new plan leaves is restored and dropped; set's and planned stay");
	plan_free(&p);
	state_free(&s);
}

static void test_partition(void)
{
	struct lib_err err = { 0 };
	struct state s = { 0 };
	struct plan p = { 0 };

	plan_add(&p, PLAN_SET, "cpuset partition", "/sys/fs/cgroup/ssdtune.io",
		 "cpus=1 partition=isolated", "cpus=5-7 partition=isolated", "isolation");
	p.items[0].type = TYPE_PARTITION;
	CHECK(tune_foreign_partition(&p, &s, &err) && err.errnum == EEXIST &&
	      !strcmp(err.msg, "/sys/fs/cgroup/ssdtune.io exists and ssdtune did not create it: "
			 "choose another --partition"),
	      "tune_foreign_partition: an existing partition no apply made is someone else's");
	state_add(&s, "cpuset partition", "/sys/fs/cgroup/ssdtune.io", "cpus=1 partition=isolated",
		  "x", NULL, -1);
	CHECK(tune_foreign_partition(&p, &s, NULL),
	      "tune_foreign_partition: one an earlier apply found there is still someone else's");
	state_set(&s.e[0].old, "");
	CHECK(!tune_foreign_partition(&p, &s, NULL),
	      "tune_foreign_partition: one an earlier apply created (saved as absent) is ours");
	state_free(&s);
	p.items[0].old[0] = '\0';
	CHECK(!tune_foreign_partition(&p, &s, NULL),
	      "tune_foreign_partition: a partition that does not exist yet is no one's");
	plan_free(&p);
}

static void test_summary(const char *dir)
{
	char empty[SCRATCH_LEN], now[40], want[PATH_MAX + 64];
	struct lib_err err = { 0 };
	struct tune_summary sum;
	struct state s;

	scratch_dir("tune-empty", empty, sizeof(empty));
	snprintf(want, sizeof(want), "nothing applied: no %s/" STATE_FILE, empty);
	CHECK(tune_load(empty, &s, &err) == -ENOENT && !strcmp(err.msg, want),
	      "tune_load: no state is 'nothing applied', naming the file");
	CHECK(!tune_summary(empty, &sum, &err) && !sum.applied && !sum.profile[0] && !sum.settings,
	      "tune_summary: no state is nothing applied, not an error");

	/* test_save_apply()'s state: state2_disable 2, governor, scheduler none */
	scratch_put(sys, "state2_disable", "2\n");
	scratch_put(sys, "governor", "powersave\n");
	scratch_put(sys, "queue/scheduler", "[none] kyber\n");
	CHECK(!tune_summary(dir, &sum, &err) && sum.applied && !strcmp(sum.profile, "latency") &&
	      sum.isolate && !sum.stale && sum.settings == 3 && sum.drifted == 1 && !sum.pending,
	      "tune_summary: profile, options, settings and how many drifted");

	memset(&s, 0, sizeof(s));
	CHECK(!tune_stale(&s, now, sizeof(now)), "tune_stale: a state without a boot id is not stale");
	snprintf(s.boot_id, sizeof(s.boot_id), "00000000-0000-0000-0000-000000000000");
	CHECK(tune_stale(&s, now, sizeof(now)) && strlen(now) == 36 && strcmp(now, s.boot_id),
	      "tune_stale: a state of another boot is stale, this boot's id given");
	snprintf(s.boot_id, sizeof(s.boot_id), "%s", now);
	CHECK(!tune_stale(&s, now, sizeof(now)), "tune_stale: this boot's state is not");
}

void test_tune(void)
{
	char dir[SCRATCH_LEN];

	scratch_dir("tune-sys", sys, sizeof(sys));
	scratch_dir("tune-sys/queue", dir, sizeof(dir));
	scratch_dir("tune-state", dir, sizeof(dir));
	sys_files();
	test_save_apply(dir);
	test_check();
	test_scheduler_check();
	test_restore();
	test_residue();
	test_partition();
	test_summary(dir);
}
