// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of ssdtune bench's pure parts (bench_stats.c, bench_fio.c):
 * the SNIA PTS steady-state rule on synthetic series, median/min/max, the
 * compare rule, flag parsing, job files, and the fio JSON parser on fio
 * outputs captured on this project's machines (tests/fio/).  TAP on stdout.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "bench/fio.h"
#include "bench/stats.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static void test_steady_state(void)
{
	/* flat from the start: the first window (rounds 0-4) is steady */
	static const double flat[] = { 1000, 1010, 995, 1005, 1000, 990 };
	/* fresh-out-of-box decay, flat from round 8 (0-based) */
	static const double late[] = {
		3000, 2600, 2200, 1800, 1500, 1300, 1300, 1250,
		1000, 1010, 990, 1005, 995,
	};
	/* keeps falling 5% a round for 25 rounds */
	double never[SS_MAX_ROUNDS];
	/* flat on average but +-15%: data excursion 30% > 20% */
	static const double noisy[] = {
		850, 1150, 850, 1150, 850, 1150, 850, 1150, 850, 1150,
	};
	/* inside the 20% band but drifting 3% a round: the fit line moves
	 * 12% of the average across the window > 10% */
	static const double drift[] = { 100, 103, 106, 109, 112, 115, 118 };
	/* the limits themselves: excursion exactly 20%, slope 0 */
	static const double edge[] = { 90, 110, 100, 110, 90 };
	struct ss_window w;
	int i;

	for (i = 0; i < N(never); i++)
		never[i] = 10000 * pow(0.95, i);

	CHECK(ss_scan(flat, 4, &w) == -1,
	      "steady state: fewer than 5 rounds is not evaluated");
	CHECK(ss_scan(flat, N(flat), &w) == 1 && w.first == 0 && w.last == 4,
	      "steady state reached at round 5 on a flat series");
	CHECK(fabs(w.avg - 1002) < 1e-9 && fabs(w.excursion - 15) < 1e-9,
	      "steady state window: average and max-min excursion");
	CHECK(ss_scan(late, N(late), &w) == 1 && w.first == 8 && w.last == 12,
	      "steady state reached late (window rounds 9-13) after a decay");
	CHECK(ss_scan(late, 12, &w) == 0 && !w.steady && w.last == 11,
	      "steady state not yet reached one round before the window");
	CHECK(ss_scan(never, N(never), &w) == 0 && !w.steady &&
	      w.last == SS_MAX_ROUNDS - 1,
	      "steady state never reached in 25 rounds of a steady decline");
	CHECK(ss_scan(noisy, N(noisy), &w) == 0 &&
	      w.excursion > SS_DATA_LIMIT * w.avg &&
	      w.slope_excursion <= SS_SLOPE_LIMIT * w.avg,
	      "noisy but flat: refused on the 20% data excursion alone");
	CHECK(ss_scan(drift, N(drift), &w) == 0 &&
	      w.excursion <= SS_DATA_LIMIT * w.avg &&
	      w.slope_excursion > SS_SLOPE_LIMIT * w.avg,
	      "steady but drifting: refused on the 10% slope excursion alone");
	CHECK(ss_window_at(drift, 5, &w) && fabs(w.slope - 3) < 1e-9 &&
	      fabs(w.intercept - 100) < 1e-9,
	      "least-squares fit of a straight line is exact");
	CHECK(ss_scan(edge, N(edge), &w) == 1,
	      "an excursion of exactly 20% of the average still counts");
	CHECK(ss_window_at(flat, 6, &w) && w.first == 1 && w.last == 5,
	      "ss_window_at looks at the last five rounds");
}

static void test_stat3(void)
{
	static const double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 };
	struct stat3 s;

	stat3_of(odd, 3, &s);
	CHECK(s.median == 3 && s.min == 1 && s.max == 5 && s.n == 3,
	      "stat3: median, min, max of an odd count");
	stat3_of(even, 4, &s);
	CHECK(s.median == 2.5 && s.min == 1 && s.max == 4,
	      "stat3: the median of an even count is the mean of the middle two");
	stat3_of(odd, 0, &s);
	CHECK(s.n == 0 && isnan(s.median), "stat3 of nothing is NaN");
}

