// SPDX-License-Identifier: GPL-2.0
/*
 * The unit tests of ssdtune's library, one file a lib file (tests.h),
 * run in this order as one TAP stream on stdout.
 */
#include "tap.h"
#include "tests.h"
#include "lib/state.h"

int main(void)
{
	/* the saved states of the tests name files of the scratch tree */
	state_allow_under(scratch_root());
	test_bdf();
	test_parse();
	test_cpuset();
	test_pcie();
	test_irqvec();
	test_ssdtdev();
	test_plan();
	test_planner();
	test_planner_size();
	test_plangroup();
	test_config();
	test_ctrlview();
	test_knobtab();
	test_knobs();
	test_state();
	test_tune();
	test_devname();
	test_format();
	test_prometheus();
	test_dropin();
	test_cgroup();
	test_blkdev();
	test_trust();
	scratch_remove();
	return tap_done();
}
