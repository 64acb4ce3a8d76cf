// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune monitor: watch the driver over its generic netlink family
 * (include/uapi/linux/ssdtune.h) with libnl-genl.
 *
 *   monitor            print driver events as they come (attach, detach,
 *                      I/O timeout, reset, dead controller, knob written)
 *   monitor --stats    one dump of every controller's per-queue counters;
 *                      with --interval S, the rates over each interval
 *
 * --count N stops after N events (N samples with --stats --interval),
 * --timeout S after S seconds.  With --json, stdout is one object at the
 * end: "events" or "samples" hold what text mode prints line by line.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cli.h"
#include "cmd/output.h"
#include "lib/genl.h"
#include "uapi/linux/ssdtune.h"

struct monitor_opts {
	bool stats;
	long count;		/* 0: no limit */
	double timeout;		/* seconds, 0: none */
	double interval;	/* seconds, 0: one dump */
};

static struct monitor_opts mopts;

enum { OPT_STATS = 0x200, OPT_COUNT, OPT_TIMEOUT, OPT_INTERVAL };

static const struct option monitor_options[] = {
	{ "stats",	no_argument,		NULL, OPT_STATS },
	{ "count",	required_argument,	NULL, OPT_COUNT },
	{ "timeout",	required_argument,	NULL, OPT_TIMEOUT },
	{ "interval",	required_argument,	NULL, OPT_INTERVAL },
	{ NULL, 0, NULL, 0 },
};

static int parse_seconds(const char *opt, const char *arg, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v > 0) || v > 86400 * 365)
		return out_fail(EXIT_USAGE,
				"monitor: %s wants seconds > 0, not '%s'",
				opt, arg);
	*out = v;
	return 0;
}

static int monitor_option(struct cli *cli, int val, const char *arg)
{
	char *end;
	long n;

	(void)cli;
	switch (val) {
	case OPT_STATS:
		mopts.stats = true;
		return 0;
	case OPT_COUNT:
		errno = 0;
		n = strtol(arg, &end, 10);
		if (errno || end == arg || *end || n < 1)
			return out_fail(EXIT_USAGE,
					"monitor: --count wants a whole number >= 1, not '%s'",
					arg);
		mopts.count = n;
		return 0;
	case OPT_TIMEOUT:
		return parse_seconds("--timeout", arg, &mopts.timeout);
	case OPT_INTERVAL:
		return parse_seconds("--interval", arg, &mopts.interval);
	}
	return EXIT_USAGE;
}

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A library error, "monitor: <what was wrong>". */
static int fail(const struct lib_err *err)
{
	return out_fail(EXIT_REFUSED, "monitor: %s", err->msg);
}

static struct json_object *list(const char *key)
{
	struct json_object *a;

	if (!json_object_object_get_ex(report_obj(), key, &a)) {
		a = json_object_new_array();
		json_object_object_add(report_obj(), key, a);
	}
	return a;
}

static long seen;

static void add_str(struct json_object *o, const char *key, const char *val)
{
	if (val)
		json_object_object_add(o, key, json_object_new_string(val));
}

static void add_u32(struct json_object *o, const char *key, bool has,
		    uint32_t val)
{
	if (has)
		json_object_object_add(o, key, json_object_new_int64(val));
}

/* One event: a line "ssdt0 knob knob=... value=...", and into "events". */
static void on_event(void *ctx, const struct genl_event *ev)
{
	struct json_object *o;
	char ctrl[32];

	(void)ctx;
	snprintf(ctrl, sizeof(ctrl), SSDTUNE_CTRL_PREFIX "%u", ev->ctrl);
	o = json_object_new_object();
	json_object_object_add(o, "event", json_object_new_string(ev->name));
	json_object_object_add(o, "controller", json_object_new_string(ctrl));
	if (ev->has_time)
		json_object_object_add(o, "boottime_ns",
			json_object_new_int64((int64_t)ev->time_ns));
	add_str(o, "pci_address", ev->pci_addr);	/* lint-names: a JSON key */
	add_str(o, "state", ev->state);			/* lint-names: a JSON key */
	add_str(o, "knob", ev->knob);
	add_str(o, "value", ev->value);
	add_u32(o, "queue", ev->has_queue, ev->queue);
	add_u32(o, "tag", ev->has_tag, ev->tag);
	add_str(o, "async_type", ev->ae_type);
	add_u32(o, "async_info", ev->has_ae, ev->ae_info);
	add_u32(o, "log_page", ev->has_ae, ev->ae_log);
	add_u32(o, "critical_warning", ev->has_smart, ev->crit_warning);
	add_u32(o, "temperature_k", ev->has_smart, ev->temp_k);

	if (!out_json()) {
		printf("%s %s", ctrl, ev->name);
		json_object_object_foreach(o, k, v) {
			if (!strcmp(k, "event") || !strcmp(k, "controller"))
				continue;
			printf(" %s=%s", k, json_object_get_string(v));
		}
		printf("\n");
		fflush(stdout);
	}
	json_object_array_add(list("events"), o);
	seen++;
}

