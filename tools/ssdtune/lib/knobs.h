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
#include <stdbool.h>
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

/*
 * One controller's knob writes, all or none: knob_txn_begin() reads the
 * files @a..@a+@na (resolved under @dir) change; knob_txn_commit() writes
 * each value in order (@written after each that worked), puts the files
 * back if the driver refused one (unless a dry run: @s NULL), and then
 * records in @s (if given) what the driver kept.  `set` and `apply
 * --config` both write knobs this way; saving the originals first is
 * theirs (knob_save()).
 */
struct knob_txn {
	char dir[PATH_MAX];
	const struct knob_set *a;
	int na;
	struct knob_before b[KNOB_MAX];
	int nb;
	int failed;			/* writes the driver refused */
	char first[PATH_MAX + 128];	/* the first refusal, one line */
};

/* 0; -E2BIG if more than KNOB_MAX files; else -errno; @err filled. */
int knob_txn_begin(struct knob_txn *t, const char *dir,
		   const struct knob_set *a, int na, struct lib_err *err);
/* How many writes the driver refused (none is kept then), or -errno with
 * @err filled if recording failed. */
int knob_txn_commit(struct knob_txn *t, struct state *s,
		    void (*written)(void *ctx, const struct knob_set *a),
		    void *ctx, struct lib_err *err);

/* What `ssdtune set` did (knob_set_run()). */
struct knob_run {
	char ctrl[64];		/* the controller, once found: "ssdt0" */
	int failed;		/* writes the driver refused: none is kept */
	char first[PATH_MAX + 128];	/* the first refusal */
	bool saved;		/* the state directory holds the outcome */
	bool state_err;		/* the error is the state directory's (its
				 * lock, load or save), not the knobs' */
	struct lib_err err;
};

/*
 * `ssdtune set`: the KNOB=VALUE pairs @a (checked) on controller @arg
 * (ssdtN or a PCI address; NULL: the only one).  Find it and the files,
 * read them, then (unless @dry_run) lock @state_dir and save what the
 * writes change there, write as a knob transaction, and save what the
 * driver kept.  0 with @res filled (res->failed: refused writes), or
 * -errno with res->err filled.
 */
int knob_set_run(const char *arg, struct knob_set *a, int na,
		 const char *state_dir, bool dry_run,
		 void (*written)(void *ctx, const struct knob_set *a),
		 void *ctx, struct knob_run *res);

#endif
