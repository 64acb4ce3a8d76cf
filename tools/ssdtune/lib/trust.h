/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files and directories a tool that runs as root may trust: what only
 * root (or the caller) owns and nobody else can write, opened without
 * following a link that someone else could have planted.  The state
 * directory, the bench's output and the recordings go through here.
 */
#ifndef SSDTUNE_TRUST_H
#define SSDTUNE_TRUST_H

#include <stdbool.h>
#include <sys/types.h>

#include "lib/error.h"

/*
 * Open directory @dir (O_DIRECTORY|O_NOFOLLOW) and check it with fstat():
 * owned by root or the caller, writable by neither group nor others; and
 * every directory above it (as the kernel resolved it) owned by root or
 * the caller and writable by nobody else unless sticky, so that no other
 * user can swap it.  @what names it in the message ("state directory").
 * The fd, or -errno with @err filled in one line (-ENOENT: @dir is not
 * there; -EPERM: refused).
 */
int trust_dir_open(const char *dir, const char *what, struct lib_err *err);

/*
 * @fd, open on @path, is a regular file owned by root or the caller that
 * neither group nor others can write.  0, or -EPERM with @err filled.
 */
int trust_file_check(int fd, const char *path, const char *what,
		     struct lib_err *err);

/*
 * openat() of @rel below @dfd that follows no link and never leaves @dfd:
 * openat2() with RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS where the kernel
 * has it (5.6), else each component of @rel opened in turn with
 * O_NOFOLLOW.  @flags gets O_NOFOLLOW|O_CLOEXEC.  The fd, or -errno
 * (-ELOOP: a link on the way; -EXDEV: a ".." out of @dfd).
 */
int trust_openat(int dfd, const char *rel, int flags, mode_t mode);
/* The same without openat2(): what older kernels get (the unit tests
 * call it directly). */
int trust_openat_walk(int dfd, const char *rel, int flags, mode_t mode);

/*
 * Directory @rel below @dfd, made (with @mode) where missing, component
 * by component, none of them a link.  Its fd (O_DIRECTORY), or -errno.
 */
int trust_mkdirs(int dfd, const char *rel, mode_t mode);

/*
 * Create @path as a new directory of mode 0700 (refusing one that is
 * there already, link or not) and open it.  The fd, or -errno with @err
 * filled (-EEXIST: it is there).
 */
int trust_mkdir_new(const char *path, const char *what, struct lib_err *err);

#endif
