/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdtune: a blk-mq driver for NVMe PCIe controllers with steerable
 * interrupt vectors.  Shared definitions.
 */
#ifndef SSDT_H
#define SSDT_H

#include <linux/blk-mq.h>
#include <linux/completion.h>
#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/irqreturn.h>
#include <linux/dmapool.h>
#include <linux/kobject.h>
#include <linux/kref.h>
#include <linux/mempool.h>
#include <linux/mutex.h>
#include <linux/nvme.h>
#include <linux/pci.h>
#include <linux/rwsem.h>
#include <linux/scatterlist.h>
#include <linux/semaphore.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include "ssdt_coalesce.h"
#include "ssdt_hmb.h"
#include "ssdt_compat.h"
#include <linux/ssdtune.h>
#include "ssdt_knob.h"
#include "ssdt_power_dev.h"
#include "ssdt_prp.h"
#include "ssdt_quirks.h"
#include "ssdt_rules.h"

#define SSDT_NAME		"ssdtune"
#define SSDT_PAGE_SIZE		4096u
#define SSDT_ADMIN_DEPTH	32
/*
 * Segments of a request: 128 pages that are not contiguous make 512 KiB;
 * contiguous memory (huge pages) makes longer segments, up to the
 * transfer size.  SSDT_MAX_XFER is stock's NVME_MAX_KB_SZ (4 MiB), which
 * MDTS and the DMA mapping limit lower.  Its PRP entries (1025 when the
 * buffer starts within a page) take three chained list pages
 * (ssdt_prp_list_pages(); the static_assert in ssdt_blk.c).
 */
#define SSDT_MAX_SEGS		128
#define SSDT_MAX_XFER		(4096u * 1024)	/* bytes, before MDTS */
#define SSDT_MAX_PRP_LISTS	3
#define SSDT_MAX_NS		16
#define SSDT_MAX_POLL_QUEUES	SSDTUNE_POLL_QUEUES_MAX
#define SSDT_MAX_CTRLS		1024	/* minors of /dev/ssdtN */

enum ssdt_state {
	SSDT_NEW,
	SSDT_LIVE,
	SSDT_RESETTING,
	SSDT_DEAD,		/* gone or failed: every I/O fails at once */
};

struct ssdt_ctrl;

/* What Get Features SEL=3 says about a feature (ordered: min() combines). */
enum ssdt_feat_cap {
	SSDT_CAP_UNKNOWN,		/* the controller did not answer SEL=3 */
	SSDT_CAP_FIXED,
	SSDT_CAP_CHANGEABLE,
};

/* Shadow doorbells, as the sysfs file shadow_doorbells shows them. */
enum ssdt_dbbuf_state {
	SSDT_DBBUF_UNSUPPORTED,		/* no OACS bit 8, or too many queues */
	SSDT_DBBUF_OFF,			/* module parameter shadow_doorbells=N */
	SSDT_DBBUF_REFUSED,		/* the command failed: MMIO doorbells */
	SSDT_DBBUF_ON,
};

/* Completion slot of a synchronous or fire-and-forget admin command. */
struct ssdt_admin_slot {
	struct completion *waiter;	/* NULL: nobody waits (abort) */
	struct nvme_completion cqe;
	bool busy;
	bool inflight;			/* posted, no completion seen yet */
	u8 gen;				/* generation in the command id */
	bool aer;			/* an Asynchronous Event Request */
	bool abort;			/* an Abort: counts in aborts_left */
};

/*
 * One submission/completion queue pair.  Three groups, each starting a
 * cache line: what is set when the queue is created and then only read;
 * the submission side (sq_lock, taken by whichever CPU submits); the
 * completion side (cq_lock, the queue's interrupt, its moderation timer,
 * ->poll, a timeout).  So a CPU submitting does not bounce the line the
 * interrupt handler writes, and the other way round.
 */
struct ssdt_queue {
	struct ssdt_ctrl *ctrl;
	u16 qid;			/* 0: admin */
	u16 depth;
	u16 vector;			/* PCI vector index serving the CQ */
	int irq;			/* Linux IRQ of that vector, -1: none */
	bool poll;			/* a poll queue: blk-mq's ->poll */
	bool live;
	struct blk_mq_tags *tags;	/* I/O queues only */
	struct nvme_command *sqes;
	dma_addr_t sq_dma;
	struct nvme_completion *cqes;
	dma_addr_t cq_dma;
	u32 __iomem *sq_db;
	u32 __iomem *cq_db;
	/* Shadow doorbell slots (ssdt_dbbuf_dev.c), NULL: MMIO doorbells only. */
	__le32 *dbbuf_sq_db;
	__le32 *dbbuf_sq_ei;
	__le32 *dbbuf_cq_db;
	__le32 *dbbuf_cq_ei;
	/* Host moderation (ssdt_coalesce_dev.c); knobs written live, READ_ONCE. */
	u32 mod_threshold;		/* adaptive: the ceiling */
	u32 mod_time_us;		/* 0: no moderation; adaptive: ceiling */
	bool mod_adaptive;

