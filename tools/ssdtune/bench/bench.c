// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune bench: the command.  Options and suites, the safety checks,
 * then purge -> precondition -> every cell of the matrix in rounds (until
 * SNIA PTS steady state when asked) -> the report (bench.json, the source
 * of truth; bench.csv, bench.txt and PNGs made from it).  --ab runs it
 * twice around `ssdtune apply`/`revert`; `bench compare` is bench_compare.c.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/fio.h"
#include "bench/stats.h"
#include "lib/blkdev.h"
#include "cmd/cli.h"
#include "lib/format.h"
#include "cmd/output.h"
#include "lib/state.h"
#include "lib/sysfs.h"
#include "lib/tune.h"

#define MAX_LIST 16

struct bench_opts {
	long bs[MAX_LIST];
	int nbs;
	int qd_threads[MAX_LIST], qd_depth[MAX_LIST];
	int nqd;
	int rw_read[MAX_LIST], rw_random[MAX_LIST];
	int nrw;
	int jobs;		/* 0: unset */
	int pattern;		/* -1 unset, 0 seq, 1 random */
	const char *ioengine;
	int runtime;		/* seconds, 0: unset */
	int rounds;		/* 0: unset */
	bool steady;		/* rounds until steady state (max 25) */
	bool purge, precondition, destroy;
	const char *suite, *out, *ab, *cpus, *state_dir;
	int temp_warn_c;		/* --temp-warn, 0: not given */
};

static struct bench_opts o = { .pattern = -1 };

/*
 * The temperature that marks a round suspect: --temp-warn, else the
 * drive's own warning threshold (ssdtune: temperature_warn_mc, Identify
 * WCTEMP), else 70 C.  Settled once the device is known.
 */
#define TEMP_WARN_DEFAULT_MC	70000LL
static long long temp_warn_mc = TEMP_WARN_DEFAULT_MC;
static const char *temp_warn_source = "default";

/*
 * Where fio runs: --cpus, else the I/O cores the applied profile plans for
 * the device (ssdtune apply's saved state), else wherever the scheduler
 * puts it.  Settled before each run: --ab's baseline runs unplaced and
 * its tuned run on the profile's cores.
 */
static const char *cpus, *cpus_source = "none";
static char plan_cpus[1024], plan_profile[32];

static int settle_cpus(const struct bench_dev *d)
{
	struct lib_err err;
	int r;

	cpus = o.cpus;
	cpus_source = o.cpus ? "option" : "none";
	if (o.cpus || !d->bdf[0])
		return 0;
	r = tune_applied_io_cpus(o.state_dir ? o.state_dir : STATE_DIR_DEFAULT,
				 d->bdf, plan_cpus, sizeof(plan_cpus),
				 plan_profile, sizeof(plan_profile), &err);
	if (r == -ENOENT)
		return 0;
	if (r)
		return out_fail_err(&err);
	if (plan_cpus[0]) {
		cpus = plan_cpus;
		cpus_source = "plan";
	}
	return 0;
}

static void settle_temp_warn(const struct bench_dev *d)
{
	if (o.temp_warn_c) {
		temp_warn_mc = o.temp_warn_c * 1000LL;
		temp_warn_source = "option";
	} else if (d->have_temp_warn && d->temp_warn_mc > 0) {
		temp_warn_mc = d->temp_warn_mc;
		temp_warn_source = "device";
	}
}

enum {
	OPT_BS = 0x200, OPT_QD, OPT_JOBS, OPT_RW, OPT_RANDOM, OPT_SEQ,
	OPT_IOENGINE, OPT_RUNTIME, OPT_ROUNDS, OPT_STEADY, OPT_PURGE,
	OPT_PRECOND, OPT_SUITE, OPT_OUT, OPT_DESTROY, OPT_AB, OPT_CPUS,
	OPT_TEMP_WARN, OPT_STATE_DIR,
};

static const struct option bench_options[] = {
	{ "bs",			required_argument, NULL, OPT_BS },
	{ "qd",			required_argument, NULL, OPT_QD },
	{ "jobs",		required_argument, NULL, OPT_JOBS },
	{ "rw",			required_argument, NULL, OPT_RW },
	{ "random",		no_argument,	   NULL, OPT_RANDOM },
	{ "seq",		no_argument,	   NULL, OPT_SEQ },
	{ "ioengine",		required_argument, NULL, OPT_IOENGINE },
	{ "runtime",		required_argument, NULL, OPT_RUNTIME },
	{ "rounds",		required_argument, NULL, OPT_ROUNDS },
	{ "steady-state",	no_argument,	   NULL, OPT_STEADY },
	{ "purge",		no_argument,	   NULL, OPT_PURGE },
	{ "precondition",	no_argument,	   NULL, OPT_PRECOND },
	{ "suite",		required_argument, NULL, OPT_SUITE },
	{ "out",		required_argument, NULL, OPT_OUT },
	{ "destroy-data",	no_argument,	   NULL, OPT_DESTROY },
	{ "yes-destroy-data",	no_argument,	   NULL, OPT_DESTROY },
	{ "ab",			required_argument, NULL, OPT_AB },
	{ "cpus",		required_argument, NULL, OPT_CPUS },
	{ "temp-warn",		required_argument, NULL, OPT_TEMP_WARN },
	{ "state-dir",		required_argument, NULL, OPT_STATE_DIR },
	{ NULL, 0, NULL, 0 },
};

static int int_arg(const char *name, const char *arg, int min, int max,
		   int *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || end == arg || *end || n < min || n > max)
		return usage_error(NULL, "bench: %s '%s' is not a number in %d..%d",
				   name, arg, min, max);
	*v = (int)n;
	return 0;
}

