// SPDX-License-Identifier: GPL-2.0
/* Unit tests of a plan's grouping for display (plangroup.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tests.h"
#include "lib/plangroup.h"
#include "lib/planner.h"

/* plan_group(): the same file of many CPUs set alike is one group, the
 * vectors of one function skipped alike another; the rest stand alone. */
void test_plangroup(void)
{
	struct plan p = { 0 };
	struct plan_group *g = NULL;
	char path[128];
	int i, n = 0;

	for (i = 2; i <= 3; i++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpuidle/state2/disable", i);
		plan_add(&p, PLAN_SET, path, path, "0", "1", "C1E: exit latency 10 us > 2 us");
	}
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu5/cpuidle/state2/disable");
	plan_add(&p, PLAN_SET, path, path, "1", "0", "C1E: exit latency 10 us > 2 us");
	for (i = 1; i <= 3; i++) {
		snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", 40 + i);
		plan_add(&p, PLAN_SKIP, path, path, "7", "", "nvme0q%d (0000:01:00.0 vector %d): not steerable",
			 i, i);
	}
	for (i = 2; i <= 3; i++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpufreq/policy%d/scaling_governor", i);
		plan_add(&p, PLAN_KEEP, path, path, "performance", "performance",
			 "CPUs %d: no frequency scaling", i);
	}
	CHECK(!plan_group(&p, &g, &n) && n == 4, "plan_group: 8 items, 4 groups");
	CHECK(n == 4 && g[0].n == 2 && !strcmp(g[0].who, "CPUs 2-3") &&
	      !strcmp(g[0].what, "/sys/devices/system/cpu/cpuN/cpuidle/state2/disable") &&
	      !strcmp(g[0].reason, "C1E: exit latency 10 us > 2 us"),
	      "plan_group: a file of CPUs 2-3 set alike is one group");
	CHECK(n == 4 && g[1].n == 1 && g[1].first == 2,
	      "plan_group: another value for the same file stands alone");
	CHECK(n == 4 && g[2].n == 3 && !strcmp(g[2].what, "/proc/irq/N/smp_affinity_list") &&
	      !strcmp(g[2].who, "3 vectors of 0000:01:00.0 (1-3, IRQs 41-43)") &&
	      !strcmp(g[2].reason, "not steerable"),
	      "plan_group: skipped vectors of one function are one group with their count");
	CHECK(n == 4 && g[3].n == 2 && !strcmp(g[3].who, "CPUs 2-3") &&
	      !strcmp(g[3].reason, "no frequency scaling"),
	      "plan_group: cpufreq policies take their CPUs from the reason");
	free(g);
	plan_free(&p);
}