	/* Submission side. */
	spinlock_t sq_lock ____cacheline_aligned_in_smp;
	u16 sq_tail;
	u16 last_sq_tail;		/* tail last rung or put in the shadow */
	u64 submitted;			/* counter for sysfs queues/qK/ */

	/* Completion side. */
	spinlock_t cq_lock ____cacheline_aligned_in_smp;
	u16 cq_head;
	u8 cq_phase;
	bool mod_masked;		/* vector masked, timer polls */
	u64 mod_start_ns;		/* start of the window */
	struct ssdt_mod_est mod_est;	/* adaptive estimate */
	u64 completed;			/* counters for sysfs queues/qK/ */
	u64 interrupts;
	u64 polled;
	u64 mod_lost;			/* submitted, never to complete (reset) */
	atomic64_t retried;		/* error completions sent again */
	u64 stale_completions;		/* of an earlier use of a tag: dropped */
	struct hrtimer mod_timer;

	struct kobject kobj;		/* queues/qK */
	bool kobj_init;
};

struct ssdt_ns {
	struct ssdt_ctrl *ctrl;
	u32 nsid;
	u8 lba_shift;
	u8 lbaf;			/* LBA format index in force */
	u64 nsze;			/* in logical blocks */
	u8 eui64[8];			/* identifiers at attach (rescans) */
	u8 nguid[16];
	struct gendisk *disk;		/* NULL: no namespace (now) */
	bool used;			/* until the disk is freed (ssdt_ns.c) */
};

enum ssdt_scan_state {
	SSDT_SCAN_OFF,			/* probe's scan has not ended */
	SSDT_SCAN_ON,			/* rescans run */
	SSDT_SCAN_STOPPED,		/* removal: never again */
};

/*
 * Scatter list of a request the single-segment fast path does not take
 * (more than one segment, or one beyond two pages), from ctrl->sgl_pool
 * while the request is mapped.  Kept out of the PDU, which blk-mq
 * allocates for every tag of every queue (3 KiB each otherwise).
 */
struct ssdt_sgl {
	struct scatterlist sg[SSDT_MAX_SEGS];
	struct ssdt_seg segs[SSDT_MAX_SEGS];	/* sg as the PRP math sees it */
};

/* Per-request driver data (blk_mq_rq_to_pdu). */
struct ssdt_iod {
	struct nvme_command cmd;
	struct ssdt_queue *q;
	u16 nvme_status;		/* status field of the CQE, phase dropped */
	u64 result;			/* passthrough: the CQE's result */
	bool aborted;			/* an Abort was sent for it */
	bool requeue;			/* cancelled by a reset: retry */
	bool reaped;			/* its completion was seen */
	u8 retries;
	u8 gen;				/* generation in the command id */
	int nents;			/* sg entries DMA-mapped, 0: none */
	u32 bvec_len;			/* bytes mapped at bvec_dma, 0: none */
	dma_addr_t bvec_dma;		/* single-segment fast path's mapping */
	u32 nlists;
	__le64 *lists[SSDT_MAX_PRP_LISTS];
	dma_addr_t list_dma[SSDT_MAX_PRP_LISTS];
	struct ssdt_sgl *sgl;		/* off the fast path only */
	struct ssdt_power_rq pw;		/* host power throttle */
};

struct ssdt_ctrl {
	struct kref ref;		/* probe, each disk, each open /dev/ssdtN */
	struct pci_dev *pdev;
	int instance;			/* N of ssdtN */
	int node;			/* NUMA node of the device */
	void __iomem *bar;
	u64 cap;
	u32 vs;				/* version register: NVME_VS() */
	u32 quirks;			/* SSDT_QUIRK_* (ssdt_quirks.h) */
	u32 db_stride;			/* bytes between doorbells */
	u32 ctrl_config;		/* CC value while enabled */
	unsigned long ready_timeout;	/* jiffies, from CAP.TO and CRTO */
	unsigned int shutdown_s;	/* normal shutdown's wait, from RTD3E */
	u16 crdt[3];			/* Command Retry Delay Times, 100 ms */

	enum ssdt_state state;
	bool removing;			/* remove() runs: no more resets */
	bool fenced;			/* stopped by an admin timeout */
	bool paused;			/* PCI reset or sleep: halted */
	unsigned int resets;		/* halts so far (under state_lock) */
	spinlock_t state_lock;
	struct work_struct reset_work;
	struct mutex dev_mutex;		/* reset, removal, shutdown */

	struct ssdt_queue *admin;
	struct ssdt_admin_slot slots[SSDT_ADMIN_DEPTH - 1];
	spinlock_t slot_lock;		/* slots[].busy and .waiter */
	struct semaphore slot_sem;	/* counts free slots */
	atomic_t aborts_left;		/* Aborts that may go: ACL + 1 */

