// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the Prometheus metrics (prometheus.c): the exposition
 * text of metrics made by hand (families without samples left out,
 * labels escaped), the families' names against the conventions, the
 * tuning's metrics of a saved state in a scratch directory (none, in
 * force, drifted, stale, unreadable), and the atomic file write.  The
 * controllers' and queues' metrics are read from the host's fixed
 * /sys/class/ssdtune (ssdtdev_list()), which takes no root: they are
 * left to the bats tests (tests/host/cmd/metrics.bats), and nothing here
 * looks at them, so a host with controllers attached passes as well.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tap.h"
#include "tests.h"
#include "lib/prometheus.h"
#include "lib/state.h"

/* The family @name of @m, or NULL. */
static const struct metric_family *family(const struct metrics *m, const char *name)
{
	int i;

	for (i = 0; i < m->n; i++)
		if (!strcmp(m->f[i].name, name))
			return &m->f[i];
	return NULL;
}

/* Family @name has one sample, of no labels or one @key="@val", @value. */
static bool one(const struct metrics *m, const char *name, const char *key,
		const char *val, const char *value)
{
	const struct metric_family *f = family(m, name);

	if (!f || f->n != 1 || strcmp(f->s[0].value, value))
		return false;
	if (!key)
		return !f->s[0].nlabels;
	return f->s[0].nlabels == 1 && !strcmp(f->s[0].key[0], key) &&
	       !strcmp(f->s[0].val[0], val);
}

static bool none(const struct metrics *m, const char *name)
{
	const struct metric_family *f = family(m, name);

	return f && !f->n;
}

static void test_render(void)
{
	char ctrl[] = "ssdt0", model[] = "a\"b\\c\nd", *text = NULL;
	struct metric_sample a = { .value = "1" }, c = { .nlabels = 2 };
	struct metric_family f[3] = {
		{ .name = "t_a", .type = "gauge", .help = "A.", .s = &a, .n = 1 },
		{ .name = "t_b", .type = "gauge", .help = "B." },
		{ .name = "t_c_total", .type = "counter", .help = "C.", .s = &c, .n = 1 },
	};
	struct metrics m = { .f = f, .n = 3 };
	char dir[SCRATCH_LEN], p[PATH_MAX];
	size_t len = 0;
	FILE *out;
	int r;

	c.key[0] = "controller";
	c.val[0] = ctrl;
	c.key[1] = "model";
	c.val[1] = model;
	snprintf(c.value, sizeof(c.value), "2.500");
	out = open_memstream(&text, &len);
	if (!out)
		return;
	r = metrics_render(&m, out);
	fclose(out);
	CHECK(!r && !strcmp(text, "# HELP t_a A.\n# TYPE t_a gauge\nt_a 1\n"
			    "# HELP t_c_total C.\n# TYPE t_c_total counter\n"
			    "t_c_total{controller=\"ssdt0\",model=\"a\\\"b\\\\c\\nd\"} 2.500\n"),
	      "metrics_render: HELP, TYPE, samples; none for an empty family; \\, \" and newline escaped");
	free(text);

	scratch_dir("prometheus-render", dir, sizeof(dir));
	scratch_put(dir, "ro", "");
	snprintf(p, sizeof(p), "%s/ro", dir);
	out = fopen(p, "r");
	if (!out)
		return;
	r = metrics_render(&m, out);
	fclose(out);
	CHECK(r == -EIO, "metrics_render: a stream it cannot write is -EIO");
}

/* metrics_gather() of state directory @dir into @m; the errors in @err. */
static int gather(struct metrics *m, const char *dir, struct lib_err *err)
{
	memset(err, 0, sizeof(*err));
	return metrics_gather(m, dir, NULL, err);
}

static void test_families(void)
{
	char dir[SCRATCH_LEN];
	struct lib_err err;
	struct metrics m;
	size_t nl;
	int i, ok;

	scratch_dir("prometheus-none", dir, sizeof(dir));
	CHECK(!gather(&m, dir, &err) && m.n >= 30 && !strcmp(m.f[0].name, "ssdtune_controller_info"),
	      "metrics_gather: every family, the controller's identity first");
	for (i = 0, ok = 1; i < m.n; i++) {
		nl = strlen(m.f[i].name);
		ok &= !strncmp(m.f[i].name, "ssdtune_", 8) && m.f[i].help[0] &&
		      (!strcmp(m.f[i].type, "gauge") || !strcmp(m.f[i].type, "counter")) &&
		      (!strcmp(m.f[i].type, "counter") ==
		       (nl > 6 && !strcmp(m.f[i].name + nl - 6, "_total")));
	}
	CHECK(ok, "metrics_gather: ssdtune_ names, a help each, _total on the counters and only there");
	CHECK(one(&m, "ssdtune_tuning_applied", NULL, NULL, "0") &&
	      one(&m, "ssdtune_tuning_drift", NULL, NULL, "0") &&
	      none(&m, "ssdtune_tuning_info") && none(&m, "ssdtune_tuning_settings") &&
	      none(&m, "ssdtune_tuning_stale"),
	      "metrics_gather: no saved state: applied 0, drift 0, no profile or counts");
	metrics_free(&m);
	CHECK(!m.f && !m.n, "metrics_free leaves empty metrics");
}

