/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdtune qualify: what one NVMe controller looks like under the driver
 * bound to it now (nvme or ssdtune): identity, the quirks, the Host
 * Memory Buffer, APST, queue limits, write cache, vectors and namespaces
 * (qual_view_read()), and the differences between two such views that
 * matter to an admin (qual_diff(), pure).  lib/qualify_run.c moves the
 * controller between the drivers; cmd/qualify.c prints both.
 */
#ifndef SSDTUNE_CTRLVIEW_H
#define SSDTUNE_CTRLVIEW_H

#include <limits.h>
#include <stdbool.h>

#include "lib/error.h"

#define QUAL_MAX_NS	16
#define QUAL_MAX_APST	32
#define QUAL_DIFF_LEN	256

/* One namespace's disk and the limits the block layer enforces on it. */
struct qual_ns {
	unsigned int nsid;
	char disk[NAME_MAX + 1];	/* "nvme0n1", "ssdt0n1" */
	unsigned long long bytes;	/* its size; 0 not known */
	char lbs[16], pbs[16];		/* logical/physical block size */
	char max_kb[16];		/* max_hw_sectors_kb */
	char segs[16];			/* max_segments */
	char discard[24];		/* discard_max_hw_bytes */
	char zeroes[24];		/* write_zeroes_max_bytes */
	char wcache[24];		/* "write back" / "write through" */
	char fua[8];
};

/* One APST table entry: state @from goes to @to after @ms idle. */
struct qual_apst_entry {
	int from, to;
	unsigned int ms;
};

struct qual_view {
	char driver[32];		/* "nvme", "ssdtune" */
	char ctrl[32];			/* "nvme0", "ssdt0"; "" none */
	char model[64], serial[64], firmware[32];
	bool id_ok;			/* Identify Controller answered */
	unsigned int vs;		/* NVMe version register */
	unsigned int apsta, npss, vwc, mdts;
	unsigned long long hmpre, hmmin;	/* bytes asked */
	int wctemp_c, cctemp_c;		/* thresholds; -274: none */
	char hmb[32];			/* given: "yes", "no", bytes; "" n/a */
	char quirks[256];		/* ssdtune's quirks file; "" n/a */
	bool apst_known;		/* Get Features 0Ch answered */
	bool apst_on;
	struct qual_apst_entry apst[QUAL_MAX_APST];
	int napst;
	char apst_knob[32];		/* apst_max_latency_us; "" n/a */
	int nvectors, nsteerable;
	struct qual_ns ns[QUAL_MAX_NS];
	int nns;
};

/*
 * The view of PCI function @bdf under its driver now.  0, or -errno with
 * @err filled (no driver, no controller).  What cannot be read is left
 * empty ("" or false), never an error.
 */
int qual_view_read(const char *bdf, struct qual_view *v, struct lib_err *err);

/*
 * The differences between @stock's and @ssdt's views that matter: each a
 * line in @out[0..@max).  Returns their number (more than @max: the rest
 * are not written).  Pure.
 */
int qual_diff(const struct qual_view *stock, const struct qual_view *ssdt,
	      char (*out)[QUAL_DIFF_LEN], int max);

/* Decode a Get Features 0Ch table into @v->apst (pure). */
void qual_apst_decode(const unsigned long long *table, int npss,
		      struct qual_view *v);

#endif
