// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune bench: one round.  fio runs the cell's job file once, its JSON
 * kept in raw/; the host is sampled before and after, so CPU time,
 * interrupts per I/O, temperature and throttling belong to this round.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/engine.h"
#include "bench/stats.h"

int bench_write_text(const char *path, const char *text)
{
	size_t len = strlen(text);
	int fd, bad;

	/* a new file, never through a link (the directory is root's) */
	if (unlink(path) && errno != ENOENT)
		return -errno;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	bad = write(fd, text, len) != (ssize_t)len;
	bad |= close(fd) != 0;
	return bad ? -EIO : 0;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0, cap = 0, r;

	if (!f)
		return NULL;
	do {
		if (n + 4096 + 1 > cap) {
			char *b = realloc(buf, cap = cap * 2 + 8192);

			if (!b) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = b;
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
	} while (r);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* fio on @jobfile, its output (@format) to @raw and read into *@json. */
static int spawn_fio(const char *what, const char *jobfile, const char *raw,
		     const char *format, char **json, struct lib_err *err)
{
	char out_arg[PATH_MAX + 16], err_path[PATH_MAX + 8], line[256];
	char *argv[] = { "fio", (char *)format, out_arg, (char *)jobfile, NULL };
	int rc;

	snprintf(out_arg, sizeof(out_arg), "--output=%s", raw);
	snprintf(err_path, sizeof(err_path), "%s.err", raw);
	rc = sys_spawn(argv, NULL, err_path);
	bench_first_line(err_path, line, sizeof(line));
	if (rc)
		return lib_errf(err, EIO, "fio failed (%s, exit %d)%s%s", what,
				rc, line[0] ? ": " : "", line);
	*json = slurp(raw);
	if (!*json)
		return lib_errf(err, EIO, "fio left no output in %s (%s)", raw, what);
	return 0;
}

int bench_fio_run_groups(const char *what, const char *jobfile,
			 const char *raw, int n, struct fio_figures *dev,
			 struct fio_figures *all, struct lib_err *err)
{
	char why[128], *json;
	int rc = spawn_fio(what, jobfile, raw, "--output-format=json+", &json, err);

	if (rc)
		return rc;
	rc = fio_parse_groups(json, n, dev, all, why, sizeof(why));
	free(json);
	if (rc)
		return lib_errf(err, EIO, "%s (%s, %s)", why, what, raw);
	return 0;
}

int bench_fio_run(const char *what, const char *jobfile, const char *raw,
		  struct fio_figures *f, struct lib_err *err)
{
	char why[128], *json;
	int rc = spawn_fio(what, jobfile, raw, "--output-format=json", &json, err);

	if (rc)
		return rc;
	rc = fio_parse(json, f, why, sizeof(why));
	free(json);
	if (rc)
		return lib_errf(err, EIO, "%s (%s, %s)", why, what, raw);
	return 0;
}

void bench_add_num(struct json_object *o, const char *key, double v)
{
	json_object_object_add(o, key, bench_jdouble(v));
}

void bench_round_tail(struct json_object *r, struct json_object *mean,
		      const char *why, const char *raw,
		      const struct fio_figures *f)
{
	json_object_object_add(r, "suspect", json_object_new_boolean(why[0]));
	json_object_object_add(r, "suspect_reason",
			       why[0] ? json_object_new_string(why) : NULL);
	json_object_object_add(r, "raw", json_object_new_string(raw));
	bench_dir_json(r, mean, "read_", &f->read);
	bench_dir_json(r, mean, "write_", &f->write);
	json_object_object_add(r, "meaningful", mean);
}

void bench_dir_json(struct json_object *r, struct json_object *meaningful,
		    const char *prefix, const struct fio_dir *d)
{
	bool have = d->ios > 0;
	char key[64];
	int i;

	snprintf(key, sizeof(key), "%siops", prefix);
	bench_add_num(r, key, have ? d->iops : NAN);
	snprintf(key, sizeof(key), "%smbps", prefix);
	bench_add_num(r, key, have ? d->bw_bytes / 1e6 : NAN);
	snprintf(key, sizeof(key), "%sclat_mean_us", prefix);
	bench_add_num(r, key, have ? d->clat_mean_us : NAN);
	for (i = 0; i < FIO_NPCT; i++) {
		snprintf(key, sizeof(key), "%sclat_%s_us", prefix, fio_pct_names[i]);
		bench_add_num(r, key, have ? d->pct_us[i] : NAN);
		json_object_object_add(meaningful, key, json_object_new_boolean(
			have && !isnan(d->pct_us[i]) &&
			bench_pct_meaningful(fio_pcts[i], d->samples)));
	}
	snprintf(key, sizeof(key), "%sclat_max_us", prefix);
	bench_add_num(r, key, have ? d->max_us : NAN);
	if (prefix[0]) {
		snprintf(key, sizeof(key), "%sios", prefix);
		json_object_object_add(r, key, json_object_new_int64(d->ios));
	}
}

/* Why the round's figures may not be the drive's own, or "". */
void bench_suspect_reason(const struct bench *b, const struct host_sample *a,
			  const struct host_sample *s, char *why, size_t len)
{
	if (s->have_temp && s->temp_mc >= b->temp_warn_mc)
		snprintf(why, len,
			 "temperature %.1f C reached the %.2f C warning threshold (%s)",
			 s->temp_mc / 1000.0, b->temp_warn_mc / 1000.0,
			 b->temp_warn_source);
	else if (a->have_throttle && s->have_throttle &&
		 s->throttle_events > a->throttle_events)
		snprintf(why, len, "the power budget throttled I/O %lld times",
			 s->throttle_events - a->throttle_events);
}

struct json_object *bench_round_json(const struct bench *b,
				     const struct host_sample *a,
				     const struct host_sample *s,
				     const struct fio_figures *f,
				     const char *raw, int round)
{
	struct json_object *r = json_object_new_object();
	struct json_object *mean = json_object_new_object();
	double ticks, busy, ios = (double)f->all.ios;
	char why[256] = "";

	ticks = (double)(s->cpu_total - a->cpu_total);
	busy = (double)(s->cpu_busy - a->cpu_busy);
	json_object_object_add(r, "round", json_object_new_int(round + 1));
	bench_dir_json(r, mean, "", &f->all);
	bench_add_num(r, "cpu_pct", ticks > 0 ? busy / ticks * 100 : NAN);
	bench_add_num(r, "cpu_us_per_io",
		      ios > 0 ? busy / sysconf(_SC_CLK_TCK) * 1e6 / ios : NAN);
	bench_add_num(r, "irq_per_io", a->have_irqs && s->have_irqs && ios > 0 ?
		      (double)(s->irqs - a->irqs) / ios : NAN);
	json_object_object_add(r, "ios", json_object_new_int64(f->all.ios));
	bench_add_num(r, "temperature_c", s->have_temp ? s->temp_mc / 1000.0 : NAN);
	bench_add_num(r, "power_estimate_mw", s->have_power ? (double)s->power_mw : NAN);
	bench_add_num(r, "throttle_events", a->have_throttle && s->have_throttle ?
		      (double)(s->throttle_events - a->throttle_events) : NAN);
	bench_suspect_reason(b, a, s, why, sizeof(why));
	bench_round_tail(r, mean, why, raw, f);
	return r;
}

int bench_round(const struct bench *b, const char *dir, const char *id,
		int round, struct json_object **out, struct lib_err *err)
{
	char jobfile[PATH_MAX], raw[PATH_MAX], what[96];
	struct host_sample a, s;
	struct fio_figures f;
	int rc;

	snprintf(jobfile, sizeof(jobfile), "%s/jobs/%s.fio", dir, id);
	snprintf(raw, sizeof(raw), "%s/raw/%s-r%02d.json", dir, id, round + 1);
	snprintf(what, sizeof(what), "%s round %d", id, round + 1);
	host_sample(&b->dev, &a);
	rc = bench_fio_run(what, jobfile, raw, &f, err);
	host_sample(&b->dev, &s);
	if (rc)
		return rc;
	*out = bench_round_json(b, &a, &s, &f, raw, round);
	return 0;
}
