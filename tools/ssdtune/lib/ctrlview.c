// SPDX-License-Identifier: GPL-2.0
/*
 * A controller's view under its driver now, and what differs between two
 * (ctrlview.h).  Identify Controller and the APST table come from the
 * controller itself through the admin passthrough ioctl of /dev/nvmeN or
 * /dev/ssdtN, which both drivers have; the rest from sysfs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/nvme_ioctl.h>

#include "lib/irqvec.h"
#include "lib/ctrlview.h"
#include "lib/knobtab.h"
#include "lib/ssdtdev.h"
#include "lib/sysfs.h"
#include "uapi/linux/ssdtune.h"

#define NVME_ADMIN_GET_FEATURES	0x0a
#define NVME_ADMIN_IDENTIFY	0x06
#define NVME_FEAT_AUTO_PST	0x0c
/* Identify Controller byte offsets (NVMe base specification) */
#define ID_MDTS		77
#define ID_VER		80
#define ID_NPSS		263
#define ID_APSTA	265
#define ID_WCTEMP	266
#define ID_CCTEMP	268
#define ID_HMPRE	272
#define ID_HMMIN	276
#define ID_VWC		525

/* @s without the blanks nvme's sysfs pads model and serial with. */
static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\n'))
		s[--n] = '\0';
}

static unsigned int le16(const unsigned char *b)
{
	return b[0] | (unsigned int)b[1] << 8;
}

static unsigned int le32(const unsigned char *b)
{
	return le16(b) | (unsigned int)le16(b + 2) << 16;
}

/* An admin command with a data-in buffer on /dev/@ctrl: 0, or -1. */
static int admin_in(const char *ctrl, unsigned char opcode, unsigned int cdw10,
		    void *buf, unsigned int len, unsigned int *result)
{
	struct nvme_admin_cmd c;
	char dev[PATH_MAX];
	int fd, r;

	sys_pathf(dev, sizeof(dev), "/dev/%s", ctrl);
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	memset(&c, 0, sizeof(c));
	c.opcode = opcode;
	c.cdw10 = cdw10;
	c.addr = (uintptr_t)buf;
	c.data_len = len;
	r = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c);
	close(fd);
	if (r)
		return -1;	/* errno, or an NVMe status */
	if (result)
		*result = c.result;
	return 0;
}

static int kelvin_c(unsigned int k)
{
	return k ? (int)k - 273 : -274;
}

static void read_identify(struct qual_view *v)
{
	unsigned char *id = calloc(1, 4096);

	if (!id)
		return;
	if (!admin_in(v->ctrl, NVME_ADMIN_IDENTIFY, 1, id, 4096, NULL)) {
		v->id_ok = true;
		v->mdts = id[ID_MDTS];
		v->vs = le32(id + ID_VER);
		v->npss = id[ID_NPSS];
		v->apsta = id[ID_APSTA];
		v->wctemp_c = kelvin_c(le16(id + ID_WCTEMP));
		v->cctemp_c = kelvin_c(le16(id + ID_CCTEMP));
		v->hmpre = (unsigned long long)le32(id + ID_HMPRE) * 4096;
		v->hmmin = (unsigned long long)le32(id + ID_HMMIN) * 4096;
		v->vwc = id[ID_VWC];
	}
	free(id);
}

void qual_apst_decode(const unsigned long long *table, int npss,
		      struct qual_view *v)
{
	int i;

	v->napst = 0;
	for (i = 0; i <= npss && i < QUAL_MAX_APST; i++) {
		unsigned long long e = table[i];

		if (!e)
			continue;
		v->apst[v->napst].from = i;
		v->apst[v->napst].to = (int)((e >> 3) & 0x1f);
		v->apst[v->napst].ms = (unsigned int)((e >> 8) & 0xffffff);
		v->napst++;
	}
}