/* Split a comma list, call @one on each item. */
static int each_item(const char *name, const char *arg,
		     int (*one)(const char *item, int i), int *count)
{
	char buf[512], *save = NULL, *tok;
	int n = 0, r;

	snprintf(buf, sizeof(buf), "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == MAX_LIST)
			return usage_error(NULL, "bench: more than %d %s values",
					   MAX_LIST, name);
		r = one(tok, n);
		if (r)
			return r;
		n++;
	}
	if (!n)
		return usage_error(NULL, "bench: empty %s list", name);
	*count = n;
	return 0;
}

static int one_bs(const char *s, int i)
{
	o.bs[i] = bench_parse_size(s);
	return o.bs[i] < 0 ? usage_error(NULL,
		"bench: block size '%s' is not 512..1m in multiples of 512", s) : 0;
}

static int one_qd(const char *s, int i)
{
	return bench_parse_qd(s, &o.qd_threads[i], &o.qd_depth[i]) ?
	       usage_error(NULL, "bench: queue depth '%s' is not 1..256 or THREADSxDEPTH", s) : 0;
}

static int one_rw(const char *s, int i)
{
	return bench_parse_rw(s, &o.rw_read[i], &o.rw_random[i]) ?
	       usage_error(NULL, "bench: --rw '%s' is not read, write, randread, randwrite or R/W adding to 100", s) : 0;
}

static int bench_option(struct cli *cli, int val, const char *arg)
{
	(void)cli;
	switch (val) {
	case OPT_BS:
		return each_item("--bs", arg, one_bs, &o.nbs);
	case OPT_QD:
		return each_item("--qd", arg, one_qd, &o.nqd);
	case OPT_RW:
		return each_item("--rw", arg, one_rw, &o.nrw);
	case OPT_JOBS:
		return int_arg("--jobs", arg, 1, 256, &o.jobs);
	case OPT_RANDOM:
	case OPT_SEQ:
		if (o.pattern == (val == OPT_SEQ))
			return usage_error(NULL, "bench: --random and --seq exclude each other");
		o.pattern = val == OPT_RANDOM;
		return 0;
	case OPT_IOENGINE:
		if (strcmp(arg, "libaio") && strcmp(arg, "io_uring"))
			return usage_error(NULL, "bench: --ioengine '%s' is not libaio or io_uring", arg);
		o.ioengine = arg;
		return 0;
	case OPT_RUNTIME:
		return int_arg("--runtime", arg, 1, 86400, &o.runtime);
	case OPT_ROUNDS:
		return int_arg("--rounds", arg, 1, SS_MAX_ROUNDS, &o.rounds);
	case OPT_TEMP_WARN:
		return int_arg("--temp-warn", arg, 1, 200, &o.temp_warn_c);
	case OPT_STEADY:
	case OPT_PURGE:
	case OPT_PRECOND:
	case OPT_DESTROY:
		*(val == OPT_STEADY ? &o.steady : val == OPT_PURGE ? &o.purge :
		  val == OPT_PRECOND ? &o.precondition : &o.destroy) = true;
		return 0;
	case OPT_SUITE:
		if (strcmp(arg, "quick") && strcmp(arg, "pts-iops") &&
		    strcmp(arg, "pts-throughput") && strcmp(arg, "pts-latency"))
			return usage_error(NULL, "bench: --suite '%s' is not quick, pts-iops, pts-throughput or pts-latency", arg);
		o.suite = arg;
		return 0;
	case OPT_OUT:
		if (!*arg || strlen(arg) >= PATH_MAX / 2)
			return usage_error(NULL, "bench: --out needs a directory name under %d bytes",
					   PATH_MAX / 2);
		o.out = arg;
		return 0;
	case OPT_AB:
		o.ab = arg;
		return 0;
	case OPT_STATE_DIR:
		if (!*arg)
			return usage_error(NULL, "bench: --state-dir needs a directory");
		o.state_dir = arg;
		return 0;
	case OPT_CPUS:
		if (!*arg || strspn(arg, "0123456789,-") != strlen(arg))
			return usage_error(NULL, "bench: --cpus '%s' is not a CPU list", arg);
		o.cpus = arg;
		return 0;
	}
	return usage_error(NULL, "bench: unknown option");
}

/* Fill what the command line left unset from the suite. */
static void apply_suite(void)
{
	static const long pts_bs[] = { 512, 4096, 8192, 16384, 32768, 65536,
				       131072, 1048576 };
	static const int pts_mix[] = { 100, 95, 65, 50, 35, 5, 0 };
	const char *s = o.suite ? o.suite : "quick";
	bool pts = strncmp(s, "pts-", 4) == 0;
	int i;

	if (!o.nbs) {
		if (!strcmp(s, "pts-iops"))
			for (i = 0; i < 8; i++)
				o.bs[o.nbs++] = pts_bs[i];
		else if (!strcmp(s, "pts-throughput"))
			o.bs[o.nbs++] = 131072, o.bs[o.nbs++] = 1048576;
		else if (!strcmp(s, "pts-latency"))
			o.bs[o.nbs++] = 512, o.bs[o.nbs++] = 4096,
			o.bs[o.nbs++] = 8192;
		else
			o.bs[o.nbs++] = 4096, o.bs[o.nbs++] = 131072;
	}
	if (!o.nqd) {
		if (!strcmp(s, "pts-iops"))	/* PTS: T4 Q32 */
			o.qd_threads[o.nqd] = 4, o.qd_depth[o.nqd++] = 32;
		else if (!strcmp(s, "pts-throughput"))
			o.qd_threads[o.nqd] = 1, o.qd_depth[o.nqd++] = 32;
		else if (!strcmp(s, "pts-latency"))	/* PTS: T1 Q1 */
			o.qd_threads[o.nqd] = 1, o.qd_depth[o.nqd++] = 1;
		else
			o.qd_depth[o.nqd++] = 1, o.qd_depth[o.nqd++] = 32;
	}
	if (!o.nrw) {
		if (!strcmp(s, "pts-iops")) {
			for (i = 0; i < 7; i++)
				o.rw_read[o.nrw] = pts_mix[i],
				o.rw_random[o.nrw++] = -1;
		} else if (pts) {
			o.rw_read[o.nrw] = 100, o.rw_random[o.nrw++] = -1;
			if (!strcmp(s, "pts-latency"))
				o.rw_read[o.nrw] = 65, o.rw_random[o.nrw++] = -1;
			o.rw_read[o.nrw] = 0, o.rw_random[o.nrw++] = -1;
		} else {
			o.rw_read[o.nrw] = 100, o.rw_random[o.nrw++] = -1;
		}
	}
	if (o.pattern < 0)
		o.pattern = strcmp(s, "pts-throughput") != 0;
	if (!o.jobs)
		o.jobs = 1;
	if (!o.ioengine)
		o.ioengine = "libaio";
	if (!o.runtime)
		o.runtime = pts ? 60 : 5;
	if (!o.rounds)
		o.rounds = 3;
	if (pts) {
		o.steady = true;
		o.purge = true;
		o.precondition = true;
	}
}