	struct ssdt_queue **ioq;	/* ioq[0] is qid 1 */
	unsigned int nr_io;		/* I/O queues: nr_irq_io, then nr_poll */
	unsigned int nr_irq_io;		/* with a vector: HCTX_TYPE_DEFAULT */
	unsigned int nr_poll;		/* without: HCTX_TYPE_POLL, the last */
	unsigned int nr_vecs;
	bool single_vector;		/* one vector serves every queue */
	u16 io_depth;

	struct blk_mq_tag_set tagset;
	bool tagset_ready;
	struct dma_pool *prp_pool;
	mempool_t *sgl_pool;		/* struct ssdt_sgl */

	enum ssdt_dbbuf_state dbbuf;	/* shadow doorbells (ssdt_dbbuf_dev.c) */
	__le32 *dbbuf_dbs;		/* shadow tails and heads, one page */
	__le32 *dbbuf_eis;		/* event indexes, one page */
	dma_addr_t dbbuf_dbs_dma;
	dma_addr_t dbbuf_eis_dma;

	struct ssdt_ns ns[SSDT_MAX_NS];
	unsigned int nr_ns;		/* slots in use are below this */
	struct mutex scan_mutex;	/* scans, and scan_state changes */
	struct work_struct scan_work;	/* a rescan (ssdt_ns.c) */
	spinlock_t scan_lock;		/* scan_state, scan_pending */
	enum ssdt_scan_state scan_state;
	bool scan_pending;		/* a rescan was asked for */

	/* Identify Controller fields shown in sysfs */
	char model[41];
	char serial[21];
	char firmware[9];
	u32 max_xfer;			/* bytes per request */
	u32 max_zeroes_sectors;		/* per Write Zeroes (WZSL), 0: transfer */
	u32 dmrsl;			/* blocks per DSM range, 0: no limit */
	u8 dmrl;			/* ranges per DSM, 0: no limit */
	u16 oncs;
	u16 oacs;
	u8 fna;				/* Format NVM attributes */
	u16 wctemp;			/* warning temperature, K; 0: none */
	u32 oaes;			/* optional asynchronous events */
	u16 mtfa;			/* max firmware activation, 100 ms */
	struct work_struct fw_act_work;	/* ssdt_fwact.c */
	u8 aerl;			/* event requests allowed - 1 */
	u8 vwc;
	u8 npss;			/* power states - 1 */
	u32 nn;				/* Number of Namespaces (highest ID) */
	struct nvme_id_power_state psd[32];
	u8 apsta;			/* APST supported (Identify) */
	u32 hmpre, hmmin, hmminds;	/* Host Memory Buffer asked, 4 KiB */
	u16 hmmaxd;			/* its most descriptors, 0: any */
	enum ssdt_feat_cap coalesce_cap;	/* features 0x08 and 0x09 */
	enum ssdt_feat_cap power_cap;		/* feature 0x02 */

	struct mutex knob_mutex;	/* coalescing knobs */
	struct ssdt_coalesce coalesce;	/* as set (hw: as the device kept it) */
	enum ssdt_coalesce_mode coalesce_active;	/* off, hw or host */

	struct mutex health_mutex;	/* temperature and power state cache */
	unsigned long temp_stamp;	/* jiffies of temp_mc, 0: never */
	int temp_mc;
	unsigned long ps_stamp;		/* jiffies of ps, 0: not known */
	u8 ps;				/* power state in force */

	/* Asynchronous events (ssdt_aer.c) */
	spinlock_t aer_lock;		/* aer_results, aer_n, aer_stopped */
	struct work_struct aer_work;
	u32 aer_results[8];		/* completed requests' dword 0 */
	unsigned int aer_n;
	bool aer_stopped;

	struct list_head nl_node;	/* ssdt_netlink.c's controller list */
	atomic_t nl_users;		/* netlink commands working on it */
	struct ssdt_powerlimit power;	/* power_limit_* (ssdt_power_dev.c) */

	/* APST (ssdt_apst_dev.c): the apst_max_latency_us knob */
	struct mutex apst_mutex;
	bool apst_on;			/* APST usable: else "unsupported" */
	u32 apst_lat_us;		/* in force; 0: APST off */

	/* Host Memory Buffer (ssdt_hmb_dev.c), under dev_mutex */
	struct ssdt_hmb hmb;		/* the memory, kept across resets */
	bool hmb_on;			/* it may use it; sysfs hmb_bytes: size */

	struct device *cdev;		/* /sys/class/ssdtune/ssdtN */
	struct cdev *chr;		/* /dev/ssdtN (ssdt_ioctl.c) */
	struct rw_semaphore pt_rwsem;	/* passthrough: read; ssdt_chr_del */
	bool pt_gone;			/* no more passthrough */
	struct kobject *queues_kobj;
#ifdef CONFIG_SSDTUNE_DEBUG
	struct dentry *debugfs;
	atomic_t drop_completions;	/* debug: completions to lose */
	atomic_t drop_admin_completions;	/* debug: admin ones */
	atomic_t skip_admin_irqs;	/* debug: admin interrupts to miss */
	atomic_t stale_completions;	/* debug: stale CQEs to replay */
	atomic_t dup_completions;	/* debug: CQEs to deliver twice */
	atomic_t stale_admin_completions;	/* debug: replay the last */
	struct nvme_completion dbg_admin_last;	/* debug: admin CQE before */
	bool dbg_admin_last_set;
	atomic_t fail_completions;	/* debug: completions to fail */
	u16 fail_status;		/* debug: with this status */
	unsigned long dbg_pp_until;	/* debug: CSTS.PP reads set till */
#endif
};

