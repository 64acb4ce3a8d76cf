// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune bench: what it reads from the host.  The device and its
 * controller, /proc/stat and /proc/interrupts around every round, the
 * ssdtune controller's knobs and temperature, the host's tuning state;
 * and running fio / blkdiscard / ssdtune itself as subprocesses.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bench/engine.h"
#include "lib/bdf.h"
#include "lib/irqvec.h"
#include "lib/knobtab.h"
#include "lib/ssdtdev.h"
#include "lib/sysfs.h"

struct json_object *bench_jget(struct json_object *o, const char *key)
{
	struct json_object *v;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

double bench_jnum(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !v ||
	    !(json_object_is_type(v, json_type_double) ||
	      json_object_is_type(v, json_type_int)))
		return NAN;
	return json_object_get_double(v);
}

const char *bench_jstr(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

struct json_object *bench_jdouble(double v)
{
	return isnan(v) || isinf(v) ? NULL : json_object_new_double(v);
}

/* Find the first disk of an ssdtune controller, for a bare "bench". */
static int first_ssdt_disk(char *name, size_t len)
{
	struct dirent *e;
	int found = -1;
	DIR *d = opendir(SYS_BLOCK);

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "ssdt", 4) || !strchr(e->d_name, 'n'))
			continue;
		if (found < 0 || strcmp(e->d_name, name) < 0)
			snprintf(name, len, "%s", e->d_name);
		found = 0;
	}
	closedir(d);
	return found;
}

/* The controller's vectors, by MSI-X entry (lib/irqvec.c). */
static void find_irqs(struct bench_dev *d)
{
	struct irqvecs v;
	int i;

	d->nirqs = 0;
	if (!d->bdf[0] ||
	    irqvec_list(d->bdf, d->ssdt_dir[0] ? d->ctrl : NULL, NULL, &v, NULL))
		return;
	for (i = 0; i < v.n && d->nirqs < BENCH_MAX_IRQS; i++)
		d->irqs[d->nirqs++] = v.v[i].irq;
	irqvec_free(&v);
}

/*
 * A namespace of a multi-controller subsystem under native NVMe multipath
 * (a dual-port drive; also QEMU 10's emulated NVMe) is a head disk under
 * /sys/devices/virtual/nvme-subsystem/nvme-subsysN/, with no PCI device
 * above it: @dir becomes the first controller of that subsystem, whose
 * path does lead to one.  Anything else is left as it is.
 */
static void mpath_first_ctrl(char *dir, size_t len)
{
	char subsys[PATH_MAX], p[PATH_MAX * 2], target[PATH_MAX];
	char best[NAME_MAX + 1] = "";
	struct dirent *e;
	char *slash;
	DIR *dh;

	if (!strstr(dir, "/nvme-subsystem/"))
		return;
	snprintf(subsys, sizeof(subsys), "%s", dir);
	slash = strrchr(subsys, '/');
	if (!slash)
		return;
	*slash = '\0';
	dh = opendir(subsys);
	if (!dh)
		return;
	/* the controllers are links nvmeN; the lowest N, for a stable pick */
	while ((e = readdir(dh)))
		if (e->d_type == DT_LNK && !strncmp(e->d_name, "nvme", 4) &&
		    (!best[0] || strlen(e->d_name) < strlen(best) ||
		     (strlen(e->d_name) == strlen(best) && strcmp(e->d_name, best) < 0)))
			snprintf(best, sizeof(best), "%s", e->d_name);
	closedir(dh);
	if (!best[0])
		return;
	snprintf(p, sizeof(p), "%s/%s", subsys, best);
	if (!sys_realpath(p, target))
		snprintf(dir, len, "%s", target);
}

static int read_ll(const char *dir, const char *file, long long *v)
{
	char p[PATH_MAX + 64], buf[64], *end;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	if (sys_read(p, buf, sizeof(buf)))
		return -1;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	return errno || end == buf || *end ? -1 : 0;
}

int bench_dev_resolve(const char *arg, struct bench_dev *d,
		      struct lib_err *err)
{
	char p[PATH_MAX * 2], walk[PATH_MAX], *slash, *n;
	const char *base;

