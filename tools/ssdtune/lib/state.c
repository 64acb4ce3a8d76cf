// SPDX-License-Identifier: GPL-2.0
/* The saved state: load, atomic save, lock, remove. */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/dropin.h"
#include "lib/error.h"
#include "lib/parse.h"
#include "lib/planner.h"
#include "lib/state.h"
#include "lib/trust.h"

const char *state_dir_env(void)
{
	const char *env = getenv("SSDTUNE_STATE_DIR");

	return env && env[0] ? env : STATE_DIR_DEFAULT;
}

/* The state directory @dir, open and trusted (lib/trust.h); made 0700
 * first if @create.  The fd, or -errno with @err (-ENOENT: not there). */
static int state_dir_open(const char *dir, bool create, struct lib_err *err)
{
	if (create && mkdir(dir, 0700) && errno != EEXIST)
		return lib_errf(err, errno, "cannot create state directory %s: %s",
				dir, strerror(errno));
	return trust_dir_open(dir, "state directory", err);
}

/* @name in the state directory open on @dfd, for reading: a regular file
 * of root's that nobody else can write.  The fd, -ENOENT (@err
 * untouched), or -errno with @err filled. */
static int state_file_open(int dfd, const char *dir, const char *name,
			   int flags, struct lib_err *err)
{
	char p[PATH_MAX];
	int fd = openat(dfd, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), r;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	if (fd < 0) {
		if (errno == ENOENT)
			return -ENOENT;
		if (errno == ELOOP)
			return lib_errf(err, EPERM, "refusing state file %s: it is a symbolic link", p);
		return lib_errf(err, errno, "cannot read %s: %s", p, strerror(errno));
	}
	r = trust_file_check(fd, p, "state file", err);
	if (r) {
		close(fd);
		return r;
	}
	return fd;
}

int state_lock(const char *dir, struct lib_err *err)
{
	char p[PATH_MAX];
	int dfd, fd;

	dfd = state_dir_open(dir, true, err);
	if (dfd < 0)
		return dfd;
	snprintf(p, sizeof(p), "%s/lock", dir);
	/* made once and kept (state_remove()): a new one, or the one there
	 * if it is a file of root's */
	fd = openat(dfd, "lock", O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST)
		fd = state_file_open(dfd, dir, "lock", O_RDWR, err);
	else if (fd < 0)
		fd = lib_errf(err, errno, "cannot open %s: %s", p, strerror(errno));
	close(dfd);
	if (fd == -ENOENT)
		return lib_errf(err, ENOENT, "cannot open %s: it went as it was opened", p);
	if (fd < 0)
		return fd;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int e = errno;

		close(fd);
		if (e == EWOULDBLOCK)
			return lib_errf(err, e, "%s is held by another ssdtune run (apply, revert, attach or detach)",
					p);
		return lib_errf(err, e, "cannot lock %s: %s", p, strerror(e));
	}
	return fd;
}

/* DIR/STATE_FILE for reading, from a trusted directory: the fd,
 * -ENOENT (nothing saved; @err untouched), or -errno with @err. */
static int state_open(const char *dir, struct lib_err *err)
{
	struct lib_err e = { 0 };
	int dfd = state_dir_open(dir, false, &e), fd;

	if (dfd == -ENOENT)
		return -ENOENT;
	if (dfd < 0) {
		*err = e;
		return dfd;
	}
	fd = state_file_open(dfd, dir, STATE_FILE, O_RDONLY, err);
	close(dfd);
	return fd;
}

void state_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
}

int state_boot_id(char *buf, size_t len)
{
	int r = state_read_raw("/proc/sys/kernel/random/boot_id", buf, len);

	buf[strcspn(buf, "\n")] = '\0';
	return r < 0 ? r : buf[0] ? 0 : -ENODATA;
}

/* All of @fd, up to @len - 1 bytes, NUL-terminated.  0 or -errno. */
static int read_all(int fd, char *buf, size_t len)
{
	size_t used = 0;
	ssize_t n = 0;

	while (used + 1 < len && (n = read(fd, buf + used, len - 1 - used)) > 0)
		used += (size_t)n;
	buf[used] = '\0';
	return n < 0 ? -errno : 0;
}

