// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune plan, apply, verify, revert: glue between topo_gather(), the
 * pure planner (plan.c), the saved state (state.c) and the one write path
 * (sys_write()).
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "lib/cpuset.h"
#include "cmd/output.h"
#include "lib/parse.h"
#include "lib/plan.h"
#include "lib/state.h"
#include "lib/sysfs.h"

enum { OPT_PROFILE = 0x200, OPT_STATE_DIR };

static const struct option plan_options[] = {
	{ "profile",	required_argument, NULL, OPT_PROFILE },
	{ NULL, 0, NULL, 0 },
};

static const struct option apply_options[] = {
	{ "profile",	required_argument, NULL, OPT_PROFILE },
	{ "state-dir",	required_argument, NULL, OPT_STATE_DIR },
	{ NULL, 0, NULL, 0 },
};

static const struct option state_options[] = {
	{ "state-dir",	required_argument, NULL, OPT_STATE_DIR },
	{ NULL, 0, NULL, 0 },
};

static int profile = PROFILE_BALANCED;
static const char *state_dir = STATE_DIR_DEFAULT;

static int tune_option(struct cli *cli, int val, const char *arg)
{
	(void)cli;
	if (val == OPT_PROFILE) {
		profile = plan_profile_parse(arg);
		if (profile < 0)
			return usage_error(NULL, "unknown profile '%s' (latency, iops, throughput or balanced)",
					   arg);
	} else if (val == OPT_STATE_DIR) {
		if (!arg[0])
			return usage_error(NULL, "--state-dir needs a directory");
		state_dir = arg;
	}
	return 0;
}

static const char *kind_name(enum plan_kind k)
{
	static const char *const names[] = { "set", "keep", "skip", "note" };

	return names[k];
}

/* The storage functions named on the command line (PCI address or
 * ssdtune controller name), as indexes into t->pcis. */
static int select_devices(const struct topo *t, struct cli *cli, int *sel)
{
	int i, j;

	for (i = 0; i < cli->argc; i++) {
		char name[BDF_BUFSZ] = "";
		struct bdf b;

		if (!bdf_parse(cli->argv[i], &b))
			bdf_format(&b, name, sizeof(name));
		for (j = 0; j < t->npcis; j++)
			if (!strcmp(t->pcis[j].bdf, name) ||
			    (t->pcis[j].ssdt[0] && !strcmp(t->pcis[j].ssdt, cli->argv[i])))
				break;
		if (j == t->npcis)
			return out_fail(EXIT_REFUSED, "unknown device '%s': no storage PCI function or ssdtune controller by that name (see 'ssdtune topology')",
					cli->argv[i]);
		sel[i] = j;
	}
	return 0;
}

static int make_plan(struct cli *cli, struct topo *t, struct plan *p)
{
	int *sel, r;

	memset(p, 0, sizeof(*p));
	r = topo_gather(t);
	if (r)
		return r;
	sel = calloc((size_t)cli->argc + 1, sizeof(*sel));
	if (!sel)
		return out_fail(EXIT_REFUSED, "out of memory");
	r = select_devices(t, cli, sel);
	if (!r) {
		r = plan_build(t, profile, sel, cli->argc, p);
		if (r == -ENODEV)
			r = out_fail(EXIT_REFUSED, "no NVMe device to tune (see 'ssdtune topology')");
		else if (r)
			r = out_fail(EXIT_REFUSED, "out of memory");
	}
	free(sel);
	return r;
}

