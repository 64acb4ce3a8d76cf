// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the saved state (state.c) in a scratch directory: the
 * entries in memory, a save and load that give back every field, state
 * files cut short or not written by apply refused with an error, what
 * state_salvage() recovers of a damaged one, the lock and the removal.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "tests.h"
#include "lib/dropin.h"
#include "lib/planner.h"
#include "lib/state.h"

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static bool same_entry(const struct state_entry *a, const struct state_entry *b)
{
	return !strcmp(a->key, b->key) && !strcmp(a->path, b->path) &&
	       !strcmp(a->old, b->old) && !strcmp(a->val, b->val) &&
	       !strcmp(a->bdf, b->bdf) && a->vector == b->vector &&
	       a->interrupts == b->interrupts && a->type == b->type &&
	       a->by_set == b->by_set && same_str(a->serial, b->serial) &&
	       same_str(a->model, b->model);
}

/* Four entries of each kind apply and set save. */
static void fill(struct state *s)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->profile, sizeof(s->profile), "latency");
	s->isolate = true;
	s->io_cores = 3;
	state_add(s, "/sys/block/nvme0n1/queue/scheduler", "/sys/block/nvme0n1/queue/scheduler",
		  "none [mq-deadline] kyber\n", "none\n", NULL, -1);
	state_add(s, "irq 0000:41:00.0 vector 3", "/proc/irq/45/smp_affinity_list",
		  "0-15\n", "4,12", "0000:41:00.0", 3);
	s->e[1].interrupts = 1234;
	state_add(s, "cpuset partition", "/sys/fs/cgroup/ssdtune.io", "",
		  "cpus=5-7 partition=isolated", NULL, -1);
	s->e[2].type = TYPE_PARTITION;
	state_add(s, "ssdtune serial S model M power_limit_mw",
		  "/sys/class/ssdtune/ssdt0/power_limit_mw", "a\tb \"q\" \\\n", "\xc3\xbc",
		  "0000:42:00.0", -1);
	state_identity(&s->e[3], "S \"1\"", "Model/X");
	s->e[3].by_set = true;
}

/* @text as @dir's state file; state_load()'s result, the message in @err. */
static int load_text(const char *dir, const char *text, struct lib_err *err)
{
	struct state s;
	int r;

	memset(err, 0, sizeof(*err));
	scratch_put(dir, STATE_FILE, text);
	r = state_load(dir, &s, err);
	if (!r)
		state_free(&s);
	else if (s.n || s.e)
		return 0;	/* an error leaves nothing behind */
	return r;
}