int state_read_raw(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), r;

	if (fd < 0)
		return -errno;
	r = read_all(fd, buf, len);
	close(fd);
	return r;
}

int state_set(char **field, const char *val)
{
	char *n = strdup(val);

	if (!n)
		return -ENOMEM;
	free(*field);
	*field = n;
	return 0;
}

int state_add(struct state *s, const char *key, const char *path,
	      const char *old, const char *val, const char *bdf, int vector)
{
	struct state_entry *e;

	if (s->n == s->cap) {
		int cap = s->cap ? s->cap * 2 : 64;

		e = realloc(s->e, (size_t)cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		s->e = e;
		s->cap = cap;
	}
	e = &s->e[s->n];
	memset(e, 0, sizeof(*e));
	e->key = strdup(key);
	e->path = strdup(path);
	e->old = strdup(old);
	e->val = strdup(val);
	snprintf(e->bdf, sizeof(e->bdf), "%s", bdf ? bdf : "");
	e->vector = vector;
	e->interrupts = -1;
	s->n++;
	return e->key && e->path && e->old && e->val ? 0 : -ENOMEM;
}

int state_identity(struct state_entry *e, const char *serial,
		   const char *model)
{
	if (!serial || !model)
		return 0;
	e->serial = strdup(serial);
	e->model = strdup(model);
	return e->serial && e->model ? 0 : -ENOMEM;
}

struct state_entry *state_find(struct state *s, const char *key)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->e[i].key, key))
			return &s->e[i];
	return NULL;
}

static void entry_free(struct state_entry *e)
{
	free(e->key);
	free(e->path);
	free(e->old);
	free(e->val);
	free(e->serial);
	free(e->model);
}

void state_drop(struct state *s, int i)
{
	entry_free(&s->e[i]);
	memmove(&s->e[i], &s->e[i + 1], (size_t)(s->n - i - 1) * sizeof(s->e[i]));
	s->n--;
}

void state_free(struct state *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		entry_free(&s->e[i]);
	free(s->e);
	memset(s, 0, sizeof(*s));
}

/* The names of enum plan_type in the state file (a file has none). */
static const char *const type_names[] = {
	[TYPE_FILE] = "file",
	[TYPE_CONTROLLER] = "controller",
	[TYPE_PARTITION] = "partition",
	[TYPE_DROPIN] = "dropin",
};

static int type_parse(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof(type_names) / sizeof(type_names[0]); i++)
		if (!strcmp(name, type_names[i]))
			return (int)i;
	return name ? -1 : TYPE_FILE;
}

static const char *str(struct json_object *o, const char *k)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* What apply, set and attach write, hence all that revert may write
 * back: prefixes, then patterns of a whole path. */
static const char *const allowed_under[] = {
	"/proc/irq/", "/sys/devices/system/cpu/", "/sys/class/ssdtune/",
	"/sys/fs/cgroup/", "/sys/devices/virtual/workqueue/",
};
static const char *extra_under;	/* state_allow_under() */

/* No empty, "." or ".." component: a prefix means what it says. */
static bool path_plain(const char *path)
{
	const char *c = path;

	if (*c != '/')
		return false;
	while (*c == '/') {
		size_t n = strcspn(++c, "/");

		if (!n || (n == 1 && c[0] == '.') || (n == 2 && !strncmp(c, "..", 2)))
			return false;
		c += n;
	}
	return !*c;
}

void state_allow_under(const char *prefix)
{
	extra_under = prefix;
}

bool state_path_allowed(const char *path, int type)
{
	size_t i;

	if (!path_plain(path))
		return false;
	if (type == TYPE_DROPIN)
		return !strcmp(path, IRQBALANCE_DROPIN) || !strcmp(path, GRUB_DROPIN);
	if (type == TYPE_CONTROLLER || type == TYPE_PARTITION)
		return !strncmp(path, "/sys/fs/cgroup/", 15);
	if (extra_under && !strncmp(path, extra_under, strlen(extra_under)) &&
	    path[strlen(extra_under)] == '/')
		return true;
	for (i = 0; i < sizeof(allowed_under) / sizeof(allowed_under[0]); i++)
		if (!strncmp(path, allowed_under[i], strlen(allowed_under[i])))
			return true;
	return !fnmatch("/sys/block/*/queue/*", path, FNM_PATHNAME);
}

