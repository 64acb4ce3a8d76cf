// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's knobs (knobs.h) around the writes: the table of what each
 * accepts and which files a write changes is knobtab.c's; here those files
 * are read before, saved for revert, put back on a refused write and
 * recorded after.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/bdf.h"
#include "lib/knobs.h"
#include "lib/planner.h"
#include "lib/ssdtdev.h"
#include "lib/sysfs.h"

/* DIR/NAME into @buf; controller directories are short, so a path that
 * does not fit is left empty (and then does not exist). */
static void knob_path(char *buf, size_t len, const char *dir, const char *name)
{
	if ((size_t)snprintf(buf, len, "%s/%s", dir, name) >= len)
		buf[0] = '\0';
}

int knob_resolve(const char *dir, struct knob_set *a, int na,
		 struct lib_err *err)
{
	int i;

	for (i = 0; i < na; i++) {
		knob_path(a[i].path, sizeof(a[i].path), dir, a[i].k->name);
		if (!sys_exists(a[i].path))
			return lib_errf(err, ENOENT, "%s has no %s (a driver without this knob?)",
					dir, a[i].k->name);
	}
	return 0;
}

static int read_failed(struct lib_err *err, const char *path, int r)
{
	return lib_errf(err, -r, "cannot read %s: %s", path, strerror(-r));
}

int knob_snapshot(const char *dir, const struct knob_set *a, int na,
		  struct knob_before *b, int *nb, struct lib_err *err)
{
	const char *const *f;
	int i, j, r;

	*nb = 0;
	for (i = 0; i < na; i++)
		for (f = a[i].k->saves; *f; f++) {
			char path[PATH_MAX];

			knob_path(path, sizeof(path), dir, *f);
			for (j = 0; j < *nb && strcmp(b[j].path, path); j++)
				;
			if (j < *nb)
				continue;
			if (*nb == KNOB_MAX)
				return lib_errf(err, E2BIG, "too many knobs at once");
			snprintf(b[j].path, sizeof(b[j].path), "%s", path);
			r = state_read_raw(path, b[j].raw, sizeof(b[j].raw));
			if (r)
				return read_failed(err, path, r);
			(*nb)++;
		}
	return 0;
}

int knob_save(struct state *s, const char *dir, const struct knob_set *a,
	      int na, struct lib_err *err)
{
	char path[PATH_MAX], raw[4096], key[PATH_MAX], sn[64], mn[64], pci[64];
	bool ident = !ssdtdev_identity(dir, sn, sizeof(sn), mn, sizeof(mn));
	const char *const *f;
	int i, r;

	snprintf(path, sizeof(path), "%s/%s", dir, ATTR_FILE(pci_address));
	if (sys_read(path, pci, sizeof(pci)))
		pci[0] = '\0';
	for (i = 0; i < na; i++)
		for (f = a[i].k->saves; *f; f++) {
			knob_path(path, sizeof(path), dir, *f);
			if (ident)
				plan_ctrl_key(sn, mn, *f, key, sizeof(key));
			else
				snprintf(key, sizeof(key), "%s", path);
			if (state_find(s, key))
				continue;
			r = state_read_raw(path, raw, sizeof(raw));
			if (r)
				return read_failed(err, path, r);
			if (state_add(s, key, path, raw, raw, ident ? pci : NULL, -1) ||
			    (ident && state_identity(&s->e[s->n - 1], sn, mn)))
				return lib_enomem(err);
			s->e[s->n - 1].by_set = true;
		}
	return 0;
}

int knob_write(const struct knob_set *a, int na, char *first, size_t len,
	       void (*written)(void *ctx, const struct knob_set *a),
	       void *ctx)
{
	int i, failed = 0;

	for (i = 0; i < na; i++) {
		int w = sys_write(a[i].path, a[i].value);

		if (w && !failed++)
			snprintf(first, len, "%s <- %s: %s", a[i].path,
				 a[i].value, strerror(-w));
		if (!w && written)
			written(ctx, &a[i]);
	}
	return failed;
}

void knob_roll_back(const struct knob_before *b, int nb)
{
	char now[4096];

	while (nb--) {
		if (!state_read_raw(b[nb].path, now, sizeof(now)) &&
		    !strcmp(now, b[nb].raw))
			continue;
		sys_write(b[nb].path, b[nb].raw);
	}
}