	memset(d, 0, sizeof(*d));
	if (!arg) {
		if (first_ssdt_disk(d->name, sizeof(d->name)))
			return lib_errf(err, ENODEV,
					"no DEVICE given and no ssdtune disk in %s",
					SYS_BLOCK);
	} else {
		base = strncmp(arg, "/dev/", 5) ? arg : arg + 5;
		if (!*base || strchr(base, '/') || strlen(base) > NAME_MAX)
			return lib_errf(err, EINVAL,
					"bench: '%s' is not a block device name", arg);
		snprintf(d->name, sizeof(d->name), "%s", base);
	}
	snprintf(d->path, sizeof(d->path), "/dev/%s", d->name);
	snprintf(p, sizeof(p), "%s/%s", SYS_BLOCK, d->name);
	if (sys_realpath(p, d->sysdir))
		return lib_errf(err, ENOENT, "no block device %s (%s does not exist)",
				d->name, p);
	snprintf(p, sizeof(p), "%s/partition", d->sysdir);
	if (sys_exists(p))
		return lib_errf(err, ENOTBLK,
				"%s is a partition: bench takes a whole namespace",
				d->name);
	/* "nvme0n1" -> "nvme0", "ssdt0n1" -> "ssdt0" */
	n = strrchr(d->name, 'n');
	if (n && n > d->name && n[1] && strspn(n + 1, "0123456789") == strlen(n + 1) &&
	    (!strncmp(d->name, "nvme", 4) || !strncmp(d->name, "ssdt", 4)))
		snprintf(d->ctrl, sizeof(d->ctrl), "%.*s", (int)(n - d->name),
			 d->name);
	if (ssdtdev_index(d->ctrl) >= 0) {
		ssdtdev_path(d->ssdt_dir, sizeof(d->ssdt_dir), d->ctrl, NULL);
		if (!sys_is_dir(d->ssdt_dir))
			d->ssdt_dir[0] = '\0';
	}
	/* The PCI function: the last path component that is a BDF. */
	snprintf(walk, sizeof(walk), "%s", d->sysdir);
	mpath_first_ctrl(walk, sizeof(walk));
	while ((slash = strrchr(walk, '/')) && slash != walk) {
		struct bdf b;

		if (!bdf_parse(slash + 1, &b)) {
			snprintf(d->pci_dir, sizeof(d->pci_dir), "%s", walk);
			snprintf(d->bdf, sizeof(d->bdf), "%s", slash + 1);
			break;
		}
		*slash = '\0';
	}
	if (d->pci_dir[0]) {
		snprintf(p, sizeof(p), "%s/driver", d->pci_dir);
		if (sys_link_name(p, d->driver, sizeof(d->driver)))
			d->driver[0] = '\0';
	}
	if (!d->driver[0] && d->ssdt_dir[0])
		snprintf(d->driver, sizeof(d->driver), "ssdtune");
	if (d->ssdt_dir[0])
		d->have_temp_warn = !read_ll(d->ssdt_dir, ATTR_FILE(temperature_warn_mc),
					     &d->temp_warn_mc);
	find_irqs(d);
	return 0;
}


static void sample_irqs(const struct bench_dev *d, struct host_sample *s)
{
	long long n;

	if (!d->nirqs)
		return;
	n = irqvec_count_sum(d->irqs, d->nirqs);
	if (n < 0)
		return;
	s->irqs = (unsigned long long)n;
	s->have_irqs = true;
}

static void sample_cpu(struct host_sample *s)
{
	unsigned long long v[8] = { 0 };
	char line[512];
	FILE *f = fopen("/proc/stat", "r");
	int i;

	if (!f)
		return;
	/* cpu user nice system idle iowait irq softirq steal (guest time is
	 * already in user) */
	if (fgets(line, sizeof(line), f) &&
	    sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) >= 7) {
		for (i = 0; i < 8; i++)
			s->cpu_total += v[i];
		s->cpu_busy = s->cpu_total - v[3] - v[4];
	}
	fclose(f);
}

void host_sample(const struct bench_dev *d, struct host_sample *s)
{
	memset(s, 0, sizeof(*s));
	sample_cpu(s);
	sample_irqs(d, s);
	if (!d->ssdt_dir[0])
		return;
	s->have_temp = !read_ll(d->ssdt_dir, ATTR_FILE(temperature_mc), &s->temp_mc);
	s->have_throttle = !read_ll(d->ssdt_dir, ATTR_FILE(throttle_events),
				    &s->throttle_events);
	s->have_power = !read_ll(d->ssdt_dir, ATTR_FILE(power_estimate_mw),
				 &s->power_mw);
}

static void add_file(struct json_object *o, const char *key,
		     const char *dir, const char *file)
{
	char p[PATH_MAX + 64], buf[512];

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	json_object_object_add(o, key, sys_read(p, buf, sizeof(buf)) ? NULL :
				       json_object_new_string(buf));
}

