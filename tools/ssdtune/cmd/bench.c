// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune bench [DEVICE] / bench compare A.json B.json: the command.  Its
 * options become a struct bench_settings; the engine in bench/ measures
 * and writes the report files, and what reaches stdout and stderr is
 * decided here: progress lines, the dry-run jobs, the table, the compare
 * table, and errors through out_fail().  See Documentation/bench.md.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/stats.h"
#include "cmd/cli.h"
#include "cmd/output.h"
#include "lib/cpuset.h"
#include "lib/sysfs.h"

static struct bench_settings o = { .pattern = -1 };
static const char *out_dir, *ab_profile;
/* --devices LIST, split */
static char devices_buf[4096];
static const char *devices[BENCH_MAX_DEVS];
static int ndevices;

enum {
	OPT_BS = 0x200, OPT_QD, OPT_JOBS, OPT_RW, OPT_RANDOM, OPT_SEQ,
	OPT_IOENGINE, OPT_RUNTIME, OPT_ROUNDS, OPT_STEADY, OPT_PURGE,
	OPT_PRECOND, OPT_SUITE, OPT_OUT, OPT_DESTROY, OPT_AB, OPT_CPUS,
	OPT_TEMP_WARN, OPT_STATE_DIR, OPT_DEVICES, OPT_SCALE, OPT_QOS_WRITER,
	OPT_QOS_TRIM, OPT_QOS_BW,
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
	{ "cpus",		required_argument, NULL, OPT_CPUS },	/* lint-names: an option */
	{ "temp-warn",		required_argument, NULL, OPT_TEMP_WARN },
	{ "state-dir",		required_argument, NULL, OPT_STATE_DIR },
	{ "devices",		required_argument, NULL, OPT_DEVICES },
	{ "scale",		no_argument,	   NULL, OPT_SCALE },
	{ "qos-writer",		required_argument, NULL, OPT_QOS_WRITER },
	{ "qos-trim",		no_argument,	   NULL, OPT_QOS_TRIM },
	{ "qos-bw",		required_argument, NULL, OPT_QOS_BW },
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
		return usage_error(NULL, "%s '%s' is not a number in %d..%d",
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
		if (n == BENCH_MAX_LIST)
			return usage_error(NULL, "more than %d %s values",
					   BENCH_MAX_LIST, name);
		r = one(tok, n);
		if (r)
			return r;
		n++;
	}
	if (!n)
		return usage_error(NULL, "empty %s list", name);
	*count = n;
	return 0;
}

static int one_bs(const char *s, int i)
{
	o.bs[i] = bench_parse_size(s);
	return o.bs[i] < 0 ? usage_error(NULL,
		"block size '%s' is not 512..1m in multiples of 512", s) : 0;
}

static int one_qd(const char *s, int i)
{
	return bench_parse_qd(s, &o.qd_threads[i], &o.qd_depth[i]) ?
	       usage_error(NULL, "queue depth '%s' is not 1..256 or THREADSxDEPTH", s) : 0;
}

static int one_rw(const char *s, int i)
{
	return bench_parse_rw(s, &o.rw_read[i], &o.rw_random[i]) ?
	       usage_error(NULL, "--rw '%s' is not read, write, randread, randwrite or R/W adding to 100", s) : 0;
}

/* Does cpulist @list name a CPU that is not online?  Then say which in
 * @bad (a malformed list: also true; no online file: not checked). */
static bool offline_cpus(const char *list, char *bad, size_t len)
{
	char online[1024], off[1024];
	struct cpuset want, on;
	bool r = true;
	int c;

	if (sys_read("/sys/devices/system/cpu/online", online, sizeof(online)))
		return false;
	if (cpuset_init(&want, 8192) || cpuset_init(&on, 8192)) {
		snprintf(bad, len, "out of memory");
		return true;
	}
	if (cpuset_add_list(&want, list) || cpuset_add_list(&on, online)) {
		snprintf(bad, len, "not a CPU list");
	} else {
		for (c = 0; c < 8192; c++)
			if (cpuset_has(&on, c))
				want.on[c] = false;
		r = cpuset_count(&want) > 0;
		if (r)
			snprintf(bad, len, "CPUs %s are not online (online: %s)",
				 cpuset_format(&want, off, sizeof(off)), online);
	}
	cpuset_free(&want);
	cpuset_free(&on);
	return r;
}

