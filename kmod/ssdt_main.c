// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune: a blk-mq block driver for NVMe PCIe controllers an admin hands
 * it through driver_override, with interrupt vectors userspace may steer.
 *
 * The PCI ID table is empty: the driver never grabs a device on load and
 * binds only where driver_override names it; probe then checks the class.
 */
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/slab.h>
#include "ssdt.h"

unsigned int ssdt_io_timeout = 30;
module_param_named(io_timeout, ssdt_io_timeout, uint, 0644);
MODULE_PARM_DESC(io_timeout, "I/O timeout in seconds before Abort, then reset (default 30)");

/*
 * Stock nvme's default: a firmware commit, a namespace delete or a Format
 * can take most of a minute on a real drive, and an admin timeout stops
 * the controller.
 */
unsigned int ssdt_admin_timeout = 60;

/*
 * 0 would time every admin command out at once (and reset the
 * controller); an hour is more than any drive's slowest admin command, and
 * far from where seconds * HZ would wrap.
 */
static int ssdt_admin_timeout_set(const char *val, const struct kernel_param *kp)
{
	return ssdt_param_set_uint_range(val, kp, 1, SSDT_ADMIN_TIMEOUT_MAX_S);
}

static const struct kernel_param_ops ssdt_admin_timeout_ops = {
	.set = ssdt_admin_timeout_set,
	.get = param_get_uint,
};

module_param_cb(admin_timeout, &ssdt_admin_timeout_ops, &ssdt_admin_timeout, 0644);
MODULE_PARM_DESC(admin_timeout, "admin command timeout in seconds, 1..3600 (default 60)");

unsigned int ssdt_max_retries = SSDT_DEFAULT_RETRIES;
module_param_named(max_retries, ssdt_max_retries, uint, 0644);
MODULE_PARM_DESC(max_retries, "times a failed I/O command without Do Not Retry is sent again (default 5)");

unsigned int ssdt_shutdown_timeout = 5;
module_param_named(shutdown_timeout, ssdt_shutdown_timeout, uint, 0644);
MODULE_PARM_DESC(shutdown_timeout, "least seconds a normal shutdown may take; more if RTD3E says so, at most 60 (default 5)");

unsigned int ssdt_max_host_mem_mb = SSDT_HMB_DEFAULT_MB;
module_param_named(max_host_mem_size_mb, ssdt_max_host_mem_mb, uint, 0444);
MODULE_PARM_DESC(max_host_mem_size_mb, "most MiB of host memory a controller's Host Memory Buffer gets (default 128)");

/* quirks=VID:DID:MASK[,...]: parsed at load, a bad value refuses the load */
#define SSDT_MAX_QUIRK_IDS	8
struct ssdt_quirk_id ssdt_quirk_ids[SSDT_MAX_QUIRK_IDS];
int ssdt_nr_quirk_ids;
static char ssdt_quirks_param[160];

static int ssdt_quirks_set(const char *val, const struct kernel_param *kp)
{
	int n;

	n = ssdt_quirks_parse(val, ssdt_quirk_ids, SSDT_MAX_QUIRK_IDS);
	if (n < 0) {
		pr_err(SSDT_NAME ": quirks=%s: want VID:DID:MASK[,...], at most %d, hex IDs, a MASK of known bits (%#lx)\n",
		       val, SSDT_MAX_QUIRK_IDS, (unsigned long)SSDT_QUIRKS_KNOWN);
		return -EINVAL;
	}
	ssdt_nr_quirk_ids = n;
	return param_set_copystring(val, kp);
}

static const struct kernel_param_ops ssdt_quirks_ops = {
	.set = ssdt_quirks_set,
	.get = param_get_string,
};

static struct kparam_string ssdt_quirks_kps = {
	.maxlen = sizeof(ssdt_quirks_param),
	.string = ssdt_quirks_param,
};
module_param_cb(quirks, &ssdt_quirks_ops, &ssdt_quirks_kps, 0444);
MODULE_PARM_DESC(quirks, "more quirks by PCI ID, VID:DID:MASK[,...], MASK in nvme.quirks bits (default none)");

unsigned int ssdt_max_io_queues;
module_param_named(max_io_queues, ssdt_max_io_queues, uint, 0444);
MODULE_PARM_DESC(max_io_queues, "upper bound on I/O queues, 0 = one per online CPU (default 0)");