struct json_object *ssdt_settings(const struct bench_dev *d)
{
	static const char *const files[] = {
		KNOB_FILE(coalesce_mode), ATTR_FILE(coalesce_active),
		KNOB_FILE(coalesce_profile), KNOB_FILE(coalesce_threshold),
		KNOB_FILE(coalesce_time_us), KNOB_FILE(power_limit_mw),
		KNOB_FILE(power_limit_mode), ATTR_FILE(power_state),
	};
	struct json_object *o;
	size_t i;

	if (!d->ssdt_dir[0])
		return NULL;
	o = json_object_new_object();
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		add_file(o, files[i], d->ssdt_dir, files[i]);
	return o;
}

/*
 * "none [mq-deadline] kyber" -> "mq-deadline".  A bio-based queue (no mq
 * directory: a native-multipath head disk) has no scheduler: "none",
 * which 6.1 reads from its file and 6.12 no longer shows.
 */
static struct json_object *scheduler(const struct bench_dev *d)
{
	char p[PATH_MAX + 64], buf[256], *a, *b;

	snprintf(p, sizeof(p), "%s/queue/scheduler", d->sysdir);
	if (sys_read(p, buf, sizeof(buf))) {
		snprintf(p, sizeof(p), "%s/mq", d->sysdir);
		return sys_exists(p) ? NULL : json_object_new_string("none");
	}
	a = strchr(buf, '[');
	b = a ? strchr(a, ']') : NULL;
	if (!a || !b)
		return json_object_new_string(buf);
	*b = '\0';
	return json_object_new_string(a + 1);
}

static struct json_object *cpuidle_states(int cpu)
{
	struct json_object *a = json_object_new_array(), *s;
	char p[PATH_MAX], dir[64];
	int i;

	snprintf(dir, sizeof(dir), "/sys/devices/system/cpu/cpu%d/cpuidle", cpu);
	for (i = 0; i < 32; i++) {
		snprintf(p, sizeof(p), "%s/state%d", dir, i);
		if (!sys_is_dir(p))
			break;
		s = json_object_new_object();
		add_file(s, "name", p, "name");
		add_file(s, "latency_us", p, "latency");
		add_file(s, "disable", p, "disable");
		json_object_array_add(a, s);
	}
	return a;
}

static struct json_object *irq_affinity(const struct bench_dev *d)
{
	struct json_object *a = json_object_new_array(), *o;
	char p[64];
	int i;

	for (i = 0; i < d->nirqs; i++) {
		o = json_object_new_object();
		json_object_object_add(o, "irq", json_object_new_int(d->irqs[i]));
		snprintf(p, sizeof(p), "/proc/irq/%d", d->irqs[i]);
		add_file(o, "affinity", p, "smp_affinity_list");
		add_file(o, "effective", p, "effective_affinity_list");
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *turbo(void)
{
	char buf[16];

	if (!sys_read("/sys/devices/system/cpu/intel_pstate/no_turbo", buf,
		      sizeof(buf)))
		return json_object_new_string(strcmp(buf, "0") ? "off" : "on");
	if (!sys_read("/sys/devices/system/cpu/cpufreq/boost", buf, sizeof(buf)))
		return json_object_new_string(strcmp(buf, "0") ? "on" : "off");
	return NULL;
}

struct json_object *host_state(const struct bench_dev *d, const char *cpus)
{
	struct json_object *o = json_object_new_object();
	/* the first CPU the load runs on (cpu0 when it may run anywhere) */
	int cpu = cpus && cpus[0] >= '0' && cpus[0] <= '9' ? atoi(cpus) : 0;
	struct utsname u;
	char freq[64];

	snprintf(freq, sizeof(freq), "/sys/devices/system/cpu/cpu%d/cpufreq", cpu);
	json_object_object_add(o, "state_cpu", json_object_new_int(cpu));
	json_object_object_add(o, "kernel", uname(&u) ? NULL :
				       json_object_new_string(u.release));
	json_object_object_add(o, "driver", d->driver[0] ?
				       json_object_new_string(d->driver) : NULL);
	json_object_object_add(o, "scheduler", scheduler(d));
	add_file(o, "cpufreq_driver", freq, "scaling_driver");
	add_file(o, "governor", freq, "scaling_governor");
	add_file(o, "epp", freq, "energy_performance_preference");
	json_object_object_add(o, "turbo", turbo());
	add_file(o, "cpuidle_driver", "/sys/devices/system/cpu/cpuidle",
		 "current_driver");
	json_object_object_add(o, "cpuidle_states", cpuidle_states(cpu));
	json_object_object_add(o, "irqs", irq_affinity(d));
	return o;
}

void bench_first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}
