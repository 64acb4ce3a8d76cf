/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * ssdtune: names shared by the ssdtune.ko driver and the ssdtune tool.
 */
#ifndef _UAPI_LINUX_SSDTUNE_H
#define _UAPI_LINUX_SSDTUNE_H

#define SSDTUNE_VERSION		"0.1.0"

/* PCI driver name: /sys/bus/pci/drivers/ssdtune */
#define SSDTUNE_DRV_NAME	"ssdtune"
/* Device class: /sys/class/ssdtune/ssdtN */
#define SSDTUNE_CLASS_NAME	"ssdtune"
/* Controller ssdtN, disks ssdtNnM (/dev/ssdtNnM) */
#define SSDTUNE_CTRL_PREFIX	"ssdt"
/* Its queues: /sys/class/ssdtune/ssdtN/queues/qK (ssdtune_knobs.h) */
#define SSDTUNE_QUEUES_DIR	"queues"
#define SSDTUNE_QUEUE_PREFIX	"q"

/*
 * Generic netlink family SSDTUNE_GENL_NAME.  SSDTUNE_CMD_GET_CTRL is a dump
 * (one message per controller, any user may ask); the driver multicasts
 * SSDTUNE_CMD_EVENT messages to the group SSDTUNE_GENL_MCGRP_EVENTS.
 * SSDTUNE_CMD_FORMAT formats one namespace keeping its LBA format (the
 * data is gone; it answers with an ack or an errno).
 * Attributes only ever get added at the end of each enum.
 */
#define SSDTUNE_GENL_NAME		"ssdtune"
#define SSDTUNE_GENL_VERSION		1
#define SSDTUNE_GENL_MCGRP_EVENTS	"events"

enum ssdtune_cmd {
	SSDTUNE_CMD_UNSPEC,
	SSDTUNE_CMD_GET_CTRL,	/* dump: identity, state, per-queue counters */
	SSDTUNE_CMD_EVENT,	/* notification on the events group */
	SSDTUNE_CMD_FORMAT,	/* CTRL, NSID, SES: Format NVM (CAP_SYS_ADMIN) */
	__SSDTUNE_CMD_MAX,
};

#define SSDTUNE_CMD_MAX (__SSDTUNE_CMD_MAX - 1)

/* SSDTUNE_A_EVENT values */
enum ssdtune_event {
	SSDTUNE_EVENT_UNSPEC,
	SSDTUNE_EVENT_ATTACHED,		/* probe done, disks added */
	SSDTUNE_EVENT_DETACHED,		/* remove done */
	SSDTUNE_EVENT_TIMEOUT,		/* an I/O timed out: QUEUE, TAG */
	SSDTUNE_EVENT_RESET,		/* controller reset started */
	SSDTUNE_EVENT_RESET_DONE,	/* ... and finished: STATE says how */
	SSDTUNE_EVENT_DEAD,		/* gone or failed: I/O fails */
	SSDTUNE_EVENT_KNOB,		/* a sysfs knob was written: KNOB, VALUE */
	SSDTUNE_EVENT_ASYNC,		/* an NVMe asynchronous event: AE_* */
	__SSDTUNE_EVENT_MAX,
};

#define SSDTUNE_EVENT_MAX (__SSDTUNE_EVENT_MAX - 1)

enum ssdtune_attr {
	SSDTUNE_A_UNSPEC,
	SSDTUNE_A_PAD,
	SSDTUNE_A_CTRL,		/* u32: N of ssdtN */
	SSDTUNE_A_PCI_ADDR,	/* string: 0000:41:00.0 */
	SSDTUNE_A_STATE,	/* string: new, live, resetting, dead */
	SSDTUNE_A_EVENT,	/* u32: enum ssdtune_event */
	SSDTUNE_A_TIME_NS,	/* u64: CLOCK_BOOTTIME of the event */
	SSDTUNE_A_KNOB,		/* string: sysfs file name */
	SSDTUNE_A_VALUE,	/* string: the value written (trimmed) */
	SSDTUNE_A_QUEUE,	/* u32: queue id of a TIMEOUT */
	SSDTUNE_A_TAG,		/* u32: tag of a TIMEOUT */
	SSDTUNE_A_MODEL,	/* string */
	SSDTUNE_A_SERIAL,	/* string */
	SSDTUNE_A_QUEUES,	/* nested: one SSDTUNE_A_QSTATS per I/O queue */
	SSDTUNE_A_QSTATS,	/* nested: SSDTUNE_Q_* */
	SSDTUNE_A_NSID,		/* u32: namespace id of a FORMAT */
	SSDTUNE_A_SES,		/* u32: enum ssdtune_ses of a FORMAT */
	SSDTUNE_A_AE_TYPE,	/* u32: asynchronous event type (0 error, */
				/*      1 SMART/health, 2 notice, ...) */
	SSDTUNE_A_AE_INFO,	/* u32: asynchronous event information */
	SSDTUNE_A_AE_LOG,	/* u32: the log page the event names */
	SSDTUNE_A_CRIT_WARNING,	/* u32: SMART critical warning bits */
	SSDTUNE_A_TEMP_K,	/* u32: composite temperature, kelvin */
	__SSDTUNE_A_MAX,
};

#define SSDTUNE_A_MAX (__SSDTUNE_A_MAX - 1)

/* SSDTUNE_A_SES: Format NVM's Secure Erase Settings */
enum ssdtune_ses {
	SSDTUNE_SES_NONE,	/* no secure erase */
	SSDTUNE_SES_USER_DATA,	/* user data erase */
	SSDTUNE_SES_CRYPTO,	/* cryptographic erase (FNA bit 2) */
};

enum ssdtune_queue_attr {
	SSDTUNE_Q_UNSPEC,
	SSDTUNE_Q_PAD,
	SSDTUNE_Q_ID,		/* u32: queue id (1..) */
	SSDTUNE_Q_IRQ,		/* u32: Linux IRQ number of its vector */
	SSDTUNE_Q_SUBMITTED,	/* u64 */
	SSDTUNE_Q_COMPLETED,	/* u64: reaped in the interrupt handler */
	SSDTUNE_Q_INTERRUPTS,	/* u64 */
	SSDTUNE_Q_POLLED,	/* u64: reaped outside it */
	SSDTUNE_Q_RETRIES,	/* u64: failed, sent again (max_retries) */
	SSDTUNE_Q_STALE,	/* u64: completions of an earlier use of a tag */
	__SSDTUNE_Q_MAX,
};

#define SSDTUNE_Q_MAX (__SSDTUNE_Q_MAX - 1)

/*
 * The files of /sys/class/ssdtune/ssdtN: their names, and the knobs' words
 * and ranges, are in ssdtune_knobs.h, one table for the driver and the
 * tool.
 */
#define SSDTUNE_COALESCE_MAX_THRESHOLD	256	/* completions */
#define SSDTUNE_COALESCE_MAX_TIME_US	25500	/* feature 0x08: 255 x 100 us */
#define SSDTUNE_POWER_MAX_MW		1000000	/* 1 kW */
/* poll_queues: as many as the module parameter of the same name allows */
#define SSDTUNE_POLL_QUEUES_MAX		64
/* apst_max_latency_us: a state's exit latency, at most 100 s; 0: off */
#define SSDTUNE_APST_MAX_LATENCY_US	100000000
/* what apst_max_latency_us reads on a controller without APST */
#define SSDTUNE_APST_UNSUPPORTED	"unsupported"
/* power_limit_mode reads "off" while no limit is active; never written */
#define SSDTUNE_POWER_MODE_OFF		"off"

#endif /* _UAPI_LINUX_SSDTUNE_H */
