// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune: the events of the generic netlink family "ssdtune"
 * (include/uapi/linux/ssdtune.h), and the family itself, which
 * ssdt_netlink.c completes with its commands and registers.
 *
 * Events (attach, detach, timeout, reset, reset done, dead, knob writes,
 * asynchronous events) go to the multicast group "events", which only
 * CAP_NET_ADMIN may join; with no listener they cost one
 * genl_has_listeners() test and allocate nothing.  Below everything that
 * sends one: it calls nothing of the driver's.
 */
#include <linux/ktime.h>
#include <net/genetlink.h>
#include "ssdt.h"

static const char *const ssdt_state_names[] = {
	[SSDT_NEW]		= "new",
	[SSDT_LIVE]		= "live",
	[SSDT_RESETTING]	= "resetting",
	[SSDT_DEAD]		= "dead",
};

const char *ssdt_state_name(enum ssdt_state state)
{
	if (state >= ARRAY_SIZE(ssdt_state_names))
		return "unknown";
	return ssdt_state_names[state];
}

enum { SSDT_NL_EVENTS };

/*
 * Events carry timeouts, resets, knob values and SMART warnings, which the
 * stock driver leaves in the kernel log (root only on Debian): only
 * CAP_NET_ADMIN may listen, as only it may send FORMAT.
 */
static const struct genl_multicast_group ssdt_nl_mcgrps[] = {
	[SSDT_NL_EVENTS] = SSDT_MCGRP_ADMIN(SSDTUNE_GENL_MCGRP_EVENTS),
};

struct genl_family ssdt_nl_family __ro_after_init = {
	.name		= SSDTUNE_GENL_NAME,
	.version	= SSDTUNE_GENL_VERSION,
	.module		= THIS_MODULE,
	.mcgrps		= ssdt_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(ssdt_nl_mcgrps),
};

int ssdt_nl_put_ident(struct sk_buff *skb, struct ssdt_ctrl *ctrl)
{
	if (nla_put_u32(skb, SSDTUNE_A_CTRL, ctrl->instance) ||
	    nla_put_string(skb, SSDTUNE_A_PCI_ADDR, pci_name(ctrl->pdev)) ||
	    nla_put_string(skb, SSDTUNE_A_STATE,
			   ssdt_state_name(READ_ONCE(ctrl->state))))
		return -EMSGSIZE;
	return 0;
}

/* An event about @ctrl; @fill adds the attributes particular to it. */
static void ssdt_nl_event(struct ssdt_ctrl *ctrl, enum ssdtune_event event,
			  int (*fill)(struct sk_buff *skb, const void *arg),
			  const void *arg, gfp_t gfp)
{
	struct sk_buff *skb;
	void *hdr;

	if (!genl_has_listeners(&ssdt_nl_family, &init_net, SSDT_NL_EVENTS))
		return;
	skb = genlmsg_new(NLMSG_GOODSIZE, gfp);
	if (!skb)
		return;
	hdr = genlmsg_put(skb, 0, 0, &ssdt_nl_family, 0, SSDTUNE_CMD_EVENT);
	if (!hdr)
		goto free;
	if (nla_put_u32(skb, SSDTUNE_A_EVENT, event) ||
	    nla_put_u64_64bit(skb, SSDTUNE_A_TIME_NS, ktime_get_boottime_ns(),
			      SSDTUNE_A_PAD) ||
	    ssdt_nl_put_ident(skb, ctrl) || (fill && fill(skb, arg)))
		goto free;
	genlmsg_end(skb, hdr);
	genlmsg_multicast(&ssdt_nl_family, skb, 0, SSDT_NL_EVENTS, gfp);
	return;
free:
	nlmsg_free(skb);
}

void ssdt_nl_notify(struct ssdt_ctrl *ctrl, enum ssdtune_event event)
{
	ssdt_nl_event(ctrl, event, NULL, NULL, GFP_KERNEL);
}

struct ssdt_nl_knob {
	const char *name;
	const char *value;
};

static int ssdt_nl_fill_knob(struct sk_buff *skb, const void *arg)
{
	const struct ssdt_nl_knob *k = arg;

	if (nla_put_string(skb, SSDTUNE_A_KNOB, k->name) ||
	    nla_put_string(skb, SSDTUNE_A_VALUE, k->value))
		return -EMSGSIZE;
	return 0;
}

void ssdt_nl_notify_knob(struct ssdt_ctrl *ctrl, const char *name,
			 const char *value)
{
	struct ssdt_nl_knob k = { .name = name, .value = value };

	ssdt_nl_event(ctrl, SSDTUNE_EVENT_KNOB, ssdt_nl_fill_knob, &k,
		      GFP_KERNEL);
}

struct ssdt_nl_timeout {
	u32 qid, tag;
};

static int ssdt_nl_fill_timeout(struct sk_buff *skb, const void *arg)
{
	const struct ssdt_nl_timeout *t = arg;

	if (nla_put_u32(skb, SSDTUNE_A_QUEUE, t->qid) ||
	    nla_put_u32(skb, SSDTUNE_A_TAG, t->tag))
		return -EMSGSIZE;
	return 0;
}

/*
 * From the timeout handler (blk-mq's timeout work): GFP_ATOMIC, so the
 * event never waits on memory reclaim while the device is stuck.
 */
void ssdt_nl_notify_timeout(struct ssdt_ctrl *ctrl, u32 qid, u32 tag)
{
	struct ssdt_nl_timeout t = { .qid = qid, .tag = tag };

	ssdt_nl_event(ctrl, SSDTUNE_EVENT_TIMEOUT, ssdt_nl_fill_timeout, &t,
		      GFP_ATOMIC);
}

static int ssdt_nl_fill_async(struct sk_buff *skb, const void *arg)
{
	const struct ssdt_nl_async *ev = arg;

	if (nla_put_u32(skb, SSDTUNE_A_AE_TYPE, ev->type) ||
	    nla_put_u32(skb, SSDTUNE_A_AE_INFO, ev->info) ||
	    nla_put_u32(skb, SSDTUNE_A_AE_LOG, ev->lid))
		return -EMSGSIZE;
	if (ev->have_smart &&
	    (nla_put_u32(skb, SSDTUNE_A_CRIT_WARNING, ev->crit_warning) ||
	     nla_put_u32(skb, SSDTUNE_A_TEMP_K, ev->temp_k)))
		return -EMSGSIZE;
	return 0;
}

/* From the event work (ssdt_aer.c). */
void ssdt_nl_notify_async(struct ssdt_ctrl *ctrl, const struct ssdt_nl_async *ev)
{
	ssdt_nl_event(ctrl, SSDTUNE_EVENT_ASYNC, ssdt_nl_fill_async, ev,
		      GFP_KERNEL);
}
