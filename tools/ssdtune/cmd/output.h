/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a command shows.  Every command fills one report (lib/report.h) as
 * it goes; with --json that object is the whole of stdout, otherwise the
 * command prints its own text lines.  Errors are one line on stderr,
 * "ssdtune: <what was wrong>", plus (with --json) the object with
 * "status": "error" and "error": "<what was wrong>" on stdout.
 */
#ifndef SSDTUNE_CMD_OUTPUT_H
#define SSDTUNE_CMD_OUTPUT_H

#include <stdbool.h>

#include "lib/error.h"
#include "lib/report.h"

/* Exit codes */
#define EXIT_OK		0
#define EXIT_REFUSED	1	/* runtime refusal or failure */
#define EXIT_USAGE	2	/* bad command line */
#define EXIT_DRIFT	3	/* verify: the host is not as applied or configured */

void out_begin(const char *command, bool json);
void out_set_json(bool json);		/* --json seen after out_begin() */
bool out_json(void);

/* Print the one-line error (and the JSON object), return @code. */
int out_fail(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A library error (lib/error.h) the same way; EXIT_REFUSED. */
int out_fail_err(const struct lib_err *e);

/* Print the JSON object if --json; return 0. */
int out_done(void);

/* A JSON string of @s, or NULL (JSON null) when @s is NULL or empty. */
struct json_object *out_jstr(const char *s);

/* Show dry-run writes as "path <- value" (unless --json). */
void out_dry_run_writes(bool quiet);

#endif