static int cells_of(struct bench_cell **cells)
{
	int n = 0, a, b, c;

	*cells = calloc(o.nrw * o.nbs * o.nqd, sizeof(**cells));
	if (!*cells)
		return -1;
	for (a = 0; a < o.nrw; a++)
		for (b = 0; b < o.nbs; b++)
			for (c = 0; c < o.nqd; c++) {
				struct bench_cell *x = &(*cells)[n++];

				x->read_pct = o.rw_read[a];
				x->random = o.rw_random[a] < 0 ? o.pattern
								: o.rw_random[a];
				x->bs = o.bs[b];
				x->threads = o.qd_threads[c] ? o.qd_threads[c]
							     : o.jobs;
				x->depth = o.qd_depth[c];
			}
	return n;
}

static bool writes_data(const struct bench_cell *cells, int n)
{
	int i;

	if (o.purge || o.precondition)
		return true;
	for (i = 0; i < n; i++)
		if (cells[i].read_pct < 100)
			return true;
	return false;
}

/* Destructive steps: the flag, and nothing of the controller in use. */
static int check_safe(const struct bench_dev *d, const struct bench_cell *c,
		      int n)
{
	struct blklist l;
	char why[512], dir[PATH_MAX];
	int r;

	if (!writes_data(c, n))
		return 0;
	if (!o.destroy)
		return out_fail(EXIT_REFUSED,
				"refusing to write to %s (%s): bench destroys its data only with --destroy-data",
				d->name, o.purge ? "purge" :
				o.precondition ? "precondition" : "write workload");
	snprintf(dir, sizeof(dir), "%s", d->pci_dir[0] ? d->pci_dir : d->sysdir);
	if (!d->pci_dir[0])
		*strrchr(dir, '/') = '\0';
	r = blk_collect(dir, d->ctrl[0] ? d->ctrl : NULL, &l);
	if (r)
		return out_fail(EXIT_REFUSED, "cannot list the block devices of %s: %s",
				d->name, strerror(-r));
	r = blk_busy(&l, why, sizeof(why), false);
	blk_free(&l);
	if (r < 0)
		return out_fail(EXIT_REFUSED, "cannot check whether %s is in use: %s",
				d->name, strerror(-r));
	if (r)
		return out_fail(EXIT_REFUSED, "refusing to write to %s: %s",
				d->name, why);
	return 0;
}

static int check_fio(char *version, size_t len)
{
	char *argv[] = { "fio", "--version", NULL };
	char tmp[] = "/tmp/ssdtune-fio-XXXXXX";
	int fd, v, rc;

	if (!bench_have("fio"))
		return out_fail(EXIT_REFUSED, "fio is not installed (bench uses fio as its load generator; apt-get install fio)");
	fd = mkstemp(tmp);
	if (fd < 0)
		return out_fail(EXIT_REFUSED, "cannot create a temporary file: %s",
				strerror(errno));
	close(fd);
	rc = bench_spawn(argv, tmp, NULL);
	bench_first_line(tmp, version, len);
	unlink(tmp);
	v = bench_fio_version(version);
	if (rc || v < 0)
		return out_fail(EXIT_REFUSED, "fio --version did not name a fio version ('%s')",
				version);
	if (v < FIO_MIN_VERSION)
		return out_fail(EXIT_REFUSED, "%s is too old: bench needs fio 3.26 or newer",
				version);
	return 0;
}

