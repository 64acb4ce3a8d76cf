/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a command reports.  Every command fills one json-c object as it
 * goes; with --json that object is the whole of stdout, otherwise the
 * command prints its own text lines.  Errors are one line on stderr,
 * "ssdtune: <what was wrong>", plus (with --json) the object with
 * "status": "error" and "error": "<what was wrong>" on stdout.
 */
#ifndef SSDTUNE_OUTPUT_H
#define SSDTUNE_OUTPUT_H

#include <stdbool.h>
#include <json-c/json.h>

/* Exit codes */
#define EXIT_OK		0
#define EXIT_REFUSED	1	/* runtime refusal or failure */
#define EXIT_USAGE	2	/* bad command line */

void out_begin(const char *command, bool json);
void out_set_json(bool json);		/* --json seen after out_begin() */
bool out_json(void);

/* The report object (owned by output.c). */
struct json_object *out_obj(void);
void out_set_str(const char *key, const char *val);	/* NULL -> null */
void out_set_bool(const char *key, bool val);
/* An array field, created on first use. */
void out_append_str(const char *key, const char *val);
void out_set_array(const char *key);			/* empty [] */

/* Record one write (sysfs.c's write path); @error NULL if it worked or
 * was not attempted (dry run). */
void out_add_write(const char *path, const char *value, const char *error);

/* Print the one-line error (and the JSON object), return @code. */
int out_fail(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Print the JSON object if --json; return 0. */
int out_done(void);

#endif
