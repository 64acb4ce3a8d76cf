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
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "cmd/cli.h"
#include "cmd/output.h"
#include "uapi/linux/ssdtune.h"

#define MAX_CTRLS	64
#define MAX_QUEUES	256

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

struct nl {
	struct nl_sock *sk;
	int family;
};

/* Connect and resolve the family; one clear line if the module is absent. */
static int nl_open(struct nl *nl)
{
	nl->sk = nl_socket_alloc();
	if (!nl->sk)
		return out_fail(EXIT_REFUSED, "monitor: out of memory");
	if (genl_connect(nl->sk) < 0)
		return out_fail(EXIT_REFUSED,
				"monitor: cannot open a generic netlink socket");
	nl->family = genl_ctrl_resolve(nl->sk, SSDTUNE_GENL_NAME);
	if (nl->family < 0)
		return out_fail(EXIT_REFUSED,
				"monitor: no generic netlink family '%s': is ssdtune.ko loaded?",
				SSDTUNE_GENL_NAME);
	return 0;
}

static const char *const event_names[] = {
	[SSDTUNE_EVENT_ATTACHED]	= "attached",
	[SSDTUNE_EVENT_DETACHED]	= "detached",
	[SSDTUNE_EVENT_TIMEOUT]		= "timeout",
	[SSDTUNE_EVENT_RESET]		= "reset",
	[SSDTUNE_EVENT_RESET_DONE]	= "reset_done",
	[SSDTUNE_EVENT_DEAD]		= "dead",
	[SSDTUNE_EVENT_KNOB]		= "knob",
};

static const char *event_name(uint32_t e)
{
	if (e < sizeof(event_names) / sizeof(event_names[0]) && event_names[e])
		return event_names[e];
	return "unknown";
}

static struct json_object *list(const char *key)
{
	struct json_object *a;

	if (!json_object_object_get_ex(out_obj(), key, &a)) {
		a = json_object_new_array();
		json_object_object_add(out_obj(), key, a);
	}
	return a;
}

static long seen;

static void add_str(struct json_object *o, const char *key,
		    struct nlattr **tb, int attr)
{
	if (tb[attr])
		json_object_object_add(o, key,
			json_object_new_string(nla_get_string(tb[attr])));
}

static int on_event(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *tb[SSDTUNE_A_MAX + 1];
	struct json_object *o;
	const char *ev;
	char ctrl[32];

	(void)arg;
	if (gh->cmd != SSDTUNE_CMD_EVENT ||
	    genlmsg_parse(nlmsg_hdr(msg), 0, tb, SSDTUNE_A_MAX, NULL) < 0 ||
	    !tb[SSDTUNE_A_EVENT] || !tb[SSDTUNE_A_CTRL])
		return NL_SKIP;
	ev = event_name(nla_get_u32(tb[SSDTUNE_A_EVENT]));
	snprintf(ctrl, sizeof(ctrl), SSDTUNE_CTRL_PREFIX "%u",
		 nla_get_u32(tb[SSDTUNE_A_CTRL]));
	o = json_object_new_object();
	json_object_object_add(o, "event", json_object_new_string(ev));
	json_object_object_add(o, "controller", json_object_new_string(ctrl));
	if (tb[SSDTUNE_A_TIME_NS])
		json_object_object_add(o, "boottime_ns",
			json_object_new_int64((int64_t)nla_get_u64(tb[SSDTUNE_A_TIME_NS])));
	add_str(o, "pci_address", tb, SSDTUNE_A_PCI_ADDR);
	add_str(o, "state", tb, SSDTUNE_A_STATE);
	add_str(o, "knob", tb, SSDTUNE_A_KNOB);
	add_str(o, "value", tb, SSDTUNE_A_VALUE);
	if (tb[SSDTUNE_A_QUEUE])
		json_object_object_add(o, "queue",
			json_object_new_int64(nla_get_u32(tb[SSDTUNE_A_QUEUE])));
	if (tb[SSDTUNE_A_TAG])
		json_object_object_add(o, "tag",
			json_object_new_int64(nla_get_u32(tb[SSDTUNE_A_TAG])));

	if (!out_json()) {
		printf("%s %s", ctrl, ev);
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
	return NL_OK;
}

static int watch_events(struct nl *nl)
{
	double end = mopts.timeout ? now_s() + mopts.timeout : 0;
	int grp, ret;

	grp = genl_ctrl_resolve_grp(nl->sk, SSDTUNE_GENL_NAME,
				    SSDTUNE_GENL_MCGRP_EVENTS);
	if (grp < 0)
		return out_fail(EXIT_REFUSED, "monitor: the %s family has no '%s' group",
				SSDTUNE_GENL_NAME, SSDTUNE_GENL_MCGRP_EVENTS);
	nl_socket_disable_seq_check(nl->sk);
	nl_socket_modify_cb(nl->sk, NL_CB_VALID, NL_CB_CUSTOM, on_event, NULL);
	if (nl_socket_add_membership(nl->sk, grp) < 0)
		return out_fail(EXIT_REFUSED, "monitor: cannot join the '%s' group",
				SSDTUNE_GENL_MCGRP_EVENTS);
	list("events");
	if (!out_json()) {
		printf("watching %s events (Ctrl-C to stop)\n", SSDTUNE_GENL_NAME);
		fflush(stdout);
	}
	while (!stop && !(mopts.count && seen >= mopts.count)) {
		struct pollfd p = { .fd = nl_socket_get_fd(nl->sk), .events = POLLIN };
		int ms = -1;

		if (end) {
			double left = end - now_s();

			if (left <= 0)
				break;
			ms = (int)(left * 1000) + 1;
		}
		ret = poll(&p, 1, ms);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0)
			return out_fail(EXIT_REFUSED, "monitor: poll: %s", strerror(errno));
		if (ret == 0)
			continue;
		ret = nl_recvmsgs_default(nl->sk);
		if (ret < 0 && ret != -NLE_INTR)
			return out_fail(EXIT_REFUSED, "monitor: netlink: %s",
					nl_geterror(ret));
	}
	json_object_object_add(out_obj(), "count", json_object_new_int64(seen));
	return out_done();
}