/* Entry @i of state file @p onto @s; -EINVAL (@err) for one apply
 * never wrote, -EPERM for a path outside what apply writes. */
static int entry_load(struct state *s, struct json_object *e, const char *p,
		      size_t i, struct lib_err *err)
{
	const char *key = str(e, "key"), *path = str(e, "path");
	const char *old = str(e, "old"), *val = str(e, "new"), *pci;
	int vec = -1, type = type_parse(str(e, "type"));
	struct json_object *v;
	struct bdf b;

	if (!key || !path || !old || !val || type < 0)
		return lib_errf(err, EINVAL, "%s: malformed entry %zu", p, i);
	if (json_object_object_get_ex(e, "vector", &v))
		vec = json_object_is_type(v, json_type_int) ?
		      json_object_get_int(v) : -2;
	/* earlier versions wrote the PCI address as "bdf": their state
	 * files still load (lint-names: JSON keys) */
	pci = str(e, "pci_address") ? str(e, "pci_address") : str(e, "bdf");
	/* a vector is known by its function's address alone */
	if (vec < -1 || (vec >= 0 && (!pci || bdf_parse(pci, &b))))
		return lib_errf(err, EINVAL, "%s: malformed entry %zu (vector %d without a PCI address)",
				p, i, vec);
	if (!state_path_allowed(path, type)) {
		char shown[256];

		return lib_errf(err, EPERM, "refusing state file %s: entry %zu names %s%s, which apply never writes",
				p, i, type == TYPE_DROPIN ? "the drop-in " : "",
				escape_value(path, shown, sizeof(shown)));
	}
	if (state_add(s, key, path, old, val, pci, vec) ||
	    /* lint-names: JSON keys */
	    state_identity(&s->e[s->n - 1], str(e, "serial"), str(e, "model")))
		return lib_enomem(err);
	if (json_object_object_get_ex(e, "interrupts", &v)) {
		/* written only as a count (>= 0) of a vector's interrupts */
		long long n = json_object_is_type(v, json_type_int) ?
			      json_object_get_int64(v) : -1;

		if (n < 0)
			return lib_errf(err, EINVAL, "%s: malformed entry %zu (interrupts is not a count)",
					p, i);
		s->e[s->n - 1].interrupts = n;
	}
	if (str(e, "by") && !strcmp(str(e, "by"), "set"))
		s->e[s->n - 1].by_set = true;
	s->e[s->n - 1].type = type;
	return 0;
}

int state_load(const char *dir, struct state *s, struct lib_err *err)
{
	struct json_object *root, *arr = NULL, *opt;
	char p[PATH_MAX];
	size_t i, n;
	int fd, r = 0;

	memset(s, 0, sizeof(*s));
	snprintf(p, sizeof(p), "%s/" STATE_FILE, dir);
	fd = state_open(dir, err);
	if (fd < 0)
		return fd;
	root = json_object_from_fd(fd);
	close(fd);
	if (!root || !json_object_object_get_ex(root, "entries", &arr) ||
	    !json_object_is_type(arr, json_type_array)) {
		json_object_put(root);
		return lib_errf(err, EINVAL, "%s: malformed (not an ssdtune state file)", p);
	}
	snprintf(s->profile, sizeof(s->profile), "%s",
		 str(root, "profile") ? str(root, "profile") : "");
	snprintf(s->boot_id, sizeof(s->boot_id), "%s",
		 str(root, "boot_id") ? str(root, "boot_id") : "");
	/* state files of earlier versions have neither: no isolation, all
	 * cores; a value of another type is no state apply wrote */
	if (json_object_object_get_ex(root, "isolate", &opt)) {
		if (!json_object_is_type(opt, json_type_boolean))
			r = -1;
		s->isolate = json_object_get_boolean(opt);
	}
	if (json_object_object_get_ex(root, "io_cores", &opt)) {
		if (!json_object_is_type(opt, json_type_int) ||
		    json_object_get_int(opt) < 0)
			r = -1;
		s->io_cores = json_object_get_int(opt);
	}
	if (r) {
		json_object_put(root);
		memset(s, 0, sizeof(*s));
		return lib_errf(err, EINVAL, "%s: malformed (isolate must be true or false, io_cores a count)",
				p);
	}
	n = json_object_array_length(arr);
	for (i = 0; i < n && !r; i++)
		r = entry_load(s, json_object_array_get_idx(arr, i), p, i, err);
	json_object_put(root);
	if (r)
		state_free(s);
	return r;
}