extern struct workqueue_struct *ssdt_wq;	/* resets: WQ_MEM_RECLAIM */
extern unsigned int ssdt_io_timeout;
/* the admin_timeout module parameter: 1..SSDT_ADMIN_TIMEOUT_MAX_S seconds */
#define SSDT_ADMIN_TIMEOUT_MAX_S	3600
extern unsigned int ssdt_admin_timeout;
struct kernel_param;
int ssdt_param_set_uint_range(const char *val, const struct kernel_param *kp,
			      unsigned int min, unsigned int max);
extern unsigned int ssdt_max_io_queues;
extern unsigned int ssdt_poll_queues;
extern unsigned int ssdt_io_queue_depth;
extern unsigned int ssdt_max_retries;
extern unsigned int ssdt_shutdown_timeout;
extern unsigned int ssdt_max_host_mem_mb;
extern struct ssdt_quirk_id ssdt_quirk_ids[];
extern int ssdt_nr_quirk_ids;

void ssdt_shutdown(struct pci_dev *pdev);

/* ssdt_ioctl.c: /dev/ssdtN and the NVMe ioctls (nvme_ioctl.h) */
int ssdt_chr_init(void);
void ssdt_chr_exit(void);
dev_t ssdt_chr_devt(struct ssdt_ctrl *ctrl);
int ssdt_chr_add(struct ssdt_ctrl *ctrl);
void ssdt_chr_del(struct ssdt_ctrl *ctrl);
int ssdt_blk_ioctl(struct block_device *bdev, ssdt_blk_mode_t mode,
		   unsigned int cmd, unsigned long arg);

/*
 * ssdt_debug.c: fault hooks for the lifecycle tests (debugfs), built only
 * with CONFIG_SSDTUNE_DEBUG=y (the test builds: make modules, make
 * check-debug).  A release build (DKMS, the Debian package) has the stubs
 * below: no hook on the completion paths, no debugfs files.
 */
#ifdef CONFIG_SSDTUNE_DEBUG
int ssdt_probe_fault(struct ssdt_ctrl *ctrl, int step, const char *what);
void ssdt_debug_add(struct ssdt_ctrl *ctrl);
void ssdt_debug_remove(struct ssdt_ctrl *ctrl);
void ssdt_debug_init(void);
void ssdt_debug_exit(void);
extern u32 ssdt_nl_queues_per_msg;	/* 0: as many as fit */
extern u32 ssdt_scan_delay_ms;		/* a rescan's delay */

/* A debug counter of completions to lose: true (and one less) when set. */
static inline bool ssdt_debug_drop(atomic_t *left)
{
	return unlikely(atomic_read(left) > 0) && atomic_dec_if_positive(left) >= 0;
}

static inline u16 ssdt_debug_fail_status(struct ssdt_ctrl *ctrl)
{
	return READ_ONCE(ctrl->fail_status);
}

static inline u32 ssdt_debug_nl_queues_per_msg(void)
{
	return READ_ONCE(ssdt_nl_queues_per_msg);
}

/*
 * The stale_admin_completions hook: the admin completion reaped last is
 * kept (ssdt_debug_admin_seen(), reaping is serialised by the admin CQ's
 * lock), and handed back (true, a copy in @old) right after the next
 * command is posted, as a late completion of the earlier command that
 * used the slot.  A debug hook: the test sends one command at a time.
 */
static inline void ssdt_debug_admin_seen(struct ssdt_ctrl *ctrl,
					 const struct nvme_completion *cqe)
{
	ctrl->dbg_admin_last = *cqe;
	/* pairs with ssdt_debug_admin_stale(): the entry, then the flag */
	smp_store_release(&ctrl->dbg_admin_last_set, true);
}

static inline bool ssdt_debug_admin_stale(struct ssdt_ctrl *ctrl,
					  struct nvme_completion *old)
{
	/* pairs with ssdt_debug_admin_seen() */
	if (!smp_load_acquire(&ctrl->dbg_admin_last_set) ||
	    !ssdt_debug_drop(&ctrl->stale_admin_completions))
		return false;
	*old = ctrl->dbg_admin_last;
	return true;
}

/* A firmware activation the fw_act hook plays: CSTS.PP reads set. */
static inline bool ssdt_debug_pp(struct ssdt_ctrl *ctrl)
{
	return time_before(jiffies, READ_ONCE(ctrl->dbg_pp_until));
}

static inline u32 ssdt_debug_scan_delay_ms(void)
{
	return READ_ONCE(ssdt_scan_delay_ms);
}

