/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal TAP producer: one "ok N - name" line per check, plan last.
 * The counters live in tap.c, so the test files linked into one binary
 * number their checks as one stream.
 */
#ifndef SSDTUNE_TAP_H
#define SSDTUNE_TAP_H

#include <stdio.h>

extern int tap_count, tap_failed;

#define CHECK(cond, name) tap_check(!!(cond), name, #cond, __FILE__, __LINE__)

void tap_check(int ok, const char *name, const char *expr, const char *file,
	       int line);

/* The plan line; 1 if a check failed, else 0 (main()'s exit status). */
int tap_done(void);

#endif
