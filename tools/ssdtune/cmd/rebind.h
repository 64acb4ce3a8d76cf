/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attach and detach of several controllers at once: all checked before
 * any moves (lib/bind.h, bind_check_all), then each in turn.
 */
#ifndef SSDTUNE_CMD_REBIND_H
#define SSDTUNE_CMD_REBIND_H

#include <json-c/json.h>

#include "cmd/cli.h"
#include "lib/error.h"

/* Move the controller @bdf names; its outcome in @j.  0 or -errno with
 * @err filled. */
typedef int rebind_one_fn(struct cli *cli, const char *bdf,
			  struct json_object *j, struct lib_err *err);

/*
 * @cmd (attach or detach) of every controller @cli names: each checked
 * first, so that a bad one changes nothing; then @one of each, its
 * outcome an object of the report's array @key ("attached", "detached":
 * the word of the failure line too).  The report's "status" is @status
 * when all went.  The command's exit status.
 */
int rebind_several(const struct command *cmd, struct cli *cli,
		   const char *key, const char *status, rebind_one_fn *one);

/* @key of @j: @val, or null. */
void rebind_set_str(struct json_object *j, const char *key, const char *val);

#endif