static int watch_events(struct genl *g)
{
	double end = mopts.timeout ? now_s() + mopts.timeout : 0;
	struct lib_err err;

	if (genl_subscribe(g, on_event, NULL, &err))
		return fail(&err);
	list("events");
	if (!out_json()) {
		printf("watching %s events (Ctrl-C to stop)\n", SSDTUNE_GENL_NAME);
		fflush(stdout);
	}
	while (!stop && !(mopts.count && seen >= mopts.count)) {
		int ms = -1;

		if (end) {
			double left = end - now_s();

			if (left <= 0)
				break;
			ms = (int)(left * 1000) + 1;
		}
		if (genl_wait(g, ms, &err))
			return fail(&err);
	}
	json_object_object_add(report_obj(), "count", json_object_new_int64(seen));
	return out_done();
}

/* --- --stats ------------------------------------------------------------ */

#define JI(v) json_object_new_int64((int64_t)(v))

/* One queue of a sample: totals, or with @pq (the same queue in the
 * previous sample) the rates over @secs. */
static struct json_object *sample_queue(const struct genl_queue *q,
					const struct genl_queue *pq, double secs)
{
	struct json_object *jq = json_object_new_object();
	uint64_t reaped = q->completed + q->polled;

	json_object_object_add(jq, "queue", JI(q->id));
	json_object_object_add(jq, "irq", JI(q->irq));
	if (pq && secs > 0) {
		double io = (double)(reaped - pq->completed - pq->polled);
		double irqs = (double)(q->interrupts - pq->interrupts);

		json_object_object_add(jq, "completed_per_s",
			json_object_new_double(io / secs));
		json_object_object_add(jq, "interrupts_per_s",
			json_object_new_double(irqs / secs));
		json_object_object_add(jq, "interrupts_per_io",
			json_object_new_double(io > 0 ? irqs / io : 0));
		if (!out_json())
			printf("  q%-3u irq %-4u %10.0f IO/s %10.0f irq/s %6.3f irq/IO\n",
			       q->id, q->irq, io / secs, irqs / secs,
			       io > 0 ? irqs / io : 0.0);
	} else {
		json_object_object_add(jq, "submitted", JI(q->submitted));
		json_object_object_add(jq, "completed", JI(q->completed));
		json_object_object_add(jq, "interrupts", JI(q->interrupts));
		json_object_object_add(jq, "polled", JI(q->polled));
		json_object_object_add(jq, "retries", JI(q->retries));
		json_object_object_add(jq, "stale_completions", JI(q->stale));
		if (!out_json())
			printf("  q%-3u irq %-4u submitted %" PRIu64
			       " completed %" PRIu64 " interrupts %" PRIu64
			       " polled %" PRIu64 " retries %" PRIu64
			       " stale %" PRIu64 "\n", q->id, q->irq,
			       q->submitted, q->completed, q->interrupts,
			       q->polled, q->retries, q->stale);
	}
	return jq;
}