static void report_plan(const struct plan *p)
{
	struct json_object *o = out_obj(), *devs, *items;
	int i;

	json_object_object_add(o, "profile", json_object_new_string(plan_profile_name(p->profile)));
	json_object_object_add(o, "cstate_latency_bound_us",
			       json_object_new_int(plan_latency_bound_us(p->profile)));
	json_object_object_add(o, "irq_cpus", json_object_new_string(p->irq_cpus));
	json_object_object_add(o, "io_cpus", json_object_new_string(p->io_cpus));
	json_object_object_add(o, "housekeeping_cpus", json_object_new_string(p->housekeeping));
	json_object_object_add(o, "boot_cmdline", json_object_new_string(p->cmdline));
	devs = json_object_new_array();
	for (i = 0; i < p->ndevs; i++) {
		const struct plan_dev *d = &p->devs[i];
		struct json_object *j = json_object_new_object();

		json_object_object_add(j, "bdf", json_object_new_string(d->bdf));
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
	json_object_object_add(o, "devices", devs);
	items = json_object_new_array();
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
			json_object_object_add(j, "bdf", json_object_new_string(it->bdf));
			json_object_object_add(j, "vector", json_object_new_int(it->vector));
		}
		json_object_array_add(items, j);
	}
	json_object_object_add(o, "changes", items);
	if (out_json())
		return;

	printf("profile %s", plan_profile_name(p->profile));
	if (plan_latency_bound_us(p->profile) >= 0)
		printf(": C-states with exit latency above %d us off on the chosen cores",
		       plan_latency_bound_us(p->profile));
	printf("\n");
	for (i = 0; i < p->ndevs; i++) {
		const struct plan_dev *d = &p->devs[i];

		printf("device %s (%s%s%s, node %d): interrupt cores %s, I/O cores %s",
		       d->bdf, d->driver[0] ? d->driver : "no driver", d->ssdt[0] ? " " : "",
		       d->ssdt, d->node, d->irq_cpus, d->io_cpus);
		if (d->nmanaged)
			printf("; %d of %d vectors kernel-managed (not steerable)",
			       d->nmanaged, d->nvectors);
		printf("\n");
	}
	for (i = 0; i < p->nitems; i++) {
		const struct plan_item *it = &p->items[i];

		switch (it->kind) {
		case PLAN_SET:
			printf("%s: %s -> %s  (%s)\n", it->path, it->old[0] ? it->old : "\"\"",
			       it->val, it->reason);
			break;
		case PLAN_KEEP:
			printf("%s: %s already  (%s)\n", it->path, it->val, it->reason);
			break;
		case PLAN_SKIP:
			printf("%s: skipped: %s\n", it->path, it->reason);
			break;
		case PLAN_NOTE:
			printf("note: %s\n", it->reason);
			break;
		}
	}
}

static void count(const struct plan *p, int *set, int *keep, int *skip)
{
	int i;

	*set = *keep = *skip = 0;
	for (i = 0; i < p->nitems; i++) {
		*set += p->items[i].kind == PLAN_SET;
		*keep += p->items[i].kind == PLAN_KEEP;
		*skip += p->items[i].kind == PLAN_SKIP;
	}
}

static int cmd_plan(const struct command *cmd, struct cli *cli)
{
	struct topo t;
	struct plan p;
	int r, set, keep, skip;

	(void)cmd;
	r = make_plan(cli, &t, &p);
	if (!r) {
		report_plan(&p);
		count(&p, &set, &keep, &skip);
		if (!out_json())
			printf("%d to change, %d already set, %d skipped\n", set, keep, skip);
		r = out_done();
	}
	plan_free(&p);
	topo_free(&t);
	return r;
}

/*
 * bench's CPU placement: the I/O cores the applied profile (saved in @dir)
 * plans for @bdf.  0 with @cpus and @prof filled; -ENOENT when no profile
 * is applied; else an exit code after one line.
 */
