// SPDX-License-Identifier: GPL-2.0
/* Report object, JSON output and the one-line error convention. */
#include <stdarg.h>
#include <stdio.h>

#include "lib/output.h"
#include "uapi/linux/ssdtune.h"

static struct json_object *report;
static bool as_json;

void out_begin(const char *command, bool json)
{
	if (report)
		json_object_put(report);
	report = json_object_new_object();
	as_json = json;
	json_object_object_add(report, "command",
			       command ? json_object_new_string(command) : NULL);
	json_object_object_add(report, "version",
			       json_object_new_string(SSDTUNE_VERSION));
}

void out_set_json(bool json)
{
	as_json = json;
}

bool out_json(void)
{
	return as_json;
}

struct json_object *out_obj(void)
{
	if (!report)
		out_begin(NULL, false);
	return report;
}

void out_set_str(const char *key, const char *val)
{
	json_object_object_add(out_obj(), key,
			       val ? json_object_new_string(val) : NULL);
}

void out_set_bool(const char *key, bool val)
{
	json_object_object_add(out_obj(), key, json_object_new_boolean(val));
}

static struct json_object *array(const char *key)
{
	struct json_object *a;

	if (!json_object_object_get_ex(out_obj(), key, &a) ||
	    !json_object_is_type(a, json_type_array)) {
		a = json_object_new_array();
		json_object_object_add(out_obj(), key, a);
	}
	return a;
}

void out_set_array(const char *key)
{
	array(key);
}

void out_append_str(const char *key, const char *val)
{
	json_object_array_add(array(key), json_object_new_string(val));
}

void out_add_write(const char *path, const char *value, const char *error)
{
	struct json_object *w = json_object_new_object();

	json_object_object_add(w, "path", json_object_new_string(path));
	json_object_object_add(w, "value", json_object_new_string(value));
	if (error)
		json_object_object_add(w, "error", json_object_new_string(error));
	json_object_array_add(array("writes"), w);
}

static void print_json(void)
{
	struct json_object *w;

	/* "writes" last: what was (or would be) done, after what was found */
	if (json_object_object_get_ex(out_obj(), "writes", &w)) {
		json_object_get(w);
		json_object_object_del(out_obj(), "writes");
		json_object_object_add(out_obj(), "writes", w);
	}
	puts(json_object_to_json_string_ext(out_obj(),
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	fflush(stdout);
}

int out_fail(int code, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fflush(stdout);
	fprintf(stderr, "ssdtune: %s\n", msg);
	if (as_json) {
		out_set_str("status", "error");
		out_set_str("error", msg);
		json_object_object_add(out_obj(), "exit_code",
				       json_object_new_int(code));
		print_json();
	}
	return code;
}

int out_done(void)
{
	if (as_json)
		print_json();
	return EXIT_OK;
}
