/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdtune qualify: one run.  The controller is read under nvme, attached
 * to ssdtune and read again, then put back on the driver it came from;
 * with the write test, data written through each driver is read back
 * through the other (lib/qualio.c) and a short read under each shows
 * its speed.  The views and their differences are lib/ctrlview.c's;
 * cmd/qualify.c checks the arguments and presents the result.
 */
#ifndef SSDTUNE_QUALIFY_RUN_H
#define SSDTUNE_QUALIFY_RUN_H

#include <limits.h>
#include <stdbool.h>

#include "lib/ctrlview.h"
#include "lib/error.h"
#include "lib/qualio.h"

#define QUAL_MAX_DIFFS	64
#define QUAL_MAX_LOG	64
#define QUAL_SPEED_S	3	/* seconds of the glance at speed */

/* 4 KiB random reads of [@off, @off + @len) of @disk for @secs at QD32. */
typedef int (*qual_glance_fn)(const char *disk, unsigned long long off,
			      unsigned long long len, int secs, double *iops,
			      double *p99_us, struct lib_err *err);

/* The glance at speed under one driver, after its pattern 1 step. */
struct qual_speed {
	char driver[32], disk[NAME_MAX + 1];
	double iops, p99_us;
	char error[256];		/* "" when it ran */
};

struct qual_run {
	/* in */
	char bdf[32];			/* the controller's PCI address */
	bool was_ssdt;			/* on ssdtune now (else on nvme) */
	bool write_test;
	struct qual_io_range range;	/* for the write test */
	qual_glance_fn glance;		/* NULL: no glance */

	/* out */
	struct qual_view nvme, ssdt;	/* the controller under each driver */
	char diff[QUAL_MAX_DIFFS][QUAL_DIFF_LEN];	/* what matters */
	int ndiff;			/* may exceed QUAL_MAX_DIFFS */
	char log[QUAL_MAX_LOG][QUAL_DIFF_LEN];	/* ssdtune's lines at attach */
	int nlog;
	struct qual_io_step step[4];	/* the write test, in order */
	int nsteps;
	struct qual_speed speed[2];
	int nspeed;
	bool write_failed;		/* a step or a glance failed */
};

/*
 * Run @q (its "in" fields set; the caller holds the state lock, so that
 * apply and revert do not look for the controller mid-rebind): fills
 * the "out" fields.  0 when both views were read and the controller is
 * back where it was (the write test may still have failed:
 * @q->write_failed); -errno with @err otherwise.
 */
int qual_run(struct qual_run *q, struct lib_err *err);

/* The first failed write-test step's reason; "" if none failed. */
const char *qual_write_error(const struct qual_run *q);

#endif
