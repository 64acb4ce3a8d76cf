// SPDX-License-Identifier: GPL-2.0
/* One quick fio figure outside a measurement; see bench.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/engine.h"

int bench_quick_read(const char *disk, unsigned long long off,
		     unsigned long long len, int secs, double *iops,
		     double *p99_us, struct lib_err *err)
{
	char dir[] = "/tmp/ssdtune-quick.XXXXXX";
	char job[PATH_MAX], raw[PATH_MAX], rawerr[PATH_MAX + 8], text[1024];
	struct fio_figures f;
	int r;

	if (!mkdtemp(dir))
		return lib_errf(err, errno, "cannot make a directory in /tmp: %s",
				strerror(errno));
	snprintf(job, sizeof(job), "%s/quick.fio", dir);
	snprintf(raw, sizeof(raw), "%s/quick.json", dir);
	snprintf(rawerr, sizeof(rawerr), "%s.err", raw);
	snprintf(text, sizeof(text),
		 "[quick-read]\nfilename=/dev/%s\nioengine=libaio\ndirect=1\n"
		 "rw=randread\nbs=4k\niodepth=32\noffset=%llu\nsize=%llu\n"
		 "norandommap=1\ntime_based=1\nruntime=%d\n", disk, off, len, secs);
	r = bench_write_text(job, text);
	if (r)
		lib_errf(err, -r, "cannot write %s: %s", job, strerror(-r));
	else
		r = bench_fio_run("quick read", job, raw, &f, err);
	if (!r) {
		*iops = f.all.iops;
		*p99_us = f.all.pct_us[1];
	}
	unlink(job);
	unlink(raw);
	unlink(rawerr);
	rmdir(dir);
	return r;
}
