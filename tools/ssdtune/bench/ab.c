// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune bench --ab PROFILE: the same measurement before and after
 * `ssdtune apply --profile PROFILE DEVICE` (the bench's device only, with
 * a state directory of its own, so revert puts back what the admin had),
 * `ssdtune revert` after it, also when the tuned run was interrupted, and
 * the delta table of the two reports.  apply and revert run as
 * subprocesses, so bench has no code dependency on them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/engine.h"
#include "lib/state.h"

/* `ssdtune A B C [DEVICE]` as a subprocess, with --state-dir @dir.
 * SSDTUNE_BENCH_SELF names another program (the host tests' stand-in). */
static int self(const char *dir, const char *a, const char *b, const char *c,
		const char *dev)
{
	const char *exe = getenv("SSDTUNE_BENCH_SELF");
	char *argv[10] = { (char *)(exe && *exe ? exe : "/proc/self/exe"),
			   (char *)a };
	int n = 2;

	if (b)
		argv[n++] = (char *)b;
	if (b && c)
		argv[n++] = (char *)c;
	if (dir) {
		argv[n++] = "--state-dir";
		argv[n++] = (char *)dir;
	}
	if (dev && dev[0])
		argv[n++] = (char *)dev;
	argv[n] = NULL;
	return sys_spawn(argv, NULL, NULL);
}

int bench_ab_ready(const struct bench *b, struct lib_err *err)
{
	(void)b;
	if (self(NULL, "apply", "--help", NULL, NULL) ||
	    self(NULL, "revert", "--help", NULL, NULL))
		return lib_errf(err, ENOENT, "bench --ab needs the 'apply' and 'revert' commands, which this ssdtune does not have");
	return 0;
}

int bench_ab(struct bench *b, const char *profile, const char *base,
	     const char *tuned, struct json_object *out, struct lib_err *err)
{
	char pa[PATH_MAX], pb[PATH_MAX], dir[PATH_MAX];
	struct json_object *rep = NULL, *cmp;
	int rc, rrc;

	/* A state directory of the bench's own (unless --state-dir): its
	 * revert restores what the admin had, applied profile or not.  It
	 * sits in apply's (STATE/bench-ab), which apply checks as its own;
	 * never beside the output, which may be anywhere. */
	if (b->set->state_dir) {
		snprintf(dir, sizeof(dir), "%s", b->set->state_dir);
	} else {
		if (mkdir(state_dir_env(), 0700) && errno != EEXIST)
			return lib_errf(err, errno, "cannot create state directory %s: %s",
					state_dir_env(), strerror(errno));
		snprintf(dir, sizeof(dir), "%s/bench-ab", state_dir_env());
	}
	json_object_object_add(out, "ab_state_dir", json_object_new_string(dir));
	rc = bench_run(b, base, &rep, err);
	json_object_put(rep);
	if (rc)
		return rc;
	/* only the bench's device */
	rc = self(dir, "apply", "--profile", profile, b->dev.bdf);
	if (rc) {
		/* a killed apply saved what it changed: put that back */
		self(dir, "revert", NULL, NULL, NULL);
		return lib_errf(err, EIO, "ssdtune apply --profile %s failed (exit %d) and was reverted; the baseline is in %s",
				profile, rc, base);
	}
	b->ab_state_dir = dir;	/* placed as the profile just applied plans */
	rc = bench_run(b, tuned, &rep, err);
	b->ab_state_dir = NULL;
	json_object_put(rep);
	rrc = self(dir, "revert", NULL, NULL, NULL);
	if (rc && rrc) {
		char first[sizeof(err->msg)];

		snprintf(first, sizeof(first), "%s", err->msg);
		return lib_errf(err, EIO, "%s; and ssdtune revert --state-dir %s failed (exit %d)",
				first, dir, rrc);
	}
	if (rc)
		return rc;
	if (rrc)
		return lib_errf(err, EIO, "ssdtune revert --state-dir %s failed (exit %d) after the tuned run",
				dir, rrc);
	snprintf(pa, sizeof(pa), "%s/bench.json", base);
	snprintf(pb, sizeof(pb), "%s/bench.json", tuned);
	cmp = json_object_new_object();
	json_object_object_add(out, "compare", cmp);
	return bench_compare_files(pa, pb, cmp, err);
}