/* Identify Namespace reads as write protected (NSATTR bit 0) */
extern bool ssdt_dbg_ns_wp;
/* MDTS the next Identify Controller reads instead of the device's (0: its) */
extern u8 ssdt_dbg_mdts;

static inline u8 ssdt_debug_mdts(void)
{
	return READ_ONCE(ssdt_dbg_mdts);
}

static inline bool ssdt_debug_ns_wp(void)
{
	return READ_ONCE(ssdt_dbg_ns_wp);
}

/* APSTA the next bring-ups see set whatever the device says */
extern bool ssdt_dbg_apsta;

static inline bool ssdt_debug_apsta(void)
{
	return READ_ONCE(ssdt_dbg_apsta);
}

/* HMPRE and HMMIN the next bring-ups use instead of the device's (0: its) */
extern u32 ssdt_dbg_hmpre, ssdt_dbg_hmmin;
extern atomic64_t ssdt_dbg_hmb_held;	/* bytes of HMB chunks allocated */

static inline u32 ssdt_debug_hmpre(void)
{
	return READ_ONCE(ssdt_dbg_hmpre);
}

static inline u32 ssdt_debug_hmmin(void)
{
	return READ_ONCE(ssdt_dbg_hmmin);
}

static inline void ssdt_debug_hmb_held(s64 bytes)
{
	atomic64_add(bytes, &ssdt_dbg_hmb_held);
}
#else
static inline int ssdt_probe_fault(struct ssdt_ctrl *ctrl, int step,
				   const char *what)
{
	return 0;
}

static inline void ssdt_debug_add(struct ssdt_ctrl *ctrl) { }
static inline void ssdt_debug_remove(struct ssdt_ctrl *ctrl) { }
static inline void ssdt_debug_init(void) { }
static inline void ssdt_debug_exit(void) { }
/* no counter to name: the argument is not compiled */
#define ssdt_debug_drop(left) false
#define ssdt_debug_fail_status(ctrl) 0
#define ssdt_debug_pp(ctrl) false
static inline void ssdt_debug_admin_seen(struct ssdt_ctrl *ctrl,
					 const struct nvme_completion *cqe) { }
static inline bool ssdt_debug_admin_stale(struct ssdt_ctrl *ctrl,
					  struct nvme_completion *old)
{
	return false;
}

static inline u32 ssdt_debug_nl_queues_per_msg(void) { return 0; }
static inline u32 ssdt_debug_scan_delay_ms(void) { return 0; }
static inline bool ssdt_debug_ns_wp(void) { return false; }
static inline u8 ssdt_debug_mdts(void) { return 0; }
static inline bool ssdt_debug_apsta(void) { return false; }
static inline u32 ssdt_debug_hmpre(void) { return 0; }
static inline u32 ssdt_debug_hmmin(void) { return 0; }
static inline void ssdt_debug_hmb_held(s64 bytes) { }
#endif

/* ssdt_aer.c: asynchronous events */
void ssdt_aer_init(struct ssdt_ctrl *ctrl);
void ssdt_aer_start(struct ssdt_ctrl *ctrl);
void ssdt_aer_stop(struct ssdt_ctrl *ctrl);
void ssdt_aer_repost(struct ssdt_ctrl *ctrl);

/* ssdt_fwact.c: firmware activation holds the I/O while CSTS.PP is set */
void ssdt_fw_act_init(struct ssdt_ctrl *ctrl);
void ssdt_fw_act_start(struct ssdt_ctrl *ctrl);
void ssdt_fw_act_stop(struct ssdt_ctrl *ctrl);

/* An asynchronous event as netlink reports it (SSDTUNE_EVENT_ASYNC). */
struct ssdt_nl_async {
	u8 type, info, lid;
	bool have_smart;		/* crit_warning and temp_k are set */
	u8 crit_warning;
	u16 temp_k;
};

/* ssdt_event.c: the generic netlink family and its events */
struct genl_family;
struct sk_buff;
extern struct genl_family ssdt_nl_family;
void ssdt_nl_notify(struct ssdt_ctrl *ctrl, enum ssdtune_event event);
void ssdt_nl_notify_knob(struct ssdt_ctrl *ctrl, const char *name,
			 const char *value);
void ssdt_nl_notify_timeout(struct ssdt_ctrl *ctrl, u32 qid, u32 tag);
void ssdt_nl_notify_async(struct ssdt_ctrl *ctrl, const struct ssdt_nl_async *ev);
int ssdt_nl_put_ident(struct sk_buff *skb, struct ssdt_ctrl *ctrl);
const char *ssdt_state_name(enum ssdt_state state);

/* ssdt_netlink.c: the family's commands */
int ssdt_nl_register(void);
void ssdt_nl_unregister(void);
void ssdt_nl_add_ctrl(struct ssdt_ctrl *ctrl);
void ssdt_nl_del_ctrl(struct ssdt_ctrl *ctrl);

