// SPDX-License-Identifier: GPL-2.0
/* Unit tests of qualify's comparison (ctrlview.c, the pure part): two views
 * in, the differences that matter out.  Reading a view off a live
 * controller is left to the bats tests (tests/host/cmd/qualify.bats). */
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "tests.h"
#include "lib/ctrlview.h"

/* A controller with namespace 1 of 512-byte blocks, as QEMU's. */
static void view(struct qual_view *v, const char *driver)
{
	memset(v, 0, sizeof(*v));
	snprintf(v->driver, sizeof(v->driver), "%s", driver);
	snprintf(v->model, sizeof(v->model), "QEMU NVMe Ctrl");
	snprintf(v->serial, sizeof(v->serial), "ssdt01");
	v->nns = 1;
	v->ns[0].nsid = 1;
	snprintf(v->ns[0].lbs, sizeof(v->ns[0].lbs), "512");
	snprintf(v->ns[0].max_kb, sizeof(v->ns[0].max_kb), "512");
	snprintf(v->ns[0].segs, sizeof(v->ns[0].segs), "127");
	snprintf(v->ns[0].wcache, sizeof(v->ns[0].wcache), "write back");
	snprintf(v->ns[0].fua, sizeof(v->ns[0].fua), "1");
}

void test_ctrlview(void)
{
	static struct qual_view s, t;
	char out[8][QUAL_DIFF_LEN];
	unsigned long long table[32] = { 0 };

	view(&s, "nvme");
	view(&t, "ssdtune");
	CHECK(qual_diff(&s, &t, out, 8) == 0, "qualify: the same views: no difference");
	/* more segments under ssdtune is no difference, fewer is */
	snprintf(t.ns[0].segs, sizeof(t.ns[0].segs), "128");
	CHECK(qual_diff(&s, &t, out, 8) == 0, "qualify: more segments is fine");
	snprintf(t.ns[0].segs, sizeof(t.ns[0].segs), "64");
	CHECK(qual_diff(&s, &t, out, 8) == 1 &&
	      !strcmp(out[0], "namespace 1: max segments 127 under nvme, 64 under ssdtune"),
	      "qualify: fewer segments under ssdtune");
	view(&t, "ssdtune");
	snprintf(t.ns[0].wcache, sizeof(t.ns[0].wcache), "write through");
	CHECK(qual_diff(&s, &t, out, 8) == 1 &&
	      !strcmp(out[0], "namespace 1: write cache write back under nvme, write through under ssdtune"),
	      "qualify: the write cache differs");
	/* a namespace only stock serves */
	view(&t, "ssdtune");
	s.nns = 2;
	s.ns[1] = s.ns[0];
	s.ns[1].nsid = 2;
	snprintf(s.ns[1].disk, sizeof(s.ns[1].disk), "nvme0n2");
	CHECK(qual_diff(&s, &t, out, 8) == 1 &&
	      !strcmp(out[0], "namespace 2: served by nvme (nvme0n2), not by ssdtune"),
	      "qualify: a namespace stock serves and ssdtune does not");
	/* HMB given by stock only */
	view(&s, "nvme");
	s.hmpre = 64 << 20;
	snprintf(s.hmb, sizeof(s.hmb), "yes");
	snprintf(t.hmb, sizeof(t.hmb), "0");
	CHECK(qual_diff(&s, &t, out, 8) == 1 && strstr(out[0], "Host Memory Buffer: given under nvme, none under ssdtune (the drive asks for 65536 KiB)"),
	      "qualify: HMB under stock only");
	snprintf(t.hmb, sizeof(t.hmb), "67108864");
	CHECK(qual_diff(&s, &t, out, 8) == 0, "qualify: HMB under both");
	/* APST tables: decoded, then compared */
	table[0] = (3ull << 3) | (100ull << 8);
	table[3] = (4ull << 3) | (2000ull << 8);
	qual_apst_decode(table, 4, &s);
	CHECK(s.napst == 2 && s.apst[0].from == 0 && s.apst[0].to == 3 &&
	      s.apst[0].ms == 100 && s.apst[1].from == 3 && s.apst[1].to == 4 &&
	      s.apst[1].ms == 2000, "qualify: APST table decoded");
	s.apst_known = t.apst_known = true;
	s.apst_on = t.apst_on = true;
	qual_apst_decode(table, 4, &t);
	CHECK(qual_diff(&s, &t, out, 8) == 0, "qualify: the same APST table");
	table[3] = 0;
	qual_apst_decode(table, 4, &t);
	CHECK(qual_diff(&s, &t, out, 8) == 1 &&
	      !strcmp(out[0], "APST: on with 2 entries under nvme, on with 1 under ssdtune"),
	      "qualify: APST tables differ");
	/* more differences than room: counted, not written past @max */
	CHECK(qual_diff(&s, &t, out, 0) == 1, "qualify: counted beyond max");
}