static int ssdt_poll_queues_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, SSDT_MAX_POLL_QUEUES);
}

static const struct kernel_param_ops ssdt_poll_queues_ops = {
	.set = ssdt_poll_queues_set,
	.get = param_get_uint,
};

unsigned int ssdt_poll_queues;
module_param_cb(poll_queues, &ssdt_poll_queues_ops, &ssdt_poll_queues, 0444);
MODULE_PARM_DESC(poll_queues, "I/O queues without an interrupt, for polled I/O (io_uring IOPOLL), 0..64 (default 0)");

/* Queue sizes and tags are u16; blk-mq takes at most BLK_MQ_MAX_DEPTH tags. */
#define SSDT_MAX_QUEUE_DEPTH	4096

static int ssdt_depth_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 2, SSDT_MAX_QUEUE_DEPTH);
}

static const struct kernel_param_ops ssdt_depth_ops = {
	.set = ssdt_depth_set,
	.get = param_get_uint,
};

unsigned int ssdt_io_queue_depth = 1024;
module_param_cb(io_queue_depth, &ssdt_depth_ops, &ssdt_io_queue_depth, 0444);
MODULE_PARM_DESC(io_queue_depth, "I/O queue entries, 2..4096, capped by CAP.MQES (default 1024)");

struct workqueue_struct *ssdt_wq;

static DEFINE_IDA(ssdt_ida);

static void ssdt_pci_release(struct ssdt_ctrl *ctrl)
{
	struct pci_dev *pdev = ctrl->pdev;

	if (ctrl->bar)
		pci_iounmap(pdev, ctrl->bar);
	pci_release_mem_regions(pdev);
	pci_disable_device(pdev);
}

static int ssdt_pci_setup(struct ssdt_ctrl *ctrl)
{
	int dma_bits = ctrl->quirks & SSDT_QUIRK_DMA48 ? 48 : 64;
	struct pci_dev *pdev = ctrl->pdev;
	int ret;

	ret = pci_enable_device_mem(pdev);
	if (ret)
		return ret;
	pci_set_master(pdev);
	/* some controllers address only 48 bits (their quirk) */
	ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(dma_bits));
	if (ret)
		ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(32));
	if (ret)
		goto disable;
	dma_set_max_seg_size(&pdev->dev, 0xffffffff);
	/*
	 * PRPs address whole controller pages from an offset: a bounce
	 * buffer (swiotlb) must keep the offset within the page.
	 */
	dma_set_min_align_mask(&pdev->dev, SSDT_PAGE_SIZE - 1);
	ret = pci_request_mem_regions(pdev, SSDT_NAME);
	if (ret)
		goto disable;
	ctrl->bar = pci_iomap(pdev, 0, 0);
	if (!ctrl->bar) {
		ret = -ENOMEM;
		pci_release_mem_regions(pdev);
		goto disable;
	}
	return 0;
disable:
	pci_disable_device(pdev);
	return ret;
}

/* No new reset starts; one already queued returns at once when it runs. */
static void ssdt_forbid_resets(struct ssdt_ctrl *ctrl)
{
	spin_lock_irq(&ctrl->state_lock);
	ctrl->removing = true;
	spin_unlock_irq(&ctrl->state_lock);
}

/*
 * Stop resets for good and wait for one that runs or is queued: after this
 * nothing but the caller touches the controller's queues, except the work
 * that fails what an admin timeout left held (ssdt_reset_work(), under
 * dev_mutex as the caller's steps are; ssdt_take_down() waits for it).
 * The reset work takes dev_mutex, so the caller must not hold it.
 */
static void ssdt_stop_resets(struct ssdt_ctrl *ctrl)
{
	ssdt_forbid_resets(ctrl);
	cancel_work_sync(&ctrl->reset_work);
}

/*
 * Bring the controller up to the point where it can take I/O, under
 * dev_mutex (held by the caller) so that a reset queued on the way, by a
 * timeout during Identify, waits until the queues are complete.  Each step
 * is a fault-injection point (ssdt_debug.c).  On an error everything is
 * undone; the caller still has to cancel a queued reset.
 */
