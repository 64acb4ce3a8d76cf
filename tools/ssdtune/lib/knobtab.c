// SPDX-License-Identifier: GPL-2.0
/* The knob table and the checks of a value against it (knobtab.h).  Pure. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/knobtab.h"
#include "uapi/linux/ssdtune.h"

/* The words and ranges: the driver's own table (ssdtune_knobs.h). */
static const char *const coalesce_modes[] = {
#define SSDTUNE_COALESCE_MODE(id, word) word,
#include "uapi/linux/ssdtune_knobs.h"
	NULL,
};
static const char *const coalesce_profiles[] = {
#define SSDTUNE_COALESCE_PROFILE(id, word) word,
#include "uapi/linux/ssdtune_knobs.h"
	NULL,
};
static const char *const power_modes[] = {
#define SSDTUNE_POWER_MODE(id, word) word,
#include "uapi/linux/ssdtune_knobs.h"
	NULL,
};

/*
 * The files a write changes: any coalescing knob sets the three the driver
 * keeps (coalesce_profile is only their name), a power knob itself.
 */
static const char *const coalesce_files[] = {
	KNOB_FILE(coalesce_mode), KNOB_FILE(coalesce_threshold),
	KNOB_FILE(coalesce_time_us), NULL,
};
static const char *const power_limit_files[] = { KNOB_FILE(power_limit_mw), NULL };
static const char *const power_mode_files[] = { KNOB_FILE(power_limit_mode), NULL };
static const char *const energy_files[] = { KNOB_FILE(energy_model), NULL };
static const char *const apst_files[] = { KNOB_FILE(apst_max_latency_us), NULL };
static const char *const poll_files[] = { KNOB_FILE(poll_queues), NULL };

/* Per knob of the table: its words and its files (a new knob needs both). */
#define WORDS_coalesce_mode		coalesce_modes
#define WORDS_coalesce_threshold	NULL
#define WORDS_coalesce_time_us		NULL
#define WORDS_coalesce_profile		coalesce_profiles
#define WORDS_power_limit_mw		NULL
#define WORDS_power_limit_mode		power_modes
#define WORDS_energy_model		NULL
#define WORDS_apst_max_latency_us	NULL
#define WORDS_poll_queues		NULL
#define SAVES_coalesce_mode		coalesce_files
#define SAVES_coalesce_threshold	coalesce_files
#define SAVES_coalesce_time_us		coalesce_files
#define SAVES_coalesce_profile		coalesce_files
#define SAVES_power_limit_mw		power_limit_files
#define SAVES_power_limit_mode		power_mode_files
#define SAVES_energy_model		energy_files
#define SAVES_apst_max_latency_us	apst_files
#define SAVES_poll_queues		poll_files

static const struct knob knobs[] = {
#define SSDTUNE_KNOB(file, kind, max) \
	{ #file, KNOB_##kind, WORDS_##file, max, SAVES_##file },
#include "uapi/linux/ssdtune_knobs.h"
};

#define NKNOBS (sizeof(knobs) / sizeof(knobs[0]))
_Static_assert(NKNOBS == KNOB_NR, "one enum knob_id per knob");

const struct knob *knob_find(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < NKNOBS; i++)
		if (strlen(knobs[i].name) == len && !strncmp(knobs[i].name, name, len))
			return &knobs[i];
	return NULL;
}

void knob_names(char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < NKNOBS && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "",
				      knobs[i].name);
}

static void word_list(const char *const *w, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (; *w && n < len; w++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", *w);
}

int knob_check(const struct knob *k, const char *v, char *why, size_t len)
{
	const char *const *w;
	char words[128], *end;
	unsigned long n;

	switch (k->type) {
	case KNOB_WORD:
		for (w = k->words; *w; w++)
			if (!strcmp(*w, v))
				return 0;
		word_list(k->words, words, sizeof(words));
		snprintf(why, len, "%s must be one of %s, not '%s'", k->name, words, v);
		return -EINVAL;
	case KNOB_UINT:
		errno = 0;
		n = strtoul(v, &end, 10);
		if (v[0] < '0' || v[0] > '9' || *end || errno || n > k->max) {
			snprintf(why, len, "%s must be a whole number 0..%lu, not '%s'",
				 k->name, k->max, v);
			return -EINVAL;
		}
		return 0;
	case KNOB_TEXT:
		if (!v[0] || strpbrk(v, "\n")) {
			snprintf(why, len, "%s needs a one-line value", k->name);
			return -EINVAL;
		}
		return 0;
	}
	return 0;
}