static int mkdirs(const char *path)
{
	char buf[PATH_MAX], *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int bad;

	if (!f)
		return -errno;
	bad = fputs(text, f) < 0;
	bad |= fclose(f) != 0;
	return bad ? -EIO : 0;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0, cap = 0, r;

	if (!f)
		return NULL;
	do {
		if (n + 4096 + 1 > cap) {
			char *b = realloc(buf, cap = cap * 2 + 8192);

			if (!b) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = b;
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
	} while (r);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Run fio on @jobfile, JSON to @raw.  0 or an exit code after one line. */
static int run_fio(const char *what, const char *jobfile, const char *raw,
		   struct fio_figures *f)
{
	char out_arg[PATH_MAX + 16], err_path[PATH_MAX + 8], line[256], err[128];
	char *argv[] = { "fio", "--output-format=json", out_arg,
			 (char *)jobfile, NULL };
	char *json;
	int rc;

	snprintf(out_arg, sizeof(out_arg), "--output=%s", raw);
	snprintf(err_path, sizeof(err_path), "%s.err", raw);
	rc = bench_spawn(argv, NULL, err_path);
	bench_first_line(err_path, line, sizeof(line));
	if (rc)
		return out_fail(EXIT_REFUSED, "fio failed (%s, exit %d)%s%s", what,
				rc, line[0] ? ": " : "", line);
	json = slurp(raw);
	if (!json)
		return out_fail(EXIT_REFUSED, "fio left no output in %s (%s)", raw, what);
	rc = fio_parse(json, f, err, sizeof(err));
	free(json);
	if (rc)
		return out_fail(EXIT_REFUSED, "%s (%s, %s)", err, what, raw);
	return 0;
}

static void add_num(struct json_object *o, const char *key, double v)
{
	json_object_object_add(o, key, bench_jdouble(v));
}

/* One round of @c: samples around one fio run, into a JSON object. */
static int run_round(const struct bench_dev *d, const char *dir, const char *id, int round,
		     struct json_object **out)
{
	char jobfile[PATH_MAX], raw[PATH_MAX], what[96], why[256] = "";
	struct host_sample a, b;
	struct fio_figures f;
	struct json_object *r;
	double ticks, busy, ios;
	int rc;

	snprintf(jobfile, sizeof(jobfile), "%s/jobs/%s.fio", dir, id);
	snprintf(raw, sizeof(raw), "%s/raw/%s-r%02d.json", dir, id, round + 1);
	snprintf(what, sizeof(what), "%s round %d", id, round + 1);
	host_sample(d, &a);
	rc = run_fio(what, jobfile, raw, &f);
	host_sample(d, &b);
	if (rc)
		return rc;
	r = json_object_new_object();
	ios = (double)f.ios;
	ticks = (double)(b.cpu_total - a.cpu_total);
	busy = (double)(b.cpu_busy - a.cpu_busy);
	json_object_object_add(r, "round", json_object_new_int(round + 1));
	add_num(r, "iops", f.iops);
	add_num(r, "mbps", f.bw_bytes / 1e6);
	add_num(r, "clat_mean_us", f.clat_mean_us);
	add_num(r, "clat_p50_us", f.clat_p50_us);
	add_num(r, "clat_p99_us", f.clat_p99_us);
	add_num(r, "clat_p99_9_us", f.clat_p99_9_us);
	add_num(r, "clat_p99_99_us", f.clat_p99_99_us);
	add_num(r, "cpu_pct", ticks > 0 ? busy / ticks * 100 : NAN);
	add_num(r, "cpu_us_per_io",
		ios > 0 ? busy / sysconf(_SC_CLK_TCK) * 1e6 / ios : NAN);
	add_num(r, "irq_per_io", a.have_irqs && b.have_irqs && ios > 0 ?
		(double)(b.irqs - a.irqs) / ios : NAN);
	json_object_object_add(r, "ios", json_object_new_int64(f.ios));
	add_num(r, "temperature_c", b.have_temp ? b.temp_mc / 1000.0 : NAN);
	add_num(r, "power_estimate_mw", b.have_power ? (double)b.power_mw : NAN);
	add_num(r, "throttle_events", a.have_throttle && b.have_throttle ?
		(double)(b.throttle_events - a.throttle_events) : NAN);
	if (b.have_temp && b.temp_mc >= temp_warn_mc)
		snprintf(why, sizeof(why),
			 "temperature %.1f C reached the %.2f C warning threshold (%s)",
			 b.temp_mc / 1000.0, temp_warn_mc / 1000.0,
			 temp_warn_source);
	else if (a.have_throttle && b.have_throttle &&
		 b.throttle_events > a.throttle_events)
		snprintf(why, sizeof(why), "the power budget throttled I/O %lld times",
			 b.throttle_events - a.throttle_events);
	json_object_object_add(r, "suspect", json_object_new_boolean(why[0]));
	json_object_object_add(r, "suspect_reason",
			       why[0] ? json_object_new_string(why) : NULL);
	json_object_object_add(r, "raw", json_object_new_string(raw));
	*out = r;
	return 0;
}

static double tracking(struct json_object *round)
{
	const char *s = o.suite ? o.suite : "";

	return bench_jnum(round, strcmp(s, "pts-latency") ? "iops"
							  : "clat_mean_us");
}

static struct json_object *steady_json(const double *v, int n)
{
	struct json_object *s = json_object_new_object(), *w;
	struct ss_window win;
	int r = ss_scan(v, n, &win);
	const char *status = r < 0 ? "not evaluated (fewer than 5 rounds)" :
			     r ? "reached" : "steady state NOT reached";

	json_object_object_add(s, "status", json_object_new_string(status));
	json_object_object_add(s, "reached", json_object_new_boolean(r == 1));
	json_object_object_add(s, "tracking", json_object_new_string(
		o.suite && !strcmp(o.suite, "pts-latency") ? "clat_mean_us" : "iops"));
	json_object_object_add(s, "rounds", json_object_new_int(n));
	if (r < 0)
		return s;
	w = json_object_new_array();
	json_object_array_add(w, json_object_new_int(win.first + 1));
	json_object_array_add(w, json_object_new_int(win.last + 1));
	json_object_object_add(s, "window", w);
	add_num(s, "average", win.avg);
	add_num(s, "data_excursion_pct", win.avg ? win.excursion / win.avg * 100 : NAN);
	add_num(s, "slope_excursion_pct",
		win.avg ? win.slope_excursion / win.avg * 100 : NAN);
	add_num(s, "fit_slope", win.slope);
	add_num(s, "fit_intercept", win.intercept);
	return s;
}

/* median/min/max of every metric over rounds [first, last] */
static struct json_object *summary_json(struct json_object *rounds, int first,
					int last)
{
	struct json_object *s = json_object_new_object(), *m;
	double v[SS_MAX_ROUNDS];
	struct stat3 st;
	int i, k, n;

	for (k = 0; k < bench_nmetrics; k++) {
		n = 0;
		for (i = first; i <= last; i++) {
			double x = bench_jnum(json_object_array_get_idx(rounds, i),
					      bench_metrics[k].key);

			if (!isnan(x))
				v[n++] = x;
		}
		stat3_of(v, n, &st);
		m = json_object_new_object();
		add_num(m, "median", st.median);
		add_num(m, "min", st.min);
		add_num(m, "max", st.max);
		json_object_object_add(m, "n", json_object_new_int(st.n));
		json_object_object_add(s, bench_metrics[k].key, m);
	}
	return s;
}

static int run_cell(const struct bench_dev *d, const struct bench_cell *c,
		    const char *dir, struct json_object *cells)
{
	char id[64], label[96], bs[16], jobfile[PATH_MAX], job[2048];
	struct bench_job j = { d->path, o.ioengine, o.runtime, cpus };
	struct json_object *cell, *rounds, *r, *ss;
	double v[SS_MAX_ROUNDS];
	int n = 0, max = o.steady ? SS_MAX_ROUNDS : o.rounds, rc, first = 0;
	struct ss_window w;
	bool suspect = false;

	bench_cell_id(c, id, sizeof(id));
	snprintf(jobfile, sizeof(jobfile), "%s/jobs/%s.fio", dir, id);
	bench_job_format(&j, c, job, sizeof(job));
	if (write_text(jobfile, job))
		return out_fail(EXIT_REFUSED, "cannot write %s", jobfile);
	cell = json_object_new_object();
	json_object_object_add(cells, id, cell);
	json_object_object_add(cell, "label", json_object_new_string(
		bench_cell_label(c, label, sizeof(label))));
	json_object_object_add(cell, "rw", json_object_new_string(
		bench_fio_rw(c->read_pct, c->random)));
	json_object_object_add(cell, "read_pct", json_object_new_int(c->read_pct));
	json_object_object_add(cell, "pattern", json_object_new_string(
		c->random ? "random" : "sequential"));
	json_object_object_add(cell, "bs", json_object_new_int64(c->bs));
	json_object_object_add(cell, "io_size", json_object_new_string(
		bench_format_size(c->bs, bs, sizeof(bs))));
	json_object_object_add(cell, "threads", json_object_new_int(c->threads));
	json_object_object_add(cell, "depth", json_object_new_int(c->depth));
	json_object_object_add(cell, "qd", json_object_new_int(c->threads * c->depth));
	json_object_object_add(cell, "job", json_object_new_string(jobfile));
	json_object_object_add(cell, "ssdtune", ssdt_settings(d));
	rounds = json_object_new_array();
	json_object_object_add(cell, "rounds", rounds);
	while (n < max) {
		rc = run_round(d, dir, id, n, &r);
		if (rc)
			return rc;
		json_object_array_add(rounds, r);
		suspect |= json_object_get_boolean(json_object_object_get(r, "suspect"));
		v[n++] = tracking(r);
		if (o.steady && n >= o.rounds && ss_window_at(v, n, &w) &&
		    w.steady)
			break;
	}
	ss = steady_json(v, n);
	json_object_object_add(cell, "steady_state", ss);
	/* The figures of the steady-state window if reached, else all. */
	if (json_object_get_boolean(json_object_object_get(ss, "reached")) &&
	    ss_scan(v, n, &w) == 1) {
		first = w.first;
		n = w.last + 1;
	}
	json_object_object_add(cell, "summary_rounds", json_object_new_string(
		first || n < (int)json_object_array_length(rounds) ?
		"steady-state window" : "all rounds"));
	json_object_object_add(cell, "summary", summary_json(rounds, first, n - 1));
	json_object_object_add(cell, "suspect", json_object_new_boolean(suspect));
	if (!out_json()) {
		printf("bench: %s: %d rounds, %s\n", id,
		       (int)json_object_array_length(rounds),
		       bench_jstr(ss, "status"));
		fflush(stdout);
	}
	return 0;
}

/*
 * Purge: NVMe Format NVM with user data erase where the controller and
 * its driver allow it, else blkdiscard.  The report's "purge" says which
 * ran and "purge_note" why Format did not.
 */
static int purge(const struct bench_dev *d, const char *dir,
		 struct json_object *rep)
{
	char *argv[] = { "blkdiscard", "-f", (char *)d->path, NULL };
	char err[PATH_MAX], line[256], why[512];
	int rc;

	rc = format_namespace(d->driver, d->ctrl, d->name, d->path, why,
			      sizeof(why));
	json_object_object_add(rep, "purge_note", rc == FORMAT_DONE ? NULL :
			       json_object_new_string(why));
	if (rc == FORMAT_DONE) {
		json_object_object_add(rep, "purge", json_object_new_string("format"));
		return 0;
	}
	if (!bench_have("blkdiscard"))
		return out_fail(EXIT_REFUSED, "purge needs blkdiscard (util-linux), which is not installed (Format NVM: %s)",
				why);
	snprintf(err, sizeof(err), "%s/raw/purge.err", dir);
	rc = bench_spawn(argv, NULL, err);
	bench_first_line(err, line, sizeof(line));
	if (rc)
		return out_fail(EXIT_REFUSED, "purge of %s failed (blkdiscard exit %d)%s%s",
				d->path, rc, line[0] ? ": " : "", line);
	json_object_object_add(rep, "purge", json_object_new_string("blkdiscard"));
	return 0;
}

static int precondition(const struct bench_dev *d, const char *dir,
			struct json_object *rep)
{
	struct bench_job j = { d->path, o.ioengine, 0, cpus };
	char job[2048], jobfile[PATH_MAX], raw[PATH_MAX];
	struct fio_figures f;
	long long t0 = sys_now_ms();
	struct json_object *p;
	int rc;

	snprintf(jobfile, sizeof(jobfile), "%s/jobs/precondition.fio", dir);
	snprintf(raw, sizeof(raw), "%s/raw/precondition.json", dir);
	bench_precondition_format(&j, job, sizeof(job));
	if (write_text(jobfile, job))
		return out_fail(EXIT_REFUSED, "cannot write %s", jobfile);
	rc = run_fio("precondition", jobfile, raw, &f);
	if (rc)
		return rc;
	p = json_object_new_object();
	json_object_object_add(p, "method", json_object_new_string(
		"sequential 128k writes, QD32, the whole device twice"));
	add_num(p, "mbps", f.bw_bytes / 1e6);
	add_num(p, "seconds", (sys_now_ms() - t0) / 1000.0);
	json_object_object_add(rep, "precondition", p);
	return 0;
}

static struct json_object *method_json(const char *fio_version)
{
	struct json_object *m = json_object_new_object();

	json_object_object_add(m, "suite", json_object_new_string(
		o.suite ? o.suite : "quick"));
	json_object_object_add(m, "fio", json_object_new_string(fio_version));
	json_object_object_add(m, "ioengine", json_object_new_string(o.ioengine));
	json_object_object_add(m, "runtime_s", json_object_new_int(o.runtime));
	json_object_object_add(m, "rounds", json_object_new_int(o.rounds));
	json_object_object_add(m, "steady_state", json_object_new_boolean(o.steady));
	json_object_object_add(m, "max_rounds", json_object_new_int(
		o.steady ? SS_MAX_ROUNDS : o.rounds));
	json_object_object_add(m, "cpus", cpus ? json_object_new_string(cpus) : NULL);
	json_object_object_add(m, "cpus_source", json_object_new_string(cpus_source));
	json_object_object_add(m, "cpus_profile", strcmp(cpus_source, "plan") ? NULL :
			       json_object_new_string(plan_profile));
	json_object_object_add(m, "temp_warn_c",
			       json_object_new_double(temp_warn_mc / 1000.0));
	json_object_object_add(m, "temp_warn_source",
			       json_object_new_string(temp_warn_source));
	json_object_object_add(m, "destroy_data", json_object_new_boolean(o.destroy));
	return m;
}

static struct json_object *device_json(const struct bench_dev *d)
{
	struct json_object *v = json_object_new_object();

	json_object_object_add(v, "name", json_object_new_string(d->name));
	json_object_object_add(v, "path", json_object_new_string(d->path));
	json_object_object_add(v, "controller", d->ctrl[0] ?
			       json_object_new_string(d->ctrl) : NULL);
	json_object_object_add(v, "pci", d->bdf[0] ?
			       json_object_new_string(d->bdf) : NULL);
	json_object_object_add(v, "driver", d->driver[0] ?
			       json_object_new_string(d->driver) : NULL);
	json_object_object_add(v, "irqs", json_object_new_int(d->nirqs));
	return v;
}

static void timestamp(char *buf, size_t len, const char *fmt)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, fmt, &tm);
}