int tune_applied_io_cpus(const char *dir, const char *bdf, char *cpus,
			 size_t len, char *prof, size_t plen)
{
	struct state s = { 0 };
	struct topo t;
	struct plan p = { 0 };
	int r, pr, sel;

	r = state_load(dir, &s);
	if (r)
		return r;
	snprintf(prof, plen, "%s", s.profile);
	state_free(&s);
	pr = plan_profile_parse(prof);
	if (pr < 0)
		return -ENOENT;	/* "set": knobs changed by hand, no plan */
	r = topo_gather(&t);
	if (!r) {
		for (sel = 0; sel < t.npcis; sel++)
			if (!strcmp(t.pcis[sel].bdf, bdf))
				break;
		if (sel == t.npcis)
			r = out_fail(EXIT_REFUSED, "%s is not in the PCI topology: cannot place I/O as the applied profile plans",
				     bdf);
	}
	if (!r) {
		r = plan_build(&t, pr, &sel, 1, &p);
		if (r)
			r = out_fail(EXIT_REFUSED, "cannot plan the applied profile %s for %s",
				     prof, bdf);
		else
			snprintf(cpus, len, "%s", p.devs[0].io_cpus);
	}
	plan_free(&p);
	topo_free(&t);
	return r;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Where interrupt vector @index of @bdf is now: /proc/irq/N/@file. */
static int vector_path(const char *bdf, int index, const char *file, char *buf,
		       size_t len)
{
	char dir[PATH_MAX];
	int n = 0, cap = 0, *v = NULL, *nv, irq;
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), SYS_PCI_DEVICES "/%s/msi_irqs", bdf);
	d = opendir(dir);
	if (!d)
		return -ENOENT;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			nv = realloc(v, (size_t)cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		v[n++] = atoi(e->d_name);
	}
	closedir(d);
	irq = -1;
	if (index < n) {
		qsort(v, (size_t)n, sizeof(*v), cmp_int);
		irq = v[index];
	}
	free(v);
	if (irq < 0)
		return -ENOENT;
	snprintf(buf, len, "/proc/irq/%d/%s", irq, file);
	return 0;
}

/* The live path of a saved entry (an IRQ number may have changed). */
static int entry_path(const struct state_entry *e, char *buf, size_t len)
{
	if (e->vector >= 0)
		return vector_path(e->bdf, e->vector, "smp_affinity_list", buf, len);
	snprintf(buf, len, "%s", e->path);
	return 0;
}

static void strip(char *s)
{
	size_t n = strlen(s);

	while (n && s[n - 1] == '\n')
		s[--n] = '\0';
}

static bool same_value(const char *a, const char *b)
{
	char x[TOPO_LIST], y[TOPO_LIST];

	snprintf(x, sizeof(x), "%s", a);
	snprintf(y, sizeof(y), "%s", b);
	strip(x);
	strip(y);
	return !strcmp(x, y);
}

/* Save what the plan touches, keeping values saved by an earlier apply
 * (they are the originals). */
static int save_plan(const struct plan *p, struct state *s)
{
	char raw[TOPO_LIST];
	int i, r;

	snprintf(s->profile, sizeof(s->profile), "%s", plan_profile_name(p->profile));
	for (i = 0; i < p->nitems; i++) {
		const struct plan_item *it = &p->items[i];
		struct state_entry *e;

		if (it->kind != PLAN_SET && it->kind != PLAN_KEEP)
			continue;
		e = state_find(s, it->key);
		if (e) {
			if (state_set(&e->val, it->val) || state_set(&e->path, it->path))
				return out_fail(EXIT_REFUSED, "out of memory");
			continue;
		}
		r = state_read_raw(it->path, raw, sizeof(raw));
		if (r)
			return out_fail(EXIT_REFUSED, "cannot read %s: %s", it->path, strerror(-r));
		if (state_add(s, it->key, it->path, raw, it->val, it->bdf, it->vector))
			return out_fail(EXIT_REFUSED, "out of memory");
	}
	return 0;
}

/* Test hook: SSDTUNE_TEST_ABORT_AFTER=N kills the process (SIGKILL)
 * after N writes, to prove a crash mid-apply can be reverted.  Test-only. */
static void maybe_abort(int done)
{
	const char *s = getenv("SSDTUNE_TEST_ABORT_AFTER");

	if (s && *s && done >= atoi(s))
		kill(getpid(), SIGKILL);
}

