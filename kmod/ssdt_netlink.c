// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune: generic netlink family "ssdtune" (include/uapi/linux/ssdtune.h).
 *
 * GET_CTRL dumps every controller: identity, state and the per-queue
 * counters that sysfs shows one file at a time, in one consistent-enough
 * read (each counter is read once; they are not snapshotted together).
 * Events (attach, detach, timeout, reset, reset done, dead, knob writes)
 * go to the multicast group "events", which only CAP_NET_ADMIN may join;
 * with no listener they cost one genl_has_listeners() test and allocate
 * nothing.
 */
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/wait_bit.h>
#include <net/genetlink.h>
#include "ssdt.h"

/* Controllers for the dump: added when probe is done, gone before free. */
static LIST_HEAD(ssdt_ctrls);
static DEFINE_MUTEX(ssdt_ctrls_lock);

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

static const struct nla_policy ssdt_nl_policy[SSDTUNE_A_MAX + 1] = {
	[SSDTUNE_A_CTRL] = { .type = NLA_U32 },
	[SSDTUNE_A_NSID] = { .type = NLA_U32 },
	[SSDTUNE_A_SES] = { .type = NLA_U32 },
};

enum { SSDT_NL_EVENTS };

/*
 * Events carry timeouts, resets, knob values and SMART warnings, which the
 * stock driver leaves in the kernel log (root only on Debian): only
 * CAP_NET_ADMIN may listen, as only it may send FORMAT.
 */
static const struct genl_multicast_group ssdt_nl_mcgrps[] = {
	[SSDT_NL_EVENTS] = SSDT_MCGRP_ADMIN(SSDTUNE_GENL_MCGRP_EVENTS),
};

static struct genl_family ssdt_nl_family;

static int ssdt_nl_put_ident(struct sk_buff *skb, struct ssdt_ctrl *ctrl)
{
	if (nla_put_u32(skb, SSDTUNE_A_CTRL, ctrl->instance) ||
	    nla_put_string(skb, SSDTUNE_A_PCI_ADDR, pci_name(ctrl->pdev)) ||
	    nla_put_string(skb, SSDTUNE_A_STATE,
			   ssdt_state_name(READ_ONCE(ctrl->state))))
		return -EMSGSIZE;
	return 0;
}

