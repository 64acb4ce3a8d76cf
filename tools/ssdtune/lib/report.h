/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report a command builds as it goes: one json-c object.  The library
 * only fills it (here, and every write through sys_write() is recorded in
 * "writes"); cmd/output.c decides whether it is printed (--json) and how
 * errors are shown.
 */
#ifndef SSDTUNE_LIB_REPORT_H
#define SSDTUNE_LIB_REPORT_H

#include <stdbool.h>
#include <json-c/json.h>

/* Start a new report: {"command": @command, "version": ...}. */
void report_reset(const char *command);

/* The report object (owned by report.c). */
struct json_object *report_obj(void);
void report_set_str(const char *key, const char *val);	/* NULL -> null */
void report_set_bool(const char *key, bool val);
/* An array field, created on first use. */
void report_append_str(const char *key, const char *val);
void report_set_array(const char *key);			/* empty [] */

/* Record one write (sysfs.c's write path); @error NULL if it worked or
 * was not attempted (dry run). */
void report_add_write(const char *path, const char *value, const char *error);

/* Move "writes" to the end of the object (what was, or would be, done
 * comes after what was found). */
void report_writes_last(void);

#endif