/* The @n-th entry line (from 0) of state file text @text, or NULL. */
static char *entry_line(char *text, int n)
{
	char *line = text;

	while (line) {
		if (!strncmp(line, "  {\"key\"", 8) && !n--)
			return line;
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return NULL;
}

/* A state file of @entries (JSON objects): load_text()'s result. */
#define ENTRY "\"key\": \"k\", \"path\": \"/proc/irq/1/smp_affinity_list\", \"old\": \"\", \"new\": \"1\""
static int load_entries(const char *dir, const char *entries, struct lib_err *err)
{
	char text[1024];

	snprintf(text, sizeof(text), "{\"entries\": [%s]}\n", entries);
	return load_text(dir, text, err);
}

static bool says(const struct lib_err *err, const char *what)
{
	if (strstr(err->msg, STATE_FILE ": malformed") && strstr(err->msg, what))
		return true;
	printf("# error: %s\n", err->msg);
	return false;
}

static void test_entries(void)
{
	struct state s = { 0 };

	CHECK(!state_add(&s, "a", "/a", "1\n", "2", NULL, -1) &&
	      !state_add(&s, "b", "/b", "", "", "0000:41:00.0", 0) &&
	      !state_add(&s, "c", "/c", "x", "y", NULL, -1) && s.n == 3 &&
	      s.e[0].interrupts == -1 && !s.e[0].bdf[0] && !strcmp(s.e[1].bdf, "0000:41:00.0") &&
	      !s.e[0].serial && s.e[0].type == TYPE_FILE && !s.e[0].by_set,
	      "state_add: copies, no count of interrupts yet, a file's type, not set's");
	CHECK(state_find(&s, "b") == &s.e[1] && !state_find(&s, "/b") && !state_find(&s, "d"),
	      "state_find: by key, not by path");
	CHECK(!state_set(&s.e[0].val, "3") && !strcmp(s.e[0].val, "3") &&
	      !state_identity(&s.e[0], NULL, "M") && !s.e[0].serial && !s.e[0].model,
	      "state_set replaces a value; state_identity wants serial and model both");
	state_drop(&s, 1);
	CHECK(s.n == 2 && !strcmp(s.e[0].key, "a") && !strcmp(s.e[1].key, "c") &&
	      !state_find(&s, "b"),
	      "state_drop removes one entry, the others keep their order");
	state_free(&s);
	CHECK(!s.n && !s.e && !s.profile[0], "state_free leaves an empty state");
}

static void test_round_trip(void)
{
	char dir[SCRATCH_LEN], text[8192], now[40];
	struct state s, l;
	struct lib_err err = { 0 };
	int i, ok;

	scratch_dir("state-round-trip", dir, sizeof(dir));
	CHECK(state_load(dir, &l, &err) == -ENOENT && !err.errnum,
	      "state_load: nothing saved is -ENOENT, no error");
	fill(&s);
	CHECK(!state_save(dir, &s, &err), "state_save: a state with entries of every kind");
	if (err.errnum)
		printf("# %s\n", err.msg);
	CHECK(!state_load(dir, &l, &err) && l.n == 4 && !strcmp(l.profile, "latency") &&
	      l.isolate && l.io_cores == 3,
	      "state_load: profile, isolation and io_cores as saved");
	for (i = 0, ok = l.n == s.n; ok && i < s.n; i++)
		ok = same_entry(&s.e[i], &l.e[i]);
	CHECK(ok, "state_load: every entry as saved: bytes, vector, count, type, set's, identity");
	CHECK(state_boot_id(now, sizeof(now)) ? !l.boot_id[0] : !strcmp(l.boot_id, now),
	      "state_save stamps the state with this boot's id");
	state_free(&l);

	scratch_get(dir, STATE_FILE, text, sizeof(text));
	CHECK(entry_line(text, 3) && !entry_line(text, 4) && strstr(text, "\"entries\": [\n") &&
	      !strcmp(text + strlen(text) - 4, "] }\n"),
	      "state_save: one entry a line (what state_salvage() reads)");
	snprintf(text, sizeof(text), "%s/" STATE_FILE ".tmp", dir);
	CHECK(access(text, F_OK) && errno == ENOENT,
	      "state_save: renamed into place, no temporary file left");
	state_free(&s);
}

static void test_refused(void)
{
	char dir[SCRATCH_LEN], text[8192];
	struct state s;
	struct lib_err err;
	size_t half;

	scratch_dir("state-refused", dir, sizeof(dir));
	fill(&s);
	state_save(dir, &s, &err);
	state_free(&s);
	scratch_get(dir, STATE_FILE, text, sizeof(text));
	half = strlen(text) / 2;
	text[half] = '\0';
	CHECK(load_text(dir, text, &err) == -EINVAL && says(&err, "(not an ssdtune state file)") &&
	      !strncmp(err.msg, dir, strlen(dir)),
	      "state_load: a state file cut short is refused, named, nothing loaded");
	CHECK(load_text(dir, "", &err) == -EINVAL && says(&err, "not an ssdtune state file") &&
	      load_text(dir, "[1, 2]\n", &err) == -EINVAL && says(&err, "not an ssdtune state file") &&
	      load_text(dir, "{\"entries\": {}}\n", &err) == -EINVAL &&
	      says(&err, "not an ssdtune state file"),
	      "state_load: an empty file, an array, entries that are no list: refused");
	CHECK(load_entries(dir, "{" ENTRY "}, {\"key\": \"k\", \"path\": \"/p\", \"new\": \"1\"}",
			   &err) == -EINVAL && says(&err, "malformed entry 1") &&
	      load_entries(dir, "{\"key\": \"k\", \"path\": 7, \"old\": \"\", \"new\": \"1\"}",
			   &err) == -EINVAL && says(&err, "malformed entry 0"),
	      "state_load: an entry without its old value, or a number for a path: refused, counted");
	CHECK(load_entries(dir, "{" ENTRY ", \"vector\": 3}", &err) == -EINVAL &&
	      says(&err, "malformed entry 0 (vector 3 without a PCI address)") &&
	      load_entries(dir, "{" ENTRY ", \"vector\": 3, \"pci_address\": \"0000:41:20.0\"}",
			   &err) == -EINVAL &&
	      load_entries(dir, "{" ENTRY ", \"vector\": \"3\", \"pci_address\": \"0000:41:00.0\"}",
			   &err) == -EINVAL,
	      "state_load: a vector without a valid PCI address, or not a number: refused");
	CHECK(load_entries(dir, "{" ENTRY ", \"type\": \"socket\"}", &err) == -EINVAL &&
	      says(&err, "malformed entry 0"),
	      "state_load: an entry of a type apply never writes: refused");
	CHECK(load_text(dir, "{\"isolate\": \"yes\", \"entries\": []}", &err) == -EINVAL &&
	      says(&err, "isolate must be true or false, io_cores a count") &&
	      load_text(dir, "{\"io_cores\": -1, \"entries\": []}", &err) == -EINVAL &&
	      load_text(dir, "{\"io_cores\": \"2\", \"entries\": []}", &err) == -EINVAL,
	      "state_load: isolate not a boolean, io_cores not a count: refused");

	scratch_put(dir, STATE_FILE,
		    "{\"profile\": \"iops\", \"entries\": [{\"key\": \"irq 0000:41:00.0 vector 1\","
		    " \"path\": \"/proc/irq/40/smp_affinity_list\", \"old\": \"0-3\\n\", \"new\": \"4\","
		    " \"bdf\": \"0000:41:00.0\", \"vector\": 1}]}\n");
	CHECK(!state_load(dir, &s, &err) && s.n == 1 && !strcmp(s.profile, "iops") &&
	      !s.isolate && !s.io_cores && !s.boot_id[0] && s.e[0].vector == 1 &&
	      !strcmp(s.e[0].bdf, "0000:41:00.0") && !strcmp(s.e[0].old, "0-3\n") &&
	      s.e[0].interrupts == -1 && s.e[0].type == TYPE_FILE,
	      "state_load: an earlier version's file (\"bdf\", no options, no boot id) loads");
	state_free(&s);
}

static void test_salvage(void)
{
	char dir[SCRATCH_LEN], text[8192], *at, *line;
	struct state s, l;
	struct lib_err err = { 0 };
	int lost = -1;

	scratch_dir("state-salvage", dir, sizeof(dir));
	CHECK(state_salvage(dir, &l, &lost, &err) == -ENOENT && !lost,
	      "state_salvage: no file is -ENOENT");
	fill(&s);
	state_save(dir, &s, &err);
	scratch_get(dir, STATE_FILE, text, sizeof(text));
	CHECK(!state_salvage(dir, &l, &lost, &err) && l.n == 4 && !lost &&
	      same_entry(&l.e[3], &s.e[3]),
	      "state_salvage: a whole file gives every entry, none lost");
	state_free(&l);

	/* cut in the middle of the third entry's line */
	line = entry_line(text, 2);
	if (line)
		*strstr(line, "\"path\"") = '\0';
	scratch_put(dir, STATE_FILE, text);
	CHECK(!state_salvage(dir, &l, &lost, &err) && l.n == 2 && lost == 2 &&
	      same_entry(&l.e[0], &s.e[0]) && same_entry(&l.e[1], &s.e[1]),
	      "state_salvage: a file cut short keeps its whole lines, the cut one and the rest lost");
	state_free(&l);

	state_save(dir, &s, &err);
	scratch_get(dir, STATE_FILE, text, sizeof(text));
	line = entry_line(text, 2);
	at = line ? strstr(line, "\"old\"") : NULL;
	if (at)
		memcpy(at, "\"odl\"", 5);
	scratch_put(dir, STATE_FILE, text);
	CHECK(!state_salvage(dir, &l, &lost, &err) && l.n == 3 && lost == 1 &&
	      same_entry(&l.e[2], &s.e[3]),
	      "state_salvage: a damaged entry line is lost, the entries after it are not");
	CHECK(state_load(dir, &l, &err) == -EINVAL,
	      "state_load refuses the file state_salvage() reads past");
	state_free(&s);
}

static void test_lock_remove(void)
{
	char dir[SCRATCH_LEN], sub[PATH_MAX], p[PATH_MAX + 16];
	struct state s = { 0 };
	struct lib_err err = { 0 };
	struct stat st;
	int fd, fd2;

	scratch_dir("state-lock", dir, sizeof(dir));
	snprintf(sub, sizeof(sub), "%s/state", dir);
	fd = state_lock(sub, &err);
	CHECK(fd >= 0 && !stat(sub, &st) && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700,
	      "state_lock creates the state directory, mode 0700, and locks it");
	fd2 = state_lock(sub, &err);
	CHECK(fd2 == -EWOULDBLOCK && strstr(err.msg, "/state/lock is held by another ssdtune run"),
	      "state_lock: a second lock while the first is held is refused, named");
	state_unlock(fd);
	fd = state_lock(sub, &err);
	CHECK(fd >= 0, "state_lock: free again after state_unlock");
	state_unlock(fd);
	snprintf(p, sizeof(p), "%s/no/such", dir);
	memset(&err, 0, sizeof(err));
	CHECK(state_lock(p, &err) == -ENOENT && strstr(err.msg, "cannot create state directory"),
	      "state_lock: a directory it cannot create is an error");

	snprintf(s.profile, sizeof(s.profile), "set");
	state_save(sub, &s, &err);
	snprintf(p, sizeof(p), "%s/lock", sub);
	CHECK(!state_remove(sub, &err) && state_load(sub, &s, &err) == -ENOENT &&
	      !access(p, F_OK) && !state_remove(sub, &err),
	      "state_remove: the state goes, the lock file stays; nothing to remove is fine");
	snprintf(p, sizeof(p), "%s/gone", dir);
	memset(&err, 0, sizeof(err));
	CHECK(state_save(p, &s, &err) == -ENOENT && strstr(err.msg, "cannot write ") &&
	      strstr(err.msg, "/gone/" STATE_FILE ".tmp"),
	      "state_save: a directory that is not there is an error naming the file");
}

static void test_files(void)
{
	char dir[SCRATCH_LEN], p[PATH_MAX + 16], buf[16], *saved;
	const char *env;

	scratch_dir("state-files", dir, sizeof(dir));
	scratch_put(dir, "raw", "abc\n");
	snprintf(p, sizeof(p), "%s/raw", dir);
	CHECK(!state_read_raw(p, buf, sizeof(buf)) && !strcmp(buf, "abc\n") &&
	      !state_read_raw(p, buf, 3) && !strcmp(buf, "ab"),
	      "state_read_raw: the bytes as they are, newline kept, cut to the buffer");
	snprintf(p, sizeof(p), "%s/none", dir);
	CHECK(state_read_raw(p, buf, sizeof(buf)) == -ENOENT,
	      "state_read_raw: a missing file is -ENOENT");

	env = getenv("SSDTUNE_STATE_DIR");
	saved = env ? strdup(env) : NULL;
	setenv("SSDTUNE_STATE_DIR", dir, 1);
	CHECK(!strcmp(state_dir_env(), dir), "state_dir_env: $SSDTUNE_STATE_DIR");
	setenv("SSDTUNE_STATE_DIR", "", 1);
	env = state_dir_env();
	unsetenv("SSDTUNE_STATE_DIR");
	CHECK(!strcmp(env, "/var/lib/ssdtune") && !strcmp(state_dir_env(), "/var/lib/ssdtune"),
	      "state_dir_env: empty or unset, /var/lib/ssdtune");
	if (saved)
		setenv("SSDTUNE_STATE_DIR", saved, 1);
	else
		unsetenv("SSDTUNE_STATE_DIR");
	free(saved);
}

/* Only what apply writes may come back from a state file; only a root
 * directory and file are read. */
static void test_trusted(void)
{
	static const struct { const char *path; int type; bool ok; } paths[] = {
		{ "/proc/irq/45/smp_affinity_list", TYPE_FILE, true },
		{ "/proc/irq/default_smp_affinity", TYPE_FILE, true },
		{ "/sys/devices/system/cpu/cpu3/cpuidle/state2/disable", TYPE_FILE, true },
		{ "/sys/class/ssdtune/ssdt0/coalesce_mode", TYPE_FILE, true },
		{ "/sys/fs/cgroup/cgroup.subtree_control", TYPE_CONTROLLER, true },
		{ "/sys/fs/cgroup/ssdtune.io", TYPE_PARTITION, true },
		{ "/sys/devices/virtual/workqueue/cpumask", TYPE_FILE, true },
		{ "/sys/block/nvme0n1/queue/scheduler", TYPE_FILE, true },
		{ IRQBALANCE_DROPIN, TYPE_DROPIN, true },
		{ GRUB_DROPIN, TYPE_DROPIN, true },
		{ "/etc/x", TYPE_FILE, false },
		{ "/etc/x", TYPE_DROPIN, false },
		{ IRQBALANCE_DROPIN, TYPE_FILE, false },
		{ "/etc/systemd/system/sshd.service.d/ssdtune.conf", TYPE_DROPIN, false },
		{ "/proc/irq/../sys/kernel/core_pattern", TYPE_FILE, false },
		{ "/proc/irq//1/x", TYPE_FILE, false },
		{ "/proc/irq/./1", TYPE_FILE, false },
		{ "/proc/irq", TYPE_FILE, false },
		{ "/sys/block/nvme0n1/device/delete", TYPE_FILE, false },
		{ "/sys/block/nvme0n1/queue/iosched/x", TYPE_FILE, false },
		{ "/sys/devices/system/cpu/cpu0/../../../../etc/x", TYPE_FILE, false },
		{ "/sys/class/ssdtune/ssdt0/coalesce_mode", TYPE_PARTITION, false },
		{ "proc/irq/1/x", TYPE_FILE, false },
	};
	char dir[SCRATCH_LEN], p[PATH_MAX], q[PATH_MAX];
	struct lib_err err = { 0 };
	struct state s = { 0 };
	bool ok = true;
	size_t i;
	int lost;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (state_path_allowed(paths[i].path, paths[i].type) != paths[i].ok) {
			printf("# %s (type %d): not %s\n", paths[i].path, paths[i].type,
			       paths[i].ok ? "allowed" : "refused");
			ok = false;
		}
	CHECK(ok, "state_path_allowed: what apply writes, and nothing else");
	scratch_dir("state-trusted", dir, sizeof(dir));
	CHECK(load_entries(dir, "{" ENTRY "}, {\"key\": \"x\", \"path\": \"/etc/x\", \"old\": \"\", \"new\": \"1\"}",
			   &err) == -EPERM &&
	      strstr(err.msg, "entry 1 names /etc/x, which apply never writes"),
	      "state_load: an entry naming /etc/x refuses the whole state (-EPERM)");
	CHECK(load_entries(dir, "{\"key\": \"x\", \"path\": \"/etc/systemd/system/sshd.service.d/ssdtune.conf\", \"old\": \"\", \"new\": \"1\", \"type\": \"dropin\"}",
			   &err) == -EPERM && strstr(err.msg, "names the drop-in /etc/systemd/system/sshd"),
	      "state_load: a drop-in of another unit is refused");
	scratch_put(dir, STATE_FILE, "{\"profile\": \"x\", \"entries\": [\n  {" ENTRY "},\n"
		    "  {\"key\": \"x\", \"path\": \"/etc/x\", \"old\": \"\", \"new\": \"1\"},\n");
	CHECK(state_salvage(dir, &s, &lost, &err) == -EPERM && !s.n,
	      "state_salvage: so is a damaged one with such an entry: nothing comes back");
	chmod(dir, 0777);
	CHECK(load_entries(dir, "{" ENTRY "}", &err) == -EPERM &&
	      strstr(err.msg, "mode 0777 lets group or others write it"),
	      "state_load: a 0777 state directory is refused");
	CHECK(state_lock(dir, &err) == -EPERM, "state_lock: so it is there");
	chmod(dir, 0700);
	snprintf(p, sizeof(p), "%s/" STATE_FILE, dir);
	chmod(p, 0666);
	memset(&err, 0, sizeof(err));
	CHECK(state_load(dir, &s, &err) == -EPERM && strstr(err.msg, "refusing state file"),
	      "state_load: a state file others can write is refused");
	unlink(p);
	snprintf(q, sizeof(q), "%s/elsewhere.json", dir);
	scratch_put(dir, "elsewhere.json", "{\"entries\": []}\n");
	CHECK(!symlink(q, p), "state.json planted as a link");
	CHECK(state_load(dir, &s, &err) == -EPERM && strstr(err.msg, "is a symbolic link"),
	      "state_load: a state file that is a link is refused");
	unlink(p);
	snprintf(p, sizeof(p), "%s/lock", dir);
	CHECK(!symlink(q, p), "lock planted as a link");
	CHECK(state_lock(dir, &err) == -EPERM && strstr(err.msg, "is a symbolic link"),
	      "state_lock: a lock file that is a link is refused, its target untouched");
	unlink(p);
	snprintf(s.profile, sizeof(s.profile), "x");
	snprintf(p, sizeof(p), "%s/" STATE_FILE ".tmp", dir);
	CHECK(!symlink(q, p), "state.json.tmp planted as a link");
	CHECK(!state_save(dir, &s, &err) &&
	      !strcmp(scratch_get(dir, "elsewhere.json", q, sizeof(q)), "{\"entries\": []}\n"),
	      "state_save: a planted temporary link is removed, not followed");
}

void test_state(void)
{
	test_entries();
	test_round_trip();
	test_refused();
	test_salvage();
	test_lock_remove();
	test_files();
	test_trusted();
}
