/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What apply saved: every value it touches, exactly as it was, keyed by a
 * stable identity (a path, or PCI address + MSI-X entry for interrupt
 * vectors, whose IRQ numbers change across rebinds and reboots).
 * DIR/state.json is written atomically (tmp, fsync, rename, fsync DIR)
 * before the first write; DIR/lock is flock()ed by apply and revert.
 */
#ifndef SSDTUNE_STATE_H
#define SSDTUNE_STATE_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/bdf.h"
#include "lib/error.h"

#define STATE_DIR_DEFAULT "/var/lib/ssdtune"
#define STATE_FILE "state.json"

struct state_entry {
	char *key, *path;
	char *old;		/* the file's bytes before the first apply */
	char *val;		/* what the last apply wrote (or found) */
	char bdf[BDF_BUFSZ];	/* interrupt vector: function and entry */
	int vector;		/* -1 otherwise */
	long long interrupts;	/* vector: its count after apply wrote it
				 * (a move is pending until it grows); -1 */
	int type;		/* enum plan_type: how it is read and
				 * written (a file, a cgroup controller,
				 * a cpuset partition) */
	bool by_set;		/* saved by `set`, not by apply: a later
				 * apply of another profile leaves it */
	char *serial, *model;	/* a file of an ssdtune controller: the
				 * controller, found again by these (its
				 * ssdtN index changes on re-attach); or NULL */
};

struct state {
	char profile[32];
	char boot_id[40];	/* the boot the values were applied in ("":
				 * a state file from before boot ids) */
	bool isolate;		/* the plan's options (apply --isolate, */
	int io_cores;		/* --io-cores; 0: all); what a re-plan uses */
	struct state_entry *e;
	int n, cap;
};

/* The state directory without --state-dir: $SSDTUNE_STATE_DIR, or the default. */
const char *state_dir_env(void);
/*
 * Create @dir (0700) if needed and take its lock (non-blocking).  @dir
 * must be root's and writable by nobody else, as every directory above
 * it unless sticky (lib/trust.h); the lock file is made O_EXCL, or is a
 * regular file of root's; neither is reached through a link.  Returns
 * the lock fd, or -errno with @err filled in one line (-EPERM: refused).
 */
int state_lock(const char *dir, struct lib_err *err);
void state_unlock(int fd);

/*
 * 0; -ENOENT if nothing is saved (@err untouched); else -errno with
 * @err filled: -EPERM for a state directory or file that is not root's
 * alone (lib/trust.h), or an entry whose path is not one apply writes
 * (state_path_allowed()), -EINVAL for a malformed one.
 */
int state_load(const char *dir, struct state *s, struct lib_err *err);
/*
 * Is @path (of enum plan_type @type) one that apply, set or attach may
 * write, so revert may write it back: under /proc/irq/,
 * /sys/devices/system/cpu/, /sys/class/ssdtune/, /sys/fs/cgroup/ (a
 * controller or partition only there), /sys/devices/virtual/workqueue/,
 * or /sys/block/DISK/queue/FILE; a drop-in only IRQBALANCE_DROPIN or
 * GRUB_DROPIN.  No ".", ".." or empty component.
 */
bool state_path_allowed(const char *path, int type);
/* The unit tests' scratch tree (PREFIX/...) is allowed too. */
void state_allow_under(const char *prefix);
/*
 * What a damaged state file (state_load(): malformed) still proves: each
 * whole entry line of it (state_save() writes one entry a line) that
 * loads as state_load() would load it; *@lost counts the entry lines that
 * do not.  The header (profile, boot id, options) is not read.  0,
 * -ENOENT, or -errno with @err filled.  A file cut short (no closing
 * line) counts one more lost: what followed is unknown.  Reads only.
 */
int state_salvage(const char *dir, struct state *s, int *lost,
		  struct lib_err *err);
/* The largest state file state_salvage() reads. */
#define STATE_MAX_BYTES (64 << 20)
/* Atomically, stamped with this boot's id.  0 or -errno with @err
 * filled. */
int state_save(const char *dir, const struct state *s, struct lib_err *err);
/* Remove the saved state.  The lock file stays (it may be held). */
int state_remove(const char *dir, struct lib_err *err);

struct state_entry *state_find(struct state *s, const char *key);
/* Append; the strings are copied.  0 or -ENOMEM. */
int state_add(struct state *s, const char *key, const char *path,
	      const char *old, const char *val, const char *bdf, int vector);
int state_set(char **field, const char *val);	/* replace a string */
/* Mark @e as a file of the ssdtune controller @serial/@model (both, or
 * nothing).  0 or -ENOMEM. */
int state_identity(struct state_entry *e, const char *serial,
		   const char *model);
void state_drop(struct state *s, int i);	/* remove entry @i */
void state_free(struct state *s);

/* This boot's id (/proc/sys/kernel/random/boot_id).  0 or -errno. */
int state_boot_id(char *buf, size_t len);

/* A whole small file, bytes as they are (newline kept).  0 or -errno. */
int state_read_raw(const char *path, char *buf, size_t len);

#endif