/* The entry a line of the state file holds (state_save() writes one a
 * line), or NULL: the line with its indent and trailing comma dropped. */
static struct json_object *line_entry(const char *line, size_t len)
{
	struct json_object *o;
	char *text;

	while (len && (*line == ' ' || *line == '\t'))
		line++, len--;
	while (len && (line[len - 1] == ',' || line[len - 1] == ' ' ||
		       line[len - 1] == '\r'))
		len--;
	if (len < 2 || line[0] != '{' || line[len - 1] != '}')
		return NULL;
	text = strndup(line, len);
	if (!text)
		return NULL;
	o = json_tokener_parse(text);
	free(text);
	if (o && !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		o = NULL;
	}
	return o;
}

int state_salvage(const char *dir, struct state *s, int *lost,
		  struct lib_err *err)
{
	char p[PATH_MAX], *text, *line, *nl;
	struct json_object *e;
	bool whole = false;	/* the document's last line is there */
	struct stat st;
	size_t i = 0;
	int fd, r = 0;

	memset(s, 0, sizeof(*s));
	*lost = 0;
	snprintf(p, sizeof(p), "%s/" STATE_FILE, dir);
	fd = state_open(dir, err);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) || st.st_size > STATE_MAX_BYTES) {
		close(fd);
		return lib_errf(err, EFBIG, "%s: over %d bytes", p, STATE_MAX_BYTES);
	}
	text = malloc((size_t)st.st_size + 1);
	if (!text) {
		close(fd);
		return lib_enomem(err);
	}
	r = read_all(fd, text, (size_t)st.st_size + 1);
	close(fd);
	if (r) {
		free(text);
		return lib_errf(err, -r, "cannot read %s: %s", p, strerror(-r));
	}
	for (line = text; *line && !r; line = nl ? nl + 1 : line + strlen(line)) {
		struct lib_err ignored;
		const char *t = line;

		nl = strchr(line, '\n');
		while (*t == ' ' || *t == '\t')
			t++;
		whole = !strncmp(t, "] }", 3);
		/* an entry line starts with its key (state_save()) */
		if (strncmp(t, "{\"key\"", 6))
			continue;
		e = line_entry(line, nl ? (size_t)(nl - line) : strlen(line));
		if (!e || !str(e, "key")) {
			++*lost;
		} else if (entry_load(s, e, p, i++, &ignored)) {
			/* no state that names what apply never writes is
			 * restored, not even the rest of it */
			if (ignored.errnum == ENOMEM || ignored.errnum == EPERM)
				r = lib_errf(err, ignored.errnum, "%s", ignored.msg);
			++*lost;
		}
		json_object_put(e);
	}
	free(text);
	/* cut short: the entries after the last whole line are lost too */
	if (!whole)
		++*lost;
	if (r)
		state_free(s);
	return r;
}

/*
 * The state as text: one JSON document whose entries are one a line, so
 * that what survives of a damaged file can still be read line by line
 * (state_salvage()).  NULL: no memory.
 */
