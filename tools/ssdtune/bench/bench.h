/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdtune bench: measure with fio the way SSD vendors do (SNIA PTS).
 * bench.c runs the steps and builds the report (a json-c object, the
 * source of truth); bench_host.c reads the host and the device around each
 * round; bench_report.c turns a report into CSV, a table and plots;
 * bench_compare.c compares two reports.  See Documentation/bench.md.
 */
#ifndef SSDTUNE_BENCH_H
#define SSDTUNE_BENCH_H

#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <json-c/json.h>

#define BENCH_MAX_IRQS 256

/* The device under test. */
struct bench_dev {
	char name[NAME_MAX + 1];	/* "ssdt0n1" */
	char path[PATH_MAX];		/* "/dev/ssdt0n1" */
	char sysdir[PATH_MAX];		/* realpath of /sys/block/NAME */
	char ctrl[NAME_MAX + 1];	/* "ssdt0", "nvme0", "" */
	char ssdt_dir[PATH_MAX];	/* /sys/class/ssdtune/ssdtN or "" */
	char pci_dir[PATH_MAX];		/* the PCI function's sysfs dir or "" */
	char bdf[32];
	char driver[64];
	int irqs[BENCH_MAX_IRQS];	/* the controller's vectors */
	int nirqs;
	long long temp_warn_mc;		/* ssdtune: temperature_warn_mc */
	bool have_temp_warn;
};

/* Resolve DEVICE ("/dev/ssdt0n1" or "ssdt0n1"); NULL: the first ssdtune
 * disk.  0, or an exit code after the one error line. */
int bench_dev_resolve(const char *arg, struct bench_dev *d);

/* Counters read before and after every round. */
struct host_sample {
	unsigned long long cpu_busy, cpu_total;	/* /proc/stat ticks */
	unsigned long long irqs;		/* the device's vectors */
	bool have_irqs;
	long long temp_mc;			/* ssdtune: temperature_mc */
	bool have_temp;
	long long throttle_events;
	bool have_throttle;
	long long power_mw;			/* power_estimate_mw */
	bool have_power;
};
void host_sample(const struct bench_dev *d, struct host_sample *s);

/* The host's tuning state (governor, EPP, turbo, cpuidle, IRQ affinity,
 * scheduler, kernel, driver), and an ssdtune controller's settings
 * (NULL for other devices). */
struct json_object *host_state(const struct bench_dev *d);
struct json_object *ssdt_settings(const struct bench_dev *d);

/* Run @argv (PATH lookup), stdout to @out_path (NULL: /dev/null), stderr
 * to @err_path (NULL: /dev/null).  The exit status, 127 if it could not
 * run, or 128 + signal. */
int bench_spawn(char *const argv[], const char *out_path,
		const char *err_path);
/* Is @prog on PATH? */
bool bench_have(const char *prog);
/* The first line of file @path into @buf ("" if none). */
void bench_first_line(const char *path, char *buf, size_t len);

/* Per-round figures, in report order: the key in JSON and CSV, the
 * column head, and whether more is better (for compare). */
struct bench_metric {
	const char *key;
	const char *head;
	bool higher_is_better;
};
extern const struct bench_metric bench_metrics[];
extern const int bench_nmetrics;

/* From a report (bench.json): CSV (one row per round), the readable
 * table, and gnuplot PNGs in @dir (their names appended to @files;
 * a reason in @why if none were made).  0 or -errno. */
int bench_write_csv(struct json_object *report, const char *path);
void bench_print_table(struct json_object *report, FILE *f);
int bench_plot(struct json_object *report, const char *dir,
	       struct json_object *files, char *why, size_t len);

/* compare: the delta table of two reports into @out (an object with a
 * "rows" array), printed unless --json.  0 or an exit code. */
int bench_compare_files(const char *a, const char *b,
			struct json_object *out, bool print);

/* json helpers */
struct json_object *bench_jget(struct json_object *o, const char *key);
double bench_jnum(struct json_object *o, const char *key);	/* NaN */
const char *bench_jstr(struct json_object *o, const char *key);	/* NULL */
struct json_object *bench_jdouble(double v);	/* NaN -> NULL (null) */


#endif