static const char *write_error(const char *path, int err, char *buf, size_t len)
{
	if (!strncmp(path, "/proc/irq/", 10) && (err == -EIO || err == -EPERM))
		snprintf(buf, len, "%s: %s: the kernel refused the affinity, the vector is kernel-managed (EIO before 6.12, EPERM from 6.12); 'ssdtune attach' the controller to steer it",
			 path, strerror(-err));
	else
		snprintf(buf, len, "%s: %s", path, strerror(-err));
	return buf;
}

static int cmd_apply(const struct command *cmd, struct cli *cli)
{
	char err1[PATH_MAX + 256] = "";
	struct state s = { 0 };
	int r, i, fd = -1, done = 0, failed = 0, set, keep, skip;
	struct topo t;
	struct plan p;

	(void)cmd;
	r = make_plan(cli, &t, &p);
	if (r)
		goto out;
	if (!cli->dry_run) {
		fd = state_lock(state_dir);
		if (fd < 0) {
			r = -fd;
			goto out;
		}
		r = state_load(state_dir, &s);
		if (r == -ENOENT)
			r = 0;
		if (!r)
			r = save_plan(&p, &s);
		if (!r)
			r = state_save(state_dir, &s);
		if (r)
			goto out;
	}
	report_plan(&p);
	for (i = 0; i < p.nitems; i++) {
		const struct plan_item *it = &p.items[i];
		int w;

		if (it->kind != PLAN_SET)
			continue;
		w = sys_write(it->path, it->val);
		if (w) {
			if (!failed++)
				write_error(it->path, w, err1, sizeof(err1));
			continue;
		}
		done++;
		if (!cli->dry_run)
			maybe_abort(done);
	}
	count(&p, &set, &keep, &skip);
	json_object_object_add(out_obj(), "state_dir", cli->dry_run ? NULL :
			       json_object_new_string(state_dir));
	if (failed) {
		r = out_fail(EXIT_REFUSED, "%d of %d writes failed; first: %s", failed,
			     set, err1);
		goto out;
	}
	if (!out_json())
		printf("%s %d, %d already set, %d skipped%s%s\n",
		       cli->dry_run ? "would change" : "changed", done, keep, skip,
		       cli->dry_run ? "" : "; saved originals in ", cli->dry_run ? "" : state_dir);
	r = out_done();
out:
	state_unlock(fd);
	state_free(&s);
	plan_free(&p);
	topo_free(&t);
	return r;
}

static int load_applied(struct state *s)
{
	int r = state_load(state_dir, s);

	if (r == -ENOENT)
		return out_fail(EXIT_REFUSED, "nothing applied: no %s/%s", state_dir, STATE_FILE);
	return r;
}

/* Does saved entry @e hold?  Fills @now; @why on drift. */
static bool entry_holds(const struct state_entry *e, const char *path, char *now,
			size_t len, char *why, size_t wlen)
{
	char eff[TOPO_LIST], ep[PATH_MAX];
	int r = state_read_raw(path, now, len);
	struct cpuset want, got;
	bool ok;

	strip(now);
	if (r) {
		snprintf(why, wlen, "cannot read: %s", strerror(-r));
		return false;
	}
	if (e->vector < 0) {
		snprintf(why, wlen, "applied %s, now %s", e->val, now);
		return same_value(now, e->val);
	}
	if (!cpulist_same(now, e->val, 8192)) {
		snprintf(why, wlen, "applied %s, now %s", e->val, now);
		return false;
	}
	/* The mask the kernel really uses must lie inside what was asked. */
	if (vector_path(e->bdf, e->vector, "effective_affinity_list", ep, sizeof(ep)) ||
	    state_read_raw(ep, eff, sizeof(eff))) {
		snprintf(why, wlen, "cannot read its effective_affinity_list");
		return false;
	}
	strip(eff);
	if (cpuset_init(&want, 8192))
		return false;
	if (cpuset_init(&got, 8192)) {
		cpuset_free(&want);
		return false;
	}
	ok = !cpuset_add_list(&want, e->val) && !cpuset_add_list(&got, eff) &&
	     cpuset_count(&got) && cpuset_subset(&got, &want);
	if (!ok)
		snprintf(why, wlen, "effective affinity %s is outside the applied %s (x86 moves a vector at its next interrupt)",
			 eff, e->val);
	cpuset_free(&want);
	cpuset_free(&got);
	return ok;
}