static char *state_text(struct json_object *root, struct json_object *arr)
{
	const int flags = JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE;
	const char *head = json_object_to_json_string_ext(root, flags);
	size_t i, n = json_object_array_length(arr), len;
	char *text, *at;
	FILE *f;

	f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	/* the header's fields as written, but the closing brace */
	at = strrchr(head, '}');
	fprintf(f, "%.*s%s\"entries\": [\n", (int)(at - head), head,
		at - head > 1 ? ", " : "");
	for (i = 0; i < n; i++)
		fprintf(f, "  %s%s\n",
			json_object_to_json_string_ext(json_object_array_get_idx(arr, i), flags),
			i + 1 < n ? "," : "");
	fputs("] }\n", f);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

int state_save(const char *dir, const struct state *s, struct lib_err *err)
{
	struct json_object *root = json_object_new_object(), *arr = json_object_new_array();
	char p[PATH_MAX], tmp[PATH_MAX], boot[40];
	char *text;
	size_t len;
	int i, fd, dfd, r = 0;

	json_object_object_add(root, "version", json_object_new_int(1));
	json_object_object_add(root, "profile", json_object_new_string(s->profile));
	json_object_object_add(root, "isolate", json_object_new_boolean(s->isolate));
	json_object_object_add(root, "io_cores", json_object_new_int(s->io_cores));
	if (!state_boot_id(boot, sizeof(boot)))
		json_object_object_add(root, "boot_id", json_object_new_string(boot));
	for (i = 0; i < s->n; i++) {
		struct json_object *e = json_object_new_object();

		json_object_object_add(e, "key", json_object_new_string(s->e[i].key));
		json_object_object_add(e, "path", json_object_new_string(s->e[i].path));
		json_object_object_add(e, "old", json_object_new_string(s->e[i].old));
		json_object_object_add(e, "new", json_object_new_string(s->e[i].val));
		if (s->e[i].type != TYPE_FILE)
			json_object_object_add(e, "type",
					       json_object_new_string(type_names[s->e[i].type]));
		if (s->e[i].by_set)
			json_object_object_add(e, "by", json_object_new_string("set"));
		if (s->e[i].serial && s->e[i].model) {
			json_object_object_add(e, "pci_address", json_object_new_string(s->e[i].bdf));
			json_object_object_add(e, "serial", json_object_new_string(s->e[i].serial));
			json_object_object_add(e, "model", json_object_new_string(s->e[i].model));
		}
		if (s->e[i].vector >= 0) {
			json_object_object_add(e, "pci_address", json_object_new_string(s->e[i].bdf));
			json_object_object_add(e, "vector", json_object_new_int(s->e[i].vector));
			if (s->e[i].interrupts >= 0)
				json_object_object_add(e, "interrupts",
						       json_object_new_int64(s->e[i].interrupts));
		}
		json_object_array_add(arr, e);
	}
	text = state_text(root, arr);
	json_object_put(arr);
	if (!text) {
		json_object_put(root);
		return lib_enomem(err);
	}
	len = strlen(text);
	snprintf(p, sizeof(p), "%s/" STATE_FILE, dir);
	snprintf(tmp, sizeof(tmp), "%s/" STATE_FILE ".tmp", dir);
	dfd = state_dir_open(dir, false, err);
	if (dfd < 0) {
		if (dfd == -ENOENT)
			lib_errf(err, ENOENT, "cannot write %s: %s", tmp, strerror(ENOENT));
		json_object_put(root);
		free(text);
		return dfd;
	}
	/* a temporary file left by a killed run goes; the new one is ours */
	unlinkat(dfd, STATE_FILE ".tmp", 0);
	fd = openat(dfd, STATE_FILE ".tmp",
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, text, len) != (ssize_t)len || fsync(fd)) {
		r = lib_errf(err, errno, "cannot write %s: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		unlinkat(dfd, STATE_FILE ".tmp", 0);
	} else if (close(fd) || renameat(dfd, STATE_FILE ".tmp", dfd, STATE_FILE)) {
		r = lib_errf(err, errno, "cannot save %s: %s", p, strerror(errno));
		unlinkat(dfd, STATE_FILE ".tmp", 0);
	} else if (fsync(dfd)) {
		r = lib_errf(err, errno, "cannot sync %s: %s", dir, strerror(errno));
	}
	close(dfd);
	json_object_put(root);
	free(text);
	return r;
}

int state_remove(const char *dir, struct lib_err *err)
{
	char p[PATH_MAX];
	int dfd, r = 0;

	/* The lock file stays: another run may be waiting on it, and a new
	 * file of that name would give two runs a lock each. */
	snprintf(p, sizeof(p), "%s/" STATE_FILE, dir);
	dfd = state_dir_open(dir, false, err);
	if (dfd == -ENOENT)
		return 0;
	if (dfd < 0)
		return dfd;
	if (unlinkat(dfd, STATE_FILE, 0) && errno != ENOENT)
		r = lib_errf(err, errno, "cannot remove %s: %s", p, strerror(errno));
	close(dfd);
	return r;
}
