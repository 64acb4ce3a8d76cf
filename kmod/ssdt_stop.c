// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune: the controller's way down, shared by reset, removal, shutdown
 * and the I/O timeout handler (which stops a controller that holds a
 * request while it is removed): stop every queue and the controller, then
 * fail what it held.  Below ssdt_ctrl.c, which brings controllers up.
 */
#include "ssdt.h"

/* Stop every queue and the controller; reap what already completed. */
void ssdt_ctrl_stop(struct ssdt_ctrl *ctrl, bool shutdown)
{
	unsigned int i;

	for (i = 0; i < ctrl->nr_io; i++) {
		WRITE_ONCE(ctrl->ioq[i]->live, false);
		ssdt_mod_stop(ctrl->ioq[i]);
	}
	ssdt_hmb_stop(ctrl);
	if (!ssdt_ctrl_gone(ctrl)) {
		if (shutdown)
			ssdt_ctrl_shutdown(ctrl);
		/* memory it was given is freed next: it must not touch it */
		ssdt_ctrl_stop_dma(ctrl);
	}
	ssdt_hmb_stopped(ctrl);
	WRITE_ONCE(ctrl->admin->live, false);
	ssdt_irqs_sync(ctrl);
	for (i = 0; i < ctrl->nr_io; i++)
		ssdt_io_poll(ctrl->ioq[i]);
	ssdt_admin_poll(ctrl);
	ssdt_admin_cancel_all(ctrl);
}

/*
 * Fail everything from now on: the controller is gone or unrecoverable, or
 * (@shutdown) the system goes down and the controller commits its cache
 * first.  Frees nothing: the disks and queues stay until remove().
 * Called with dev_mutex held; from anywhere but a timeout handler, after
 * ssdt_io_sync(), so no handler works on a request this ends.
 */
void ssdt_mark_dead(struct ssdt_ctrl *ctrl, bool shutdown)
{
	/* halted (ssdt_ctrl_pause): the disks are quiesced already */
	bool halted = ctrl->paused;
	unsigned int i;

	ctrl->paused = false;
	spin_lock_irq(&ctrl->state_lock);
	ctrl->state = SSDT_DEAD;
	spin_unlock_irq(&ctrl->state_lock);
	for (i = 0; i < ctrl->nr_ns; i++)
		if (ctrl->ns[i].disk)
			blk_mark_disk_dead(ctrl->ns[i].disk);
	if (!halted)
		ssdt_io_quiesce(ctrl);
	if (ctrl->admin)
		ssdt_ctrl_stop(ctrl, shutdown);
	ssdt_io_cancel_all(ctrl, false);
	ssdt_io_unquiesce(ctrl);
	ssdt_nl_notify(ctrl, SSDTUNE_EVENT_DEAD);
}