static int ssdt_bring_up(struct ssdt_ctrl *ctrl, int *step)
{
	int ret;

	ret = ssdt_probe_fault(ctrl, ++*step, "pci") ?: ssdt_pci_setup(ctrl);
	if (ret)
		return ret;
	ret = ssdt_probe_fault(ctrl, ++*step, "controller") ?: ssdt_ctrl_init(ctrl);
	if (ret)
		goto release_pci;
	ssdt_features_probe(ctrl);
	ret = ssdt_probe_fault(ctrl, ++*step, "tag set") ?: ssdt_blk_init(ctrl);
	if (ret)
		goto teardown;
	ret = ssdt_probe_fault(ctrl, ++*step, "sysfs") ?: ssdt_sysfs_add(ctrl);
	if (!ret)
		return 0;

	ssdt_sysfs_remove(ctrl);
	ssdt_blk_exit(ctrl);
teardown:
	ssdt_forbid_resets(ctrl);	/* dev_mutex held: no waiting here */
	ssdt_ctrl_teardown(ctrl, false);
release_pci:
	ssdt_pci_release(ctrl);
	return ret;
}

/*
 * Undo ssdt_bring_up() and the namespace scan: remove() and a probe that
 * failed late.  With @live the controller still answers: the disks go
 * (their page cache written back), then the controller shuts down
 * (CC.SHN), which commits its volatile cache.
 */
static void ssdt_take_down(struct ssdt_ctrl *ctrl, bool live)
{
	ssdt_ns_remove_all(ctrl);
	ssdt_debug_remove(ctrl);
	ssdt_sysfs_remove(ctrl);
	mutex_lock(&ctrl->dev_mutex);
	/* A timeout while the disks drained may have stopped it since. */
	ssdt_ctrl_teardown(ctrl, live && ctrl->state == SSDT_LIVE);
	mutex_unlock(&ctrl->dev_mutex);
	/* queued by an admin timeout since ssdt_stop_resets(); nothing can now */
	cancel_work_sync(&ctrl->reset_work);
	ssdt_fw_act_stop(ctrl);		/* events stopped in the teardown */
	ssdt_blk_exit(ctrl);
	ssdt_pci_release(ctrl);
}

static int ssdt_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct ssdt_ctrl *ctrl;
	int step = 0, ret;

	if (pdev->class != PCI_CLASS_STORAGE_EXPRESS) {
		dev_err(&pdev->dev, "class %06x is not an NVMe controller, not binding\n",
			pdev->class);
		return -ENODEV;
	}

	ctrl = kzalloc_node(sizeof(*ctrl), GFP_KERNEL, dev_to_node(&pdev->dev));
	if (!ctrl)
		return -ENOMEM;
	kref_init(&ctrl->ref);
	init_rwsem(&ctrl->pt_rwsem);
	ctrl->pdev = pdev;
	ctrl->node = dev_to_node(&pdev->dev);
	ctrl->quirks = ssdt_quirks_for(pdev->vendor, pdev->device,
				       ssdt_quirk_ids, ssdt_nr_quirk_ids);
	if (ctrl->quirks) {
		char names[160];

		ssdt_quirks_names(ctrl->quirks, names, sizeof(names));
		dev_info(&pdev->dev, "quirks: %s\n", names);
	}
	ctrl->state = SSDT_NEW;
	spin_lock_init(&ctrl->state_lock);
	spin_lock_init(&ctrl->slot_lock);
	sema_init(&ctrl->slot_sem, ARRAY_SIZE(ctrl->slots));
	mutex_init(&ctrl->dev_mutex);
	mutex_init(&ctrl->health_mutex);
	mutex_init(&ctrl->knob_mutex);
	mutex_init(&ctrl->apst_mutex);
	INIT_WORK(&ctrl->reset_work, ssdt_reset_work);
	ssdt_aer_init(ctrl);
	ssdt_fw_act_init(ctrl);
	ssdt_ns_init(ctrl);
	ret = ida_alloc_max(&ssdt_ida, SSDT_MAX_CTRLS - 1, GFP_KERNEL);
	if (ret < 0)
		goto free_ctrl;
	ctrl->instance = ret;
	ret = ssdt_power_init(ctrl);
	if (ret)
		goto free_ida;

	mutex_lock(&ctrl->dev_mutex);
	ret = ssdt_bring_up(ctrl, &step);
	mutex_unlock(&ctrl->dev_mutex);
	if (ret) {
		cancel_work_sync(&ctrl->reset_work);
		ssdt_fw_act_stop(ctrl);
		goto free_power;
	}
	ssdt_debug_add(ctrl);
	pci_set_drvdata(pdev, ctrl);
	/*
	 * Not under dev_mutex: adding a disk reads its partition table, and
	 * a timeout there needs the reset to finish.
	 */
	ret = ssdt_probe_fault(ctrl, ++step, "namespaces") ?: ssdt_ns_scan(ctrl);
	if (!ret)
		ret = ssdt_probe_fault(ctrl, ++step, "done");
	if (ret) {
		ssdt_stop_resets(ctrl);
		ssdt_take_down(ctrl, false);
		pci_set_drvdata(pdev, NULL);
		goto free_power;
	}
	dev_info(&pdev->dev, "attached as %s with %u namespace(s)\n",
		 dev_name(ctrl->cdev), ctrl->nr_ns);
	ssdt_nl_add_ctrl(ctrl);
	return 0;

