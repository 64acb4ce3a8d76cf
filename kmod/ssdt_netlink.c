// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune: the commands of the generic netlink family "ssdtune"
 * (include/uapi/linux/ssdtune.h); its events are ssdt_event.c's.
 *
 * GET_CTRL dumps every controller: identity, state and the per-queue
 * counters that sysfs shows one file at a time, in one consistent-enough
 * read (each counter is read once; they are not snapshotted together).
 * FORMAT formats one namespace (CAP_SYS_ADMIN).
 */
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/wait_bit.h>
#include <net/genetlink.h>
#include "ssdt.h"

/* Controllers for the dump: added when probe is done, gone before free. */
static LIST_HEAD(ssdt_ctrls);
static DEFINE_MUTEX(ssdt_ctrls_lock);

/*
 * What a request may carry; the rest of enum ssdtune_attr is output.  The
 * ranges are checked before the handler runs, and the kernel's extended
 * ack names the attribute: namespace id 0 is none (FFFFFFFFh, all, is the
 * handler's to refuse), SES one of enum ssdtune_ses.  A controller index
 * is any u32: the handler looks it up.
 */
static const struct nla_policy ssdt_nl_policy[SSDTUNE_A_MAX + 1] = {
	[SSDTUNE_A_CTRL] = { .type = NLA_U32 },
	[SSDTUNE_A_NSID] = NLA_POLICY_MIN(NLA_U32, 1),
	[SSDTUNE_A_SES] = NLA_POLICY_MAX(NLA_U32, SSDTUNE_SES_CRYPTO),
};

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

/*
 * The commands complete the family that ssdt_event.c defines for its
 * events, and register it: from module init, before the family becomes
 * read-only.
 */
int ssdt_nl_register(void)
{
	ssdt_nl_family.maxattr = SSDTUNE_A_MAX;
	ssdt_nl_family.policy = ssdt_nl_policy;
	ssdt_nl_family.small_ops = ssdt_nl_ops;
	ssdt_nl_family.n_small_ops = ARRAY_SIZE(ssdt_nl_ops);
	/* strict attribute checks from FORMAT on */
	ssdt_nl_family.resv_start_op = SSDTUNE_CMD_FORMAT;
	/*
	 * Without it every command runs under genl_mutex, and a FORMAT that
	 * waits up to format_timeout would hold up our dumps and every
	 * generic netlink family that shares the mutex, nlctrl's family
	 * lookups included.  The commands lock for themselves
	 * (ssdt_ctrls_lock, nl_users).
	 */
	ssdt_nl_family.parallel_ops = true;
	return genl_register_family(&ssdt_nl_family);
}

void ssdt_nl_unregister(void)
{
	genl_unregister_family(&ssdt_nl_family);
}
