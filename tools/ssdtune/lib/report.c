// SPDX-License-Identifier: GPL-2.0
/* The report object every command fills (report.h). */
#include "lib/report.h"
#include "uapi/linux/ssdtune.h"

static struct json_object *report;

void report_reset(const char *command)
{
	if (report)
		json_object_put(report);
	report = json_object_new_object();
	json_object_object_add(report, "command",
			       command ? json_object_new_string(command) : NULL);
	json_object_object_add(report, "version",
			       json_object_new_string(SSDTUNE_VERSION));
}

struct json_object *report_obj(void)
{
	if (!report)
		report_reset(NULL);
	return report;
}

void report_set_str(const char *key, const char *val)
{
	json_object_object_add(report_obj(), key,
			       val ? json_object_new_string(val) : NULL);
}

void report_set_bool(const char *key, bool val)
{
	json_object_object_add(report_obj(), key, json_object_new_boolean(val));
}

static struct json_object *array(const char *key)
{
	struct json_object *a;

	if (!json_object_object_get_ex(report_obj(), key, &a) ||
	    !json_object_is_type(a, json_type_array)) {
		a = json_object_new_array();
		json_object_object_add(report_obj(), key, a);
	}
	return a;
}

void report_set_array(const char *key)
{
	array(key);
}

void report_append_str(const char *key, const char *val)
{
	json_object_array_add(array(key), json_object_new_string(val));
}

void report_add_write(const char *path, const char *value, const char *error)
{
	struct json_object *w = json_object_new_object();

	json_object_object_add(w, "path", json_object_new_string(path));
	json_object_object_add(w, "value", json_object_new_string(value));
	if (error)
		json_object_object_add(w, "error", json_object_new_string(error));
	json_object_array_add(array("writes"), w);
}

void report_writes_last(void)
{
	struct json_object *w;

	if (json_object_object_get_ex(report_obj(), "writes", &w)) {
		json_object_get(w);
		json_object_object_del(report_obj(), "writes");
		json_object_object_add(report_obj(), "writes", w);
	}
}