static void read_apst(struct qual_view *v)
{
	unsigned long long table[QUAL_MAX_APST];
	unsigned char raw[QUAL_MAX_APST * 8];
	unsigned int result = 0;
	int i;

	if (!v->id_ok || !v->apsta)
		return;
	memset(raw, 0, sizeof(raw));
	if (admin_in(v->ctrl, NVME_ADMIN_GET_FEATURES, NVME_FEAT_AUTO_PST,
		     raw, sizeof(raw), &result))
		return;
	for (i = 0; i < QUAL_MAX_APST; i++)
		table[i] = le32(raw + 8 * i) |
			   (unsigned long long)le32(raw + 8 * i + 4) << 32;
	v->apst_known = true;
	v->apst_on = result & 1;
	qual_apst_decode(table, (int)v->npss, v);
}

/* The vectors, and how many userspace may steer (as topology judges). */
static void read_vectors(const char *bdf, struct qual_view *v)
{
	struct irqvecs vecs;
	struct lib_err err;
	int i;

	if (irqvec_list(bdf, strcmp(v->driver, SSDTUNE_DRV_NAME) ? NULL : v->ctrl,
			NULL, &vecs, &err))
		return;
	v->nvectors = vecs.n;
	for (i = 0; i < vecs.n; i++) {
		const char *why;

		if (!irqvec_managed(vecs.v[i].irq, vecs.v[i].entry, v->driver,
				    vecs.v[i].vmd, &why))
			v->nsteerable++;
	}
	irqvec_free(&vecs);
}

static void read_queue(struct qual_ns *n)
{
	static const struct {
		const char *file;
		size_t off, len;
	} f[] = {
#define Q(file, m) { file, offsetof(struct qual_ns, m), sizeof(((struct qual_ns *)0)->m) }
		Q("logical_block_size", lbs), Q("physical_block_size", pbs),
		Q("max_hw_sectors_kb", max_kb), Q("max_segments", segs),
		Q("discard_max_hw_bytes", discard),
		Q("write_zeroes_max_bytes", zeroes),
		Q("write_cache", wcache), Q("fua", fua),
#undef Q
	};
	char p[PATH_MAX], size[32];
	size_t i;

	sys_pathf(p, sizeof(p), SYS_BLOCK "/%s/size", n->disk);
	if (!sys_read(p, size, sizeof(size)))
		n->bytes = strtoull(size, NULL, 10) * 512;
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		sys_pathf(p, sizeof(p), SYS_BLOCK "/%s/queue/%s", n->disk, f[i].file);
		sys_read_opt(p, (char *)n + f[i].off, f[i].len);
	}
}

/* The namespace id of disk @name: its nsid file, or the "n<N>" suffix. */
static unsigned int disk_nsid(const char *name)
{
	char p[PATH_MAX], buf[16];
	const char *n;

	sys_pathf(p, sizeof(p), SYS_BLOCK "/%s/nsid", name);
	if (!sys_read(p, buf, sizeof(buf)))
		return (unsigned int)strtoul(buf, NULL, 10);
	n = strrchr(name, 'n');
	return n ? (unsigned int)strtoul(n + 1, NULL, 10) : 0;
}

static int ns_cmp(const void *a, const void *b)
{
	const struct qual_ns *x = a, *y = b;

	return (x->nsid > y->nsid) - (x->nsid < y->nsid);
}

/*
 * The namespace disks: under nvme the controller's children nvmeXnY (or,
 * with native multipath, the path disks nvmeXcZnY, whose limits are the
 * controller's); under ssdtune /sys/block/ssdtNnM.
 */
static void read_namespaces(const char *dir, struct qual_view *v)
{
	size_t cl = strlen(v->ctrl);
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((e = readdir(d)) && v->nns < QUAL_MAX_NS) {
		struct qual_ns *n = &v->ns[v->nns];
		const char *s = e->d_name;

		if (strncmp(s, v->ctrl, cl))
			continue;
		s += cl;
		if (*s == 'c') {	/* nvmeXcZnY */
			s++;
			while (*s >= '0' && *s <= '9')
				s++;
		}
		if (*s != 'n' || s[1] < '0' || s[1] > '9' || strchr(s, 'p'))
			continue;
		memset(n, 0, sizeof(*n));
		sys_pathf(n->disk, sizeof(n->disk), "%s", e->d_name);
		n->nsid = disk_nsid(n->disk);
		read_queue(n);
		v->nns++;
	}
	closedir(d);
	qsort(v->ns, (size_t)v->nns, sizeof(v->ns[0]), ns_cmp);
}