/* bench_option()'s options that name a place: files, state, CPUs. */
static int bench_place_option(int val, const char *arg)
{
	char bad[2200];

	switch (val) {
	case OPT_OUT:
		if (!*arg || strlen(arg) >= PATH_MAX / 2)
			return usage_error(NULL, "--out needs a directory name under %d bytes",
					   PATH_MAX / 2);
		out_dir = arg;
		return 0;
	case OPT_AB:
		ab_profile = arg;
		return 0;
	case OPT_DEVICES: {
		char *save = NULL, *tok;

		if (ndevices || strlen(arg) >= sizeof(devices_buf))
			return usage_error(NULL, "--devices once, a list under %zu bytes",
					   sizeof(devices_buf));
		snprintf(devices_buf, sizeof(devices_buf), "%s", arg);
		for (tok = strtok_r(devices_buf, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			if (ndevices == BENCH_MAX_DEVS)
				return usage_error(NULL, "more than %d devices", BENCH_MAX_DEVS);
			devices[ndevices++] = tok;
		}
		return ndevices ? 0 : usage_error(NULL, "--devices needs a list of devices");
	}
	case OPT_STATE_DIR:
		if (!*arg)
			return usage_error(NULL, "--state-dir needs a directory");
		o.state_dir = arg;
		return 0;
	case OPT_CPUS:
		if (!*arg || strspn(arg, "0123456789,-") != strlen(arg))
			return usage_error(NULL, "--cpus '%s' is not a CPU list", arg);
		if (offline_cpus(arg, bad, sizeof(bad)))
			return usage_error(NULL, "--cpus '%s': %s", arg, bad);
		o.cpus = arg;
		return 0;
	}
	return usage_error(NULL, "unknown option");
}

/* bench_option()'s options of --suite qos. */
static int bench_qos_option(int val, const char *arg)
{
	char *end;

	switch (val) {
	case OPT_QOS_WRITER:
		if (strcmp(arg, "seq128k") && strcmp(arg, "rand4k"))
			return usage_error(NULL, "--qos-writer '%s' is not seq128k or rand4k", arg);
		o.qos_writer = arg;
		return 0;
	case OPT_QOS_TRIM:
		o.qos_trim = true;
		return 0;
	case OPT_QOS_BW:
		errno = 0;
		o.qos_bw_mbps = strtod(arg, &end);
		if (errno || end == arg || *end || !(o.qos_bw_mbps >= 0.001) ||
		    o.qos_bw_mbps > 1e6)
			return usage_error(NULL, "--qos-bw '%s' is not MB/s in 0.001..1000000", arg);
		return 0;
	}
	return bench_place_option(val, arg);
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
			return usage_error(NULL, "--random and --seq exclude each other");
		o.pattern = val == OPT_RANDOM;
		return 0;
	case OPT_IOENGINE:
		if (strcmp(arg, "libaio") && strcmp(arg, "io_uring"))
			return usage_error(NULL, "--ioengine '%s' is not libaio or io_uring", arg);
		o.ioengine = arg;
		return 0;
	case OPT_RUNTIME:
		return int_arg("--runtime", arg, 1, 86400, &o.runtime);
	case OPT_ROUNDS:
		return int_arg("--rounds", arg, 1, SS_MAX_ROUNDS, &o.rounds);
	case OPT_TEMP_WARN:
		return int_arg("--temp-warn", arg, 1, 200, &o.temp_warn_c);
	case OPT_SCALE:
		o.scale = true;
		return 0;
	case OPT_STEADY:
	case OPT_PURGE:
	case OPT_PRECOND:
	case OPT_DESTROY:
		*(val == OPT_STEADY ? &o.steady : val == OPT_PURGE ? &o.purge :
		  val == OPT_PRECOND ? &o.precondition : &o.destroy) = true;
		return 0;
	case OPT_SUITE:
		if (strcmp(arg, "quick") && strcmp(arg, "pts-iops") &&
		    strcmp(arg, "pts-throughput") && strcmp(arg, "pts-latency") &&
		    strcmp(arg, "qos"))
			return usage_error(NULL, "--suite '%s' is not quick, pts-iops, pts-throughput, pts-latency or qos", arg);
		o.suite = arg;
		return 0;
	}
	return bench_qos_option(val, arg);
}

/*
 * What does not go with --suite qos (its jobs are its own: the matrix
 * options have nothing to set), or needs it; NULL if all is well.
 */
