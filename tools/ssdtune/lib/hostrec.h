/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A recorded host: the files of /sys and /proc that ssdtune reads to see
 * a host (NUMA nodes and CPUs, cpuidle and cpufreq, the PCI functions
 * with their config space and vectors, the NVMe and ssdtune controllers
 * with their disks, cgroup v2's top, the workqueue masks, /proc/irq,
 * /proc/interrupts and /proc/cmdline), copied into DIR/sys and DIR/proc.
 * `topology --save DIR` writes one (hostrec_save()); `--root DIR` replays
 * one (hostrec_enter()): a private mount namespace in which DIR's pieces
 * sit read-only over the live ones, so libnuma, libpci and the tool's own
 * readers all see the recorded host.  The test fixtures
 * (tests/host/fixtures/mktopo.py) have the same shape.
 */
#ifndef SSDTUNE_HOSTREC_H
#define SSDTUNE_HOSTREC_H

#include "lib/error.h"

struct hostrec_stats {
	unsigned long files, links, dirs;	/* written */
	unsigned long skipped;			/* unreadable files left out */
	unsigned long long bytes;
};

/*
 * Record this host into @dir, which must not exist: it is made 0700 and
 * stays so (an existing one, or a link, is refused: another user could
 * have prepared it).  Every file is created below its fd, O_EXCL and
 * O_NOFOLLOW, 0600 until all is written; then each gets the mode of the
 * file it copies, the directories below @dir 0755.  0, or -errno with
 * @err; a file the kernel refuses to read (write-only, EIO, EINVAL) is
 * left out and counted in @st.
 */
int hostrec_save(const char *dir, struct hostrec_stats *st, struct lib_err *err);

/*
 * Replay @dir: unshare the mount namespace (with a user namespace when
 * not root) and bind @dir/sys over /sys and @dir/proc/{irq,interrupts,
 * cmdline} over theirs, each read-only.  The caller must exec itself
 * again after this: libnuma read /sys before main().  0, or -errno with
 * @err (@dir has no sys/devices/system: not a recording).
 */
int hostrec_enter(const char *dir, struct lib_err *err);

#endif