/* ssdt_core.c: CC/CSTS, the fence, reset requests, the reference count */
u32 ssdt_csts(struct ssdt_ctrl *ctrl);
bool ssdt_ctrl_gone(struct ssdt_ctrl *ctrl);
int ssdt_ctrl_disable(struct ssdt_ctrl *ctrl);
void ssdt_ctrl_read_cap(struct ssdt_ctrl *ctrl);
int ssdt_ctrl_enable(struct ssdt_ctrl *ctrl);
void ssdt_ctrl_shutdown(struct ssdt_ctrl *ctrl);
void ssdt_ctrl_stop_dma(struct ssdt_ctrl *ctrl);
void ssdt_ctrl_fence(struct ssdt_ctrl *ctrl);
void ssdt_schedule_reset(struct ssdt_ctrl *ctrl);
void ssdt_ctrl_get(struct ssdt_ctrl *ctrl);
void ssdt_ctrl_put(struct ssdt_ctrl *ctrl);

/* ssdt_stop.c: the way down */
void ssdt_ctrl_stop(struct ssdt_ctrl *ctrl, bool shutdown);
void ssdt_mark_dead(struct ssdt_ctrl *ctrl, bool shutdown);

/* ssdt_ctrl.c: bring-up (probe and reset alike), reset, teardown */
int ssdt_ctrl_init(struct ssdt_ctrl *ctrl);
void ssdt_ctrl_teardown(struct ssdt_ctrl *ctrl, bool shutdown);
void ssdt_reset_work(struct work_struct *work);
void ssdt_ctrl_pause(struct ssdt_ctrl *ctrl, bool shutdown, const char *why);
void ssdt_ctrl_kill(struct ssdt_ctrl *ctrl);
void ssdt_ctrl_unpause(struct ssdt_ctrl *ctrl);
unsigned int ssdt_irq_queues_max(struct ssdt_ctrl *ctrl);
int ssdt_ctrl_set_poll(struct ssdt_ctrl *ctrl, unsigned int poll);

/* ssdt_apst_dev.c: APST on the device */
int ssdt_apst_start(struct ssdt_ctrl *ctrl, bool reset);
extern const struct attribute_group ssdt_apst_group;

/* ssdt_queues_dev.c: the poll_queues knob */
extern const struct attribute_group ssdt_queues_group;

/* ssdt_hmb_dev.c: the Host Memory Buffer on the device */
int ssdt_hmb_start(struct ssdt_ctrl *ctrl, bool reset);
void ssdt_hmb_stop(struct ssdt_ctrl *ctrl);
void ssdt_hmb_stopped(struct ssdt_ctrl *ctrl);
void ssdt_hmb_free_all(struct ssdt_ctrl *ctrl);

/* ssdt_admin.c: admin commands */
int ssdt_admin_exec_cqe(struct ssdt_ctrl *ctrl, struct nvme_command *cmd,
			struct nvme_completion *cqe, unsigned int timeout_s);
int ssdt_admin_exec_timeout(struct ssdt_ctrl *ctrl, struct nvme_command *cmd,
			    u32 *result, unsigned int timeout_s);
int ssdt_admin_exec(struct ssdt_ctrl *ctrl, struct nvme_command *cmd,
		    u32 *result);
int ssdt_admin_abort(struct ssdt_ctrl *ctrl, struct nvme_command *cmd);
int ssdt_admin_submit_aer(struct ssdt_ctrl *ctrl, struct nvme_command *cmd);
void ssdt_admin_cancel_all(struct ssdt_ctrl *ctrl);
int ssdt_admin_poll(struct ssdt_ctrl *ctrl);
irqreturn_t ssdt_irq_admin(int irq, void *data);

/* ssdt_identify.c: Identify Controller and the NVM command set limits */
int ssdt_identify_ctrl(struct ssdt_ctrl *ctrl, bool again);
int ssdt_identify_nvm_limits(struct ssdt_ctrl *ctrl);

/*
 * ssdt_queue.c: queue memory, doorbells, the completion ring, vector
 * affinity.  The ring's owners reap it (ssdt_admin.c, ssdt_blk.c): what
 * a completion means is theirs.
 */
struct ssdt_queue *ssdt_queue_alloc(struct ssdt_ctrl *ctrl, u16 qid,
				    u16 depth, u16 vector);
void ssdt_queue_free(struct ssdt_queue *q);
void ssdt_queue_reset(struct ssdt_queue *q);
void ssdt_sq_copy(struct ssdt_queue *q, const struct nvme_command *cmd);
void ssdt_sq_write(struct ssdt_queue *q, const struct nvme_command *cmd,
		   bool ring);
void ssdt_sq_ring(struct ssdt_queue *q);
u32 ssdt_cq_pending(struct ssdt_queue *q, u32 max);
void ssdt_cq_done(struct ssdt_queue *q, u16 old_head, int found);
unsigned int ssdt_spread_cpu(const struct cpumask *mask, unsigned int i);
const struct cpumask *ssdt_local_cpus(struct ssdt_ctrl *ctrl);
void ssdt_irqs_spread(struct ssdt_ctrl *ctrl, unsigned int from,
		      unsigned int to);

