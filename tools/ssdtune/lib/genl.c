// SPDX-License-Identifier: GPL-2.0
/*
 * The ssdtune generic netlink client (genl.h): libnl-genl socket, family
 * and group resolution, event decoding, and the GET_CTRL dump.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "lib/genl.h"
#include "uapi/linux/ssdtune.h"

int genl_open(struct genl *g, struct lib_err *err)
{
	g->sk = nl_socket_alloc();
	if (!g->sk)
		return lib_enomem(err);
	if (genl_connect(g->sk) < 0)
		return lib_errf(err, EIO, "cannot open a generic netlink socket");
	g->family = genl_ctrl_resolve(g->sk, SSDTUNE_GENL_NAME);
	if (g->family < 0)
		return lib_errf(err, ENOENT, "no generic netlink family '%s': is ssdtune.ko loaded?",
				SSDTUNE_GENL_NAME);
	return 0;
}

void genl_close(struct genl *g)
{
	if (g->sk)
		nl_socket_free(g->sk);
	g->sk = NULL;
}

static const char *const event_names[] = {
	[SSDTUNE_EVENT_ATTACHED]	= "attached",
	[SSDTUNE_EVENT_DETACHED]	= "detached",
	[SSDTUNE_EVENT_TIMEOUT]		= "timeout",
	[SSDTUNE_EVENT_RESET]		= "reset",
	[SSDTUNE_EVENT_RESET_DONE]	= "reset_done",
	[SSDTUNE_EVENT_DEAD]		= "dead",
	[SSDTUNE_EVENT_KNOB]		= "knob",
	[SSDTUNE_EVENT_ASYNC]		= "async",
};

/* NVMe asynchronous event types (the spec's Figure "Asynchronous Event
 * Type"), as the monitor names them. */
static const char *ae_type_name(uint32_t t)
{
	switch (t) {
	case 0: return "error";
	case 1: return "smart";
	case 2: return "notice";
	default: return "other";
	}
}

static const char *event_name(uint32_t e)
{
	if (e < sizeof(event_names) / sizeof(event_names[0]) && event_names[e])
		return event_names[e];
	return "unknown";
}

static const char *get_str(struct nlattr **tb, int a)
{
	return tb[a] ? nla_get_string(tb[a]) : NULL;
}

static uint64_t get_u64(struct nlattr **tb, int a)
{
	return tb[a] ? nla_get_u64(tb[a]) : 0;
}

static uint32_t get_u32(struct nlattr **tb, int a)
{
	return tb[a] ? nla_get_u32(tb[a]) : 0;
}

static int on_event(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *tb[SSDTUNE_A_MAX + 1];
	struct genl *g = arg;
	struct genl_event ev;

	if (gh->cmd != SSDTUNE_CMD_EVENT ||
	    genlmsg_parse(nlmsg_hdr(msg), 0, tb, SSDTUNE_A_MAX, NULL) < 0 ||
	    !tb[SSDTUNE_A_EVENT] || !tb[SSDTUNE_A_CTRL])
		return NL_SKIP;
	ev.name = event_name(nla_get_u32(tb[SSDTUNE_A_EVENT]));
	ev.ctrl = nla_get_u32(tb[SSDTUNE_A_CTRL]);
	ev.has_time = tb[SSDTUNE_A_TIME_NS] != NULL;
	ev.time_ns = get_u64(tb, SSDTUNE_A_TIME_NS);
	ev.pci_addr = get_str(tb, SSDTUNE_A_PCI_ADDR);
	ev.state = get_str(tb, SSDTUNE_A_STATE);
	ev.knob = get_str(tb, SSDTUNE_A_KNOB);
	ev.value = get_str(tb, SSDTUNE_A_VALUE);
	ev.has_queue = tb[SSDTUNE_A_QUEUE] != NULL;
	ev.queue = get_u32(tb, SSDTUNE_A_QUEUE);
	ev.has_tag = tb[SSDTUNE_A_TAG] != NULL;
	ev.tag = get_u32(tb, SSDTUNE_A_TAG);
	ev.has_ae = tb[SSDTUNE_A_AE_TYPE] != NULL;
	ev.ae_type = ev.has_ae ? ae_type_name(get_u32(tb, SSDTUNE_A_AE_TYPE)) : NULL;
	ev.ae_info = get_u32(tb, SSDTUNE_A_AE_INFO);
	ev.ae_log = get_u32(tb, SSDTUNE_A_AE_LOG);
	ev.has_smart = tb[SSDTUNE_A_CRIT_WARNING] != NULL;
	ev.crit_warning = get_u32(tb, SSDTUNE_A_CRIT_WARNING);
	ev.temp_k = get_u32(tb, SSDTUNE_A_TEMP_K);
	g->event_fn(g->event_ctx, &ev);
	return NL_OK;
}

int genl_subscribe(struct genl *g,
		   void (*fn)(void *ctx, const struct genl_event *ev),
		   void *ctx, struct lib_err *err)
{
	int grp, ret;

	grp = genl_ctrl_resolve_grp(g->sk, SSDTUNE_GENL_NAME,
				    SSDTUNE_GENL_MCGRP_EVENTS);
	if (grp < 0)
		return lib_errf(err, ENOENT, "the %s family has no '%s' group",
				SSDTUNE_GENL_NAME, SSDTUNE_GENL_MCGRP_EVENTS);
	g->event_fn = fn;
	g->event_ctx = ctx;
	nl_socket_disable_seq_check(g->sk);
	nl_socket_modify_cb(g->sk, NL_CB_VALID, NL_CB_CUSTOM, on_event, g);
	ret = nl_socket_add_membership(g->sk, grp);
	if (ret == -NLE_PERM)
		return lib_errf(err, EPERM, "joining the '%s' group needs CAP_NET_ADMIN (run as root)",
				SSDTUNE_GENL_MCGRP_EVENTS);
	if (ret < 0)
		return lib_errf(err, EIO, "cannot join the '%s' group: %s",
				SSDTUNE_GENL_MCGRP_EVENTS, nl_geterror(ret));
	return 0;
}

