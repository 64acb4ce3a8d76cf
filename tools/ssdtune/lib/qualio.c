// SPDX-License-Identifier: GPL-2.0
/* qualify's write test: one fio verify run per step; see qualio.h. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/qualio.h"
#include "lib/sysfs.h"

#define QUAL_IO_MAX_BS	(128u << 10)

int qual_io_ready(struct lib_err *err)
{
	const char *path = getenv("PATH");
	char dir[PATH_MAX], p[PATH_MAX];
	const char *s, *e;

	for (s = path ? path : "/usr/bin:/bin"; *s; s = *e ? e + 1 : e) {
		e = strchrnul(s, ':');
		snprintf(dir, sizeof(dir), "%.*s", (int)(e - s), s);
		sys_pathf(p, sizeof(p), "%s/fio", dir[0] ? dir : ".");
		if (!access(p, X_OK))
			return 0;
	}
	return lib_errf(err, ENOENT, "--write-test runs fio, which is not installed (apt install fio)");
}

static const struct qual_ns *ns_of(const struct qual_view *v, unsigned int nsid)
{
	int i;

	for (i = 0; i < v->nns; i++)
		if (!nsid || v->ns[i].nsid == nsid)
			return &v->ns[i];
	return NULL;
}

int qual_io_check(const struct qual_view *v, struct qual_io_range *r,
		  struct lib_err *err)
{
	const struct qual_ns *n = ns_of(v, r->nsid);
	unsigned long long lbs;

	if (!n && r->nsid)
		return lib_errf(err, EINVAL, "%s has no namespace %u under %s",
				v->ctrl, r->nsid, v->driver);
	if (!n)
		return lib_errf(err, EINVAL, "%s has no namespace under %s to write to",
				v->ctrl, v->driver);
	r->nsid = n->nsid;
	lbs = strtoull(n->lbs, NULL, 10);
	if (!n->bytes || !lbs)
		return lib_errf(err, EINVAL, "the size of namespace %u (%s) is not known",
				n->nsid, n->disk);
	if (r->off % lbs || r->len % lbs)
		return lib_errf(err, EINVAL,
				"--range %llu:%llu is not aligned to the %llu-byte blocks of namespace %u",
				r->off, r->len, lbs, n->nsid);
	if (r->off >= n->bytes || r->len > n->bytes - r->off)
		return lib_errf(err, EINVAL,
				"--range %llu:%llu ends beyond namespace %u (%llu bytes)",
				r->off, r->len, n->nsid, n->bytes);
	return 0;
}

/*
 * The disk a program opens for namespace disk @disk: itself, or for a
 * path disk of nvme's native multipath (nvmeXcZnY, no /dev node) the
 * head disk that lists it under multipath/.
 */
static void open_disk(const char *disk, char *out, size_t len)
{
	char p[PATH_MAX];
	struct dirent *e;
	DIR *d;

	sys_pathf(out, len, "%s", disk);
	sys_pathf(p, sizeof(p), "/dev/%s", disk);
	if (!access(p, F_OK) || !(d = opendir(SYS_BLOCK)))
		return;
	while ((e = readdir(d))) {
		sys_pathf(p, sizeof(p), SYS_BLOCK "/%s/multipath/%s", e->d_name, disk);
		if (!access(p, F_OK)) {
			sys_pathf(out, len, "%s", e->d_name);
			break;
		}
	}
	closedir(d);
}

/* The first line of @path that is not blank into @out ("" if none). */
static void first_line(const char *path, char *out, size_t len)
{
	char line[512];
	FILE *f = fopen(path, "r");

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[strspn(line, " \t")]) {
			sys_pathf(out, len, "%s", line + strspn(line, " \t"));
			break;
		}
	}
	fclose(f);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int qual_io_run(const struct qual_view *v, const struct qual_io_range *r,
		struct qual_io_step *st)
{
	char dir[] = "/tmp/ssdtune-qualify.XXXXXX";
	char file[PATH_MAX + 16], bs[32], off[40], size[40], seed[40];
	char out[PATH_MAX], errf[PATH_MAX], why[256];
	const struct qual_ns *n = ns_of(v, r->nsid);
	char *argv[24];
	unsigned int b = QUAL_IO_MAX_BS;
	struct stat sb;
	size_t used;
	double t0;
	int a = 0, rc;

	sys_pathf(st->driver, sizeof(st->driver), "%s", v->driver);
	st->ran = st->ok = false;
	st->seconds = 0;
	st->error[0] = st->disk[0] = st->command[0] = '\0';
	if (!n) {
		sys_pathf(st->error, sizeof(st->error), "namespace %u is not served by %s",
			  r->nsid, v->driver);
		return -1;
	}
	open_disk(n->disk, st->disk, sizeof(st->disk));
	sys_pathf(file, sizeof(file), "--filename=/dev/%s", st->disk);
	if (stat(file + strlen("--filename="), &sb) || !S_ISBLK(sb.st_mode)) {
		sys_pathf(st->error, sizeof(st->error), "/dev/%s is not a block device", st->disk);
		return -1;
	}
	while (b > 512 && r->len % b)
		b >>= 1;
	snprintf(bs, sizeof(bs), "--bs=%u", b);
	snprintf(off, sizeof(off), "--offset=%llu", r->off);
	snprintf(size, sizeof(size), "--size=%llu", r->len);
	/* "SDT1" or "SDT2", then the block's offset: a block of the other
	 * pattern, or of another offset, fails the comparison */
	snprintf(seed, sizeof(seed), "--verify_pattern=0x5344543%d%%o", st->pattern);
	argv[a++] = "fio";
	argv[a++] = "--name=ssdtune-qualify";
	argv[a++] = file;
	argv[a++] = "--direct=1";
	argv[a++] = "--ioengine=libaio";
	argv[a++] = "--iodepth=16";
	argv[a++] = "--rw=write";
	argv[a++] = bs;
	argv[a++] = off;
	argv[a++] = size;
	argv[a++] = seed;
	argv[a++] = "--verify=pattern";
	argv[a++] = "--do_verify=1";
	argv[a++] = "--verify_fatal=1";
	argv[a++] = "--verify_state_save=0";
	if (!st->write)
		argv[a++] = "--verify_only=1";
	argv[a] = NULL;
	for (a = 0, used = 0; argv[a] && used < sizeof(st->command); a++)
		used += (size_t)snprintf(st->command + used, sizeof(st->command) - used,
					 "%s%s", a ? " " : "", argv[a]);

	if (!mkdtemp(dir)) {
		sys_pathf(st->error, sizeof(st->error), "cannot make a directory in /tmp: %s",
			  strerror(errno));
		return -1;
	}
	sys_pathf(out, sizeof(out), "%s/fio.out", dir);
	sys_pathf(errf, sizeof(errf), "%s/fio.err", dir);
	t0 = now_s();
	rc = sys_spawn(argv, out, errf);
	st->seconds = now_s() - t0;
	st->ran = rc != 127;
	first_line(errf, why, sizeof(why));
	unlink(out);
	unlink(errf);
	rmdir(dir);
	if (rc == 127)
		sys_pathf(st->error, sizeof(st->error), "fio could not be run");
	else if (rc)
		sys_pathf(st->error, sizeof(st->error), "fio failed (exit %d)%s%s", rc,
			  why[0] ? ": " : "", why);
	st->ok = !rc;
	return rc ? -1 : 0;
}