/*
 * The next completion @q's controller posted, its head moved past it and
 * *@found counted up; NULL if none, or once *@found reaches the queue's
 * depth: the head doorbell is written at the end of a reap
 * (ssdt_cq_done()), so a controller may not post more meanwhile, and one
 * that does (a storm of entries with a flipping phase) does not keep the
 * CPU here.  Caller holds cq_lock.
 */
static inline struct nvme_completion *ssdt_cq_take(struct ssdt_queue *q,
						   int *found)
{
	struct nvme_completion *cqe = &q->cqes[q->cq_head];

	if (*found >= q->depth ||
	    (le16_to_cpu(READ_ONCE(cqe->status)) & 1) != q->cq_phase)
		return NULL;
	/* The phase bit is written last: read the rest after it. */
	dma_rmb();
	if (++q->cq_head == q->depth) {
		q->cq_head = 0;
		q->cq_phase ^= 1;
	}
	(*found)++;
	return cqe;
}

/*
 * ssdt_irq.c: the interrupt handlers of the I/O queues and the vectors,
 * and host moderation, the policy the I/O handler applies
 */
int ssdt_queue_irq_request(struct ssdt_ctrl *ctrl, struct ssdt_queue *q);
void ssdt_queue_irq_free(struct ssdt_ctrl *ctrl, struct ssdt_queue *q);
int ssdt_irqs_request(struct ssdt_ctrl *ctrl);
void ssdt_irqs_free(struct ssdt_ctrl *ctrl);
void ssdt_irqs_sync(struct ssdt_ctrl *ctrl);
void ssdt_mod_init(struct ssdt_queue *q);
void ssdt_mod_stop(struct ssdt_queue *q);

/* ssdt_blk.c: blk-mq, I/O commands */
int ssdt_blk_init(struct ssdt_ctrl *ctrl);
void ssdt_blk_exit(struct ssdt_ctrl *ctrl);
int ssdt_io_reap(struct ssdt_queue *q, struct io_comp_batch *iob);
int ssdt_io_poll(struct ssdt_queue *q);
void ssdt_io_quiesce(struct ssdt_ctrl *ctrl);
void ssdt_io_sync(struct ssdt_ctrl *ctrl);
void ssdt_io_unquiesce(struct ssdt_ctrl *ctrl);
void ssdt_io_cancel_all(struct ssdt_ctrl *ctrl, bool requeue);
unsigned int ssdt_io_drain(struct ssdt_ctrl *ctrl, unsigned long timeout,
			   bool *drained);
void ssdt_io_thaw(struct ssdt_ctrl *ctrl);
void ssdt_blk_remap(struct ssdt_ctrl *ctrl);

/* ssdt_ns.c: namespaces and their disks, rescans */
void ssdt_ns_init(struct ssdt_ctrl *ctrl);
int ssdt_ns_scan(struct ssdt_ctrl *ctrl);
int ssdt_ns_rescan(struct ssdt_ctrl *ctrl);
void ssdt_ns_rescan_async(struct ssdt_ctrl *ctrl);
void ssdt_ns_remove_all(struct ssdt_ctrl *ctrl);

/* ssdt_dbbuf_dev.c: shadow doorbells */
void ssdt_dbbuf_setup(struct ssdt_ctrl *ctrl);
void ssdt_dbbuf_free(struct ssdt_ctrl *ctrl);
void ssdt_dbbuf_queue_init(struct ssdt_queue *q);
const char *ssdt_dbbuf_name(enum ssdt_dbbuf_state state);

/* ssdt_format.c: Format NVM, keeping the LBA format (SSDTUNE_CMD_FORMAT) */
int ssdt_ns_format(struct ssdt_ctrl *ctrl, u32 nsid, u32 ses);
int ssdt_ns_format_pt(struct ssdt_ctrl *ctrl, u32 nsid, u32 cdw10,
		      unsigned int timeout_s);

/*
 * ssdt_features.c: Get and Set Features (an NVMe error status is -EIO),
 * feature capabilities, power states, temperature
 */
int ssdt_get_feature(struct ssdt_ctrl *ctrl, u8 fid, u8 sel, u32 dw11,
		     u32 *result);
int ssdt_set_feature(struct ssdt_ctrl *ctrl, u8 fid, u32 dw11);
int ssdt_get_log_page(struct ssdt_ctrl *ctrl, u8 lid, void *buf, size_t len);
void ssdt_features_probe(struct ssdt_ctrl *ctrl);
void ssdt_acre_enable(struct ssdt_ctrl *ctrl);
extern const struct attribute_group ssdt_feature_group;

/* ssdt_coalesce_dev.c: the coalescing knobs (host moderation: ssdt_irq.c) */
void ssdt_coalesce_restore(struct ssdt_ctrl *ctrl);
extern const struct attribute_group ssdt_coalesce_group;

/* ssdt_sysfs.c: /sys/class/ssdtune */