free_power:
	ssdt_power_exit(ctrl);
free_ida:
	ida_free(&ssdt_ida, ctrl->instance);
free_ctrl:
	ssdt_ctrl_put(ctrl);
	return ret;
}

static void ssdt_remove(struct pci_dev *pdev)
{
	struct ssdt_ctrl *ctrl = pci_get_drvdata(pdev);
	bool live;

	ssdt_stop_resets(ctrl);
	mutex_lock(&ctrl->dev_mutex);
	/* halted: an AER recovery that will not resume a removed device */
	if (ctrl->state != SSDT_DEAD &&
	    (ctrl->paused || ssdt_ctrl_gone(ctrl))) {
		dev_warn(&pdev->dev, "%s: failing outstanding I/O\n",
			 ctrl->paused ? "removed while halted" : "controller gone");
		ssdt_io_sync(ctrl);
		ssdt_mark_dead(ctrl, false);
	}
	live = ctrl->state == SSDT_LIVE;
	mutex_unlock(&ctrl->dev_mutex);
	/* Waits for a Format; one on a gone controller was cancelled above. */
	ssdt_nl_del_ctrl(ctrl);

	ssdt_take_down(ctrl, live);
	ssdt_power_exit(ctrl);
	ssdt_nl_notify(ctrl, SSDTUNE_EVENT_DETACHED);
	ida_free(&ssdt_ida, ctrl->instance);
	ssdt_ctrl_put(ctrl);
}

/*
 * Power-off, reboot or kexec: what is in flight may finish first (within
 * io_timeout, as stock waits), then the controller commits its cache
 * (CC.SHN) and stops; what is left fails, and new requests fail at once.
 * Nothing is freed: the disks and the tag set stay until remove(), which
 * may still come (kexec, or the debugfs hook).
 */
void ssdt_shutdown(struct pci_dev *pdev)
{
	struct ssdt_ctrl *ctrl = pci_get_drvdata(pdev);
	bool drained = true, live;
	unsigned int n = 0;

	if (!ctrl)
		return;
	ssdt_stop_resets(ctrl);
	mutex_lock(&ctrl->dev_mutex);
	live = ctrl->state == SSDT_LIVE;
	if (live)
		n = ssdt_io_drain(ctrl, READ_ONCE(ssdt_io_timeout) * HZ, &drained);
	if (ctrl->state != SSDT_DEAD) {
		ssdt_io_sync(ctrl);
		ssdt_mark_dead(ctrl, live);
	}
	if (live) {
		ssdt_io_thaw(ctrl);
		dev_info(&pdev->dev, "shutdown: %u requests in flight %s\n", n,
			 drained ? "completed first" :
				   "did not complete within io_timeout: failed");
	}
	mutex_unlock(&ctrl->dev_mutex);
}

/*
 * A function reset (sysfs "reset", a slot or bus reset, AER recovery of a
 * neighbour) loses every queue: halt before, restart after.  The PCI core
 * holds the device lock across both, so remove() cannot come between.
 */
static void ssdt_reset_prepare(struct pci_dev *pdev)
{
	ssdt_ctrl_pause(pci_get_drvdata(pdev), false, "a function reset");
}

static void ssdt_reset_done(struct pci_dev *pdev)
{
	ssdt_ctrl_unpause(pci_get_drvdata(pdev));
}

/*
 * AER recovery (the PCI core's pcie_do_recovery()), as the stock driver
 * does it.  An error that left the channel working needs nothing.  A
 * frozen channel is about to be reset with its link: the controller halts
 * as for a function reset (I/O is held), slot_reset restores the config
 * space the link reset lost, resume brings the controller back.  A
 * channel that failed for good kills the controller: every request fails
 * at once instead of waiting for a resume that will not come.  The core
 * takes the device lock for each call, not across them: a remove() in
 * between fails what is held (ssdt_remove()).
 */
