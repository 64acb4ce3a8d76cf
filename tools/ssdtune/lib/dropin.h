/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Configuration files the tool owns (TYPE_DROPIN): a systemd drop-in such
 * as /etc/systemd/system/irqbalance.service.d/ssdtune.conf.  Its saved
 * value is its content, "" when it does not exist; writing "" removes it.
 * A drop-in of UNIT.service.d takes effect through systemd: after each
 * change, where systemd runs, 'systemctl daemon-reload' and 'systemctl
 * try-restart UNIT.service' (a unit that is stopped stays stopped).  A
 * file of /etc/default/grub.d takes effect through 'update-grub' (and a
 * reboot).
 */
#ifndef SSDTUNE_DROPIN_H
#define SSDTUNE_DROPIN_H

#include <stdbool.h>
#include <stddef.h>

#define IRQBALANCE_DROPIN "/etc/systemd/system/irqbalance.service.d/ssdtune.conf"
#define GRUB_DROPIN "/etc/default/grub.d/ssdtune.cfg"

/* Does systemd run this host (sd_booted())? */
bool dropin_systemd(void);

/*
 * Does drop-in @conf, in place as written, still wait for something to
 * take effect?  A GRUB drop-in waits until the running kernel booted with
 * every argument it adds (/proc/cmdline): true, with @why saying so.
 */
bool dropin_pending(const char *conf, char *why, size_t len);

int dropin_read(const char *path, char *buf, size_t len);
int dropin_write(const char *path, const char *val);

#endif
