/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ssdtune driver's sysfs interface, the one place the tool knows it:
 * the class directory /sys/class/ssdtune, its controllers ssdtN (by name,
 * PCI address, PCI function or serial and model), their namespace disks
 * ssdtNnM, and the paths of the files in a controller directory.  Every
 * other file asks here instead of building a /sys/class/ssdtune path.
 */
#ifndef SSDTUNE_LIB_SSDTDEV_H
#define SSDTUNE_LIB_SSDTDEV_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/error.h"
#include "uapi/linux/ssdtune.h"

#define SSDTDEV_CLASS_DIR	"/sys/class/" SSDTUNE_CLASS_NAME

/* Each read-only file's place in the driver's table (ssdtune_knobs.h). */
enum ssdtdev_attr_id {
#define SSDTUNE_ATTR(file) ATTR_ID_##file,
#include "uapi/linux/ssdtune_knobs.h"
	ATTR_NR
};
enum ssdtdev_queue_attr_id {
#define SSDTUNE_QUEUE_ATTR(file) QUEUE_ID_##file,
#include "uapi/linux/ssdtune_knobs.h"
	QUEUE_NR
};

/*
 * The sysfs file of read-only attribute @f of a controller directory, or
 * of queue file @f of queues/qK, a string constant (for static tables
 * too): a name the driver's table lacks does not compile.  The knobs'
 * are KNOB_FILE() (knobtab.h).  No file name of the driver is spelled
 * out anywhere else in the tool (scripts/lint-names.py).
 */
#define ATTR_FILE(f) (&#f[0 * ATTR_ID_##f])
#define QUEUE_FILE(f) (&#f[0 * QUEUE_ID_##f])

/* "ssdt12" -> 12; anything else (a disk, leading zeros) -> -1.  Pure. */
int ssdtdev_index(const char *name);

/* Is @name namespace disk "<ctrl>n<digits>" of controller @ctrl?  Pure. */
bool ssdtdev_is_disk(const char *name, const char *ctrl);

/*
 * The class directory of controller @ctrl ("ssdt0"), or with @file the
 * file in it (KNOB_FILE(coalesce_profile), ATTR_FILE(serial)), into @buf.
 * A path that does not fit is left empty (and then does not exist).
 * Returns @buf.  Pure.
 */
char *ssdtdev_path(char *buf, size_t len, const char *ctrl, const char *file);

/*
 * The same below its queues: the directory queues/ when @qid < 0, else
 * queues/q@qid, or with @file (QUEUE_FILE(irq)) the file in it.  Pure.
 */
char *ssdtdev_queue_path(char *buf, size_t len, const char *ctrl, int qid,
			 const char *file);

/* Is ssdtune.ko loaded (its class directory present)? */
bool ssdtdev_loaded(void);

/* The N of every ssdtN present, sorted, in *@out (free it).  The count
 * (0 if none), -1 on allocation failure. */
int ssdtdev_list(int **out);

/*
 * The controller directory for @arg (ssdtN or a PCI address), or of the
 * only controller when @arg is NULL, into @dir.  0; -ENOTUNIQ when @arg
 * is NULL and several are attached; else -errno; @err filled.
 */
int ssdtdev_dir(const char *arg, char *dir, size_t len, struct lib_err *err);

/*
 * A controller's identity: its serial and model (ssdtN is only an index:
 * a detach and an attach can hand it to another drive).  0, or -ENOENT if
 * directory @dir has no (non-empty) serial and model files.
 */
int ssdtdev_identity(const char *dir, char *serial, size_t slen,
		     char *model, size_t mlen);

/* The directory of the controller @serial/@model today (at PCI address
 * @bdf if several match).  0 or -ENOENT. */
int ssdtdev_find(const char *serial, const char *model, const char *bdf,
		 char *dir, size_t len);

/* The ssdtN whose device is the PCI function at @pci_sysdir (a resolved
 * /sys/devices path), into @ctrl.  false if it has none. */
bool ssdtdev_of_pci(const char *pci_sysdir, char *ctrl, size_t len);

#endif