static pci_ers_result_t ssdt_error_detected(struct pci_dev *pdev,
					    pci_channel_state_t state)
{
	struct ssdt_ctrl *ctrl = pci_get_drvdata(pdev);

	switch (state) {
	case pci_channel_io_normal:
		return PCI_ERS_RESULT_CAN_RECOVER;
	case pci_channel_io_frozen:
		dev_warn(&pdev->dev, "PCI channel frozen: halting until the link reset\n");
		ssdt_ctrl_pause(ctrl, false, "an AER recovery");
		return PCI_ERS_RESULT_NEED_RESET;
	case pci_channel_io_perm_failure:
		dev_warn(&pdev->dev, "PCI channel failed for good: the controller is dead\n");
		ssdt_ctrl_kill(ctrl);
		return PCI_ERS_RESULT_DISCONNECT;
	}
	return PCI_ERS_RESULT_NEED_RESET;
}

static pci_ers_result_t ssdt_slot_reset(struct pci_dev *pdev)
{
	dev_info(&pdev->dev, "restarting after the link reset\n");
	pci_restore_state(pdev);
	return PCI_ERS_RESULT_RECOVERED;
}

static void ssdt_error_resume(struct pci_dev *pdev)
{
	ssdt_ctrl_unpause(pci_get_drvdata(pdev));
}

static const struct pci_error_handlers ssdt_err_handlers = {
	.error_detected	= ssdt_error_detected,
	.slot_reset	= ssdt_slot_reset,
	.resume		= ssdt_error_resume,
	.reset_prepare	= ssdt_reset_prepare,
	.reset_done	= ssdt_reset_done,
};

/*
 * System sleep: the controller commits its cache and stops (it may lose
 * power), I/O waits in the queues; on resume it is set up again as after
 * a reset.  The PM core pairs every suspend with a resume.
 */
static int ssdt_suspend(struct device *dev)
{
	ssdt_ctrl_pause(dev_get_drvdata(dev), true, "system sleep");
	return 0;
}

static int ssdt_resume(struct device *dev)
{
	ssdt_ctrl_unpause(dev_get_drvdata(dev));
	return 0;
}

static DEFINE_SIMPLE_DEV_PM_OPS(ssdt_pm_ops, ssdt_suspend, ssdt_resume);

static struct pci_driver ssdt_driver = {
	.name		= SSDT_NAME,
	.id_table	= NULL,
	.probe		= ssdt_probe,
	.remove		= ssdt_remove,
	.shutdown	= ssdt_shutdown,
	.err_handler	= &ssdt_err_handlers,
	.driver.pm	= pm_sleep_ptr(&ssdt_pm_ops),
};

static int __init ssdt_init(void)
{
	int ret;

	ret = ssdt_chr_init();
	if (ret)
		return ret;
	ret = ssdt_class_register();
	if (ret)
		goto chr;
	ret = ssdt_nl_register();
	if (ret)
		goto class;
	/* Resets run here: block I/O waits on them, so it may not wait for memory. */
	ssdt_wq = alloc_workqueue(SSDT_NAME, WQ_MEM_RECLAIM | WQ_UNBOUND, 0);
	if (!ssdt_wq) {
		ret = -ENOMEM;
		goto netlink;
	}
	ssdt_debug_init();
	ret = pci_register_driver(&ssdt_driver);
	if (ret)
		goto debug;
	return 0;

debug:
	ssdt_debug_exit();
	destroy_workqueue(ssdt_wq);
netlink:
	ssdt_nl_unregister();
class:
	ssdt_class_unregister();
chr:
	ssdt_chr_exit();
	return ret;
}

static void __exit ssdt_exit(void)
{
	pci_unregister_driver(&ssdt_driver);
	ssdt_debug_exit();
	destroy_workqueue(ssdt_wq);
	ssdt_nl_unregister();
	ssdt_class_unregister();
	ssdt_chr_exit();
	ida_destroy(&ssdt_ida);
}

module_init(ssdt_init);
module_exit(ssdt_exit);

MODULE_DESCRIPTION("NVMe PCIe block driver with live tuning knobs and steerable IRQs");
MODULE_LICENSE("GPL");
MODULE_VERSION(SSDTUNE_VERSION);