/* One sample: totals, or with @prev the rates over @secs. */
static struct json_object *sample(const struct genl_snapshot *s,
				  const struct genl_snapshot *prev, double secs)
{
	struct json_object *ctrls = json_object_new_array();
	size_t i, k;

	for (i = 0; i < s->n; i++) {
		const struct genl_ctrl *c = &s->c[i];
		struct json_object *o = json_object_new_object(), *qs;
		char name[32];

		snprintf(name, sizeof(name), SSDTUNE_CTRL_PREFIX "%u", c->ctrl);
		json_object_object_add(o, "controller", json_object_new_string(name));
		json_object_object_add(o, "pci_address", json_object_new_string(c->pci));
		json_object_object_add(o, "state", json_object_new_string(c->state));
		json_object_object_add(o, "model", json_object_new_string(c->model));
		json_object_object_add(o, "serial", json_object_new_string(c->serial));
		if (!out_json())
			printf("%s %s %s (%s)\n", name, c->pci, c->state, c->model);
		qs = json_object_new_array();
		for (k = 0; k < c->nq; k++) {
			const struct genl_queue *q = &c->q[k];
			const struct genl_queue *pq =
				genl_find_queue(prev, c->ctrl, q->id);

			json_object_array_add(qs, sample_queue(q, pq, secs));
		}
		json_object_object_add(o, "queues", qs);
		json_object_array_add(ctrls, o);
	}
	if (!out_json() && !s->n)
		printf("no controller is attached to ssdtune\n");
	fflush(stdout);
	return ctrls;
}

static int watch_stats(struct genl *g)
{
	static struct genl_snapshot a, b;
	struct genl_snapshot *cur = &a, *prev = &b, *t;
	double t0, t1, end = mopts.timeout ? now_s() + mopts.timeout : 0;
	struct lib_err err;
	long n = 0;

	t0 = now_s();
	if (genl_dump(g, prev, &err))
		return fail(&err);
	if (!mopts.interval) {
		json_object_object_add(report_obj(), "controllers", sample(prev, NULL, 0));
		return out_done();
	}
	list("samples");
	while (!stop && !(mopts.count && n >= mopts.count) &&
	       !(end && now_s() >= end)) {
		struct timespec d = {
			.tv_sec = (time_t)mopts.interval,
			.tv_nsec = (long)((mopts.interval - (time_t)mopts.interval) * 1e9),
		};
		struct json_object *o;

		if (nanosleep(&d, NULL) && stop)
			break;
		t1 = now_s();
		if (genl_dump(g, cur, &err))
			return fail(&err);
		o = json_object_new_object();
		json_object_object_add(o, "seconds", json_object_new_double(t1 - t0));
		json_object_object_add(o, "controllers", sample(cur, prev, t1 - t0));
		json_object_array_add(list("samples"), o);
		t = prev;
		prev = cur;
		cur = t;
		t0 = t1;
		n++;
	}
	return out_done();
}

static int cmd_monitor(const struct command *cmd, struct cli *cli)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct genl g = { 0 };
	struct lib_err err;
	int ret;

	(void)cmd;
	(void)cli;
	if (mopts.interval && !mopts.stats)
		return usage_error(cmd, "--interval goes with --stats");
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (genl_open(&g, &err))
		ret = fail(&err);
	else
		ret = mopts.stats ? watch_stats(&g) : watch_events(&g);
	genl_close(&g);
	return ret;
}

const struct command monitor_command = {
	.name = "monitor",
	.args = "",
	.summary = "watch the driver: events, or per-queue counters (--stats)",
	.help =
"Listen to the ssdtune driver's generic netlink family (ssdtune.ko must be\n"
"loaded) and print its events as they come, one line each: attached,\n"
"detached, timeout (queue, tag), reset, reset_done, dead, knob (a sysfs\n"
"knob was written: name and value), async (an NVMe asynchronous event:\n"
"async_type, async_info, log_page; critical_warning and temperature_k for\n"
"SMART/health); hearing events needs CAP_NET_ADMIN (root).  With --stats\n"
"(any user), print every attached controller's per-queue counters once;\n"
"with --stats --interval S, print\n"
"per-queue completions/s, interrupts/s and interrupts per I/O every S\n"
"seconds.  Changes nothing.\n\n"
"  --stats        counters instead of events\n"
"  --interval S   with --stats: rates every S seconds (fractions allowed)\n"
"  --count N      stop after N events (N samples with --interval)\n"
"  --timeout S    stop after S seconds\n"
"With --json, stdout is one object when monitor stops (--count, --timeout,\n"
"SIGINT or SIGTERM): \"events\", \"controllers\" or \"samples\".\n",
	.min_args = 0, .max_args = 0,
	.run = cmd_monitor,
	.options = monitor_options,
	.option = monitor_option,
};