/* The first nvmeN under @pci_dir/nvme into @ctrl. */
static bool nvme_ctrl_of(const char *pci_dir, char *ctrl, size_t len)
{
	char p[PATH_MAX];
	struct dirent *e;
	bool found = false;
	DIR *d;

	sys_pathf(p, sizeof(p), "%s/nvme", pci_dir);
	d = opendir(p);
	if (!d)
		return false;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "nvme", 4) && e->d_name[4] >= '0' &&
		    e->d_name[4] <= '9') {
			sys_pathf(ctrl, len, "%s", e->d_name);
			found = true;
			break;
		}
	closedir(d);
	return found;
}

int qual_view_read(const char *bdf, struct qual_view *v, struct lib_err *err)
{
	char pci[PATH_MAX], real[PATH_MAX], cdir[PATH_MAX], p[PATH_MAX];

	memset(v, 0, sizeof(*v));
	v->wctemp_c = v->cctemp_c = -274;
	sys_pathf(pci, sizeof(pci), SYS_PCI_DEVICES "/%s", bdf);
	sys_pathf(p, sizeof(p), "%s/driver", pci);
	if (sys_link_name(p, v->driver, sizeof(v->driver)))
		return lib_errf(err, ENODEV, "%s has no driver", bdf);
	if (!strcmp(v->driver, "nvme")) {
		if (!nvme_ctrl_of(pci, v->ctrl, sizeof(v->ctrl)))
			return lib_errf(err, ENODEV, "%s: nvme has no controller for it", bdf);
		sys_pathf(cdir, sizeof(cdir), "%s/nvme/%s", pci, v->ctrl);
		sys_pathf(p, sizeof(p), "%s/firmware_rev", cdir);
		sys_read_opt(p, v->firmware, sizeof(v->firmware));
		sys_pathf(p, sizeof(p), "%s/hmb", cdir);
		sys_read_opt(p, v->hmb, sizeof(v->hmb));
		if (v->hmb[0])
			snprintf(v->hmb, sizeof(v->hmb), "%s", strcmp(v->hmb, "0") ? "yes" : "no");
		sys_pathf(p, sizeof(p), "%s/model", cdir);	/* lint-names: nvme's */
		sys_read_opt(p, v->model, sizeof(v->model));
		sys_pathf(p, sizeof(p), "%s/serial", cdir);	/* lint-names: nvme's */
		sys_read_opt(p, v->serial, sizeof(v->serial));
	} else if (!strcmp(v->driver, SSDTUNE_DRV_NAME)) {
		if (sys_realpath(pci, real) || !ssdtdev_of_pci(real, v->ctrl, sizeof(v->ctrl)))
			return lib_errf(err, ENODEV, "%s: ssdtune has no controller for it", bdf);
		ssdtdev_path(cdir, sizeof(cdir), v->ctrl, NULL);
		sys_read_opt(ssdtdev_path(p, sizeof(p), v->ctrl, ATTR_FILE(firmware)),
			     v->firmware, sizeof(v->firmware));
		sys_read_opt(ssdtdev_path(p, sizeof(p), v->ctrl, ATTR_FILE(hmb_bytes)),
			     v->hmb, sizeof(v->hmb));
		sys_read_opt(ssdtdev_path(p, sizeof(p), v->ctrl, ATTR_FILE(quirks)),
			     v->quirks, sizeof(v->quirks));
		sys_read_opt(ssdtdev_path(p, sizeof(p), v->ctrl, KNOB_FILE(apst_max_latency_us)),
			     v->apst_knob, sizeof(v->apst_knob));
		sys_read_opt(ssdtdev_path(p, sizeof(p), v->ctrl, ATTR_FILE(model)),
			     v->model, sizeof(v->model));
		sys_read_opt(ssdtdev_path(p, sizeof(p), v->ctrl, ATTR_FILE(serial)),
			     v->serial, sizeof(v->serial));
	} else {
		return lib_errf(err, ENODEV, "%s is bound to %s, not nvme or ssdtune",
				bdf, v->driver);
	}
	trim(v->model);
	trim(v->serial);
	trim(v->firmware);
	read_identify(v);
	read_apst(v);
	read_vectors(bdf, v);
	read_namespaces(strcmp(v->driver, "nvme") ? SYS_BLOCK : cdir, v);
	return 0;
}

