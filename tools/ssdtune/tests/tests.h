/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit tests of the tool's library: lib/FOO.c is tested by
 * tests/FOO_test.c, whose test_FOO() tests/unit.c runs.  Each is
 * compiled on its own; none includes another.
 */
#ifndef SSDTUNE_TESTS_H
#define SSDTUNE_TESTS_H

#include <stddef.h>

void test_bdf(void);
void test_parse(void);
void test_cpuset(void);
void test_pcie(void);
void test_irqvec(void);
void test_ssdtdev(void);
void test_plan(void);
void test_planner(void);
void test_planner_size(void);
void test_plangroup(void);
void test_config(void);
void test_ctrlview(void);
void test_knobtab(void);
void test_knobs(void);
void test_state(void);
void test_tune(void);
void test_devname(void);
void test_format(void);
void test_prometheus(void);
void test_dropin(void);
void test_cgroup(void);
void test_blkdev(void);
void test_trust(void);

/*
 * Files for the tests that need some (scratch.c): each directory is
 * new, under one mkdtemp() directory of the run that scratch_remove()
 * deletes.  scratch_dir() fills @buf with "RUN/@name" (an existing
 * @name fails); if that cannot be made the run bails out.
 */
#define SCRATCH_LEN 256		/* room for a scratch directory's path */
void scratch_dir(const char *name, char *buf, size_t len);
/* The run's directory (made on the first call). */
const char *scratch_root(void);
/* Write @text to @dir/@file (created or truncated).  0 or -1. */
int scratch_put(const char *dir, const char *file, const char *text);
/* @dir/@file's bytes into @buf ("" if it cannot be read).  Returns @buf. */
char *scratch_get(const char *dir, const char *file, char *buf, size_t len);
/* Delete the run's directory, unless a check failed: then say where it is. */
void scratch_remove(void);

#endif
