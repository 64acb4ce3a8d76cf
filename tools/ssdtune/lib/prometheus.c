// SPDX-License-Identifier: GPL-2.0
/* Prometheus metrics of the driver and the tuning (prometheus.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "lib/config.h"
#include "lib/ctrls.h"
#include "lib/knobtab.h"
#include "lib/prometheus.h"
#include "lib/ssdtdev.h"
#include "lib/sysfs.h"
#include "lib/tune.h"

/* The families, in the order they are printed. */
enum {
	M_INFO, M_STATE, M_IO_QUEUES, M_QUEUE_DEPTH,
	M_SUBMITTED, M_COMPLETED, M_INTERRUPTS, M_POLLED, M_RETRIES, M_STALE,
	M_CO_MODE, M_CO_ACTIVE, M_CO_PROFILE, M_CO_THRESHOLD, M_CO_TIME,
	M_PW_LIMIT, M_PW_MODE, M_PW_ACTIVE, M_PW_ESTIMATE, M_ENERGY, M_PW_STATE,
	M_THROTTLE_EVENTS, M_THROTTLED,
	M_TEMP, M_TEMP_WARN,
	M_TUNING_INFO, M_TUNING_APPLIED, M_TUNING_SETTINGS, M_TUNING_DRIFTED,
	M_TUNING_STALE, M_TUNING_DRIFT,
	M_CONFIG_ATTACHED,
	M_COUNT
};

static const struct {
	const char *name, *type, *help;
} families[M_COUNT] = {
	[M_INFO] = { "ssdtune_controller_info", "gauge",
		"An NVMe controller on ssdtune: its identity in the labels; value 1." },
	[M_STATE] = { "ssdtune_controller_state", "gauge",
		"Controller state (new, live, resetting, dead): 1 for the current one." },
	[M_IO_QUEUES] = { "ssdtune_controller_io_queues", "gauge",
		"I/O queue pairs in use." },
	[M_QUEUE_DEPTH] = { "ssdtune_controller_queue_depth", "gauge",
		"Entries of each I/O queue." },
	[M_SUBMITTED] = { "ssdtune_queue_submitted_commands_total", "counter",
		"Commands written to the submission queue (queue 0: admin)." },
	[M_COMPLETED] = { "ssdtune_queue_completions_total", "counter",
		"Completion entries reaped." },
	[M_INTERRUPTS] = { "ssdtune_queue_interrupts_total", "counter",
		"Interrupts taken by the queue's handler." },
	[M_POLLED] = { "ssdtune_queue_polled_completions_total", "counter",
		"Completions reaped outside the interrupt handler (moderation timer, timeout and reset paths)." },
	[M_RETRIES] = { "ssdtune_queue_retries_total", "counter",
		"Commands that failed with a status the controller allows to retry, sent again (max_retries)." },
	[M_STALE] = { "ssdtune_queue_stale_completions_total", "counter",
		"Completions of an earlier use of a command id (late or duplicated), dropped." },
	[M_CO_MODE] = { "ssdtune_coalesce_mode", "gauge",
		"Interrupt coalescing mode asked for (off, hw, host, auto): 1 for the current one." },
	[M_CO_ACTIVE] = { "ssdtune_coalesce_active", "gauge",
		"Interrupt coalescing in force (off, hw, host): 1 for the current one." },
	[M_CO_PROFILE] = { "ssdtune_coalesce_profile_info", "gauge",
		"The coalescing profile the settings match, in the profile label; value 1." },
	[M_CO_THRESHOLD] = { "ssdtune_coalesce_threshold_completions", "gauge",
		"Completions to aggregate before an interrupt (0: no threshold)." },
	[M_CO_TIME] = { "ssdtune_coalesce_time_seconds", "gauge",
		"Longest time a completion may be held back." },
	[M_PW_LIMIT] = { "ssdtune_power_limit_watts", "gauge",
		"Power limit (0: none)." },
	[M_PW_MODE] = { "ssdtune_power_limit_mode", "gauge",
		"How the power limit is enforced (hw, host, auto): 1 for the current one." },
	[M_PW_ACTIVE] = { "ssdtune_power_limit_active", "gauge",
		"The power limit enforcement in force (off, hw, host): 1 for the current one." },
	[M_PW_ESTIMATE] = { "ssdtune_power_estimate_watts", "gauge",
		"Estimated power over the interval since the driver last folded in its counts (at least 0.1 s; the energy model's, not a measurement)." },
	[M_ENERGY] = { "ssdtune_energy_joules_total", "counter",
		"Estimated energy since the controller was attached, idle power included (the energy model's, not a measurement): rate() is the power over any window." },
	[M_PW_STATE] = { "ssdtune_power_state", "gauge",
		"The controller's current NVMe power state number." },
	[M_THROTTLE_EVENTS] = { "ssdtune_throttle_events_total", "counter",
		"Requests the host power budget delayed." },
	[M_THROTTLED] = { "ssdtune_throttled_seconds_total", "counter",
		"Sum of the delays of those requests." },
	[M_TEMP] = { "ssdtune_temperature_celsius", "gauge",
		"Composite temperature (SMART / Health log)." },
	[M_TEMP_WARN] = { "ssdtune_temperature_warning_celsius", "gauge",
		"Warning Composite Temperature Threshold (WCTEMP)." },
	[M_TUNING_INFO] = { "ssdtune_tuning_info", "gauge",
		"The applied profile, in the profile label; value 1 (none without a saved state)." },
	[M_TUNING_APPLIED] = { "ssdtune_tuning_applied", "gauge",
		"1 if apply or set saved a state (there is something to verify), else 0." },
	[M_TUNING_SETTINGS] = { "ssdtune_tuning_settings", "gauge",
		"Settings the saved state holds." },
	[M_TUNING_DRIFTED] = { "ssdtune_tuning_drifted_settings", "gauge",
		"Saved settings whose live value differs from the applied one (verify's drift)." },
	[M_TUNING_STALE] = { "ssdtune_tuning_stale", "gauge",
		"1 if the state was saved before the last reboot (not applied since boot)." },
	[M_TUNING_DRIFT] = { "ssdtune_tuning_drift", "gauge",
		"1 if ssdtune verify would find drift (a drifted setting, or a stale state), else 0." },
	[M_CONFIG_ATTACHED] = { "ssdtune_config_controller_attached", "gauge",
		"A controller the configuration selects: 1 if it is on ssdtune, 0 if it is still on another driver (driver label) or on none." },
};

