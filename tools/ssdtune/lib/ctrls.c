// SPDX-License-Identifier: GPL-2.0
/* The NVMe controllers present and their identity (ctrls.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ctrls.h"
#include "lib/parse.h"
#include "lib/pcidev.h"
#include "lib/ssdtdev.h"
#include "lib/sysfs.h"

#define SYS_NVME_CLASS "/sys/class/nvme"

/* The nvmeN of /sys/class/nvme whose device is @pci_sysdir. */
static bool nvme_ctrl(const char *pci_sysdir, char *ctrl, size_t len)
{
	char p[PATH_MAX * 2], rp[PATH_MAX];
	struct dirent *e;
	bool found = false;
	DIR *d = opendir(SYS_NVME_CLASS);

	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		if (strncmp(e->d_name, "nvme", 4) || !all_digits(e->d_name + 4))
			continue;
		snprintf(p, sizeof(p), SYS_NVME_CLASS "/%s/device", e->d_name);
		if (sys_realpath(p, rp) || strcmp(rp, pci_sysdir))
			continue;
		snprintf(ctrl, len, "%s", e->d_name);
		found = true;
	}
	closedir(d);
	return found;
}

static int by_bdf(const void *a, const void *b)
{
	return strcmp(((const struct ctrl_id *)a)->bdf, ((const struct ctrl_id *)b)->bdf);
}

/* Fill @id's controller and identity for the function at @sysdir. */
static void identify(struct ctrl_id *id, const char *sysdir)
{
	char p[PATH_MAX * 2], dir[PATH_MAX];

	snprintf(p, sizeof(p), "%s/driver", sysdir);
	if (sys_link_name(p, id->driver, sizeof(id->driver)))
		id->driver[0] = '\0';
	if (ssdtdev_of_pci(sysdir, id->ctrl, sizeof(id->ctrl))) {
		sys_read_opt(ssdtdev_path(p, sizeof(p), id->ctrl, ATTR_FILE(serial)),
			     id->serial, sizeof(id->serial));
		sys_read_opt(ssdtdev_path(p, sizeof(p), id->ctrl, ATTR_FILE(model)),
			     id->model, sizeof(id->model));
	} else if (nvme_ctrl(sysdir, id->ctrl, sizeof(id->ctrl))) {
		snprintf(dir, sizeof(dir), SYS_NVME_CLASS "/%s", id->ctrl);
		snprintf(p, sizeof(p), "%s/serial", dir);	/* lint-names: nvme's */
		sys_read_opt(p, id->serial, sizeof(id->serial));
		snprintf(p, sizeof(p), "%s/model", dir);	/* lint-names: nvme's */
		sys_read_opt(p, id->model, sizeof(id->model));
	}
}

int ctrls_list(struct ctrl_id **out, struct lib_err *err)
{
	char p[PATH_MAX * 2], rp[PATH_MAX], cls[32];
	struct ctrl_id *v = NULL, *nv;
	int n = 0, cap = 0;
	struct dirent *e;
	struct bdf b;
	DIR *d;

	*out = NULL;
	d = opendir(SYS_PCI_DEVICES);
	if (!d)
		return lib_errf(err, errno, "cannot read %s: %s", SYS_PCI_DEVICES,
				strerror(errno));
	while ((e = readdir(d))) {
		if (bdf_parse(e->d_name, &b))
			continue;
		snprintf(p, sizeof(p), SYS_PCI_DEVICES "/%s/class", e->d_name);
		if (sys_read(p, cls, sizeof(cls)) ||
		    !pci_class_is_nvme((unsigned int)strtoul(cls, NULL, 16)))
			continue;
		snprintf(p, sizeof(p), SYS_PCI_DEVICES "/%s", e->d_name);
		if (sys_realpath(p, rp))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			nv = realloc(v, (size_t)cap * sizeof(*v));
			if (!nv) {
				closedir(d);
				free(v);
				return lib_enomem(err);
			}
			v = nv;
		}
		memset(&v[n], 0, sizeof(v[n]));
		bdf_format(&b, v[n].bdf, sizeof(v[n].bdf));
		identify(&v[n], rp);
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, (size_t)n, sizeof(*v), by_bdf);
	*out = v;
	return n;
}

int ctrls_configured(const struct config *c, struct ctrl_id **out,
		     bool *matched, struct lib_err *err)
{
	int n = ctrls_list(out, err), i, j, k = 0, line;

	for (j = 0; matched && j < c->nctrls; j++)
		for (i = 0, matched[j] = false; i < n && !matched[j]; i++)
			matched[j] = config_ctrl_matches(&c->ctrls[j], (*out)[i].bdf,
							 (*out)[i].serial, (*out)[i].model);
	for (i = 0; i < n; i++) {
		line = config_selects(c, (*out)[i].bdf, (*out)[i].serial,
				      (*out)[i].model);
		if (line < 0)
			continue;
		(*out)[k] = (*out)[i];
		(*out)[k++].line = c->ctrls[line].line;
	}
	return n < 0 ? n : k;
}
