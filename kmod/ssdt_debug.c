// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune test hooks in debugfs (Documentation/driver.md, "Fault hooks").
 * Debian kernels have no fault injection, so the lifecycle tests drive the
 * failure paths through these files; they cost one atomic read where they
 * sit and nothing else.  Under /sys/kernel/debug/ssdtune/:
 *
 *   probe_fail_step   N > 0: the next probe fails at its Nth step with -EIO
 *                     (one shot: reads back 0 once it fired)
 *   probe_drop_admin_step  N > 0: the next probe loses one admin
 *                     completion from its Nth step on (one shot), so an
 *                     Identify at attach times out
 *   probe_reset       1: every probe step after the controller is live
 *                     queues a controller reset, so one is pending or
 *                     running when a later step fails
 *   nl_queues_per_msg N > 0: the counter dump puts at most N queues in a
 *                     message, so a few queues take several (as 64 do)
 *   scan_delay_ms     N > 0: a rescan (not probe's scan) waits N ms before
 *                     it reads the namespace list, so a test can unbind
 *                     while one runs
 *   mdts              N > 0: Identify Controller reads MDTS N (2^N
 *                     pages a command) instead of the device's, as
 *                     firmware activated with another limit would
 *   ns_write_protect  1: Identify Namespace reads as write protected
 *                     (NSATTR bit 0) at the next scan (QEMU has no
 *                     namespace write protection)
 *   ssdtN/drop_completions        lose the next N I/O completions
 *   ssdtN/drop_admin_completions  lose the next N admin completions
 *                     (of commands: an Asynchronous Event Request's
 *                     completion is never lost, so a test loses the one
 *                     of the command it sends)
 *   ssdtN/skip_admin_irqs  the next N admin interrupts are not handled
 *                     (their completions stay in the queue), as a lost
 *                     interrupt: the admin timeout reaps them by hand
 *   ssdtN/stale_completions  replay the next N I/O completions first as
 *                     late ones of the tag's previous use (generation
 *                     less one): each must be dropped
 *   ssdtN/dup_completions  deliver the next N I/O completions twice, as
 *                     a controller that posts an entry twice: the second
 *                     must be dropped
 *   ssdtN/stale_admin_completions  after each of the next N admin
 *                     commands is posted, hand the admin completion
 *                     reaped last to the completion path again, as a
 *                     late completion of the earlier command that used
 *                     the slot: each must be dropped
 *   ssdtN/fail_completions  the next N I/O completions carry the status
 *                     fail_status (phase dropped; default 0x280, Write
 *                     Fault, which allows a retry; 0x4280 with DNR), as a
 *                     controller's transient or persistent error would
 *   ssdtN/shutdown    write 1: run the PCI .shutdown method, as a reboot
 *                     or power-off would
 *   ssdtN/sleep       write N: a system sleep of N ms for this device
 *                     alone: suspend, D3hot, D0, resume, as the PM core
 *                     does (pm_test would freeze the test VM's root fs)
 *   ssdtN/aer         write 1 to 4: the PCI core's AER recovery of
 *                     this device alone, with the driver's error handlers:
 *                     1 a frozen channel (error_detected, a function reset
 *                     for the link reset, slot_reset, resume), 2 an error
 *                     that left the channel working (error_detected,
 *                     resume), 3 a channel failed for good
 *                     (error_detected), 4 as 1 with the channel frozen
 *                     5 s before error_detected runs, as the AER core
 *                     is late (an I/O timeout must wait for it); QEMU's
 *                     NVMe has no AER capability
 *                     to inject into, and the debug kernel has no AER
 *   ssdtN/fw_act      write N: a firmware activation of N ms, as after
 *                     the "firmware activation starting" notice: CSTS.PP
 *                     reads set for N ms (QEMU never sets it)
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/error-injection.h>
#include "ssdt.h"

static struct dentry *ssdt_debugfs_root;

/* How late aer kind 4's handlers come after the channel froze. */
#define SSDT_DBG_AER_LATE_MS	5000
static atomic_t ssdt_probe_fail_step = ATOMIC_INIT(0);
static atomic_t ssdt_probe_drop_admin_step = ATOMIC_INIT(0);
static bool ssdt_probe_reset;
u32 ssdt_nl_queues_per_msg;
u32 ssdt_scan_delay_ms;
bool ssdt_dbg_ns_wp;
u8 ssdt_dbg_mdts;

/*
 * Step @step of probe, named @what, is about to run: returns -EIO when the
 * test asked for a failure here.  Also a target for the kernel's
 * fail_function (ALLOW_ERROR_INJECTION) on a debug kernel.
 */
noinline int ssdt_probe_fault(struct ssdt_ctrl *ctrl, int step,
			      const char *what)
{
	if (READ_ONCE(ssdt_probe_reset) && READ_ONCE(ctrl->state) == SSDT_LIVE)
		ssdt_schedule_reset(ctrl);
	if (atomic_cmpxchg(&ssdt_probe_drop_admin_step, step, 0) == step) {
		dev_warn(ssdt_dev(ctrl), "debug: losing an admin completion from probe step %d (%s)\n",
			 step, what);
		atomic_set(&ctrl->drop_admin_completions, 1);
	}
	if (atomic_cmpxchg(&ssdt_probe_fail_step, step, 0) != step)
		return 0;
	dev_warn(ssdt_dev(ctrl), "debug: failing probe at step %d (%s)\n",
		 step, what);
	return -EIO;
}

ALLOW_ERROR_INJECTION(ssdt_probe_fault, ERRNO);

static int ssdt_shutdown_set(void *data, u64 val)
{
	struct ssdt_ctrl *ctrl = data;

	if (val != 1)
		return -EINVAL;
	ssdt_shutdown(ctrl->pdev);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(ssdt_shutdown_fops, NULL, ssdt_shutdown_set, "%llu\n");

static int ssdt_sleep_set(void *data, u64 ms)
{
	struct ssdt_ctrl *ctrl = data;
	struct pci_dev *pdev = ctrl->pdev;

	if (!ms || ms > 60000)
		return -EINVAL;
	/* The PM core holds the device lock; remove() holds it and waits for us. */
	if (!device_trylock(&pdev->dev))
		return -EBUSY;
	ssdt_ctrl_pause(ctrl, true, "system sleep");
	pci_save_state(pdev);
	pci_set_power_state(pdev, PCI_D3hot);
	msleep(ms);
	pci_set_power_state(pdev, PCI_D0);
	pci_restore_state(pdev);
	ssdt_ctrl_unpause(ctrl);
	device_unlock(&pdev->dev);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(ssdt_sleep_fops, NULL, ssdt_sleep_set, "%llu\n");

/* A firmware activation of @ms: CSTS.PP reads set, as after the notice. */
static int ssdt_fw_act_set(void *data, u64 ms)
{
	struct ssdt_ctrl *ctrl = data;

	if (!ms || ms > 600000)
		return -EINVAL;
	WRITE_ONCE(ctrl->dbg_pp_until, jiffies + msecs_to_jiffies(ms));
	ssdt_fw_act_start(ctrl);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(ssdt_fw_act_fops, NULL, ssdt_fw_act_set, "%llu\n");

/*
 * What pcie_do_recovery() does to one device, in its order, with the
 * channel state it sets; the device lock is held across (the core takes
 * it per call).  The test's device is not really failed: the channel is
 * set back to normal at the end whatever happened.
 */
static int ssdt_aer_set(void *data, u64 kind)
{
	struct ssdt_ctrl *ctrl = data;
	struct pci_dev *pdev = ctrl->pdev;
	const struct pci_error_handlers *eh;
	pci_ers_result_t res;
	int ret = 0;

	if (kind < 1 || kind > 4)
		return -EINVAL;
	if (!device_trylock(&pdev->dev))
		return -EBUSY;
	eh = to_pci_driver(pdev->dev.driver)->err_handler;
	if (kind == 4) {
		/* the channel froze; the AER core reaches the driver later */
		pdev->error_state = pci_channel_io_frozen;
		dev_info(&pdev->dev, "debug: channel frozen, the handlers in %u ms\n",
			 SSDT_DBG_AER_LATE_MS);
		msleep(SSDT_DBG_AER_LATE_MS);
		kind = 1;
	}
	if (kind == 1) {
		pdev->error_state = pci_channel_io_frozen;
		res = eh->error_detected(pdev, pci_channel_io_frozen);
		if (res == PCI_ERS_RESULT_NEED_RESET) {
			ret = pcie_flr(pdev);	/* the link reset's effect */
			if (!ret)
				res = eh->slot_reset(pdev);
		}
		pdev->error_state = pci_channel_io_normal;
		if (!ret && res == PCI_ERS_RESULT_RECOVERED)
			eh->resume(pdev);
		else	/* the core gives up: no resume will come */
			ssdt_ctrl_kill(ctrl);
	} else if (kind == 2) {
		res = eh->error_detected(pdev, pci_channel_io_normal);
		if (res == PCI_ERS_RESULT_CAN_RECOVER)
			eh->resume(pdev);
	} else {
		pdev->error_state = pci_channel_io_perm_failure;
		eh->error_detected(pdev, pci_channel_io_perm_failure);
		pdev->error_state = pci_channel_io_normal;
	}
	device_unlock(&pdev->dev);
	return ret;
}
DEFINE_DEBUGFS_ATTRIBUTE(ssdt_aer_fops, NULL, ssdt_aer_set, "%llu\n");

void ssdt_debug_add(struct ssdt_ctrl *ctrl)
{
	ctrl->debugfs = debugfs_create_dir(dev_name(ctrl->cdev),
					   ssdt_debugfs_root);
	debugfs_create_atomic_t("drop_completions", 0600, ctrl->debugfs,
				&ctrl->drop_completions);
	debugfs_create_atomic_t("drop_admin_completions", 0600, ctrl->debugfs,
				&ctrl->drop_admin_completions);
	debugfs_create_atomic_t("skip_admin_irqs", 0600, ctrl->debugfs,
				&ctrl->skip_admin_irqs);
	debugfs_create_atomic_t("stale_completions", 0600, ctrl->debugfs,
				&ctrl->stale_completions);
	debugfs_create_atomic_t("dup_completions", 0600, ctrl->debugfs,
				&ctrl->dup_completions);
	debugfs_create_atomic_t("stale_admin_completions", 0600,
				ctrl->debugfs, &ctrl->stale_admin_completions);
	debugfs_create_atomic_t("fail_completions", 0600, ctrl->debugfs,
				&ctrl->fail_completions);
	ctrl->fail_status = NVME_SC_WRITE_FAULT;
	debugfs_create_x16("fail_status", 0600, ctrl->debugfs,
			   &ctrl->fail_status);
	debugfs_create_file_unsafe("shutdown", 0200, ctrl->debugfs, ctrl,
				   &ssdt_shutdown_fops);
	debugfs_create_file_unsafe("sleep", 0200, ctrl->debugfs, ctrl,
				   &ssdt_sleep_fops);
	debugfs_create_file_unsafe("aer", 0200, ctrl->debugfs, ctrl,
				   &ssdt_aer_fops);
	debugfs_create_file_unsafe("fw_act", 0200, ctrl->debugfs, ctrl,
				   &ssdt_fw_act_fops);
}

void ssdt_debug_remove(struct ssdt_ctrl *ctrl)
{
	debugfs_remove_recursive(ctrl->debugfs);
	ctrl->debugfs = NULL;
}

bool ssdt_dbg_apsta;
u32 ssdt_dbg_hmpre, ssdt_dbg_hmmin;
atomic64_t ssdt_dbg_hmb_held = ATOMIC64_INIT(0);

static int ssdt_hmb_held_get(void *data, u64 *val)
{
	*val = atomic64_read(&ssdt_dbg_hmb_held);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(ssdt_hmb_held_fops, ssdt_hmb_held_get, NULL, "%llu\n");

void ssdt_debug_init(void)
{
	ssdt_debugfs_root = debugfs_create_dir(SSDT_NAME, NULL);
	debugfs_create_atomic_t("probe_fail_step", 0600, ssdt_debugfs_root,
				&ssdt_probe_fail_step);
	debugfs_create_atomic_t("probe_drop_admin_step", 0600,
				ssdt_debugfs_root, &ssdt_probe_drop_admin_step);
	debugfs_create_bool("probe_reset", 0600, ssdt_debugfs_root,
			    &ssdt_probe_reset);
	debugfs_create_u32("nl_queues_per_msg", 0600, ssdt_debugfs_root,
			   &ssdt_nl_queues_per_msg);
	debugfs_create_u32("scan_delay_ms", 0600, ssdt_debugfs_root,
			   &ssdt_scan_delay_ms);
	debugfs_create_bool("ns_write_protect", 0600, ssdt_debugfs_root,
			    &ssdt_dbg_ns_wp);
	debugfs_create_u8("mdts", 0600, ssdt_debugfs_root, &ssdt_dbg_mdts);
	/* APST and the Host Memory Buffer, which QEMU's controller lacks */
	debugfs_create_bool("apst_apsta", 0600, ssdt_debugfs_root, &ssdt_dbg_apsta);
	debugfs_create_u32("hmb_hmpre", 0600, ssdt_debugfs_root, &ssdt_dbg_hmpre);
	debugfs_create_u32("hmb_hmmin", 0600, ssdt_debugfs_root, &ssdt_dbg_hmmin);
	debugfs_create_file_unsafe("hmb_held_bytes", 0400, ssdt_debugfs_root,
				   NULL, &ssdt_hmb_held_fops);
}

void ssdt_debug_exit(void)
{
	debugfs_remove_recursive(ssdt_debugfs_root);
}
