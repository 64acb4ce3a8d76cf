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

/* The kernel arguments a GRUB drop-in adds (its
 * GRUB_CMDLINE_LINUX_DEFAULT="$GRUB_CMDLINE_LINUX_DEFAULT ARGS"), into
 * @args; false if @conf has none. */
bool dropin_grub_args(const char *conf, char *args, size_t len);

/* Did the running kernel boot with every one of @args (/proc/cmdline)? */
bool dropin_booted_with(const char *args);

int dropin_read(const char *path, char *buf, size_t len);
int dropin_write(const char *path, const char *val);

#endif
