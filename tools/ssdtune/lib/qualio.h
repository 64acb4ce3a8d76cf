/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdtune qualify --write-test: data written through one driver and read
 * back through the other, on a scratch range the admin names.  Each step
 * is one fio run with verify=pattern on the namespace's disk: a write of
 * pattern P (the bytes "SDTP" and each block's offset, repeated) that
 * fio reads back at once, or a read of pattern P only (verify_only),
 * which fails unless every byte of every block is what the write of P
 * put there.  (fio's crc32c verify would not do here: a block written
 * with another seed carries a checksum that matches its data, and
 * verify_only passes it.)  lib/qualify_run.c moves the controller
 * between the drivers and orders the steps.
 */
#ifndef SSDTUNE_QUALIO_H
#define SSDTUNE_QUALIO_H

#include <stdbool.h>

#include "lib/ctrlview.h"
#include "lib/error.h"

/* The scratch range: namespace @nsid (0: the first), bytes [@off, @off + @len). */
struct qual_io_range {
	unsigned int nsid;
	unsigned long long off, len;
};

struct qual_io_step {
	bool write;			/* write and read back; else read only */
	int pattern;			/* 1 or 2 */
	char driver[32];		/* "nvme", "ssdtune" */
	char disk[NAME_MAX + 1];	/* what fio opened */
	bool ran, ok;
	double seconds;
	char error[256];		/* why it failed; "" */
	char command[512];		/* the fio command line, to run again */
};

/* Is fio there to run?  0, or -ENOENT with @err. */
int qual_io_ready(struct lib_err *err);

/*
 * Check @r against @v, the controller under its driver now: the
 * namespace is served (@r->nsid 0 becomes the first), and the range is
 * inside it and aligned to its logical block size.  0, or -EINVAL with
 * @err saying what is wrong.
 */
int qual_io_check(const struct qual_view *v, struct qual_io_range *r,
		  struct lib_err *err);

/*
 * Run @st (write and pattern set by the caller) on @r's namespace under
 * @v's driver: fills the rest of @st.  0 when fio ran and verified, -1
 * otherwise (@st->error says why).
 */
int qual_io_run(const struct qual_view *v, const struct qual_io_range *r,
		struct qual_io_step *st);

#endif
