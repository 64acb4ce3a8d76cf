// SPDX-License-Identifier: GPL-2.0
/* Unit tests of CPU sets (cpuset.c): the kernel's cpulists and masks. */
#include <string.h>

#include "tap.h"
#include "tests.h"
#include "lib/cpuset.h"

static void test_cpulist(void)
{
	const int a[] = { 0, 1, 2, 3, 8, 10, 11 }, b[] = { 5 };
	const int c[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 20 };
	char buf[64], small[6];

	CHECK(!strcmp(cpulist_format(a, 7, buf, sizeof(buf)), "0-3,8,10-11"),
	      "cpulist_format folds runs into ranges");
	CHECK(!strcmp(cpulist_format(b, 1, buf, sizeof(buf)), "5") &&
	      !strcmp(cpulist_format(a, 0, buf, sizeof(buf)), ""),
	      "cpulist_format writes a single CPU and an empty list");
	CHECK(!strcmp(cpulist_format(c, 15, small, sizeof(small)), "0-13"),
	      "cpulist_format drops what does not fit, never a partial range");
}

static void test_sets(void)
{
	struct cpuset s;
	char buf[64];

	cpuset_init(&s, 16);
	CHECK(!cpuset_add_list(&s, "0-3,8\n") && cpuset_count(&s) == 5,
	      "cpuset_add_list reads ranges, singles and a trailing newline");
	CHECK(!strcmp(cpuset_format(&s, buf, sizeof(buf)), "0-3,8"),
	      "cpuset_format writes the kernel's cpulist");
	CHECK(cpuset_add_list(&s, "3-1") == -1 && cpuset_add_list(&s, "1,,2") == -1 &&
	      cpuset_add_list(&s, "16") == -1 && cpuset_add_list(&s, "2x") == -1,
	      "cpuset_add_list refuses reversed ranges, empty items, CPUs out of range, junk");
	cpuset_clear(&s);
	CHECK(!cpuset_add_list(&s, "") && !cpuset_count(&s), "an empty cpulist is an empty set");
	CHECK(cpulist_same("1,2,3", "1-3\n", 16) && !cpulist_same("1-3", "1-4", 16),
	      "cpulist_same compares sets, not spellings");
	cpuset_free(&s);

	cpuset_init(&s, 96);
	CHECK(!cpuset_add_mask(&s, "00000000,00000001,0000000f\n") &&
	      !strcmp(cpuset_format(&s, buf, sizeof(buf)), "0-3,32"),
	      "cpuset_add_mask reads the kernel's words, least significant last");
	CHECK(!strcmp(cpuset_format_mask(&s, "ffffffff,ffffffff,ffffffff\n", buf, sizeof(buf)),
		      "00000000,00000001,0000000f"),
	      "cpuset_format_mask writes as many words as the file it imitates");
	cpuset_clear(&s);
	cpuset_add_list(&s, "0-2,5");
	CHECK(!strcmp(cpuset_format_mask(&s, "ff", buf, sizeof(buf)), "27") &&
	      !strcmp(cpuset_format_mask(&s, "3f,ffffffff", buf, sizeof(buf)), "00,00000027"),
	      "cpuset_format_mask keeps the first word's width");
	CHECK(cpuset_add_mask(&s, "") == -1 && cpuset_add_mask(&s, "xf") == -1 &&
	      cpuset_add_mask(&s, "1,") == -1 && cpuset_add_mask(&s, "123456789") == -1,
	      "cpuset_add_mask refuses empty, junk, empty words and long words");
	cpuset_free(&s);
}

void test_cpuset(void)
{
	test_cpulist();
	test_sets();
}
