// SPDX-License-Identifier: GPL-2.0
/* The TAP producer of tap.h: one counter for every test file of a binary. */
#include <stdio.h>

#include "tap.h"

int tap_count, tap_failed;

void tap_check(int ok, const char *name, const char *expr, const char *file,
	       int line)
{
	tap_count++;
	printf("%sok %d - %s\n", ok ? "" : "not ", tap_count, name);
	if (!ok) {
		tap_failed++;
		printf("# failed: %s (%s:%d)\n", expr, file, line);
	}
}

int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}
