/* SPDX-License-Identifier: GPL-2.0 */
/* NVMe Format NVM with user data erase (bench --purge): format.c. */
#ifndef SSDTUNE_FORMAT_H
#define SSDTUNE_FORMAT_H

#include <stddef.h>

enum { FORMAT_DONE, FORMAT_UNSUPPORTED, FORMAT_FAILED };

/*
 * Format namespace @disk (/dev node @path) of controller @ctrl, bound to
 * @driver, keeping its LBA format.  FORMAT_DONE, or FORMAT_UNSUPPORTED /
 * FORMAT_FAILED with @why saying what happened.
 */
int format_namespace(const char *driver, const char *ctrl, const char *disk,
		     const char *path, char *why, size_t len);

#endif
