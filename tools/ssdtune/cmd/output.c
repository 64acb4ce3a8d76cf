// SPDX-License-Identifier: GPL-2.0
/* JSON output and the one-line error convention (output.h). */
#include <stdarg.h>
#include <stdio.h>

#include "cmd/output.h"
#include "lib/parse.h"
#include "lib/sysfs.h"

static bool as_json;

void out_begin(const char *command, bool json)
{
	report_reset(command);
	as_json = json;
}

void out_set_json(bool json)
{
	as_json = json;
}

bool out_json(void)
{
	return as_json;
}

static void print_json(void)
{
	report_writes_last();
	puts(json_object_to_json_string_ext(report_obj(),
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	fflush(stdout);
}

static int fail(int code, const char *msg)
{
	fflush(stdout);
	fprintf(stderr, "ssdtune: %s\n", msg);
	if (as_json) {
		report_set_str("status", "error");
		report_set_str("error", msg);
		json_object_object_add(report_obj(), "exit_code",
				       json_object_new_int(code));
		print_json();
	}
	return code;
}

int out_fail(int code, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return fail(code, msg);
}

int out_fail_err(const struct lib_err *e)
{
	return fail(EXIT_REFUSED, e->msg[0] ? e->msg : "failed");
}

struct json_object *out_jstr(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}

int out_done(void)
{
	if (as_json)
		print_json();
	return EXIT_OK;
}

static void show_dry_write(const char *path, const char *value)
{
	char shown[1024];

	printf("%s <- %s\n", path, escape_value(value, shown, sizeof(shown)));
	fflush(stdout);
}

void out_dry_run_writes(bool quiet)
{
	sys_dry_run_observer(quiet ? NULL : show_dry_write);
}
