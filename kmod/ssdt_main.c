// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune: a blk-mq block driver for NVMe PCIe controllers an admin hands
 * it through driver_override, with interrupt vectors userspace may steer.
 *
 * The PCI ID table is empty: the driver never grabs a device on load and
 * binds only where driver_override names it; probe then checks the class.
 */
#include <linux/debugfs.h>
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/slab.h>
#include "ssdt.h"

unsigned int ssdt_io_timeout = 30;
module_param_named(io_timeout, ssdt_io_timeout, uint, 0644);
MODULE_PARM_DESC(io_timeout, "I/O timeout in seconds before Abort, then reset (default 30)");

unsigned int ssdt_admin_timeout = 10;
module_param_named(admin_timeout, ssdt_admin_timeout, uint, 0644);
MODULE_PARM_DESC(admin_timeout, "admin command timeout in seconds (default 10)");

unsigned int ssdt_max_io_queues;
module_param_named(max_io_queues, ssdt_max_io_queues, uint, 0444);
MODULE_PARM_DESC(max_io_queues, "upper bound on I/O queues, 0 = one per online CPU (default 0)");

unsigned int ssdt_io_queue_depth = 1024;
module_param_named(io_queue_depth, ssdt_io_queue_depth, uint, 0444);
MODULE_PARM_DESC(io_queue_depth, "I/O queue entries, 2..65536, capped by CAP.MQES (default 1024)");

static DEFINE_IDA(ssdt_ida);
static struct dentry *ssdt_debugfs_root;

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
	struct pci_dev *pdev = ctrl->pdev;
	int ret;

	ret = pci_enable_device_mem(pdev);
	if (ret)
		return ret;
	pci_set_master(pdev);
	ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(32));
	if (ret)
		goto disable;
	dma_set_max_seg_size(&pdev->dev, 0xffffffff);
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

static int ssdt_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct ssdt_ctrl *ctrl;
	int ret;

	if (pdev->class != PCI_CLASS_STORAGE_EXPRESS) {
		dev_err(&pdev->dev, "class %06x is not an NVMe controller, not binding\n",
			pdev->class);
		return -ENODEV;
	}
	if (ssdt_io_queue_depth < 2 || ssdt_io_queue_depth > 65536) {
		dev_err(&pdev->dev, "io_queue_depth=%u is outside 2..65536\n",
			ssdt_io_queue_depth);
		return -EINVAL;
	}

	ctrl = kzalloc_node(sizeof(*ctrl), GFP_KERNEL, dev_to_node(&pdev->dev));
	if (!ctrl)
		return -ENOMEM;
	ctrl->pdev = pdev;
	ctrl->node = dev_to_node(&pdev->dev);
	ctrl->state = SSDT_NEW;
	spin_lock_init(&ctrl->state_lock);
	spin_lock_init(&ctrl->slot_lock);
	sema_init(&ctrl->slot_sem, ARRAY_SIZE(ctrl->slots));
	mutex_init(&ctrl->dev_mutex);
	mutex_init(&ctrl->health_mutex);
	mutex_init(&ctrl->knob_mutex);
	INIT_WORK(&ctrl->reset_work, ssdt_reset_work);
	atomic_set(&ctrl->drop_completions, 0);
	ret = ida_alloc(&ssdt_ida, GFP_KERNEL);
	if (ret < 0)
		goto free_ctrl;
	ctrl->instance = ret;
	ret = ssdt_power_init(ctrl);
	if (ret)
		goto free_ida;

	ret = ssdt_pci_setup(ctrl);
	if (ret)
		goto free_power;
	ret = ssdt_ctrl_init(ctrl);
	if (ret)
		goto release_pci;
	ssdt_features_probe(ctrl);
	ret = ssdt_blk_init(ctrl);
	if (ret)
		goto teardown;
	ret = ssdt_sysfs_add(ctrl);
	if (ret)
		goto remove_sysfs;
	ctrl->debugfs = debugfs_create_dir(dev_name(ctrl->cdev),
					   ssdt_debugfs_root);
	debugfs_create_atomic_t("drop_completions", 0600, ctrl->debugfs,
				&ctrl->drop_completions);
	pci_set_drvdata(pdev, ctrl);
	ret = ssdt_ns_scan(ctrl);
	if (ret)
		goto remove_ns;
	dev_info(&pdev->dev, "attached as %s with %u namespace(s)\n",
		 dev_name(ctrl->cdev), ctrl->nr_ns);
	ssdt_nl_add_ctrl(ctrl);
	return 0;