static void test_tuning(void)
{
	char dir[SCRATCH_LEN], sys[SCRATCH_LEN], pa[PATH_MAX], pb[PATH_MAX], now[40];
	struct state s = { 0 };
	struct lib_err err;
	struct metrics m;

	scratch_dir("prometheus-state", dir, sizeof(dir));
	scratch_dir("prometheus-sys", sys, sizeof(sys));
	scratch_put(sys, "a", "1\n");
	scratch_put(sys, "b", "2\n");
	snprintf(pa, sizeof(pa), "%s/a", sys);
	snprintf(pb, sizeof(pb), "%s/b", sys);
	snprintf(s.profile, sizeof(s.profile), "latency");
	state_add(&s, pa, pa, "0\n", "1", NULL, -1);
	state_add(&s, pb, pb, "0\n", "2", NULL, -1);
	state_save(dir, &s, &err);
	CHECK(!gather(&m, dir, &err) && one(&m, "ssdtune_tuning_info", "profile", "latency", "1") &&
	      one(&m, "ssdtune_tuning_applied", NULL, NULL, "1") &&
	      one(&m, "ssdtune_tuning_settings", NULL, NULL, "2") &&
	      one(&m, "ssdtune_tuning_drifted_settings", NULL, NULL, "0") &&
	      one(&m, "ssdtune_tuning_drift", NULL, NULL, "0"),
	      "metrics_gather: a state in force: its profile, its settings, no drift");
	metrics_free(&m);

	scratch_put(sys, "b", "0\n");
	CHECK(!gather(&m, dir, &err) && one(&m, "ssdtune_tuning_settings", NULL, NULL, "2") &&
	      one(&m, "ssdtune_tuning_drifted_settings", NULL, NULL, "1") &&
	      one(&m, "ssdtune_tuning_stale", NULL, NULL, "0") &&
	      one(&m, "ssdtune_tuning_drift", NULL, NULL, "1"),
	      "metrics_gather: a setting changed since apply is drift");
	metrics_free(&m);
	state_free(&s);

	scratch_put(sys, "b", "2\n");
	scratch_put(dir, STATE_FILE, "{\"profile\": \"iops\", \"boot_id\": \"not-this-boot\", \"entries\": []}\n");
	CHECK(!gather(&m, dir, &err) && one(&m, "ssdtune_tuning_info", "profile", "iops", "1") &&
	      one(&m, "ssdtune_tuning_settings", NULL, NULL, "0") &&
	      (state_boot_id(now, sizeof(now)) ?
	       one(&m, "ssdtune_tuning_stale", NULL, NULL, "0") :
	       one(&m, "ssdtune_tuning_stale", NULL, NULL, "1") &&
	       one(&m, "ssdtune_tuning_drift", NULL, NULL, "1")),
	      "metrics_gather: a state of another boot is stale, and drift");
	metrics_free(&m);

	scratch_put(dir, STATE_FILE, "{\"entries\": ");
	CHECK(gather(&m, dir, &err) == -EINVAL && err.errnum == EINVAL &&
	      strstr(err.msg, STATE_FILE ": malformed"),
	      "metrics_gather: a state it cannot read is an error, named");
	metrics_free(&m);
}

/* Is there a file in @dir whose name starts with @prefix? */
static bool left(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;

	if (!d)
		return true;
	while (!found && (e = readdir(d)))
		found = !strncmp(e->d_name, prefix, strlen(prefix));
	closedir(d);
	return found;
}

static void test_write_file(void)
{
	struct metric_sample a = { .value = "7" };
	struct metric_family f = { .name = "t", .type = "gauge", .help = "T.", .s = &a, .n = 1 };
	struct metrics m = { .f = &f, .n = 1 };
	char dir[SCRATCH_LEN], sub[SCRATCH_LEN], p[PATH_MAX], buf[128];
	struct lib_err err = { 0 };
	struct stat st;
	int r;

	scratch_dir("prometheus-file", dir, sizeof(dir));
	scratch_put(dir, "ssdtune.prom", "old\n");
	snprintf(p, sizeof(p), "%s/ssdtune.prom", dir);
	r = metrics_write_file(&m, p, &err);
	CHECK(!r && !strcmp(scratch_get(dir, "ssdtune.prom", buf, sizeof(buf)),
			    "# HELP t T.\n# TYPE t gauge\nt 7\n") &&
	      !stat(p, &st) && (st.st_mode & 0777) == 0644,
	      "metrics_write_file: the file replaced by the text, mode 0644");
	CHECK(!left(dir, ".ssdtune-metrics."), "metrics_write_file: no temporary file left");

	snprintf(p, sizeof(p), "%s/gone/ssdtune.prom", dir);
	r = metrics_write_file(&m, p, &err);
	CHECK(r == -ENOENT && strstr(err.msg, "cannot write in ") &&
	      strstr(err.msg, "/gone: No such file or directory"),
	      "metrics_write_file: a directory that is not there is an error naming it");
	scratch_dir("prometheus-file/sub", sub, sizeof(sub));
	memset(&err, 0, sizeof(err));
	r = metrics_write_file(&m, sub, &err);
	CHECK(r == -EISDIR && strstr(err.msg, "/sub: Is a directory") && !left(dir, ".ssdtune-metrics."),
	      "metrics_write_file: a rename refused is an error, the temporary file removed");
}

void test_prometheus(void)
{
	test_render();
	test_families();
	test_tuning();
	test_write_file();
}