static const char *const ctrl_states[] = { "new", "live", "resetting", "dead", NULL };
static const char *const co_modes[] = { "off", "hw", "host", "auto", NULL };
static const char *const on_off_modes[] = { "off", "hw", "host", NULL };
static const char *const pw_modes[] = { "hw", "host", "auto", NULL };

/* A sample of family @fi with @nl label pairs (key, value, ...). */
static int add(struct metrics *m, int fi, const char *value, int nl, ...)
{
	struct metric_family *f = &m->f[fi];
	struct metric_sample *s;
	va_list ap;
	int i;

	if (f->n == f->cap) {
		int cap = f->cap ? 2 * f->cap : 8;
		void *p = realloc(f->s, cap * sizeof(*f->s));

		if (!p)
			return -ENOMEM;
		f->s = p;
		f->cap = cap;
	}
	s = &f->s[f->n];
	memset(s, 0, sizeof(*s));
	snprintf(s->value, sizeof(s->value), "%s", value);
	va_start(ap, nl);
	for (i = 0; i < nl && i < METRIC_MAX_LABELS; i++) {
		s->key[i] = va_arg(ap, const char *);
		s->val[i] = strdup(va_arg(ap, const char *));
		s->nlabels = i + 1;
		if (!s->val[i])
			break;
	}
	va_end(ap);
	f->n++;
	return i < nl ? -ENOMEM : 0;
}

/* A decimal integer file: its sign and magnitude (the counters are u64). */
struct num {
	bool neg;
	unsigned long long mag;
};