static const char *qos_misfit(int ndevs)
{
	if (!bench_suite_qos(&o))
		return o.qos_writer || o.qos_trim || o.qos_bw_mbps > 0 ?
		       "--qos-writer, --qos-trim and --qos-bw go with --suite qos" : NULL;
	if (o.nbs || o.nqd || o.nrw || o.jobs || o.pattern >= 0)
		return "--suite qos runs its own jobs (a QD1 4k random reader beside a writer): --bs, --qd, --rw, --jobs, --random and --seq do not apply";
	if (ndevs > 1)
		return "--suite qos measures one device";
	return NULL;
}

static void show_progress(void *ctx, const char *line)
{
	(void)ctx;
	printf("%s\n", line);
	fflush(stdout);
}

/* --suite qos's dry run: where the reader and the writer run, and the
 * bandwidth their levels are shares of. */
static void show_qos(struct json_object *q)
{
	const char *bw = bench_jstr(q, "bandwidth_job");

	printf("# qos: reader on CPU %s (%s), writer on CPUs %s (%s)\n",
	       bench_jstr(q, "reader_cpus"), bench_jstr(q, "cpus_from"),
	       bench_jstr(q, "writer_cpus"), bench_jstr(q, "writer_cpus_from"));
	if (bw)
		printf("# qos: the writer alone at full rate first; its write bandwidth is the cells' 100%%\n%s\n",
		       bw);
	else
		printf("# qos: the cells' 100%% is %g MB/s (--qos-bw)\n",
		       bench_jnum(q, "bandwidth_mbps"));
}

/* The jobs bench_dry_run() put in the output object, as text. */
static void show_dry_run(const struct bench *b)
{
	struct json_object *jobs = bench_jget(report_obj(), "jobs");
	struct json_object *qos = bench_jget(report_obj(), "qos");
	size_t i;

	if (b->cpus)
		printf("# fio on CPUs %s (%s)\n", b->cpus,
		       strcmp(b->cpus_source, "plan") ? "--cpus" :
		       "the I/O cores of the applied profile");
	if (o.purge)
		printf("# purge: NVMe Format NVM (user data erase), else blkdiscard -f %s\n",
		       b->dev.path);
	if (o.precondition)
		printf("# precondition: fio\n%s\n",
		       bench_jstr(report_obj(), "precondition"));
	if (qos)
		show_qos(qos);
	for (i = 0; i < json_object_array_length(jobs); i++) {
		struct json_object *x = json_object_array_get_idx(jobs, i);
		const char *id = bench_jstr(x, "cell");

		if (o.steady)
			printf("# %s: rounds until steady state (at least %d, at most %d)\n",
			       id, o.rounds, SS_MAX_ROUNDS);
		else
			printf("# %s: %d rounds\n", id, o.rounds);
		printf("%s\n", bench_jstr(x, "job"));
	}
}

static int dry_run(struct bench *b, bool json)
{
	struct lib_err err = { 0 };

	if (bench_dry_run(b, report_obj(), &err))
		return out_fail_err(&err);
	if (!json)
		show_dry_run(b);
	report_set_str("status", "dry-run");
	return out_done();
}

/* Report keys of @rep into the command's output object. */
static void adopt(struct json_object *rep)
{
	json_object_object_foreach(rep, key, val) {
		if (!strcmp(key, "command") || !strcmp(key, "version"))
			continue;
		json_object_object_add(report_obj(), key, json_object_get(val));
	}
}

static int run(struct bench *b, const char *dir, bool json)
{
	struct json_object *rep = NULL;
	struct lib_err err = { 0 };
	int rc;

	rc = bench_run(b, dir, &rep, &err);
	if (rc) {
		rc = out_fail_err(&err);
	} else {
		adopt(rep);
		report_set_str("status", "ok");
		if (!json) {
			bench_print_table(rep, stdout);
			printf("report: %s/bench.json (also bench.csv, bench.txt)\n", dir);
		}
		rc = out_done();
	}
	json_object_put(rep);
	return rc;
}

/* --ab: a signal ends the run at the next round, and revert still runs. */
static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
	caught = sig;
}

static bool stopped(void *ctx)
{
	(void)ctx;
	return caught != 0;
}

static void catch_signals(bool on)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on ? on_signal : SIG_DFL };
	size_t i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

