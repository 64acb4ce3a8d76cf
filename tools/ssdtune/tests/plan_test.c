// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the plan as data (plan.c): the profiles by name and their
 * rules, items appended with copied strings, the keys things are saved
 * under, and a plan freed back to empty.
 */
#include <string.h>

#include "tap.h"
#include "tests.h"
#include "lib/plan.h"

static void test_plan_profiles(void)
{
	int i, named = 0;

	CHECK(plan_profile_parse("throughput") == PROFILE_THROUGHPUT &&
	      plan_profile_parse("fast") == -1 && plan_profile_parse("") == -1,
	      "profiles parse by name, unknown ones are refused");
	for (i = 0; i < PROFILE_COUNT; i++)
		named += plan_profile_parse(plan_profile_name(i)) == i &&
			 !strcmp(plan_rules(i)->name, plan_profile_name(i));
	CHECK(named == PROFILE_COUNT, "every profile's name parses back to it");
	CHECK(!strcmp(plan_profile_name(-1), "?") &&
	      !strcmp(plan_profile_name(PROFILE_COUNT), "?"),
	      "a profile out of range is named ?");
	CHECK(plan_latency_bound_us(PROFILE_LATENCY) == 2 &&
	      plan_latency_bound_us(PROFILE_BALANCED) == -1 &&
	      plan_rules(PROFILE_LATENCY)->latency_us == 2,
	      "latency bounds C-state exit latency at 2 us; balanced sets none");
	CHECK(!plan_rules(PROFILE_BALANCED)->governor &&
	      !strcmp(plan_rules(PROFILE_IOPS)->governor, "performance") &&
	      !strcmp(plan_rules(PROFILE_LATENCY)->coalesce, "off") &&
	      plan_rules(PROFILE_LATENCY)->irq_local && !plan_rules(PROFILE_IOPS)->irq_local,
	      "the rules: balanced leaves the governor, iops sets performance, latency neither coalesces nor moves a vector off its queue");
}

static void test_plan_items(void)
{
	char key[128], buf[64];
	struct plan p;
	char path[] = "/sys/x";

	memset(&p, 0, sizeof(p));
	CHECK(!plan_add(&p, PLAN_SET, NULL, path, "a", "b", "why %d", 7) &&
	      !plan_add(&p, PLAN_NOTE, "note x", "", "", "", "%s", "only said"),
	      "two items appended");
	path[1] = 'S';
	CHECK(p.nitems == 2 && p.items[0].kind == PLAN_SET &&
	      !strcmp(p.items[0].key, "/sys/x") && !strcmp(p.items[0].path, "/sys/x") &&
	      !strcmp(p.items[0].old, "a") && !strcmp(p.items[0].val, "b") &&
	      !strcmp(p.items[0].reason, "why 7") && p.items[0].vector == -1 &&
	      !strcmp(p.items[1].key, "note x"),
	      "an item keeps copies of its strings; the key is the path unless given");
	plan_irq_key("0000:41:00.0", 3, key, sizeof(key));
	CHECK(!strcmp(key, "irq 0000:41:00.0 vector 3"), "an interrupt vector's key");
	plan_ctrl_key("S1", "M", "poll_queues", key, sizeof(key));
	CHECK(!strcmp(key, "ssdtune serial S1 model M poll_queues"),
	      "a controller file's key names its identity, not ssdtN");
	plan_partition_value("2-3", buf, sizeof(buf));
	CHECK(!strcmp(buf, "cpus=2-3 partition=isolated"), "a partition's saved value");
	plan_free(&p);
	CHECK(!p.nitems && !p.items && !p.cap, "plan_free leaves an empty plan");
	plan_free(&p);
	CHECK(!p.nitems, "freeing an empty plan is safe");
}

void test_plan(void)
{
	test_plan_profiles();
	test_plan_items();
}