static enum cmp_verdict verdict(double a0, double a1, double a2, double b0,
				double b1, double b2, bool higher, double *d)
{
	/* five rounds a side: the median twice more */
	double a[5] = { a0, a1, a2, a0, a0 }, b[5] = { b0, b1, b2, b0, b0 };
	struct stat3 sa, sb;
	struct cmp_result r;

	stat3_of(a, 5, &sa);
	stat3_of(b, 5, &sb);
	cmp_metric(&sa, &sb, higher, &r);
	if (d)
		*d = r.delta_pct;
	return r.verdict;
}

static void test_compare(void)
{
	double a[2] = { 100, 100 }, b[2] = { 200, 200 };
	struct stat3 sa, sb;
	struct cmp_result r;
	double d;

	CHECK(verdict(100, 101, 99, 120, 121, 119, true, &d) == CMP_BETTER &&
	      fabs(d - 20) < 1e-9,
	      "compare: +20% IOPS with tight runs is better, delta 20%");
	CHECK(verdict(100, 101, 99, 120, 121, 119, false, &d) == CMP_WORSE,
	      "compare: +20% latency is worse");
	CHECK(verdict(100, 90, 110, 105, 104, 106, true, &d) == CMP_NOISE &&
	      fabs(d - 5) < 1e-9,
	      "compare: +5% inside a 20-wide spread is within noise, not a gain");
	CHECK(verdict(100, 100, 100, 100, 100, 100, true, &d) == CMP_NOISE &&
	      d == 0, "compare: identical runs are within noise");
	stat3_of(a, 2, &sa);
	stat3_of(b, 2, &sb);
	cmp_metric(&sa, &sb, true, &r);
	CHECK(r.verdict == CMP_FEW_RUNS && fabs(r.delta_pct - 100) < 1e-9,
	      "compare: fewer than 5 runs a side says so (delta still given)");
	{
		double a3[3] = { 100, 101, 99 }, b3[3] = { 130, 131, 129 };

		stat3_of(a3, 3, &sa);
		stat3_of(b3, 3, &sb);
		cmp_metric(&sa, &sb, true, &r);
		CHECK(r.verdict == CMP_FEW_RUNS,
		      "compare: 3 tight rounds a side, 30% apart: too few for a verdict");
	}
	CHECK(verdict(0, 0, 0, 1, 1, 1, true, &d) == CMP_NA && isnan(d),
	      "compare: no delta % against a zero baseline");
	CHECK(!strcmp(cmp_verdict_name(CMP_NOISE), "within noise"),
	      "compare verdict names");
}