/* One whole measurement into @dir; the report in @out (caller puts). */
static int bench_run(const struct bench_dev *d, const struct bench_cell *cells,
		     int ncells, const char *dir, const char *fio_version,
		     struct json_object **out)
{
	char p[PATH_MAX], when[32], why[256] = "";
	struct json_object *rep = json_object_new_object(), *cj, *files;
	int i, rc;

	*out = rep;
	rc = settle_cpus(d);
	if (rc)
		return rc;
	snprintf(p, sizeof(p), "%s/raw", dir);
	rc = mkdirs(p);
	snprintf(p, sizeof(p), "%s/jobs", dir);
	if (rc || (rc = mkdirs(p)))
		return out_fail(EXIT_REFUSED, "cannot create %s: %s", p, strerror(-rc));
	timestamp(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ");
	json_object_object_add(rep, "command", json_object_new_string("bench"));
	json_object_object_add(rep, "version", json_object_new_string(SSDTUNE_VERSION));
	json_object_object_add(rep, "started", json_object_new_string(when));
	json_object_object_add(rep, "device", device_json(d));
	json_object_object_add(rep, "host", host_state(d));
	json_object_object_add(rep, "method", method_json(fio_version));
	json_object_object_add(rep, "purge", json_object_new_string("none"));
	json_object_object_add(rep, "purge_note", NULL);
	json_object_object_add(rep, "precondition", NULL);
	if (o.purge && (rc = purge(d, dir, rep)))
		return rc;
	if (o.precondition && (rc = precondition(d, dir, rep)))
		return rc;
	cj = json_object_new_object();
	json_object_object_add(rep, "cells", cj);
	for (i = 0; i < ncells; i++)
		if ((rc = run_cell(d, &cells[i], dir, cj)))
			return rc;
	files = json_object_new_object();
	json_object_object_add(rep, "files", files);
	snprintf(p, sizeof(p), "%s/bench.json", dir);
	json_object_object_add(files, "json", json_object_new_string(p));
	snprintf(p, sizeof(p), "%s/bench.csv", dir);
	json_object_object_add(files, "csv", json_object_new_string(p));
	snprintf(p, sizeof(p), "%s/bench.txt", dir);
	json_object_object_add(files, "table", json_object_new_string(p));
	json_object_object_add(files, "plots", json_object_new_array());
	if (bench_plot(rep, dir, json_object_object_get(files, "plots"), why,
		       sizeof(why)))
		json_object_object_add(files, "plots_skipped",
				       json_object_new_string(why));
	snprintf(p, sizeof(p), "%s/bench.csv", dir);
	if (bench_write_csv(rep, p))
		return out_fail(EXIT_REFUSED, "cannot write %s", p);
	snprintf(p, sizeof(p), "%s/bench.txt", dir);
	{
		FILE *f = fopen(p, "w");

		if (!f)
			return out_fail(EXIT_REFUSED, "cannot write %s", p);
		bench_print_table(rep, f);
		fclose(f);
	}
	snprintf(p, sizeof(p), "%s/bench.json", dir);
	if (json_object_to_file_ext(p, rep, JSON_C_TO_STRING_PRETTY |
				    JSON_C_TO_STRING_NOSLASHESCAPE))
		return out_fail(EXIT_REFUSED, "cannot write %s", p);
	return 0;
}

static int dry_run(const struct bench_dev *d, const struct bench_cell *cells,
		   int ncells)
{
	struct bench_job j = { d->path, o.ioengine, o.runtime, NULL };
	struct json_object *jobs, *x;
	char job[2048], id[64];
	int i, r;

	r = settle_cpus(d);
	if (r)
		return r;
	j.cpus = cpus;
	jobs = json_object_new_array();
	out_set_str("cpus_source", cpus_source);
	if (cpus) {
		out_set_str("cpus", cpus);
		if (!out_json())
			printf("# fio on CPUs %s (%s)\n", cpus,
			       strcmp(cpus_source, "plan") ? "--cpus" :
			       "the I/O cores of the applied profile");
	}
	if (o.purge) {
		out_set_str("purge", "format, else blkdiscard");
		if (!out_json())
			printf("# purge: NVMe Format NVM (user data erase), else blkdiscard -f %s\n",
			       d->path);
	}
	if (o.precondition) {
		bench_precondition_format(&j, job, sizeof(job));
		out_set_str("precondition", job);
		if (!out_json())
			printf("# precondition: fio\n%s\n", job);
	}
	for (i = 0; i < ncells; i++) {
		bench_job_format(&j, &cells[i], job, sizeof(job));
		bench_cell_id(&cells[i], id, sizeof(id));
		x = json_object_new_object();
		json_object_object_add(x, "cell", json_object_new_string(id));
		json_object_object_add(x, "job", json_object_new_string(job));
		json_object_array_add(jobs, x);
		if (!out_json()) {
			if (o.steady)
				printf("# %s: rounds until steady state (at least %d, at most %d)\n",
				       id, o.rounds, SS_MAX_ROUNDS);
			else
				printf("# %s: %d rounds\n", id, o.rounds);
			printf("%s\n", job);
		}
	}
	json_object_object_add(out_obj(), "jobs", jobs);
	out_set_str("status", "dry-run");
	return out_done();
}

/* Report keys of @rep into the command's output object. */
static void adopt(struct json_object *rep)
{
	json_object_object_foreach(rep, key, val) {
		if (!strcmp(key, "command") || !strcmp(key, "version"))
			continue;
		json_object_object_add(out_obj(), key, json_object_get(val));
	}
}

/* `ssdtune A B C` as a subprocess: no code dependency on apply/revert.
 * SSDTUNE_BENCH_SELF names another program (the host tests' stand-in). */
static int self(const char *a, const char *b, const char *c)
{
	const char *exe = getenv("SSDTUNE_BENCH_SELF");
	char *argv[8] = { (char *)(exe && *exe ? exe : "/proc/self/exe"),
			  (char *)a };
	int n = 2;

	if (b)
		argv[n++] = (char *)b;
	if (b && c)
		argv[n++] = (char *)c;
	/* apply and revert: the state directory bench was given, if any */
	if (o.state_dir && strcmp(b ? b : "", "--help")) {
		argv[n++] = "--state-dir";
		argv[n++] = (char *)o.state_dir;
	}
	argv[n] = NULL;
	return bench_spawn(argv, NULL, NULL);
}

static int ab(const struct bench_dev *d, const struct bench_cell *cells,
	      int ncells, const char *dir, const char *fio_version)
{
	char base[PATH_MAX / 2 + 16], tuned[PATH_MAX / 2 + 16];
	char a[PATH_MAX], b[PATH_MAX];
	struct json_object *rep = NULL, *cmp;
	int rc, rrc;

	if (self("apply", "--help", NULL) || self("revert", "--help", NULL))
		return out_fail(EXIT_REFUSED, "bench --ab needs the 'apply' and 'revert' commands, which this ssdtune does not have");
	if (o.rounds < CMP_MIN_RUNS)
		return out_fail(EXIT_USAGE, "bench --ab needs --rounds %d or more to tell a change from noise",
				CMP_MIN_RUNS);
	snprintf(base, sizeof(base), "%s/baseline", dir);
	snprintf(tuned, sizeof(tuned), "%s/tuned", dir);
	out_set_str("profile", o.ab);
	out_set_str("baseline", base);
	out_set_str("tuned", tuned);
	if (sys_dry_run()) {
		if (!out_json())
			printf("# 1. bench into %s\n# 2. ssdtune apply --profile %s\n"
			       "# 3. bench into %s\n# 4. ssdtune revert\n"
			       "# 5. ssdtune bench compare\n", base, o.ab, tuned);
		return dry_run(d, cells, ncells);
	}
	rc = bench_run(d, cells, ncells, base, fio_version, &rep);
	json_object_put(rep);
	if (rc)
		return rc;
	rc = self("apply", "--profile", o.ab);
	if (rc)
		return out_fail(EXIT_REFUSED, "ssdtune apply --profile %s failed (exit %d); the baseline is in %s",
				o.ab, rc, base);
	rc = bench_run(d, cells, ncells, tuned, fio_version, &rep);
	json_object_put(rep);
	rrc = self("revert", NULL, NULL);
	if (rc)
		return rc;
	if (rrc)
		return out_fail(EXIT_REFUSED, "ssdtune revert failed (exit %d) after the tuned run", rrc);
	snprintf(a, sizeof(a), "%s/bench.json", base);
	snprintf(b, sizeof(b), "%s/bench.json", tuned);
	cmp = json_object_new_object();
	json_object_object_add(out_obj(), "compare", cmp);
	rc = bench_compare_files(a, b, cmp, !out_json());
	return rc ? rc : out_done();
}

static int cmd_bench(const struct command *cmd, struct cli *cli)
{
	char dir[PATH_MAX / 2], fio_version[64] = "";
	struct json_object *rep = NULL;
	struct bench_cell *cells;
	struct bench_dev d;
	int n, rc;

	if (cli->argc && !strcmp(cli->argv[0], "compare")) {
		struct json_object *cmp = out_obj();

		if (cli->argc != 3)
			return usage_error(cmd, "compare needs two reports: compare A.json B.json");
		rc = bench_compare_files(cli->argv[1], cli->argv[2], cmp,
					 !out_json());
		return rc ? rc : out_done();
	}
	if (cli->argc > 1)
		return usage_error(cmd, "unexpected argument '%s'", cli->argv[1]);
	apply_suite();
	rc = bench_dev_resolve(cli->argc ? cli->argv[0] : NULL, &d);
	if (rc)
		return rc;
	settle_temp_warn(&d);
	n = cells_of(&cells);
	if (n < 0)
		return out_fail(EXIT_REFUSED, "out of memory");
	rc = check_safe(&d, cells, n);
	if (!rc)
		rc = check_fio(fio_version, sizeof(fio_version));
	if (rc)
		goto out;
	if (o.out) {
		snprintf(dir, sizeof(dir), "%s", o.out);
	} else {
		timestamp(dir, sizeof(dir), "ssdtune-bench-%Y%m%dT%H%M%SZ");
	}
	if (o.ab) {
		rc = ab(&d, cells, n, dir, fio_version);
		goto out;
	}
	if (sys_dry_run()) {
		rc = dry_run(&d, cells, n);
		goto out;
	}
	rc = bench_run(&d, cells, n, dir, fio_version, &rep);
	if (!rc) {
		adopt(rep);
		out_set_str("status", "ok");
		if (!out_json()) {
			bench_print_table(rep, stdout);
			printf("report: %s/bench.json (also bench.csv, bench.txt)\n", dir);
		}
		rc = out_done();
	}
	json_object_put(rep);
out:
	free(cells);
	return rc;
}

const struct command bench_command = {
	.name = "bench",
	.args = "[DEVICE]",
	.summary = "measure with fio the SNIA PTS way ('bench compare A B': deltas)",
	.help =
"Run fio on DEVICE (default: the first ssdtune disk) over a matrix of block\n"
"sizes, queue depths and read/write mixes, in rounds (until SNIA PTS steady\n"
"state with --steady-state or a pts-* suite), and write bench.json (the\n"
"source of truth), bench.csv, bench.txt and gnuplot PNGs to --out DIR.\n"
"Per cell: IOPS, MB/s with its IO size, completion latency mean/p50/p99/\n"
"p99.9/p99.99, whole-system CPU, interrupts per I/O, and for ssdtune\n"
"controllers their knobs and temperature.  Writes, purge and precondition\n"
"destroy data: they need --destroy-data and a device nothing uses.\n"
"'ssdtune bench compare A.json B.json' prints the delta table of two\n"
"reports (median, min and max of their rounds).\n"
"\n"
"  --bs LIST          block sizes, 512..1m (default 4k,128k)\n"
"  --qd LIST          queue depths 1..256, or THREADSxDEPTH (default 1,32)\n"
"  --jobs N           fio threads per cell when --qd gives none (default 1)\n"
"  --rw LIST          read, write, randread, randwrite or R/W mixes (70/30)\n"
"  --random, --seq    access pattern of the mixes (default random)\n"
"  --ioengine E       libaio (default) or io_uring\n"
"  --runtime S        seconds per round (default 5; 60 for pts-*)\n"
"  --rounds N         rounds per cell, at least (default 3)\n"
"  --steady-state     rounds until PTS steady state, at most 25\n"
"  --purge            NVMe Format NVM (user data erase) first, else\n"
"                     blkdiscard\n"
"  --precondition     write the device twice, sequential 128k, first\n"
"  --suite S          quick (default), pts-iops, pts-throughput, pts-latency\n"
"  --out DIR          where the report goes (default ./ssdtune-bench-TIME)\n"
"  --cpus LIST        run fio on these CPUs (default: the I/O cores the\n"
"                     applied profile plans for the device, if one is applied)\n"
"  --temp-warn C      mark a round suspect at this temperature (default: the\n"
"                     drive's warning threshold where it reports one, else 70)\n"
"  --destroy-data     allow purge, precondition and writes\n"
"  --ab PROFILE       baseline, 'apply --profile PROFILE', rerun, 'revert',\n"
"                     compare\n"
"  --state-dir DIR    where apply saved its state (default /var/lib/ssdtune)\n"
"With --dry-run: print the fio jobs and change nothing.  See bench.md.\n",
	.flags = CMD_DRY_RUN,
	.min_args = 0, .max_args = 3,
	.run = cmd_bench,
	.options = bench_options,
	.option = bench_option,
};