static int ssdt_nl_put_queue(struct sk_buff *skb, struct ssdt_queue *q)
{
	struct nlattr *nest = nla_nest_start(skb, SSDTUNE_A_QSTATS);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, SSDTUNE_Q_ID, q->qid) ||
	    nla_put_u32(skb, SSDTUNE_Q_IRQ, q->irq < 0 ? 0 : q->irq) ||
	    nla_put_u64_64bit(skb, SSDTUNE_Q_SUBMITTED, READ_ONCE(q->submitted),
			      SSDTUNE_Q_PAD) ||
	    nla_put_u64_64bit(skb, SSDTUNE_Q_COMPLETED, READ_ONCE(q->completed),
			      SSDTUNE_Q_PAD) ||
	    nla_put_u64_64bit(skb, SSDTUNE_Q_INTERRUPTS,
			      READ_ONCE(q->interrupts), SSDTUNE_Q_PAD) ||
	    nla_put_u64_64bit(skb, SSDTUNE_Q_POLLED, READ_ONCE(q->polled),
			      SSDTUNE_Q_PAD) ||
	    nla_put_u64_64bit(skb, SSDTUNE_Q_RETRIES, atomic64_read(&q->retried),
			      SSDTUNE_Q_PAD) ||
	    nla_put_u64_64bit(skb, SSDTUNE_Q_STALE,
			      READ_ONCE(q->stale_completions), SSDTUNE_Q_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * One message about @ctrl with the counters of its I/O queues from index
 * *@first on, as many as fit; *@first is then where the next message
 * starts.  A controller with more queues than one message holds takes
 * several, each with the controller's attributes (the tool merges them).
 */
static int ssdt_nl_fill_ctrl(struct sk_buff *skb, struct ssdt_ctrl *ctrl,
			     u32 portid, u32 seq, unsigned int *first)
{
	struct nlattr *queues;
	unsigned int i, last = ctrl->nr_io;
	void *hdr;

	if (ssdt_debug_nl_queues_per_msg())	/* debug: force pages */
		last = min(last, *first + ssdt_debug_nl_queues_per_msg());
	hdr = genlmsg_put(skb, portid, seq, &ssdt_nl_family, NLM_F_MULTI,
			  SSDTUNE_CMD_GET_CTRL);
	if (!hdr)
		return -EMSGSIZE;
	if (ssdt_nl_put_ident(skb, ctrl) ||
	    nla_put_string(skb, SSDTUNE_A_MODEL, ctrl->model) ||
	    nla_put_string(skb, SSDTUNE_A_SERIAL, ctrl->serial))
		goto cancel;
	queues = nla_nest_start(skb, SSDTUNE_A_QUEUES);
	if (!queues)
		goto cancel;
	for (i = *first; i < last; i++)
		if (ssdt_nl_put_queue(skb, ctrl->ioq[i]))
			break;
	if (i == *first && i < ctrl->nr_io)
		goto cancel;		/* not one fits: the next buffer */
	nla_nest_end(skb, queues);
	genlmsg_end(skb, hdr);
	*first = i;
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* cb->args[0]: controllers already sent; [1]: its queues already sent. */
static int ssdt_nl_dump_ctrl(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned int first = cb->args[1];
	struct ssdt_ctrl *ctrl;
	long idx = 0;

	mutex_lock(&ssdt_ctrls_lock);
	list_for_each_entry(ctrl, &ssdt_ctrls, nl_node) {
		if (idx < cb->args[0]) {
			idx++;
			continue;
		}
		do {
			if (ssdt_nl_fill_ctrl(skb, ctrl, NETLINK_CB(cb->skb).portid,
					      cb->nlh->nlmsg_seq, &first))
				goto full;
		} while (first < ctrl->nr_io);
		idx++;
		first = 0;
	}
full:
	mutex_unlock(&ssdt_ctrls_lock);
	cb->args[0] = idx;
	cb->args[1] = first;
	return skb->len;
}

/*
 * FORMAT: ssdtN's namespace NSID with secure erase setting SES.  The
 * controller is pinned (nl_users), not the list: a format of one
 * controller holds up neither the others nor a dump; its removal waits.
 */
static int ssdt_nl_format(struct sk_buff *skb, struct genl_info *info)
{
	struct ssdt_ctrl *ctrl = NULL, *c;
	u32 idx, nsid, ses;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (!info->attrs[SSDTUNE_A_CTRL] || !info->attrs[SSDTUNE_A_NSID] ||
	    !info->attrs[SSDTUNE_A_SES])
		return -EINVAL;
	idx = nla_get_u32(info->attrs[SSDTUNE_A_CTRL]);
	nsid = nla_get_u32(info->attrs[SSDTUNE_A_NSID]);
	ses = nla_get_u32(info->attrs[SSDTUNE_A_SES]);
	mutex_lock(&ssdt_ctrls_lock);
	list_for_each_entry(c, &ssdt_ctrls, nl_node) {
		if ((u32)c->instance == idx) {
			ctrl = c;
			atomic_inc(&ctrl->nl_users);
			break;
		}
	}
	mutex_unlock(&ssdt_ctrls_lock);
	if (!ctrl)
		return -ENODEV;
	ret = ssdt_ns_format(ctrl, nsid, ses);
	if (atomic_dec_and_test(&ctrl->nl_users))
		wake_up_var(&ctrl->nl_users);
	return ret;
}

static const struct genl_small_ops ssdt_nl_ops[] = {
	{
		.cmd	= SSDTUNE_CMD_GET_CTRL,
		.dumpit	= ssdt_nl_dump_ctrl,
	},
	{
		.cmd	= SSDTUNE_CMD_FORMAT,
		.doit	= ssdt_nl_format,
		.flags	= GENL_ADMIN_PERM,
	},
};

static struct genl_family ssdt_nl_family __ro_after_init = {
	.name		= SSDTUNE_GENL_NAME,
	.version	= SSDTUNE_GENL_VERSION,
	.maxattr	= SSDTUNE_A_MAX,
	.policy		= ssdt_nl_policy,
	.module		= THIS_MODULE,
	.small_ops	= ssdt_nl_ops,
	.n_small_ops	= ARRAY_SIZE(ssdt_nl_ops),
	.resv_start_op	= SSDTUNE_CMD_FORMAT,	/* strict checks from here on */
	/*
	 * Without it every command runs under genl_mutex, and a FORMAT that
	 * waits up to format_timeout would hold up our dumps and every
	 * generic netlink family that shares the mutex, nlctrl's family
	 * lookups included.  The commands lock for themselves
	 * (ssdt_ctrls_lock, nl_users).
	 */
	.parallel_ops	= true,
	.mcgrps		= ssdt_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(ssdt_nl_mcgrps),
};

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

void ssdt_nl_add_ctrl(struct ssdt_ctrl *ctrl)
{
	mutex_lock(&ssdt_ctrls_lock);
	list_add_tail(&ctrl->nl_node, &ssdt_ctrls);
	mutex_unlock(&ssdt_ctrls_lock);
	ssdt_nl_notify(ctrl, SSDTUNE_EVENT_ATTACHED);
}

/* Off the list, and no netlink command works on @ctrl any more. */
void ssdt_nl_del_ctrl(struct ssdt_ctrl *ctrl)
{
	mutex_lock(&ssdt_ctrls_lock);
	list_del(&ctrl->nl_node);
	mutex_unlock(&ssdt_ctrls_lock);
	wait_var_event(&ctrl->nl_users, !atomic_read(&ctrl->nl_users));
}

int ssdt_nl_register(void)
{
	return genl_register_family(&ssdt_nl_family);
}

void ssdt_nl_unregister(void)
{
	genl_unregister_family(&ssdt_nl_family);
}