static void test_parse_flags(void)
{
	char buf[16];
	int r, rnd, t, q;

	CHECK(bench_parse_size("4k") == 4096 && bench_parse_size("512") == 512 &&
	      bench_parse_size("1m") == 1048576 &&
	      bench_parse_size("128K") == 131072 &&
	      bench_parse_size("8192") == 8192,
	      "bench_parse_size reads 512 B .. 1 MiB");
	CHECK(bench_parse_size("256") < 0 && bench_parse_size("2m") < 0 &&
	      bench_parse_size("1000") < 0 && bench_parse_size("4kb") < 0 &&
	      bench_parse_size("") < 0 && bench_parse_size("-4k") < 0 &&
	      bench_parse_size("99999999999999999999k") < 0,
	      "bench_parse_size refuses sizes outside 512 B .. 1 MiB, odd sizes, junk");
	CHECK(!strcmp(bench_format_size(4096, buf, sizeof(buf)), "4k") &&
	      !strcmp(bench_format_size(1048576, buf, sizeof(buf)), "1m") &&
	      !strcmp(bench_format_size(512, buf, sizeof(buf)), "512") &&
	      !strcmp(bench_format_size(1536, buf, sizeof(buf)), "1536"),
	      "bench_format_size names the IO size");
	CHECK(!bench_parse_rw("70/30", &r, &rnd) && r == 70 && rnd == -1,
	      "bench_parse_rw reads a mix");
	CHECK(!bench_parse_rw("randread", &r, &rnd) && r == 100 && rnd == 1 &&
	      !bench_parse_rw("write", &r, &rnd) && r == 0 && rnd == 0,
	      "bench_parse_rw reads fio's names");
	CHECK(bench_parse_rw("70/20", &r, &rnd) && bench_parse_rw("70/", &r, &rnd) &&
	      bench_parse_rw("101/0", &r, &rnd) && bench_parse_rw("rw", &r, &rnd) &&
	      bench_parse_rw("70/30x", &r, &rnd),
	      "bench_parse_rw refuses mixes that do not add to 100, and junk");
	CHECK(!bench_parse_qd("32", &t, &q) && t == 0 && q == 32 &&
	      !bench_parse_qd("4x32", &t, &q) && t == 4 && q == 32,
	      "bench_parse_qd reads depth and threads x depth");
	CHECK(bench_parse_qd("0", &t, &q) && bench_parse_qd("257", &t, &q) &&
	      bench_parse_qd("4x", &t, &q) && bench_parse_qd("x4", &t, &q) &&
	      bench_parse_qd("4x0", &t, &q),
	      "bench_parse_qd refuses 0, over 256 and junk");
	CHECK(!strcmp(bench_fio_rw(65, true), "randrw") &&
	      !strcmp(bench_fio_rw(100, false), "read") &&
	      !strcmp(bench_fio_rw(0, true), "randwrite"),
	      "bench_fio_rw maps a mix to fio's rw=");
	CHECK(bench_fio_version("fio-3.33") == 3033 &&
	      bench_fio_version("fio-3.26-12-gabc") == 3026 &&
	      bench_fio_version("3.33") == -1,
	      "bench_fio_version reads fio --version");
}

static void test_jobs(void)
{
	struct bench_cell c = { .read_pct = 70, .random = true, .bs = 4096,
				.threads = 4, .depth = 32 };
	struct bench_job j = { "/dev/ssdt0n1", "io_uring", 5, "2-3" };
	char buf[1024], id[64];

	bench_job_format(&j, &c, buf, sizeof(buf));
	CHECK(strstr(buf, "filename=/dev/ssdt0n1\n") &&
	      strstr(buf, "ioengine=io_uring\n") && strstr(buf, "direct=1\n") &&
	      strstr(buf, "rw=randrw\nrwmixread=70\n") &&
	      strstr(buf, "bs=4096\n") && strstr(buf, "iodepth=32\n") &&
	      strstr(buf, "numjobs=4\n") && strstr(buf, "runtime=5\n") &&
	      strstr(buf, "cpus_allowed=2-3\n") &&
	      strstr(buf, "unified_rw_reporting=both\n") &&
	      strstr(buf, "percentile_list=50:99:99.9:99.99:99.9999\n"),
	      "bench_job_format writes the cell's fio job, reads and writes apart");
	CHECK(!strcmp(bench_cell_id(&c, id, sizeof(id)), "rand-70r-4k-t4q32"),
	      "bench_cell_id of a mix");
	c = (struct bench_cell){ .read_pct = 100, .bs = 131072, .threads = 1,
				 .depth = 1 };
	CHECK(!strcmp(bench_cell_id(&c, id, sizeof(id)), "read-128k-t1q1") &&
	      !strcmp(bench_cell_label(&c, id, sizeof(id)), "128k seq read QD1x1"),
	      "bench_cell_id and label of a sequential read");
	j.cpus = NULL;
	bench_job_format(&j, &c, buf, sizeof(buf));
	CHECK(!strstr(buf, "cpus_allowed") && !strstr(buf, "rwmixread"),
	      "no cpus_allowed without CPUs, no rwmixread for a pure read");
	CHECK(bench_job_format(&j, &c, buf, 10) > 10 && strlen(buf) == 9,
	      "bench_job_format truncates like snprintf");
	bench_precondition_format(&j, buf, sizeof(buf));
	CHECK(strstr(buf, "rw=write\nbs=128k\n") && strstr(buf, "loops=2\n") &&
	      !strstr(buf, "time_based"),
	      "precondition: sequential 128k writes over the device, twice");
}