static int cmd_verify(const struct command *cmd, struct cli *cli)
{
	char path[PATH_MAX], now[TOPO_LIST], why[2 * TOPO_LIST + 128];
	struct json_object *arr = json_object_new_array();
	struct state s;
	int r, i, drift = 0;

	(void)cmd;
	(void)cli;
	json_object_object_add(out_obj(), "checks", arr);
	r = load_applied(&s);
	if (r)
		return r;
	for (i = 0; i < s.n; i++) {
		const struct state_entry *e = &s.e[i];
		struct json_object *j = json_object_new_object();
		bool ok;

		now[0] = '\0';
		if (entry_path(e, path, sizeof(path))) {
			snprintf(path, sizeof(path), "%s", e->key);
			snprintf(why, sizeof(why), "gone (device or vector not found)");
			ok = false;
		} else {
			ok = entry_holds(e, path, now, sizeof(now), why, sizeof(why));
		}
		drift += !ok;
		json_object_object_add(j, "path", json_object_new_string(path));
		json_object_object_add(j, "key", json_object_new_string(e->key));
		json_object_object_add(j, "applied", json_object_new_string(e->val));
		json_object_object_add(j, "now", json_object_new_string(now));
		json_object_object_add(j, "holds", json_object_new_boolean(ok));
		if (!ok)
			json_object_object_add(j, "drift", json_object_new_string(why));
		json_object_array_add(arr, j);
		if (!out_json()) {
			if (ok)
				printf("ok     %s = %s\n", path, e->val);
			else
				printf("drift  %s: %s\n", path, why);
		}
	}
	json_object_object_add(out_obj(), "profile", json_object_new_string(s.profile));
	json_object_object_add(out_obj(), "drifted", json_object_new_int(drift));
	if (drift)
		r = out_fail(EXIT_REFUSED, "%d of %d applied settings drifted", drift, s.n);
	else {
		if (!out_json())
			printf("all %d applied settings hold (profile %s)\n", s.n, s.profile);
		r = out_done();
	}
	state_free(&s);
	return r;
}

static int cmd_revert(const struct command *cmd, struct cli *cli)
{
	char path[PATH_MAX], now[TOPO_LIST], err1[PATH_MAX + 256] = "";
	int r, i, fd = -1, done = 0, failed = 0;
	struct state s = { 0 };

	(void)cmd;
	if (!cli->dry_run) {
		fd = state_lock(state_dir);
		if (fd < 0)
			return -fd;
	}
	r = load_applied(&s);
	if (r)
		goto out;
	for (i = s.n - 1; i >= 0; i--) {
		const struct state_entry *e = &s.e[i];
		int w;

		if (entry_path(e, path, sizeof(path))) {
			if (!failed++)
				snprintf(err1, sizeof(err1), "%s: gone (device or vector not found)",
					 e->key);
			continue;
		}
		w = state_read_raw(path, now, sizeof(now));
		if (!w && same_value(now, e->old))
			continue;
		w = sys_write(path, e->old);
		if (w) {
			if (!failed++)
				write_error(path, w, err1, sizeof(err1));
			continue;
		}
		done++;
	}
	if (failed) {
		r = out_fail(EXIT_REFUSED, "%d saved values could not be restored (state kept in %s); first: %s",
			     failed, state_dir, err1);
		goto out;
	}
	if (!cli->dry_run) {
		r = state_remove(state_dir);
		if (r)
			goto out;
	}
	if (!out_json())
		printf("%s %d of %d saved values%s\n", cli->dry_run ? "would restore" : "restored",
		       done, s.n, cli->dry_run ? "" : "; state removed");
	r = out_done();
out:
	state_unlock(fd);
	state_free(&s);
	return r;
}

const struct command plan_command = {
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
};

const struct command apply_command = {
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
};

const struct command verify_command = {
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
};

const struct command revert_command = {
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
};