/*
 * A writable knob, one SSDT_KNOB() line in the tables of ssdt_coalesce_dev.c and
 * ssdt_power_dev.c.  The knobs of a group share a lock and the settings
 * they set together (their member of union ssdt_knob_val).
 *
 * Write (ssdt_knob_store()): CAP_SYS_ADMIN, or -EPERM.  Under the group's
 * lock, copy the settings in force (@get), parse the text onto the copy
 * (@parse: anything malformed or out of range is -EINVAL and nothing is
 * applied), then @apply the copy (on an error nothing changed).  On
 * success netlink listeners get a knob event with the value as written.
 *
 * Read (ssdt_knob_show()): @show prints the knob from what @peek reads
 * without the lock, or, for a value made of several fields
 * (@show_locked), from what @get copies under it.
 */
struct ssdt_knob_group {
	struct mutex *(*lock)(struct ssdt_ctrl *ctrl);
	void (*get)(struct ssdt_ctrl *ctrl, union ssdt_knob_val *v);
	void (*peek)(struct ssdt_ctrl *ctrl, union ssdt_knob_val *v);
};

/*
 * The knobs of include/uapi/linux/ssdtune_knobs.h, the table the tool
 * reads too: SSDT_KNOB() builds only for a name in it.
 */
enum ssdt_knob_id {
#define SSDTUNE_KNOB(file, kind, max)	SSDT_KNOB_ID_##file,
#include <linux/ssdtune_knobs.h>
	SSDT_NR_KNOBS,
};

struct ssdt_knob {
	struct device_attribute attr;
	const struct ssdt_knob_group *group;
	int (*parse)(union ssdt_knob_val *v, const char *buf);
	int (*apply)(struct ssdt_ctrl *ctrl, const union ssdt_knob_val *v);
	ssize_t (*show)(const union ssdt_knob_val *v, char *buf);
	bool show_locked;
};

ssize_t ssdt_knob_show(struct device *dev, struct device_attribute *attr,
		       char *buf);
ssize_t ssdt_knob_store(struct device *dev, struct device_attribute *attr,
			const char *buf, size_t count);

/*
 * Knob @_name (mode 0644) of @_group, printed by @_name##_show(); static.
 * A name that is not in ssdtune_knobs.h has no SSDT_KNOB_ID_ and does not
 * build.
 */
#define SSDT_KNOB(_name, _group, _parse, _apply, _show_locked)		\
	static_assert(SSDT_KNOB_ID_##_name < SSDT_NR_KNOBS);		\
	static struct ssdt_knob ssdt_knob_##_name = {			\
		.attr = __ATTR(_name, 0644, ssdt_knob_show, ssdt_knob_store), \
		.group = &(_group),					\
		.parse = _parse,					\
		.apply = _apply,					\
		.show = _name##_show,					\
		.show_locked = _show_locked,				\
	}

/*
 * The read-only files of the controller directory and of queues/qK, the
 * SSDTUNE_ATTR() and SSDTUNE_QUEUE_ATTR() lines of ssdtune_knobs.h: an
 * attribute whose name is not a line there does not build (the queue
 * directory's list is made from the lines, and
 * tests/host/harness/archtable.bats finds a controller line the driver
 * does not serve).
 */
enum ssdt_attr_id {
#define SSDTUNE_ATTR(file)	SSDT_ATTR_ID_##file,
#include <linux/ssdtune_knobs.h>
	SSDT_NR_ATTRS,
};

enum ssdt_queue_attr_id {
#define SSDTUNE_QUEUE_ATTR(file)	SSDT_QATTR_ID_##file,
#include <linux/ssdtune_knobs.h>
	SSDT_NR_QUEUE_ATTRS,
};

/* dev_attr_@_name, mode 0444 (_ADMIN_: 0400), shown by @_name##_show() */
#define SSDT_ATTR_RO(_name)						\
	static_assert(SSDT_ATTR_ID_##_name < SSDT_NR_ATTRS);		\
	static struct device_attribute dev_attr_##_name = __ATTR_RO(_name)
#define SSDT_ATTR_ADMIN_RO(_name)					\
	static_assert(SSDT_ATTR_ID_##_name < SSDT_NR_ATTRS);		\
	static struct device_attribute dev_attr_##_name =		\
		__ATTR_RO_MODE(_name, 0400)

/*
 * A read-only file of the controller directory: the values after @_fmt,
 * expressions of ctrl (the struct ssdt_ctrl), printed with @_fmt and a
 * newline.
 */
#define SSDT_CTRL_ATTR_RO(_name, _fmt, ...)				\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct ssdt_ctrl *ctrl = dev_get_drvdata(dev);			\
									\
	return sysfs_emit(buf, _fmt "\n", __VA_ARGS__);		\
}									\
SSDT_ATTR_RO(_name)

int ssdt_class_register(void);
void ssdt_class_unregister(void);
int ssdt_sysfs_add(struct ssdt_ctrl *ctrl);
void ssdt_sysfs_remove(struct ssdt_ctrl *ctrl);

static inline struct device *ssdt_dev(struct ssdt_ctrl *ctrl)
{
	return &ctrl->pdev->dev;
}

#endif