int knob_record(struct state *s, const char *dir, struct lib_err *err)
{
	char now[4096], path[PATH_MAX], sn[64], mn[64];
	bool ident = !ssdtdev_identity(dir, sn, sizeof(sn), mn, sizeof(mn));
	size_t dl = strlen(dir);
	const char *file;
	int i;

	for (i = 0; i < s->n; i++) {
		struct state_entry *e = &s->e[i];

		if (ident && e->serial && e->model) {
			/* This controller's file, under its name of today */
			if (strcmp(e->serial, sn) || strcmp(e->model, mn))
				continue;
			file = strrchr(e->path, '/');
			snprintf(path, sizeof(path), "%s%s", dir, file ? file : "");
			if (state_set(&e->path, path))
				return lib_enomem(err);
		} else if (strncmp(e->path, dir, dl) || e->path[dl] != '/') {
			continue;
		}
		if (state_read_raw(e->path, now, sizeof(now)))
			continue;
		if (state_set(&e->val, now))
			return lib_enomem(err);
	}
	return 0;
}

int knob_txn_begin(struct knob_txn *t, const char *dir,
		   const struct knob_set *a, int na, struct lib_err *err)
{
	snprintf(t->dir, sizeof(t->dir), "%s", dir);
	t->a = a;
	t->na = na;
	t->failed = 0;
	t->first[0] = '\0';
	return knob_snapshot(dir, a, na, t->b, &t->nb, err);
}

int knob_txn_commit(struct knob_txn *t, struct state *s,
		    void (*written)(void *ctx, const struct knob_set *a),
		    void *ctx, struct lib_err *err)
{
	int r;

	t->failed = knob_write(t->a, t->na, t->first, sizeof(t->first),
			       written, ctx);
	if (t->failed && s)
		knob_roll_back(t->b, t->nb);
	if (s) {
		r = knob_record(s, t->dir, err);
		if (r)
			return r;
	}
	return t->failed;
}

/* set's save, under @state_dir's lock (taken here, into *@fd): the state
 * there (or a new one, profile "set") with the originals of what @a
 * changes in controller directory @dir added.  0 or -errno. */
static int set_save(struct state *s, const char *state_dir, const char *dir,
		    const struct knob_set *a, int na, int *fd,
		    struct knob_run *res)
{
	int r;

	res->state_err = true;
	*fd = state_lock(state_dir, &res->err);
	if (*fd < 0)
		return *fd;
	r = state_load(state_dir, s, &res->err);
	if (r == -ENOENT) {
		r = 0;
		snprintf(s->profile, sizeof(s->profile), "set");
	}
	if (r)
		return r;
	res->state_err = false;
	r = knob_save(s, dir, a, na, &res->err);
	if (r)
		return r;
	res->state_err = true;
	r = state_save(state_dir, s, &res->err);
	res->state_err = r != 0;
	return r;
}

int knob_set_run(const char *arg, struct knob_set *a, int na,
		 const char *state_dir, bool dry_run,
		 void (*written)(void *ctx, const struct knob_set *a),
		 void *ctx, struct knob_run *res)
{
	struct knob_txn *t = NULL;
	struct state s = { 0 };
	char dir[PATH_MAX];
	int r, fd = -1;

	memset(res, 0, sizeof(*res));
	r = ssdtdev_dir(arg, dir, sizeof(dir), &res->err);
	if (!r)
		r = knob_resolve(dir, a, na, &res->err);
	if (r)
		return r;
	snprintf(res->ctrl, sizeof(res->ctrl), "%s", strrchr(dir, '/') + 1);
	t = malloc(sizeof(*t));
	r = t ? knob_txn_begin(t, dir, a, na, &res->err) : lib_enomem(&res->err);
	if (!r && !dry_run)
		r = set_save(&s, state_dir, dir, a, na, &fd, res);
	if (!r)
		r = knob_txn_commit(t, dry_run ? NULL : &s, written, ctx, &res->err);
	if (r < 0)
		goto out;
	res->failed = r;
	snprintf(res->first, sizeof(res->first), "%s", t->first);
	r = 0;
	if (!dry_run) {
		r = state_save(state_dir, &s, &res->err);
		res->state_err = r != 0;
		res->saved = !r;
	}
out:
	state_unlock(fd);
	state_free(&s);
	free(t);
	return r;
}