static const struct qual_ns *ns_find(const struct qual_view *v, unsigned int nsid)
{
	int i;

	for (i = 0; i < v->nns; i++)
		if (v->ns[i].nsid == nsid)
			return &v->ns[i];
	return NULL;
}

#define ADD(...)							\
	do {								\
		if (n < max)						\
			sys_pathf(out[n], QUAL_DIFF_LEN, __VA_ARGS__);	\
		n++;							\
	} while (0)

/* The queue limits of one namespace that differ, as lines. */
static int ns_diff(const struct qual_ns *a, const struct qual_ns *b,
		   char (*out)[QUAL_DIFF_LEN], int n, int max)
{
	static const struct {
		const char *what;
		size_t off;
	} f[] = {
		{ "logical block size", offsetof(struct qual_ns, lbs) },
		{ "physical block size", offsetof(struct qual_ns, pbs) },
		{ "max transfer (KiB)", offsetof(struct qual_ns, max_kb) },
		{ "discard max bytes", offsetof(struct qual_ns, discard) },
		{ "write zeroes max bytes", offsetof(struct qual_ns, zeroes) },
		{ "write cache", offsetof(struct qual_ns, wcache) },
		{ "FUA", offsetof(struct qual_ns, fua) },
	};
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		const char *x = (const char *)a + f[i].off;
		const char *y = (const char *)b + f[i].off;

		if (strcmp(x, y))
			ADD("namespace %u: %s %s under nvme, %s under ssdtune",
			    a->nsid, f[i].what, x[0] ? x : "?", y[0] ? y : "?");
	}
	/* fewer segments than stock would split what stock sends whole */
	if (atoi(b->segs) < atoi(a->segs))
		ADD("namespace %u: max segments %s under nvme, %s under ssdtune",
		    a->nsid, a->segs, b->segs);
	return n;
}

int qual_diff(const struct qual_view *stock, const struct qual_view *ssdt,
	      char (*out)[QUAL_DIFF_LEN], int max)
{
	int n = 0, i;

	if (strcmp(stock->model, ssdt->model) || strcmp(stock->serial, ssdt->serial))
		ADD("identity: %s serial %s under nvme, %s serial %s under ssdtune",
		    stock->model, stock->serial, ssdt->model, ssdt->serial);
	for (i = 0; i < stock->nns; i++) {
		const struct qual_ns *b = ns_find(ssdt, stock->ns[i].nsid);

		if (!b)
			ADD("namespace %u: served by nvme (%s), not by ssdtune",
			    stock->ns[i].nsid, stock->ns[i].disk);
		else
			n = ns_diff(&stock->ns[i], b, out, n, max);
	}
	for (i = 0; i < ssdt->nns; i++)
		if (!ns_find(stock, ssdt->ns[i].nsid))
			ADD("namespace %u: served by ssdtune (%s), not by nvme",
			    ssdt->ns[i].nsid, ssdt->ns[i].disk);
	if (stock->hmpre && !strcmp(stock->hmb, "yes") &&
	    (!ssdt->hmb[0] || !strcmp(ssdt->hmb, "0")))
		ADD("Host Memory Buffer: given under nvme, none under ssdtune (the drive asks for %llu KiB)",
		    stock->hmpre >> 10);
	if (stock->apst_known && ssdt->apst_known &&
	    (stock->apst_on != ssdt->apst_on || stock->napst != ssdt->napst ||
	     memcmp(stock->apst, ssdt->apst, sizeof(stock->apst[0]) * (size_t)stock->napst)))
		ADD("APST: %s with %d entries under nvme, %s with %d under ssdtune",
		    stock->apst_on ? "on" : "off", stock->napst,
		    ssdt->apst_on ? "on" : "off", ssdt->napst);
	return n;
}
