// SPDX-License-Identifier: GPL-2.0
/* ssdtune qualify: the moves between the drivers, the reads and the write
 * test's steps in their order (lib/qualify_run.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/bind.h"
#include "lib/qualify_run.h"
#include "lib/sysfs.h"
#include "uapi/linux/ssdtune.h"

#define QUAL_SETTLE_MS	30000	/* for nvme's controller and namespaces */

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * After nvme took @bdf: wait until its controller is live and its set of
 * namespaces has stayed the same for a second (the scan runs after
 * probe), at most QUAL_SETTLE_MS.
 */
static void nvme_settle(const char *bdf)
{
	struct qual_view v;
	struct lib_err err;
	int waited, same = 0, last = -1;

	for (waited = 0; waited < QUAL_SETTLE_MS && same < 10; waited += 100) {
		if (!qual_view_read(bdf, &v, &err) && !strcmp(v.driver, "nvme")) {
			char p[PATH_MAX], state[32] = "";

			/* lint-names: stock nvme's */
			snprintf(p, sizeof(p), SYS_PCI_DEVICES "/%s/nvme/%s/state",
				 bdf, v.ctrl);
			sys_read_opt(p, state, sizeof(state));
			if (!strcmp(state, "live") && v.nns == last)
				same++;
			else
				same = 0;
			last = v.nns;
		}
		sleep_ms(100);
	}
}

/* Give @bdf back to whatever probes it (nvme): 0, or -errno with @err. */
static int to_nvme(const char *bdf, struct lib_err *err)
{
	struct bind_dev d;
	char now[64];
	int r;

	r = bind_detach_begin(bdf, &d, err);
	if (!r)
		r = bind_release(&d, err);
	if (!r)
		r = bind_wait_other(&d, now, sizeof(now), err);
	if (!r && strcmp(now, "nvme"))
		r = lib_errf(err, ENODEV, "%s went to %s, not nvme: is nvme loaded?",
			     bdf, now[0] ? now : "no driver");
	if (!r)
		nvme_settle(bdf);
	return r;
}

/* Attach @bdf to ssdtune and wait for its controller. */
static int to_ssdtune(const char *bdf, struct lib_err *err)
{
	struct bind_dev d;
	int r;

	r = bind_attach_begin(bdf, &d, err);
	if (r > 0)
		return 0;
	if (!r)
		r = bind_to_ssdtune(&d, err);
	if (!r)
		r = bind_wait_ctrl(&d, err);
	return r;
}

/*
 * The kernel log lines of "ssdtune BDF: " since @fd was opened at the
 * end of /dev/kmsg, into @log; their count.
 */
static int kmsg_lines(int fd, const char *bdf, char (*log)[QUAL_DIFF_LEN], int max)
{
	char rec[2048], want[64];
	int n = 0;
	ssize_t got;

	snprintf(want, sizeof(want), SSDTUNE_DRV_NAME " %s: ", bdf);
	if (fd < 0)
		return 0;
	while (n < max && (got = read(fd, rec, sizeof(rec) - 1)) > 0) {
		char *msg, *nl;

		rec[got] = '\0';
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		nl = strchr(msg, '\n');
		if (nl)
			*nl = '\0';
		if (!strncmp(msg, want, strlen(want)))
			snprintf(log[n++], QUAL_DIFF_LEN, "%s", msg);
	}
	return n;
}

/* After @st, pattern 1 through a driver: 4 KiB random reads of the range
 * under it, the same blocks under each driver. */
static void glance(struct qual_run *q, const struct qual_io_step *st)
{
	struct qual_speed *sp = &q->speed[q->nspeed++];
	struct lib_err err;

	memcpy(sp->driver, st->driver, sizeof(sp->driver));
	memcpy(sp->disk, st->disk, sizeof(sp->disk));
	if (q->glance(st->disk, q->range.off, q->range.len, QUAL_SPEED_S,
		      &sp->iops, &sp->p99_us, &err)) {
		snprintf(sp->error, sizeof(sp->error), "%.255s", err.msg);
		q->write_failed = true;
	}
}

/*
 * One step of the write test under @v's driver: a write of @pattern read
 * back at once, or a read of it, which runs only if its write passed.
 */
static void step(struct qual_run *q, const struct qual_view *v, bool write,
		 int pattern)
{
	struct qual_io_step *st = &q->step[q->nsteps++];
	int i;

	st->write = write;
	st->pattern = pattern;
	for (i = 0; !write && i < q->nsteps - 1; i++)
		if (q->step[i].write && q->step[i].pattern == pattern && !q->step[i].ok) {
			snprintf(st->driver, sizeof(st->driver), "%s", v->driver);
			snprintf(st->error, sizeof(st->error),
				 "not run: the write of pattern %d failed", pattern);
			q->write_failed = true;
			return;
		}
	if (qual_io_run(v, &q->range, st))
		q->write_failed = true;
	if (st->pattern == 1 && st->ok && q->glance && q->nspeed < 2)
		glance(q, st);
}

/* Attach to ssdtune and read the view there, with ssdtune's log lines. */
static int read_under_ssdtune(struct qual_run *q, struct lib_err *err)
{
	int r, kfd;

	kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kfd >= 0)
		lseek(kfd, 0, SEEK_END);
	r = to_ssdtune(q->bdf, err);
	if (!r)
		r = qual_view_read(q->bdf, &q->ssdt, err);
	q->nlog = kmsg_lines(kfd, q->bdf, q->log, QUAL_MAX_LOG);
	if (kfd >= 0)
		close(kfd);
	return r;
}

/*
 * Read under nvme, then under ssdtune, and go back to the driver it came
 * from.  With the write test: pattern 1 is written under that driver
 * before the first move and read under the other; pattern 2 is written
 * under the other and read after the move back.
 */
int qual_run(struct qual_run *q, struct lib_err *err)
{
	static struct qual_view here;
	bool wt = q->write_test, was = q->was_ssdt;
	int r;

	if (!was)
		nvme_settle(q->bdf);
	if (wt) {
		/* a range that does not fit is refused before any write */
		r = qual_view_read(q->bdf, &here, err);
		if (!r)
			r = qual_io_check(&here, &q->range, err);
		if (r)
			return r;
		step(q, &here, true, 1);
	}
	if (was && (r = to_nvme(q->bdf, err)))
		return r;
	r = qual_view_read(q->bdf, &q->nvme, err);
	if (r)
		return r;
	if (wt && was) {
		step(q, &q->nvme, false, 1);
		step(q, &q->nvme, true, 2);
	}
	r = read_under_ssdtune(q, err);
	if (!r && wt) {
		step(q, &q->ssdt, false, was ? 2 : 1);
		if (!was)
			step(q, &q->ssdt, true, 2);
	}
	if (!r && !was)
		r = to_nvme(q->bdf, err);
	if (!r && wt && !was) {
		r = qual_view_read(q->bdf, &here, err);
		if (!r)
			step(q, &here, false, 2);
	}
	if (!r)
		q->ndiff = qual_diff(&q->nvme, &q->ssdt, q->diff, QUAL_MAX_DIFFS);
	return r;
}

const char *qual_write_error(const struct qual_run *q)
{
	int i;

	for (i = 0; i < q->nsteps; i++)
		if (!q->step[i].ok)
			return q->step[i].error;
	return "";
}
