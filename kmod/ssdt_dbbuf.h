/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shadow doorbells (NVMe Doorbell Buffer Config, admin opcode 0x7C): the
 * host writes each new SQ tail and CQ head to a shadow array in its own
 * memory, and rings the MMIO doorbell only when the controller's event
 * index says it is waiting for that write.  Emulated controllers (QEMU's
 * included) set OACS bit 8; every MMIO write they are spared is a trap.
 */
#ifndef SSDT_DBBUF_H
#define SSDT_DBBUF_H

#include <linux/types.h>

/*
 * Must the doorbell ring after the shadow moved from @old to @new, given
 * the controller's event index @ei?  Yes when @ei lies in [@old, @new)
 * going forward around the 16-bit ring: the controller asked to be told
 * once the value passes @ei.  All arithmetic is modulo 2^16.
 */
static inline bool ssdt_dbbuf_need_event(u16 ei, u16 new, u16 old)
{
	return (u16)(new - ei - 1) < (u16)(new - old);
}

#endif