/* --- --stats ------------------------------------------------------------ */

struct qsample {
	uint32_t id, irq;
	uint64_t submitted, completed, interrupts, polled;
};

struct csample {
	uint32_t ctrl;
	char pci[32], state[16], model[48], serial[32];
	size_t nq;
	struct qsample q[MAX_QUEUES];
};

struct snapshot {
	size_t n;
	struct csample c[MAX_CTRLS];
};

static uint64_t get_u64(struct nlattr **tb, int a)
{
	return tb[a] ? nla_get_u64(tb[a]) : 0;
}

static void copy_str(char *dst, size_t len, struct nlattr *a)
{
	snprintf(dst, len, "%s", a ? nla_get_string(a) : "");
}

static int on_ctrl(struct nl_msg *msg, void *arg)
{
	struct snapshot *s = arg;
	struct nlattr *tb[SSDTUNE_A_MAX + 1], *qa;
	struct csample *c;
	int rem;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, SSDTUNE_A_MAX, NULL) < 0 ||
	    !tb[SSDTUNE_A_CTRL] || s->n >= MAX_CTRLS)
		return NL_SKIP;
	c = &s->c[s->n++];
	memset(c, 0, sizeof(*c));
	c->ctrl = nla_get_u32(tb[SSDTUNE_A_CTRL]);
	copy_str(c->pci, sizeof(c->pci), tb[SSDTUNE_A_PCI_ADDR]);
	copy_str(c->state, sizeof(c->state), tb[SSDTUNE_A_STATE]);
	copy_str(c->model, sizeof(c->model), tb[SSDTUNE_A_MODEL]);
	copy_str(c->serial, sizeof(c->serial), tb[SSDTUNE_A_SERIAL]);
	if (!tb[SSDTUNE_A_QUEUES])
		return NL_OK;
	nla_for_each_nested(qa, tb[SSDTUNE_A_QUEUES], rem) {
		struct nlattr *qt[SSDTUNE_Q_MAX + 1];
		struct qsample *q;

		if (c->nq >= MAX_QUEUES ||
		    nla_parse_nested(qt, SSDTUNE_Q_MAX, qa, NULL) < 0)
			continue;
		q = &c->q[c->nq++];
		q->id = qt[SSDTUNE_Q_ID] ? nla_get_u32(qt[SSDTUNE_Q_ID]) : 0;
		q->irq = qt[SSDTUNE_Q_IRQ] ? nla_get_u32(qt[SSDTUNE_Q_IRQ]) : 0;
		q->submitted = get_u64(qt, SSDTUNE_Q_SUBMITTED);
		q->completed = get_u64(qt, SSDTUNE_Q_COMPLETED);
		q->interrupts = get_u64(qt, SSDTUNE_Q_INTERRUPTS);
		q->polled = get_u64(qt, SSDTUNE_Q_POLLED);
	}
	return NL_OK;
}