remove_ns:
	ssdt_ns_remove_all(ctrl, false);
	debugfs_remove_recursive(ctrl->debugfs);
	pci_set_drvdata(pdev, NULL);
remove_sysfs:
	ssdt_sysfs_remove(ctrl);
	ssdt_blk_exit(ctrl);
teardown:
	ssdt_ctrl_teardown(ctrl, false);
release_pci:
	ssdt_pci_release(ctrl);
free_power:
	ssdt_power_exit(ctrl);
free_ida:
	ida_free(&ssdt_ida, ctrl->instance);
free_ctrl:
	kfree(ctrl);
	return ret;
}

static void ssdt_remove(struct pci_dev *pdev)
{
	struct ssdt_ctrl *ctrl = pci_get_drvdata(pdev);
	bool live;

	ssdt_nl_del_ctrl(ctrl);
	spin_lock_irq(&ctrl->state_lock);
	ctrl->removing = true;		/* no new resets */
	spin_unlock_irq(&ctrl->state_lock);
	cancel_work_sync(&ctrl->reset_work);

	mutex_lock(&ctrl->dev_mutex);
	if (ctrl->state != SSDT_DEAD && ssdt_ctrl_gone(ctrl)) {
		dev_warn(&pdev->dev, "controller gone: failing outstanding I/O\n");
		ssdt_mark_dead(ctrl);
	}
	live = ctrl->state == SSDT_LIVE;
	mutex_unlock(&ctrl->dev_mutex);

	/* Flush and shut down in order when the controller still answers. */
	ssdt_ns_remove_all(ctrl, live);
	debugfs_remove_recursive(ctrl->debugfs);
	ssdt_sysfs_remove(ctrl);
	ssdt_ctrl_teardown(ctrl, live);
	ssdt_blk_exit(ctrl);
	ssdt_pci_release(ctrl);
	ssdt_power_exit(ctrl);
	ssdt_nl_notify(ctrl, SSDTUNE_EVENT_DETACHED);
	ida_free(&ssdt_ida, ctrl->instance);
	kfree(ctrl);
}

/* Power-off or reboot: tell the controller, so it commits its cache. */
static void ssdt_shutdown(struct pci_dev *pdev)
{
	struct ssdt_ctrl *ctrl = pci_get_drvdata(pdev);

	if (!ctrl)
		return;
	mutex_lock(&ctrl->dev_mutex);
	if (ctrl->state == SSDT_LIVE && ctrl->admin)
		ssdt_ctrl_teardown(ctrl, true);
	ctrl->state = SSDT_DEAD;
	mutex_unlock(&ctrl->dev_mutex);
}

static struct pci_driver ssdt_driver = {
	.name		= SSDT_NAME,
	.id_table	= NULL,
	.probe		= ssdt_probe,
	.remove		= ssdt_remove,
	.shutdown	= ssdt_shutdown,
};

static int __init ssdt_init(void)
{
	int ret;

	ret = ssdt_class_register();
	if (ret)
		return ret;
	ret = ssdt_nl_register();
	if (ret)
		goto class;
	ssdt_debugfs_root = debugfs_create_dir(SSDT_NAME, NULL);
	ret = pci_register_driver(&ssdt_driver);
	if (ret)
		goto netlink;
	return 0;

netlink:
	debugfs_remove_recursive(ssdt_debugfs_root);
	ssdt_nl_unregister();
class:
	ssdt_class_unregister();
	return ret;
}

static void __exit ssdt_exit(void)
{
	pci_unregister_driver(&ssdt_driver);
	debugfs_remove_recursive(ssdt_debugfs_root);
	ssdt_nl_unregister();
	ssdt_class_unregister();
	ida_destroy(&ssdt_ida);
}

module_init(ssdt_init);
module_exit(ssdt_exit);

MODULE_DESCRIPTION("NVMe PCIe block driver with live tuning knobs and steerable IRQs");
MODULE_LICENSE("GPL");