static int ab(struct bench *b, const char *dir, const struct cli *cli)
{
	int rc;

	char base[PATH_MAX / 2 + 16], tuned[PATH_MAX / 2 + 16];
	struct lib_err err = { 0 };

	if (bench_ab_ready(b, &err))
		return out_fail_err(&err);
	if (o.rounds < CMP_MIN_RUNS)
		return out_fail(EXIT_USAGE, "bench --ab needs --rounds %d or more to tell a change from noise",
				CMP_MIN_RUNS);
	snprintf(base, sizeof(base), "%s/baseline", dir);
	snprintf(tuned, sizeof(tuned), "%s/tuned", dir);
	report_set_str("profile", ab_profile);
	report_set_str("baseline", base);
	report_set_str("tuned", tuned);
	if (cli->dry_run) {
		if (!cli->json)
			printf("# 1. bench into %s\n# 2. ssdtune apply --profile %s\n"
			       "# 3. bench into %s\n# 4. ssdtune revert\n"
			       "# 5. ssdtune bench compare\n", base, ab_profile, tuned);
		return dry_run(b, cli->json);
	}
	catch_signals(true);
	rc = bench_ab(b, ab_profile, base, tuned, report_obj(), &err);
	catch_signals(false);
	if (caught)
		return out_fail(128 + caught, "interrupted by signal %d: %s (what apply changed is reverted)",
				(int)caught, err.msg);
	if (rc)
		return out_fail_err(&err);
	if (!cli->json)
		bench_print_compare(bench_jget(report_obj(), "compare"), stdout);
	return out_done();
}

static int compare(const struct command *cmd, const struct cli *cli)
{
	struct lib_err err = { 0 };

	if (cli->argc != 3)
		return usage_error(cmd, "compare needs two reports: compare A.json B.json");
	if (bench_compare_files(cli->argv[1], cli->argv[2], report_obj(), &err))
		return out_fail_err(&err);
	if (!cli->json)
		bench_print_compare(report_obj(), stdout);
	return out_done();
}

static int cmd_bench(const struct command *cmd, struct cli *cli)
{
	struct bench_hooks hooks = {
		.progress = cli->json ? NULL : show_progress,
		.stopped = stopped,
	};
	struct lib_err err = { 0 };
	char dir[PATH_MAX / 2];
	struct bench b;
	int rc;

	if (cli->argc && !strcmp(cli->argv[0], "compare"))
		return compare(cmd, cli);
	if (ndevices && cli->argc)
		return usage_error(cmd, "devices either as arguments or with --devices, not both");
	if (!ndevices)
		for (ndevices = 0; ndevices < cli->argc; ndevices++)
			devices[ndevices] = cli->argv[ndevices];
	if (qos_misfit(ndevices))
		return usage_error(cmd, "%s", qos_misfit(ndevices));
	bench_apply_suite(&o);
	if (o.scale && ndevices < 2)
		return usage_error(cmd, "--scale needs two devices or more");
	if (ndevices > 1 && ab_profile)
		return usage_error(cmd, "--ab takes one device");
	if (ndevices > 1 && (o.purge || o.precondition))
		return usage_error(cmd, "bench on several devices does not %s: do it on each device first",
				   o.purge ? "purge" : "precondition");
	rc = bench_open_many(&b, &o, &hooks, devices, ndevices, &err);
	if (rc == -EINVAL)
		return out_fail(EXIT_USAGE, "%s", err.msg);
	if (!rc)
		rc = bench_check(&b, &err);
	if (rc) {
		rc = out_fail_err(&err);
	} else {
		if (out_dir)
			snprintf(dir, sizeof(dir), "%s", out_dir);
		else
			bench_timestamp(dir, sizeof(dir),
					"ssdtune-bench-%Y%m%dT%H%M%SZ-XXXXXX");
		/* the default is new and 0700: a name nobody could guess and
		 * prepare beforehand in a shared directory */
		if (!out_dir && !cli->dry_run && !mkdtemp(dir))
			rc = out_fail(EXIT_REFUSED, "cannot create %s: %s", dir,
				      strerror(errno));
		else if (ab_profile)
			rc = ab(&b, dir, cli);
		else if (cli->dry_run)
			rc = dry_run(&b, cli->json);
		else
			rc = run(&b, dir, cli->json);
	}
	bench_close(&b);
	return rc;
}

