/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Errors as values.  The library never prints and never exits: a function
 * that can fail takes a struct lib_err, fills it with one line saying what
 * was wrong (naming the file, device or value) and returns a negative
 * errno.  The caller decides how to report it (cmd/output.h: one line on
 * stderr, or the "error" field of the JSON report).
 */
#ifndef SSDTUNE_LIB_ERROR_H
#define SSDTUNE_LIB_ERROR_H

struct lib_err {
	int errnum;		/* positive errno; 0: no error yet */
	char msg[1024];
};

/* Fill @e (printf-style) and return -@errnum (-1 if @errnum is 0).
 * @e may be NULL: then only the return value says something failed. */
int lib_errf(struct lib_err *e, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The common one. */
int lib_enomem(struct lib_err *e);

#endif
