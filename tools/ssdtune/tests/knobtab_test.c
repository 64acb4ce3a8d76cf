// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the knob table (knobtab.c): lookups by name, the list of
 * names, the files a write changes, and the check of a value against a
 * knob's words or range (what `set` and the configuration file refuse).
 */
#include <errno.h>
#include <string.h>

#include "tap.h"
#include "tests.h"
#include "lib/knobtab.h"

/* Does @name's knob refuse @v, with @why naming it and containing @what? */
static int refused(const char *name, const char *v, const char *what)
{
	const struct knob *k = knob_find(name, strlen(name));
	char why[256] = "";

	if (!k || knob_check(k, v, why, sizeof(why)) != -EINVAL)
		return 0;
	if (strncmp(why, name, strlen(name)) || !strstr(why, what)) {
		printf("# why: %s\n", why);
		return 0;
	}
	return 1;
}

static int accepted(const char *name, const char *v)
{
	const struct knob *k = knob_find(name, strlen(name));
	char why[256] = "";

	return k && knob_check(k, v, why, sizeof(why)) == 0 && !why[0];
}

/* Does knob @name save exactly the files @files, in order, NULL ended? */
static int saves(const char *name, const char *const *files)
{
	const struct knob *k = knob_find(name, strlen(name));
	int i;

	if (!k)
		return 0;
	for (i = 0; files[i]; i++)
		if (!k->saves[i] || strcmp(k->saves[i], files[i]))
			return 0;
	return !k->saves[i];
}

static void test_find(void)
{
	const char *arg = "power_limit_mw=8000";
	const struct knob *k = knob_find(arg, strcspn(arg, "="));
	char all[512], small[12];

	CHECK(k && !strcmp(k->name, "power_limit_mw") && k->type == KNOB_UINT &&
	      k->max == SSDTUNE_POWER_MAX_MW,
	      "knob_find: the name before '=' of KNOB=VALUE, with its type and range");
	CHECK(!knob_find("coalesce", 8) && !knob_find("coalesce_modes", 14) &&
	      !knob_find("Coalesce_mode", 13) && !knob_find("", 0),
	      "knob_find: a prefix, a longer name, another case or nothing is no knob");
	CHECK(!strcmp(KNOB_FILE(poll_queues), "poll_queues") &&
	      knob_find(KNOB_FILE(apst_max_latency_us), strlen("apst_max_latency_us")),
	      "KNOB_FILE names a file the table finds");
	knob_names(all, sizeof(all));
	CHECK(!strcmp(all, "coalesce_mode, coalesce_threshold, coalesce_time_us, "
		      "coalesce_profile, power_limit_mw, power_limit_mode, energy_model, "
		      "apst_max_latency_us, poll_queues"),
	      "knob_names: every knob of the driver's table, in its order");
	memset(small, 'x', sizeof(small));
	knob_names(small, sizeof(small));
	CHECK(!strcmp(small, "coalesce_mo"), "knob_names: cut to the buffer, terminated");
}

static void test_saves(void)
{
	static const char *const coalesce[] = {
		"coalesce_mode", "coalesce_threshold", "coalesce_time_us", NULL,
	};
	static const char *const power[] = { "power_limit_mw", NULL };

	CHECK(saves("coalesce_profile", coalesce) && saves("coalesce_threshold", coalesce),
	      "knobtab: a coalescing knob saves the three coalescing settings, never the profile");
	CHECK(saves("power_limit_mw", power) && !saves("power_limit_mode", power),
	      "knobtab: a power knob saves its own file");
}

static void test_check(void)
{
	CHECK(accepted("coalesce_mode", "host") && accepted("coalesce_profile", "adaptive") &&
	      accepted("power_limit_mode", "auto"),
	      "knob_check: a word of the knob's list");
	CHECK(refused("coalesce_mode", "latency", "must be one of off, hw, host, auto, not 'latency'") &&
	      refused("coalesce_profile", "Latency", "not 'Latency'") &&
	      refused("power_limit_mode", "", "not ''"),
	      "knob_check: another knob's word, another case, nothing: refused, the words listed");
	CHECK(accepted("coalesce_threshold", "0") && accepted("coalesce_threshold", "256") &&
	      accepted("poll_queues", "64") && accepted("apst_max_latency_us", "100000000"),
	      "knob_check: a whole number from 0 to the knob's maximum");
	CHECK(refused("coalesce_threshold", "257", "must be a whole number 0..256, not '257'") &&
	      refused("poll_queues", "65", "0..64") &&
	      refused("power_limit_mw", "1000001", "0..1000000"),
	      "knob_check: one over the maximum is refused with the range");
	CHECK(refused("coalesce_time_us", "", "whole number") &&
	      refused("coalesce_time_us", "-1", "whole number") &&
	      refused("coalesce_time_us", "+1", "whole number") &&
	      refused("coalesce_time_us", " 1", "whole number") &&
	      refused("coalesce_time_us", "1 ", "whole number") &&
	      refused("coalesce_time_us", "0x10", "whole number") &&
	      refused("coalesce_time_us", "1.5", "whole number") &&
	      refused("power_limit_mw", "99999999999999999999999", "whole number"),
	      "knob_check: empty, signs, blanks, hex, fractions and overflow refused");
	CHECK(accepted("energy_model", "idle=5 active=20") &&
	      refused("energy_model", "", "needs a one-line value") &&
	      refused("energy_model", "a\nb", "needs a one-line value"),
	      "knob_check: a text knob takes one non-empty line");
}

void test_knobtab(void)
{
	test_find();
	test_saves();
	test_check();
}
