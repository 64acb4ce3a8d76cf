/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The table of the ssdtune driver's knobs: each knob's name, the values it
 * accepts (Documentation/ABI/testing/sysfs-class-ssdtune) and the files a
 * write to it changes.  Pure: `set` (lib/knobs.h) and the configuration
 * file (lib/config.h) check values against it.
 */
#ifndef SSDTUNE_KNOBTAB_H
#define SSDTUNE_KNOBTAB_H

#include <stddef.h>

#include "uapi/linux/ssdtune.h"

/* Each knob's place in the table, from the driver's own table. */
enum knob_id {
#define SSDTUNE_KNOB(file, kind, max) KNOB_ID_##file,
#include "uapi/linux/ssdtune_knobs.h"
	KNOB_NR
};

/*
 * The sysfs file of knob @f of the table, a string constant (for static
 * tables too): a name the table lacks does not compile.
 */
#define KNOB_FILE(f) (&#f[0 * KNOB_ID_##f])

enum knob_type { KNOB_WORD, KNOB_UINT, KNOB_TEXT };

struct knob {
	const char *name;
	enum knob_type type;
	const char *const *words;	/* KNOB_WORD */
	unsigned long max;		/* KNOB_UINT */
	const char *const *saves;	/* files whose values a write changes */
};

/* The knob called @name[0..@len), or NULL. */
const struct knob *knob_find(const char *name, size_t len);

/* "coalesce_mode, coalesce_threshold, ..." into @buf. */
void knob_names(char *buf, size_t len);

/* 0 if @v suits @k; else -EINVAL with what is wrong in @why.  Pure. */
int knob_check(const struct knob *k, const char *v, char *why, size_t len);

#endif
