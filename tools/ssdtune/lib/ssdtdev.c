// SPDX-License-Identifier: GPL-2.0
/* The ssdtune driver's sysfs interface: controllers, disks, paths
 * (ssdtdev.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "lib/bdf.h"
#include "lib/devname.h"
#include "lib/parse.h"
#include "lib/ssdtdev.h"
#include "lib/sysfs.h"

int ssdtdev_index(const char *name)
{
	size_t pl = strlen(SSDTUNE_CTRL_PREFIX);
	const char *s;
	unsigned int v;

	if (!name || strncmp(name, SSDTUNE_CTRL_PREFIX, pl))
		return -1;
	s = name + pl;
	if (parse_dec(&s, &v) || *s || v > 0x7fffffff)
		return -1;
	if (name[pl] == '0' && name[pl + 1])	/* no leading zeros */
		return -1;
	return (int)v;
}

bool ssdtdev_is_disk(const char *name, const char *ctrl)
{
	size_t cl;
	const char *s;
	unsigned int v;

	if (!name || !ctrl || !*ctrl)
		return false;
	cl = strlen(ctrl);
	if (strncmp(name, ctrl, cl) || name[cl] != 'n')
		return false;
	s = name + cl + 1;
	return !parse_dec(&s, &v) && !*s;
}

char *ssdtdev_path(char *buf, size_t len, const char *ctrl, const char *file)
{
	int w;

	if (!len)
		return buf;
	if (file)
		w = snprintf(buf, len, SSDTDEV_CLASS_DIR "/%s/%s", ctrl, file);
	else
		w = snprintf(buf, len, SSDTDEV_CLASS_DIR "/%s", ctrl);
	if (w < 0 || (size_t)w >= len)
		buf[0] = '\0';
	return buf;
}

char *ssdtdev_queue_path(char *buf, size_t len, const char *ctrl, int qid,
			 const char *file)
{
	int w;

	if (!len)
		return buf;
	if (qid < 0)
		w = snprintf(buf, len, SSDTDEV_CLASS_DIR "/%s/" SSDTUNE_QUEUES_DIR,
			     ctrl);
	else
		w = snprintf(buf, len, SSDTDEV_CLASS_DIR "/%s/" SSDTUNE_QUEUES_DIR
			     "/" SSDTUNE_QUEUE_PREFIX "%d%s%s", ctrl, qid,
			     file ? "/" : "", file ? file : "");
	if (w < 0 || (size_t)w >= len)
		buf[0] = '\0';
	return buf;
}

bool ssdtdev_loaded(void)
{
	return sys_is_dir(SSDTDEV_CLASS_DIR);
}

int ssdtdev_list(int **out)
{
	return sys_list_numbered(SSDTDEV_CLASS_DIR, SSDTUNE_CTRL_PREFIX, out);
}

int ssdtdev_dir(const char *arg, char *dir, size_t len, struct lib_err *err)
{
	char name[64], pci[64], want[BDF_BUFSZ] = "", path[PATH_MAX];
	int i, found = 0;

	/* a PCI address or another name of the controller (devname.h) */
	if (arg && ssdtdev_index(arg) < 0 && devname_bdf(arg, want, sizeof(want), err))
		return -err->errnum;
	if (!ssdtdev_loaded())
		return lib_errf(err, ENOENT, "no %s: is ssdtune.ko loaded?",
				SSDTDEV_CLASS_DIR);
	for (i = 0; i < 1024; i++) {
		snprintf(name, sizeof(name), SSDTUNE_CTRL_PREFIX "%d", i);
		if (!sys_is_dir(ssdtdev_path(path, sizeof(path), name, NULL)))
			continue;
		ssdtdev_path(path, sizeof(path), name, ATTR_FILE(pci_address));
		if (sys_read(path, pci, sizeof(pci)))
			pci[0] = '\0';
		if (arg && strcmp(arg, name) && strcmp(want, pci))
			continue;
		if (found++)
			return lib_errf(err, ENOTUNIQ, "more than one controller is attached to ssdtune: name one (ssdtN or its PCI address)");
		ssdtdev_path(dir, len, name, NULL);
	}
	if (found)
		return 0;
	if (arg && want[0] && strcmp(arg, want))
		return lib_errf(err, ENODEV, "no ssdtune controller '%s': %s is not attached to ssdtune (first: ssdtune attach %s)",
				arg, want, arg);
	if (arg)
		return lib_errf(err, ENODEV, "no ssdtune controller '%s' (see 'ssdtune topology')",
				arg);
	return lib_errf(err, ENODEV, "no controller is attached to ssdtune (see 'ssdtune attach')");
}

int ssdtdev_identity(const char *dir, char *serial, size_t slen,
		     char *model, size_t mlen)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", dir, ATTR_FILE(serial));
	if (sys_read(p, serial, slen) || !serial[0])
		return -ENOENT;
	snprintf(p, sizeof(p), "%s/%s", dir, ATTR_FILE(model));
	if (sys_read(p, model, mlen) || !model[0])
		return -ENOENT;
	return 0;
}

int ssdtdev_find(const char *serial, const char *model, const char *bdf,
		 char *dir, size_t len)
{
	char name[64], path[PATH_MAX], pp[PATH_MAX], sn[64], mn[64], pci[64];
	int i, found = 0;

	for (i = 0; i < 1024; i++) {
		snprintf(name, sizeof(name), SSDTUNE_CTRL_PREFIX "%d", i);
		ssdtdev_path(path, sizeof(path), name, NULL);
		if (ssdtdev_identity(path, sn, sizeof(sn), mn, sizeof(mn)) ||
		    strcmp(sn, serial) || strcmp(mn, model))
			continue;
		/* Two drives may share a (blank or generic) serial: the
		 * PCI address breaks the tie. */
		ssdtdev_path(pp, sizeof(pp), name, ATTR_FILE(pci_address));
		if (found && (sys_read(pp, pci, sizeof(pci)) || strcmp(pci, bdf)))
			continue;
		snprintf(dir, len, "%s", path);
		found = 1;
	}
	return found ? 0 : -ENOENT;
}

bool ssdtdev_of_pci(const char *pci_sysdir, char *ctrl, size_t len)
{
	char p[PATH_MAX], rp[PATH_MAX], addr[64];
	const char *bdf = strrchr(pci_sysdir, '/');
	struct dirent *e;
	bool found = false;
	DIR *d = opendir(SSDTDEV_CLASS_DIR);

	if (!d)
		return false;
	bdf = bdf ? bdf + 1 : pci_sysdir;
	while (!found && (e = readdir(d))) {
		if (ssdtdev_index(e->d_name) < 0)
			continue;
		/* The class device's parent is the PCI device; its
		 * pci_address file says the same. */
		ssdtdev_path(p, sizeof(p), e->d_name, "device");
		if (sys_realpath(p, rp) || strcmp(rp, pci_sysdir)) {
			ssdtdev_path(p, sizeof(p), e->d_name, ATTR_FILE(pci_address));
			if (sys_read(p, addr, sizeof(addr)) || strcmp(addr, bdf))
				continue;
		}
		snprintf(ctrl, len, "%s", e->d_name);
		found = true;
	}
	closedir(d);
	return found;
}
