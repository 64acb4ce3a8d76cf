// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune bench --ab PROFILE: the same measurement before and after
 * `ssdtune apply --profile PROFILE`, `ssdtune revert` after it, and the
 * delta table of the two reports.  apply and revert run as subprocesses,
 * so bench has no code dependency on them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/engine.h"

/* `ssdtune A B C` as a subprocess.  SSDTUNE_BENCH_SELF names another
 * program (the host tests' stand-in). */
static int self(const struct bench *bench, const char *a, const char *b,
		const char *c)
{
	const char *exe = getenv("SSDTUNE_BENCH_SELF");
	const char *dir = bench->set->state_dir;
	char *argv[8] = { (char *)(exe && *exe ? exe : "/proc/self/exe"),
			  (char *)a };
	int n = 2;

	if (b)
		argv[n++] = (char *)b;
	if (b && c)
		argv[n++] = (char *)c;
	/* apply and revert: the state directory bench was given, if any */
	if (dir && strcmp(b ? b : "", "--help")) {
		argv[n++] = "--state-dir";
		argv[n++] = (char *)dir;
	}
	argv[n] = NULL;
	return bench_spawn(argv, NULL, NULL);
}

int bench_ab_ready(const struct bench *b, struct lib_err *err)
{
	if (self(b, "apply", "--help", NULL) || self(b, "revert", "--help", NULL))
		return lib_errf(err, ENOENT, "bench --ab needs the 'apply' and 'revert' commands, which this ssdtune does not have");
	return 0;
}

int bench_ab(struct bench *b, const char *profile, const char *base,
	     const char *tuned, struct json_object *out, struct lib_err *err)
{
	char pa[PATH_MAX], pb[PATH_MAX];
	struct json_object *rep = NULL, *cmp;
	int rc, rrc;

	rc = bench_run(b, base, &rep, err);
	json_object_put(rep);
	if (rc)
		return rc;
	rc = self(b, "apply", "--profile", profile);
	if (rc)
		return lib_errf(err, EIO, "ssdtune apply --profile %s failed (exit %d); the baseline is in %s",
				profile, rc, base);
	rc = bench_run(b, tuned, &rep, err);
	json_object_put(rep);
	rrc = self(b, "revert", NULL, NULL);
	if (rc)
		return rc;
	if (rrc)
		return lib_errf(err, EIO, "ssdtune revert failed (exit %d) after the tuned run",
				rrc);
	snprintf(pa, sizeof(pa), "%s/bench.json", base);
	snprintf(pb, sizeof(pb), "%s/bench.json", tuned);
	cmp = json_object_new_object();
	json_object_object_add(out, "compare", cmp);
	return bench_compare_files(pa, pb, cmp, err);
}
