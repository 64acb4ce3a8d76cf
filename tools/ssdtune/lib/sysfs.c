// SPDX-License-Identifier: GPL-2.0
/* sysfs/procfs reads and the single write path. */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <dirent.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/parse.h"
#include "lib/report.h"
#include "lib/sysfs.h"

static bool dry_run;
static void (*dry_observer)(const char *path, const char *value);

void sys_write_mode(bool dry)
{
	dry_run = dry;
}

void sys_dry_run_observer(void (*fn)(const char *path, const char *value))
{
	dry_observer = fn;
}

bool sys_dry_run(void)
{
	return dry_run;
}

static int write_file(const char *path, const char *value, int flags);

int sys_write(const char *path, const char *value)
{
	return write_file(path, value, 0);
}

int sys_create(const char *path, const char *value)
{
	return write_file(path, value, O_CREAT);
}

static int write_file(const char *path, const char *value, int flags)
{
	size_t len = strlen(value);
	ssize_t n;
	int fd, err = 0;

	if (dry_run) {
		report_add_write(path, value, NULL);
		if (dry_observer)
			dry_observer(path, value);
		return 0;
	}
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | flags, 0644);
	if (fd < 0) {
		err = -errno;
	} else {
		n = write(fd, value, len);
		if (n < 0)
			err = -errno;
		else if ((size_t)n != len)
			err = -EIO;
		if (close(fd) && !err)
			err = -errno;
	}
	report_add_write(path, value, err ? strerror(-err) : NULL);
	return err;
}

int sys_read(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd, err = 0;

	if (!len)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		err = -errno;
		n = 0;
	}
	close(fd);
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return err;
}

void sys_read_opt(const char *path, char *buf, size_t len)
{
	if (sys_read(path, buf, len))
		buf[0] = '\0';
}

bool sys_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

bool sys_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int sys_link_name(const char *path, char *buf, size_t len)
{
	char target[PATH_MAX];
	ssize_t n = readlink(path, target, sizeof(target) - 1);
	const char *base;

	if (n < 0)
		return -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) >= len)
		return -ENAMETOOLONG;
	strcpy(buf, base);
	return 0;
}

int sys_realpath(const char *path, char *buf)
{
	return realpath(path, buf) ? 0 : -errno;
}

int sys_list_numbered(const char *dir, const char *prefix, int **out)
{
	size_t pl = strlen(prefix), n = 0, cap = 0;
	struct dirent *e;
	int *v = NULL, *nv;
	DIR *d = opendir(dir);

	*out = NULL;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, prefix, pl) || !all_digits(e->d_name + pl))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				closedir(d);
				return -1;
			}
			v = nv;
		}
		v[n++] = atoi(e->d_name + pl);
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), int_cmp);
	*out = v;
	return (int)n;
}

long long sys_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void sys_sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* mkdir, rmdir and unlink as writes: "(mkdir)", "(rmdir)" or "(unlink)"
 * is the value. */
enum dir_op { OP_MKDIR, OP_RMDIR, OP_UNLINK };

static int path_op(const char *path, enum dir_op op)
{
	static const char *const what[] = { "(mkdir)", "(rmdir)", "(unlink)" };
	int r, err = 0;

	if (dry_run) {
		report_add_write(path, what[op], NULL);
		if (dry_observer)
			dry_observer(path, what[op]);
		return 0;
	}
	if (op == OP_MKDIR)
		r = mkdir(path, 0755);
	else if (op == OP_RMDIR)
		r = rmdir(path);
	else
		r = unlink(path);
	if (r)
		err = -errno;
	report_add_write(path, what[op], err ? strerror(-err) : NULL);
	return err;
}

int sys_mkdir(const char *path)
{
	return path_op(path, OP_MKDIR);
}

int sys_rmdir(const char *path)
{
	return path_op(path, OP_RMDIR);
}

int sys_unlink(const char *path)
{
	return path_op(path, OP_UNLINK);
}

/* posix_spawnp() rather than fork(): no child of ours has to exit by hand
 * when a redirection or the exec fails (spawn reports it instead). */
int sys_spawn(char *const argv[], const char *out_path, const char *err_path)
{
	const char *out = out_path ? out_path : "/dev/null";
	const char *err = err_path ? err_path : "/dev/null";
	const int flags = O_WRONLY | O_CREAT | O_TRUNC;
	posix_spawn_file_actions_t fa;
	int status, r;
	pid_t pid;

	if (posix_spawn_file_actions_init(&fa))
		return 127;
	r = posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, out, flags, 0644);
	if (!r)
		r = posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, err, flags,
						     0644);
	if (!r)
		r = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (r)
		return 127;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 127;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int sys_run(char *const argv[])
{
	char cmd[512] = "";
	size_t used = 0;
	int i, rc;

	for (i = 1; argv[i] && used + 2 < sizeof(cmd); i++)
		used += (size_t)snprintf(cmd + used, sizeof(cmd) - used, "%s%s",
					 i > 1 ? " " : "", argv[i]);
	if (dry_run) {
		report_add_write(argv[0], cmd, NULL);
		if (dry_observer)
			dry_observer(argv[0], cmd);
		return 0;
	}
	rc = sys_spawn(argv, NULL, NULL);
	report_add_write(argv[0], cmd, rc ? "failed" : NULL);
	return rc ? -ECHILD : 0;
}

bool sys_have(const char *prog)
{
	const char *path = getenv("PATH");
	char p[PATH_MAX];
	const char *s, *e;

	for (s = path ? path : "/usr/bin:/bin"; *s; s = *e ? e + 1 : e) {
		e = strchrnul(s, ':');
		snprintf(p, sizeof(p), "%.*s/%s", (int)(e - s), s, prog);
		if (!access(p, X_OK))
			return true;
	}
	return false;
}

char *sys_pathf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return buf;
}