static int dump(struct nl *nl, struct snapshot *s)
{
	struct nl_msg *msg = nlmsg_alloc();
	int ret;

	if (!msg)
		return -NLE_NOMEM;
	s->n = 0;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0,
			 NLM_F_DUMP, SSDTUNE_CMD_GET_CTRL, SSDTUNE_GENL_VERSION)) {
		nlmsg_free(msg);
		return -NLE_NOMEM;
	}
	nl_socket_modify_cb(nl->sk, NL_CB_VALID, NL_CB_CUSTOM, on_ctrl, s);
	ret = nl_send_auto(nl->sk, msg);
	nlmsg_free(msg);
	if (ret < 0)
		return ret;
	return nl_recvmsgs_default(nl->sk);
}

static const struct csample *find_ctrl(const struct snapshot *s, uint32_t id)
{
	size_t i;

	for (i = 0; s && i < s->n; i++)
		if (s->c[i].ctrl == id)
			return &s->c[i];
	return NULL;
}

static const struct qsample *find_queue(const struct csample *c, uint32_t id)
{
	size_t i;

	for (i = 0; c && i < c->nq; i++)
		if (c->q[i].id == id)
			return &c->q[i];
	return NULL;
}

#define JI(v) json_object_new_int64((int64_t)(v))

/* One sample: totals, or with @prev the rates over @secs. */
static struct json_object *sample(const struct snapshot *s,
				  const struct snapshot *prev, double secs)
{
	struct json_object *ctrls = json_object_new_array();
	size_t i, k;

	for (i = 0; i < s->n; i++) {
		const struct csample *c = &s->c[i];
		const struct csample *pc = prev ? find_ctrl(prev, c->ctrl) : NULL;
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
			const struct qsample *q = &c->q[k];
			const struct qsample *pq = find_queue(pc, q->id);
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
				if (!out_json())
					printf("  q%-3u irq %-4u submitted %" PRIu64
					       " completed %" PRIu64 " interrupts %" PRIu64
					       " polled %" PRIu64 "\n", q->id, q->irq,
					       q->submitted, q->completed, q->interrupts,
					       q->polled);
			}
			json_object_array_add(qs, jq);
		}
		json_object_object_add(o, "queues", qs);
		json_object_array_add(ctrls, o);
	}
	if (!out_json() && !s->n)
		printf("no controller is attached to ssdtune\n");
	fflush(stdout);
	return ctrls;
}

static int watch_stats(struct nl *nl)
{
	static struct snapshot a, b;
	struct snapshot *cur = &a, *prev = &b, *t;
	double t0, t1, end = mopts.timeout ? now_s() + mopts.timeout : 0;
	long n = 0;
	int ret;

	t0 = now_s();
	ret = dump(nl, prev);
	if (ret < 0)
		return out_fail(EXIT_REFUSED, "monitor: netlink dump: %s",
				nl_geterror(ret));
	if (!mopts.interval) {
		json_object_object_add(out_obj(), "controllers", sample(prev, NULL, 0));
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
		ret = dump(nl, cur);
		if (ret < 0)
			return out_fail(EXIT_REFUSED, "monitor: netlink dump: %s",
					nl_geterror(ret));
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
	struct nl nl = { 0 };
	int ret;

	(void)cmd;
	(void)cli;
	if (mopts.interval && !mopts.stats)
		return usage_error(cmd, "--interval goes with --stats");
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ret = nl_open(&nl);
	if (!ret)
		ret = mopts.stats ? watch_stats(&nl) : watch_events(&nl);
	if (nl.sk)
		nl_socket_free(nl.sk);
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
"knob was written: name and value).  With --stats, print every attached\n"
"controller's per-queue counters once; with --stats --interval S, print\n"
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