const struct command bench_command = {
	.name = "bench",
	.args = "[DEVICE...]",
	.summary = "measure with fio the SNIA PTS way ('bench compare A B': deltas)",
	.help =
"Run fio on DEVICE (default: the first ssdtune disk) over a matrix of block\n"
"sizes, queue depths and read/write mixes, in rounds (until SNIA PTS steady\n"
"state with --steady-state or a pts-* suite), and write bench.json (the\n"
"source of truth), bench.csv, bench.txt and gnuplot PNGs to --out DIR.\n"
"Per cell: IOPS, MB/s with its IO size, completion latency mean/p50/p99/\n"
"p99.9/p99.99/p99.9999 (a mix: also of its reads and of its writes apart),\n"
"whole-system CPU, interrupts per I/O, and for ssdtune controllers their\n"
"knobs and temperature.  A percentile p counts as meaningful only when the\n"
"round holds 10/(1-p) samples of its direction (ten beyond it: p99 1000,\n"
"p99.9 10^4, p99.99 10^5, p99.9999 10^7); the JSON says which are\n"
"(\"meaningful\"), the table marks the others '*'.  Writes, purge and\n"
"precondition destroy data: they need --destroy-data and a device nothing\n"
"uses.\n"
"'ssdtune bench compare A.json B.json' prints the delta table of two\n"
"reports (median, min and max of their rounds).\n"
"Several devices (bench DEV DEV ... or --devices LIST) run at once: one\n"
"fio run, one job section per device, each its own reporting group, so\n"
"all start together and cover the same seconds; each on its device's I/O\n"
"cores when a profile is applied.  The report gives them together (rates\n"
"added, percentiles of the merged latency histograms, whole-system CPU\n"
"per I/O) and each apart (fio's own CPU per I/O, interrupts per I/O).\n"
"--suite qos: read latency while writes run.  The writer alone first\n"
"(sequential 128k QD32, or --qos-writer rand4k) gives the device's write\n"
"bandwidth; then a QD1 4k random reader runs beside the writer capped at\n"
"0, 25, 50 and 100% of it, each its own reporting group, on CPUs apart\n"
"(the first of the profile's I/O cores, or of the device's node, for the\n"
"reader; the rest for the writer).  Per rate: the writer's target and\n"
"achieved MB/s, the reader's IOPS and p50/p99/p99.9/p99.99; qos.csv and\n"
"qos-latency.png.  It writes: --destroy-data.\n"
"\n"
"  --bs LIST          block sizes, 512..1m (default 4k,128k)\n"
"  --qd LIST          queue depths 1..256, or THREADSxDEPTH (default 1,32)\n"
"  --jobs N           fio threads per cell when --qd gives none (default 1)\n"
"  --rw LIST          read, write, randread, randwrite or R/W mixes (70/30)\n"
"                     (default reads only; pts-* suites: their PTS mixes)\n"
"  --random, --seq    access pattern of the mixes (default random)\n"
"  --ioengine E       libaio (default) or io_uring\n"
"  --runtime S        seconds per round (default 5; 60 for pts-*, 30 for qos)\n"
"  --rounds N         rounds per cell, at least (default 3)\n"
"  --steady-state     rounds until PTS steady state, at most 25\n"
"  --purge            NVMe Format NVM (user data erase) first, else\n"
"                     blkdiscard\n"
"  --precondition     write the device twice, sequential 128k, first\n"
"  --suite S          quick (default), pts-iops, pts-throughput, pts-latency,\n"
"                     qos\n"
"  --out DIR          where the report goes: root's, written by nobody else\n"
"                     (default a new ./ssdtune-bench-TIME-XXXXXX, mode 0700)\n"
"  --cpus LIST        run fio on these CPUs (default: the I/O cores the\n"
"                     applied profile plans for the device, if one is applied)\n"
"  --temp-warn C      mark a round suspect at this temperature (default: the\n"
"                     drive's warning threshold where it reports one, else 70)\n"
"  --destroy-data     allow purge, precondition and writes\n"
"  --yes-destroy-data deprecated spelling of --destroy-data\n"
"  --ab PROFILE       baseline, 'apply --profile PROFILE', rerun, 'revert',\n"
"                     compare\n"
"  --state-dir DIR    where apply saved its state (default /var/lib/ssdtune)\n"
"  --devices LIST     the devices to measure at once (or as arguments)\n"
"  --scale            on the first 1, 2, .. N of them in turn: the aggregate\n"
"                     over k x the first device's alone, and scaling.png\n""  --qos-writer W     qos: seq128k (default) or rand4k writes\n"
"  --qos-trim         qos: a trim job beside the writer, trimming as fast\n"
"  --qos-bw MBPS      qos: the 100% rate in MB/s, instead of measuring it\n"
"With --dry-run: print the fio jobs and change nothing.  See bench.md.\n",
	.dry_run = "print the fio jobs it would run, run none",
	.flags = CMD_DRY_RUN,
	.min_args = 0, .max_args = BENCH_MAX_DEVS,
	.run = cmd_bench,
	.options = bench_options,
	.option = bench_option,
};
