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

#endif /* _UAPI_LINUX_SSDTUNE_H */
