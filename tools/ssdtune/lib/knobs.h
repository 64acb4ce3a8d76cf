/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ssdtune driver's knobs in /sys/class/ssdtune/ssdtN/ as `set` writes
 * them: around the writes the snapshot for rollback and the saved state
 * that revert and verify use.  The controller lookup is ssdtdev.h's, the
 * table of knobs and their values knobtab.h's.
 *
 * coalesce_profile writes set coalesce_mode, coalesce_threshold and
 * coalesce_time_us, and a profile file reading "custom" cannot be written
 * back, so every coalescing knob saves those three files (never the profile
 * file): revert restores the settings, and the profile name follows.
 */
#ifndef SSDTUNE_KNOBS_H
#define SSDTUNE_KNOBS_H

#include <limits.h>
#include <stddef.h>

#include "lib/error.h"
#include "lib/knobtab.h"
#include "lib/state.h"

#define KNOB_MAX	16	/* knobs (and files they change) at once */

/* One KNOB=VALUE of a command line. */
struct knob_set {
	const struct knob *k;
	const char *value;
	char path[PATH_MAX];	/* DIR/KNOB, after knob_resolve() */
};

/* A file the writes change, as it read before them. */
struct knob_before {
	char path[PATH_MAX];
	char raw[4096];
};

/* Fill each @a[i].path under @dir; -ENOENT with @err filled if a knob
 * file is missing there. */
int knob_resolve(const char *dir, struct knob_set *a, int na,
		 struct lib_err *err);

/*
 * Read every file @a..@a+@na change into @b (each once).  0; -E2BIG if
 * more than KNOB_MAX; else -errno; @err filled.
 */
int knob_snapshot(const char *dir, const struct knob_set *a, int na,
		  struct knob_before *b, int *nb, struct lib_err *err);

/* Add to @s every file @a..@a+@na change, unless saved already (the first
 * value is the original).  0 or -errno with @err filled. */
int knob_save(struct state *s, const char *dir, const struct knob_set *a,
	      int na, struct lib_err *err);

/*
 * Write each value in order; after each that worked, @written(@ctx, @a+i)
 * if given.  Returns how many failed, the first one ("path <- value:
 * error") into @first.
 */
int knob_write(const struct knob_set *a, int na, char *first, size_t len,
	       void (*written)(void *ctx, const struct knob_set *a),
	       void *ctx);

/* A write was refused: put back what changed since @b, newest first. */
void knob_roll_back(const struct knob_before *b, int nb);

/* After the writes: what each file of @s under @dir reads now is what
 * verify expects (the driver may round, and a profile sets three files).
 * 0 or -ENOMEM with @err filled. */
int knob_record(struct state *s, const char *dir, struct lib_err *err);

#endif
