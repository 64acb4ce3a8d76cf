/* SPDX-License-Identifier: GPL-2.0 */
/* A minimal TAP producer: one "ok N - name" line per check, plan last. */
#ifndef SSDTUNE_TAP_H
#define SSDTUNE_TAP_H

#include <stdio.h>

static int tap_count, tap_failed;

#define CHECK(cond, name) tap_check(!!(cond), name, #cond, __FILE__, __LINE__)

static inline void tap_check(int ok, const char *name, const char *expr,
			     const char *file, int line)
{
	tap_count++;
	printf("%sok %d - %s\n", ok ? "" : "not ", tap_count, name);
	if (!ok) {
		tap_failed++;
		printf("# failed: %s (%s:%d)\n", expr, file, line);
	}
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