/* Read @dir/@file as a decimal integer.  0 or -errno (-EINVAL if junk). */
static int read_num(const char *dir, const char *file, struct num *n)
{
	char p[PATH_MAX], buf[64], *s = buf, *end;
	int r;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	r = sys_read(p, buf, sizeof(buf));
	if (r)
		return r;
	n->neg = *s == '-';
	s += n->neg;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	n->mag = strtoull(s, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

/* @n / 10^@dec exactly, as text ("-1.250"). */
static void scaled(char *out, size_t len, const struct num *n, int dec)
{
	unsigned long long div = 1;
	int i;

	for (i = 0; i < dec; i++)
		div *= 10;
	if (dec)
		snprintf(out, len, "%s%llu.%0*llu", n->neg ? "-" : "", n->mag / div,
			 dec, n->mag % div);
	else
		snprintf(out, len, "%s%llu", n->neg ? "-" : "", n->mag);
}

/* A one-label (controller) sample of @dir/@file, scaled by 10^-@dec;
 * left out if the file cannot be read now. */
static int add_file(struct metrics *m, int fi, const char *ctrl,
		    const char *dir, const char *file, int dec)
{
	struct num n;
	char v[32];

	if (read_num(dir, file, &n))
		return 0;
	scaled(v, sizeof(v), &n, dec);
	return add(m, fi, v, 1, "controller", ctrl);
}

/* One sample per value of @values, 1 for what @dir/@file reads. */
static int add_enum(struct metrics *m, int fi, const char *ctrl, const char *label,
		    const char *const *values, const char *dir, const char *file)
{
	char p[PATH_MAX], now[64];
	int i, r = 0;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	if (sys_read(p, now, sizeof(now)))
		return 0;
	for (i = 0; values[i] && !r; i++)
		r = add(m, fi, strcmp(now, values[i]) ? "0" : "1", 2,
			"controller", ctrl, label, values[i]);
	return r;
}

static int queue_metrics(struct metrics *m, const char *ctrl)
{
	static const struct { int fi; const char *file; } counters[] = {
		{ M_SUBMITTED, QUEUE_FILE(submitted) },
		{ M_COMPLETED, QUEUE_FILE(completed) },
		{ M_INTERRUPTS, QUEUE_FILE(interrupts) },
		{ M_POLLED, QUEUE_FILE(polled) },
		{ M_RETRIES, QUEUE_FILE(retries) },
		{ M_STALE, QUEUE_FILE(stale_completions) },
	};
	char qdir[128], qd[160], id[16], v[32];
	int *qs = NULL, n, i, c, r = 0;
	struct num x;

	ssdtdev_queue_path(qdir, sizeof(qdir), ctrl, -1, NULL);
	n = sys_list_numbered(qdir, SSDTUNE_QUEUE_PREFIX, &qs);
	if (n < 0)
		return -ENOMEM;
	for (i = 0; i < n && !r; i++) {
		ssdtdev_queue_path(qd, sizeof(qd), ctrl, qs[i], NULL);
		snprintf(id, sizeof(id), "%d", qs[i]);
		for (c = 0; c < (int)(sizeof(counters) / sizeof(counters[0])) && !r; c++) {
			if (read_num(qd, counters[c].file, &x))
				continue;
			scaled(v, sizeof(v), &x, 0);
			r = add(m, counters[c].fi, v, 2, "controller", ctrl, "queue", id);
		}
		m->queues++;
	}
	free(qs);
	return r;
}

/* A controller's one-number files: family, file, decimal places to
 * base units (mW -> W: 3, us -> s: 6, millidegrees -> degrees: 3). */
static const struct { int fi; const char *file; int dec; } scalars[] = {
	{ M_IO_QUEUES, ATTR_FILE(io_queues), 0 },
	{ M_QUEUE_DEPTH, ATTR_FILE(queue_depth), 0 },
	{ M_CO_THRESHOLD, KNOB_FILE(coalesce_threshold), 0 },
	{ M_CO_TIME, KNOB_FILE(coalesce_time_us), 6 },
	{ M_PW_LIMIT, KNOB_FILE(power_limit_mw), 3 },
	{ M_PW_ESTIMATE, ATTR_FILE(power_estimate_mw), 3 },
	{ M_ENERGY, ATTR_FILE(energy_uj), 6 },
	{ M_PW_STATE, ATTR_FILE(power_state), 0 },
	{ M_THROTTLE_EVENTS, ATTR_FILE(throttle_events), 0 },
	{ M_THROTTLED, ATTR_FILE(throttled_us), 6 },
	{ M_TEMP, ATTR_FILE(temperature_mc), 3 },
	{ M_TEMP_WARN, ATTR_FILE(temperature_warn_mc), 3 },
};

/* ... and its enumerations: family, label, values, file. */
static const struct {
	int fi;
	const char *label;
	const char *const *values;
	const char *file;
} enums[] = {
	{ M_STATE, "state", ctrl_states, ATTR_FILE(state) },	/* lint-names: a label */
	{ M_CO_MODE, "mode", co_modes, KNOB_FILE(coalesce_mode) },
	{ M_CO_ACTIVE, "mode", on_off_modes, ATTR_FILE(coalesce_active) },
	{ M_PW_MODE, "mode", pw_modes, KNOB_FILE(power_limit_mode) },
	{ M_PW_ACTIVE, "mode", on_off_modes, ATTR_FILE(power_limit_active) },
};

/* ... and its identity: the info metric's labels, and their files. */
static const char *const info_labels[] = {
	/* lint-names: labels */
	"pci_address", "model", "serial", "firmware", "numa_node",
};
static const char *const info_files[] = {
	ATTR_FILE(pci_address), ATTR_FILE(model), ATTR_FILE(serial),
	ATTR_FILE(firmware), ATTR_FILE(numa_node),
};
_Static_assert(sizeof(info_labels) == sizeof(info_files), "a label per file");

static int ctrl_metrics(struct metrics *m, int idx)
{
	char dir[64], ctrl[16], p[PATH_MAX], prof[64];
	char info[sizeof(info_files) / sizeof(info_files[0])][128];
	size_t i;
	int r;

	snprintf(ctrl, sizeof(ctrl), SSDTUNE_CTRL_PREFIX "%d", idx);
	ssdtdev_path(dir, sizeof(dir), ctrl, NULL);
	for (i = 0; i < sizeof(info_files) / sizeof(info_files[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, info_files[i]);
		sys_read_opt(p, info[i], sizeof(info[i]));
	}
	r = add(m, M_INFO, "1", 6, "controller", ctrl, info_labels[0], info[0],
		info_labels[1], info[1], info_labels[2], info[2], info_labels[3], info[3],
		info_labels[4], info[4]);
	for (i = 0; !r && i < sizeof(enums) / sizeof(enums[0]); i++)
		r = add_enum(m, enums[i].fi, ctrl, enums[i].label, enums[i].values,
			     dir, enums[i].file);
	for (i = 0; !r && i < sizeof(scalars) / sizeof(scalars[0]); i++)
		r = add_file(m, scalars[i].fi, ctrl, dir, scalars[i].file, scalars[i].dec);
	snprintf(p, sizeof(p), "%s/%s", dir, KNOB_FILE(coalesce_profile));
	sys_read_opt(p, prof, sizeof(prof));
	if (!r && prof[0])
		r = add(m, M_CO_PROFILE, "1", 2, "controller", ctrl, "profile", prof);
	if (!r)
		r = queue_metrics(m, ctrl);
	m->controllers++;
	return r;
}

static int applied(struct metrics *m, const char *applied, const char *drift)
{
	int r = add(m, M_TUNING_APPLIED, applied, 0);

	return r ? r : add(m, M_TUNING_DRIFT, drift, 0);
}

/* The saved state of @dir: the applied profile and verify's verdict. */
static int metrics_of_tuning(struct metrics *m, const char *dir, struct lib_err *err)
{
	struct tune_summary t;
	char v[16];
	int r;

	r = tune_summary(dir, &t, err);
	if (r)
		return r;
	if (!t.applied)
		return applied(m, "0", "0");
	r = add(m, M_TUNING_INFO, "1", 1, "profile", t.profile);
	snprintf(v, sizeof(v), "%d", t.settings);
	if (!r)
		r = add(m, M_TUNING_SETTINGS, v, 0);
	snprintf(v, sizeof(v), "%d", t.drifted);
	if (!r)
		r = add(m, M_TUNING_DRIFTED, v, 0);
	if (!r)
		r = add(m, M_TUNING_STALE, t.stale ? "1" : "0", 0);
	return r ? r : applied(m, "1", t.drifted || t.stale ? "1" : "0");
}

/* Each controller present that @c selects: on ssdtune or not. */
static int metrics_of_config(struct metrics *m, const struct config *c,
			     struct lib_err *err)
{
	bool matched[CONFIG_MAX_CTRLS];
	struct ctrl_id *ids = NULL;
	char sel[300];
	int n, i, j, r = 0;

	n = ctrls_configured(c, &ids, matched, err);
	if (n < 0)
		return n;
	for (i = 0; i < n && !r; i++) {
		const struct ctrl_id *id = &ids[i];

		sel[0] = '\0';
		for (j = 0; j < c->nctrls; j++)
			if (c->ctrls[j].line == id->line)
				snprintf(sel, sizeof(sel), "%s:%s",
					 config_by_name(c->ctrls[j].by), c->ctrls[j].value);
		r = add(m, M_CONFIG_ATTACHED, ctrl_on_ssdtune(id) ? "1" : "0", 3,
			"pci_address", id->bdf, "driver", id->driver, "selector", sel); /* lint-names: labels */
	}
	free(ids);
	return r ? lib_enomem(err) : 0;
}

int metrics_gather(struct metrics *m, const char *state_dir,
		   const struct config *c, struct lib_err *err)
{
	int *ids = NULL, n, i, r = 0;

	memset(m, 0, sizeof(*m));
	m->f = calloc(M_COUNT, sizeof(*m->f));
	if (!m->f)
		return lib_enomem(err);
	m->n = M_COUNT;
	for (i = 0; i < M_COUNT; i++) {
		m->f[i].name = families[i].name;
		m->f[i].type = families[i].type;
		m->f[i].help = families[i].help;
	}
	n = ssdtdev_list(&ids);
	if (n < 0)
		return lib_enomem(err);
	for (i = 0; i < n && !r; i++)
		r = ctrl_metrics(m, ids[i]);
	free(ids);
	if (r)
		return lib_enomem(err);
	r = metrics_of_tuning(m, state_dir, err);
	if (r == -ENOMEM)
		return lib_enomem(err);
	if (!r && c)
		r = metrics_of_config(m, c, err);
	return r;
}

void metrics_free(struct metrics *m)
{
	int i, j, k;

	for (i = 0; i < m->n; i++) {
		for (j = 0; j < m->f[i].n; j++)
			for (k = 0; k < m->f[i].s[j].nlabels; k++)
				free(m->f[i].s[j].val[k]);
		free(m->f[i].s);
	}
	free(m->f);
	memset(m, 0, sizeof(*m));
}

/* A label value escaped as the format says: \\, \" and \n. */
static void put_escaped(FILE *f, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fputc('\\', f);
		if (*v == '\n') {
			fputs("\\n", f);
			continue;
		}
		fputc(*v, f);
	}
}

int metrics_render(const struct metrics *m, FILE *f)
{
	int i, j, k;

	for (i = 0; i < m->n; i++) {
		const struct metric_family *fam = &m->f[i];

		if (!fam->n)
			continue;
		fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", fam->name, fam->help,
			fam->name, fam->type);
		for (j = 0; j < fam->n; j++) {
			const struct metric_sample *s = &fam->s[j];

			fputs(fam->name, f);
			for (k = 0; k < s->nlabels; k++) {
				fprintf(f, "%s%s=\"", k ? "," : "{", s->key[k]);
				put_escaped(f, s->val[k]);
				fputc('"', f);
			}
			fprintf(f, "%s %s\n", s->nlabels ? "}" : "", s->value);
		}
	}
	return ferror(f) ? -EIO : 0;
}

int metrics_write_file(const struct metrics *m, const char *path,
		       struct lib_err *err)
{
	char tmp[PATH_MAX], dir[PATH_MAX], *slash;
	FILE *f;
	int fd, r, dfd;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash == dir)
		dir[1] = '\0';
	else if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	if (snprintf(tmp, sizeof(tmp), "%s/.ssdtune-metrics.XXXXXX", dir) >= (int)sizeof(tmp))
		return lib_errf(err, ENAMETOOLONG, "%s: name too long", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return lib_errf(err, errno, "cannot write in %s: %s", dir, strerror(errno));
	f = fdopen(fd, "w");
	if (!f) {
		r = lib_errf(err, errno, "%s: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		return r;
	}
	r = metrics_render(m, f);
	if (!r && (fflush(f) || fchmod(fd, 0644) || fsync(fd)))
		r = -errno;
	if (fclose(f) && !r)
		r = -errno;
	if (!r && rename(tmp, path))
		r = -errno;
	if (r) {
		unlink(tmp);
		return lib_errf(err, -r, "cannot write %s: %s", path, strerror(-r));
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
}