int genl_wait(struct genl *g, int ms, struct lib_err *err)
{
	struct pollfd p = { .fd = nl_socket_get_fd(g->sk), .events = POLLIN };
	int ret, e;

	ret = poll(&p, 1, ms);
	if (ret < 0 && errno == EINTR)
		return 0;
	if (ret < 0) {
		e = errno;
		return lib_errf(err, e, "poll: %s", strerror(e));
	}
	if (ret == 0)
		return 0;
	ret = nl_recvmsgs_default(g->sk);
	if (ret < 0 && ret != -NLE_INTR)
		return lib_errf(err, EIO, "netlink: %s", nl_geterror(ret));
	return 0;
}

static void copy_str(char *dst, size_t len, struct nlattr *a)
{
	snprintf(dst, len, "%s", a ? nla_get_string(a) : "");
}

static int on_ctrl(struct nl_msg *msg, void *arg)
{
	struct genl_snapshot *s = arg;
	struct nlattr *tb[SSDTUNE_A_MAX + 1], *qa;
	struct genl_ctrl *c;
	int rem;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, SSDTUNE_A_MAX, NULL) < 0 ||
	    !tb[SSDTUNE_A_CTRL])
		return NL_SKIP;
	/* A controller with many queues comes in several messages. */
	if (s->n > 0 && s->c[s->n - 1].ctrl == nla_get_u32(tb[SSDTUNE_A_CTRL])) {
		c = &s->c[s->n - 1];
	} else {
		if (s->n >= GENL_MAX_CTRLS)
			return NL_SKIP;
		c = &s->c[s->n++];
		memset(c, 0, sizeof(*c));
	}
	c->ctrl = nla_get_u32(tb[SSDTUNE_A_CTRL]);
	copy_str(c->pci, sizeof(c->pci), tb[SSDTUNE_A_PCI_ADDR]);
	copy_str(c->state, sizeof(c->state), tb[SSDTUNE_A_STATE]);
	copy_str(c->model, sizeof(c->model), tb[SSDTUNE_A_MODEL]);
	copy_str(c->serial, sizeof(c->serial), tb[SSDTUNE_A_SERIAL]);
	if (!tb[SSDTUNE_A_QUEUES])
		return NL_OK;
	nla_for_each_nested(qa, tb[SSDTUNE_A_QUEUES], rem) {
		struct nlattr *qt[SSDTUNE_Q_MAX + 1];
		struct genl_queue *q;

		if (c->nq >= GENL_MAX_QUEUES ||
		    nla_parse_nested(qt, SSDTUNE_Q_MAX, qa, NULL) < 0)
			continue;
		q = &c->q[c->nq++];
		q->id = get_u32(qt, SSDTUNE_Q_ID);
		q->irq = get_u32(qt, SSDTUNE_Q_IRQ);
		q->submitted = get_u64(qt, SSDTUNE_Q_SUBMITTED);
		q->completed = get_u64(qt, SSDTUNE_Q_COMPLETED);
		q->interrupts = get_u64(qt, SSDTUNE_Q_INTERRUPTS);
		q->polled = get_u64(qt, SSDTUNE_Q_POLLED);
		q->retries = get_u64(qt, SSDTUNE_Q_RETRIES);
		q->stale = get_u64(qt, SSDTUNE_Q_STALE);
	}
	return NL_OK;
}

/* Send the dump request and handle the answers; 0 or a -NLE_* code. */
static int dump(struct genl *g, struct genl_snapshot *s)
{
	struct nl_msg *msg = nlmsg_alloc();
	int ret;

	if (!msg)
		return -NLE_NOMEM;
	s->n = 0;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, g->family, 0,
			 NLM_F_DUMP, SSDTUNE_CMD_GET_CTRL, SSDTUNE_GENL_VERSION)) {
		nlmsg_free(msg);
		return -NLE_NOMEM;
	}
	nl_socket_modify_cb(g->sk, NL_CB_VALID, NL_CB_CUSTOM, on_ctrl, s);
	ret = nl_send_auto(g->sk, msg);
	nlmsg_free(msg);
	if (ret < 0)
		return ret;
	return nl_recvmsgs_default(g->sk);
}

int genl_dump(struct genl *g, struct genl_snapshot *s, struct lib_err *err)
{
	int ret = dump(g, s);

	if (ret < 0)
		return lib_errf(err, EIO, "netlink dump: %s", nl_geterror(ret));
	return 0;
}

const struct genl_queue *genl_find_queue(const struct genl_snapshot *s,
					 uint32_t ctrl, uint32_t queue)
{
	const struct genl_ctrl *c;
	size_t i, k;

	for (i = 0; s && i < s->n; i++) {
		c = &s->c[i];
		if (c->ctrl != ctrl)
			continue;
		for (k = 0; k < c->nq; k++)
			if (c->q[k].id == queue)
				return &c->q[k];
		return NULL;	/* the first controller of that number */
	}
	return NULL;
}
