// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune: the namespace rules of ssdt_ns_rules.h.  Pure logic.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include "ssdt_ns_rules.h"

enum ssdt_ns_change ssdt_ns_change(const struct ssdt_ns_id *old,
				   const struct ssdt_ns_id *cur)
{
	if (memcmp(old->eui64, cur->eui64, sizeof(old->eui64)) ||
	    memcmp(old->nguid, cur->nguid, sizeof(old->nguid)))
		return SSDT_NS_REPLACED;
	if (old->shift != cur->shift)
		return SSDT_NS_REFORMATTED;
	if (old->nsze != cur->nsze)
		return SSDT_NS_RESIZED;
	return SSDT_NS_SAME;
}

u64 ssdt_ns_sectors(u64 nsze, u8 shift)
{
	unsigned int up = shift - 9;	/* to 512-byte sectors */

	if (shift < 9 || up >= 64 || nsze > (U64_MAX >> up))
		return 0;
	return nsze << up;
}
