/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysfs/procfs access.  Reads are small helpers; every write the tool makes
 * goes through sys_write(), so --dry-run is that one function recording
 * (and telling its observer) "path <- value" instead of writing.
 */
#ifndef SSDTUNE_SYSFS_H
#define SSDTUNE_SYSFS_H

#include <stdbool.h>
#include <stddef.h>

#include "uapi/linux/ssdtune.h"

#define SYS_PCI_DEVICES		"/sys/bus/pci/devices"
#define SYS_PCI_DRIVERS		"/sys/bus/pci/drivers"
#define SYS_PCI_DRIVERS_PROBE	"/sys/bus/pci/drivers_probe"
#define SYS_BLOCK		"/sys/block"
#define SYS_SSDT_DRIVER		SYS_PCI_DRIVERS "/" SSDTUNE_DRV_NAME

/* dry_run: sys_write() records the write in the report, tells the
 * observer (if any) and never writes. */
void sys_write_mode(bool dry_run);
void sys_dry_run_observer(void (*fn)(const char *path, const char *value));
bool sys_dry_run(void);

/*
 * THE write path.  Writes @value to @path (open O_WRONLY|O_TRUNC, one
 * write(), like `echo -n value > path`), records it in the report.
 * Returns 0 or -errno.  In dry-run mode: records it, calls the observer
 * (the command prints "path <- value") and returns 0.
 */
int sys_write(const char *path, const char *value);

/* Read a small file, trailing newline stripped.  0 or -errno. */
int sys_read(const char *path, char *buf, size_t len);

/* An optional one-line file: "" if it is missing or unreadable. */
void sys_read_opt(const char *path, char *buf, size_t len);

bool sys_exists(const char *path);	/* stat() follows links */
bool sys_is_dir(const char *path);

/* printf into @buf of @len bytes, for a path: a longer one is cut (and
 * then not found).  Returns @buf. */
char *sys_pathf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Basename of the target of symlink @path.  0 or -errno. */
int sys_link_name(const char *path, char *buf, size_t len);

/* realpath() into @buf (PATH_MAX).  0 or -errno. */
int sys_realpath(const char *path, char *buf);

/* The numeric suffixes of the entries of @dir named @prefix<N> ("" for
 * all-digit names), sorted, in *@out (free it).  Returns the count (0 if
 * @dir is missing), -1 on allocation failure. */
int sys_list_numbered(const char *dir, const char *prefix, int **out);

/* Create or remove directory @path (a cgroup), through the write path:
 * recorded in the report, only recorded in a dry run.  0 or -errno. */
int sys_mkdir(const char *path);
int sys_rmdir(const char *path);
int sys_unlink(const char *path);

/* sys_write() to a file that may not exist yet (a configuration file the
 * tool owns): created 0644.  0 or -errno. */
int sys_create(const char *path, const char *value);

/* Run @argv (PATH searched), stdout and stderr to the given files
 * (NULL: /dev/null).  Its exit status, 128+N if killed by signal N, 127
 * if it could not be run. */
int sys_spawn(char *const argv[], const char *out_path, const char *err_path);

/* Run @argv as a change (systemctl restart): through the write path, so
 * a dry run records "argv[0] <- args" and runs nothing.  0, or -ECHILD if
 * it failed. */
int sys_run(char *const argv[]);

/* Is program @prog in PATH? */
bool sys_have(const char *prog);

/* Monotonic milliseconds, and a sleep, for bounded waits. */
long long sys_now_ms(void);
void sys_sleep_ms(int ms);

#endif