static char *slurp(const char *name)
{
	char path[512], *buf;
	long n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", FIO_FIXTURES, name);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, n + 1);
	if (buf && fread(buf, 1, n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-6 * fabs(b);
}

static void test_fio_parse(void)
{
	struct fio_figures f;
	char err[128], *j;

	j = slurp("randread-4k-mixed.json");
	CHECK(j && !fio_parse(j, &f, err, sizeof(err)) &&
	      near(f.all.iops, 57359.64036) && f.all.ios == 57417 &&
	      near(f.all.pct_us[0], 104.960) && near(f.all.pct_us[1], 921.600) &&
	      near(f.all.pct_us[2], 3358.720) &&
	      near(f.all.pct_us[3], 6651.904) && isnan(f.all.pct_us[4]) &&
	      !strcmp(f.version, "fio-3.33") && f.all.bw_bytes > 0 &&
	      near(f.all.bw_bytes / f.all.iops, 4096) && f.all.clat_mean_us > 0 &&
	      f.read.ios == 0 && f.write.ios == 0,
	      "fio_parse: captured 4k randread (unified mixed: no directions apart)");
	free(j);
	j = slurp("randrw-70-4k-2jobs-mixed.json");
	CHECK(j && !fio_parse(j, &f, err, sizeof(err)) &&
	      near(f.all.iops, 66709.290709) && f.all.ios == 66776 &&
	      near(f.all.pct_us[1], 296.960),
	      "fio_parse: captured 70/30 mix, 2 jobs group-reported");
	free(j);
	j = slurp("randrw-70-4k-split.json");
	CHECK(j && !fio_parse(j, &f, err, sizeof(err)) &&
	      near(f.all.iops, 33975.024975 + 14521.478521) &&
	      f.all.ios == 34009 + 14536 && near(f.all.pct_us[1], 168.960) &&
	      f.read.ios == 34009 && f.write.ios == 14536 &&
	      near(f.write.pct_us[1], 280.576),
	      "fio_parse: read+write reported apart are added; percentiles of the busier side");
	free(j);
	j = slurp("randrw-70-4k-both.json");
	CHECK(j && !fio_parse(j, &f, err, sizeof(err)) &&
	      near(f.all.iops, 36217.782218) && f.all.ios == 36254 &&
	      near(f.all.pct_us[1], 403.456) && near(f.all.pct_us[4], 5603.328),
	      "fio_parse: unified_rw_reporting=both, all from \"mixed\"");
	CHECK(j && !fio_parse(j, &f, err, sizeof(err)) &&
	      near(f.read.iops, 25393.606394) && f.read.ios == 25419 &&
	      f.read.samples == 25419 && near(f.read.pct_us[0], 84.480) &&
	      near(f.read.pct_us[4], 5537.792) &&
	      near(f.read.clat_mean_us, 95.008534089) &&
	      near(f.write.iops, 10824.175824) && f.write.ios == 10835 &&
	      near(f.write.pct_us[1], 528.384) &&
	      near(f.write.pct_us[4], 5603.328) &&
	      near(f.write.bw_bytes, 44335824),
	      "fio_parse: both: reads and writes apart, p50..p99.9999 each");
	CHECK(j && !fio_parse(j, &f, err, sizeof(err)) &&
	      near(f.read.max_us, 5547.764) && near(f.write.max_us, 5615.776) &&
	      near(f.all.max_us, 5615.776),
	      "fio_parse: the slowest completion (clat max) of each direction");
	CHECK(j && !fio_parse(j, &f, err, sizeof(err)) &&
	      near(f.cpu_s, (2.9 + 30.8) / 100) && near(f.runtime_s, 1.0),
	      "fio_parse: fio's own CPU seconds from usr_cpu + sys_cpu of job_runtime");
	free(j);
	CHECK(fio_parse("not json", &f, err, sizeof(err)) == -1 &&
	      !strcmp(err, "fio output is not a JSON object"),
	      "fio_parse refuses non-JSON");
	CHECK(fio_parse("{\"jobs\": []}", &f, err, sizeof(err)) == -1 &&
	      !strcmp(err, "fio output has no jobs"),
	      "fio_parse refuses output without jobs");
	CHECK(fio_parse("{\"jobs\": [{\"error\": 5}]}", &f, err, sizeof(err)) == -1 &&
	      !strcmp(err, "fio job failed: error 5"),
	      "fio_parse reports a failed job");
	CHECK(fio_parse("{\"jobs\": [{\"error\": 0, \"mixed\": {\"total_ios\": 0}}]}",
			&f, err, sizeof(err)) == -1 &&
	      !strcmp(err, "fio completed no I/O"),
	      "fio_parse refuses a run without I/O");
}

static void test_multi(void)
{
	struct bench_job j[2] = {
		{ "/dev/ssdt0n1", "libaio", 5, "2-3" },
		{ "/dev/ssdt1n1", "libaio", 5, NULL },
	};
	struct bench_cell c = { .read_pct = 70, .random = true, .bs = 4096,
				.threads = 1, .depth = 32 };
	struct fio_figures dev[2], all;
	char buf[2048], err[128], *js;
	const char *b;

	bench_multi_job_format(j, 2, &c, buf, sizeof(buf));
	b = strstr(buf, "[rand-70r-4k-t1q32.ssdt1n1]");
	CHECK(strstr(buf, "[rand-70r-4k-t1q32.ssdt0n1]\nnew_group\nfilename=/dev/ssdt0n1\ncpus_allowed=2-3\ncpus_allowed_policy=split\n") &&
	      b && !strstr(b, "cpus_allowed") &&
	      strstr(buf, "rw=randrw\nrwmixread=70\n") &&
	      strstr(buf, "unified_rw_reporting=both\n") &&
	      strstr(buf, "runtime=5\n") && strstr(buf, "iodepth=32\n"),
	      "bench_multi_job_format: one reporting group per device, each on its own CPUs");
	js = slurp("randrw-70-4k-2dev-jsonplus.json");
	CHECK(js && !fio_parse_groups(js, 2, dev, &all, err, sizeof(err)) &&
	      dev[0].all.ios == 20180 && dev[1].all.ios == 20137 &&
	      dev[0].read.ios == 14111 && dev[1].write.ios == 6036 &&
	      near(dev[0].all.pct_us[1], 173.056) &&
	      near(dev[1].all.pct_us[1], 183.296),
	      "fio_parse_groups: each device's own figures, from its group");
	CHECK(js && !fio_parse_groups(js, 2, dev, &all, err, sizeof(err)) &&
	      all.all.ios == 40317 && near(all.all.iops, 40276.723277) &&
	      all.all.samples == 40317 && all.read.ios == 28212 &&
	      all.write.ios == 12105 &&
	      near(all.all.pct_us[0], 89.600) && near(all.all.pct_us[1], 179.200) &&
	      near(all.all.pct_us[2], 460.800) && near(all.all.pct_us[3], 1400.832) &&
	      near(all.read.pct_us[3], 2310.144) && near(all.write.pct_us[1], 207.872) &&
	      near(all.cpu_s, (2.2 + 19.2 + 2.1 + 19.1) / 100),
	      "fio_parse_groups: all devices' percentiles from their merged histograms, as fio computes its own");
	CHECK(js && !fio_parse_groups(js, 2, dev, &all, err, sizeof(err)) &&
	      near(all.read.max_us, 2345.050) && near(all.write.max_us, 2329.808) &&
	      near(all.all.max_us, 2345.050) && near(dev[1].all.max_us, 2329.808),
	      "fio_parse_groups: the slowest completion of all devices is the slowest of any");
	CHECK(js && fio_parse_groups(js, 3, dev, &all, err, sizeof(err)) == -1 &&
	      strstr(err, "2 reporting groups, not 3"),
	      "fio_parse_groups refuses a run with another number of groups");
	free(js);
}

static void test_qos(void)
{
	struct bench_cell c = { .read_pct = 100, .random = true, .bs = 4096,
				.threads = 1, .depth = 1, .qos = true, .qos_pct = 25 };
	struct bench_qos_job q = { "/dev/ssdt0n1", "io_uring", 30, "2", "3-5",
				   32768000, 25 };
	char buf[4096], id[96];
	const char *w;

	CHECK(!strcmp(bench_cell_id(&c, id, sizeof(id)), "qos-seq128k-w25") &&
	      !strcmp(bench_cell_label(&c, id, sizeof(id)),
		      "4k random read QD1 beside seq 128k writes at 25%"),
	      "bench_cell_id and label of a qos cell");
	bench_qos_job_format(&q, &c, buf, sizeof(buf));
	w = strstr(buf, "[qos-seq128k-w25.writer]\n");
	CHECK(strstr(buf, "[qos-seq128k-w25.reader]\nrw=randread\nbs=4096\niodepth=1\nnumjobs=1\ncpus_allowed=2\n") &&
	      w && strstr(w, "new_group\nrw=write\nbs=131072\niodepth=32\nnumjobs=1\nrate=32768000\ncpus_allowed=3-5\n") &&
	      !strstr(buf, "trim") && strstr(buf, "ioengine=io_uring\n") &&
	      strstr(buf, "runtime=30\n") && strstr(buf, "unified_rw_reporting=both\n"),
	      "bench_qos_job_format: the reader, then the capped writer in a group of its own, each on its CPUs");
	c.qos_rand = c.qos_trim = true;
	bench_qos_job_format(&q, &c, buf, sizeof(buf));
	w = strstr(buf, "[qos-rand4k-trim-w25.trim]\n");
	CHECK(w && strstr(w, "new_group\nrw=randtrim\nbs=4096\nioengine=psync\niodepth=1\nnumjobs=1\nrate=32768000\n") &&
	      strstr(buf, "rw=randwrite\nbs=4096\n"),
	      "bench_qos_job_format: random 4k writes and a trim job in a third group");
	c.qos_pct = 0;
	q.rate = 0;
	bench_qos_job_format(&q, &c, buf, sizeof(buf));
	CHECK(!strstr(buf, "writer]") && !strstr(buf, "trim]") && !strstr(buf, "rate="),
	      "bench_qos_job_format at 0%: the reader alone");
	c.qos_pct = 50;
	q.rate = -1;
	q.pct = 50;
	bench_qos_job_format(&q, &c, buf, sizeof(buf));
	CHECK(strstr(buf, "rate=<50% of the measured write bandwidth, bytes/s>\n"),
	      "bench_qos_job_format before the bandwidth is known says what the rate will be");
	c.qos_rand = false;
	bench_qos_bw_format(&q, &c, buf, sizeof(buf));
	CHECK(strstr(buf, "[qos-seq128k-bw.writer]\nrw=write\nbs=131072\niodepth=32\nnumjobs=1\ncpus_allowed=3-5\n") &&
	      !strstr(buf, "reader") && !strstr(buf, "rate=") && !strstr(buf, "new_group"),
	      "bench_qos_bw_format: the writer alone, uncapped, on its CPUs");
}

static void test_pct_meaningful(void)
{
	CHECK(bench_pct_samples(50) == 20 && bench_pct_samples(99) == 1000 &&
	      bench_pct_samples(99.9) == 10000 &&
	      bench_pct_samples(99.99) == 100000 &&
	      bench_pct_samples(99.9999) == 10000000,
	      "percentile p needs 10/(1-p) samples: p50 20 .. p99.9999 10^7");
	CHECK(bench_pct_meaningful(99.9, 10000) &&
	      !bench_pct_meaningful(99.9, 9999) &&
	      bench_pct_meaningful(99.9999, 10000000) &&
	      !bench_pct_meaningful(99.9999, 9999999),
	      "a percentile is meaningful from exactly its sample count on");
	CHECK(bench_pct_samples(100) == -1 && bench_pct_samples(0) == -1 &&
	      !bench_pct_meaningful(100, 1LL << 62),
	      "p0 and p100 are no percentiles of the rule");
}

int main(void)
{
	test_steady_state();
	test_stat3();
	test_compare();
	test_parse_flags();
	test_jobs();
	test_fio_parse();
	test_pct_meaningful();
	test_multi();
	test_qos();
	return tap_done();
}
