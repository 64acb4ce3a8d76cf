// SPDX-License-Identifier: GPL-2.0
/*
 * attach CTRL CTRL... and detach CTRL CTRL... (rebind.h).
 */
#include <errno.h>
#include <stdio.h>

#include "cmd/output.h"
#include "cmd/rebind.h"
#include "lib/bind.h"
#include "lib/report.h"

void rebind_set_str(struct json_object *j, const char *key, const char *val)
{
	json_object_object_add(j, key, val ? json_object_new_string(val) : NULL);
}

int rebind_several(const struct command *cmd, struct cli *cli,
		   const char *key, const char *status, rebind_one_fn *one)
{
	char bdfs[BIND_MAX_ARGS][BDF_BUFSZ];
	struct json_object *arr;
	struct lib_err err;
	int r, i, failed = 0;

	r = bind_check_all(cmd->name, cli->argv, cli->argc, bdfs, &err);
	if (r == -EINVAL)
		return usage_error(cmd, "%s", err.msg);
	if (r)
		return out_fail_err(&err);
	arr = json_object_new_array();
	json_object_object_add(report_obj(), key, arr);
	for (i = 0; i < cli->argc; i++) {
		struct json_object *j = json_object_new_object();
		struct lib_err e;

		json_object_array_add(arr, j);
		rebind_set_str(j, "pci_address", bdfs[i]);
		r = one(cli, bdfs[i], j, &e);
		if (r) {
			rebind_set_str(j, "status", "failed");
			rebind_set_str(j, "error", e.msg);
			if (!failed++)
				err = e;
		}
	}
	if (failed)
		return out_fail(EXIT_REFUSED, "%d of %d controllers not %s; first: %s",
				failed, cli->argc, key, err.msg);
	report_set_str("status", status);
	return out_done();
}
