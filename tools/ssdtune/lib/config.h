/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The configuration file, /etc/ssdtune/ssdtune.conf: the wanted state
 * written down once (which controllers, the profile, isolation, I/O
 * cores, driver knobs), for check-config, apply, verify and attach
 * --config.  One "key = value" a line:
 *
 *	# a comment; also after a blank at the end of a line
 *	controller = serial:S5GXNX0T123456	(repeatable; none: select nothing)
 *	controller = model:Samsung SSD 990 PRO 2TB
 *	controller = pci:0000:41:00.0
 *	profile = latency		(latency|iops|throughput|balanced)
 *	isolate = yes			(yes|no)
 *	io_cores = auto			(auto|N)
 *	coalesce_profile = adaptive	(any knob of 'ssdtune set', knobtab.h)
 *
 * Pure but for config_load()'s fopen(): parsing reads a FILE* or a
 * string, never prints; an error is one line "FILE:LINE: what is wrong"
 * in the lib_err.
 */
#ifndef SSDTUNE_CONFIG_H
#define SSDTUNE_CONFIG_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/error.h"
#include "lib/knobtab.h"

#define CONFIG_PATH_DEFAULT	"/etc/ssdtune/ssdtune.conf"
#define CONFIG_MAX_CTRLS	64	/* controller lines */
#define CONFIG_MAX_KNOBS	16	/* knob lines (one per knob) */
#define CONFIG_LINE_MAX		1024	/* bytes of a line */
#define CONFIG_IO_CORES_MAX	4096

enum config_by { CONFIG_BY_SERIAL, CONFIG_BY_MODEL, CONFIG_BY_PCI };

/* "controller = BY:VALUE" */
struct config_ctrl {
	enum config_by by;
	char value[256];	/* the serial or model as written; a PCI
				 * address in the kernel's spelling */
	int line;
};

/* "KNOB = VALUE", checked by knob_check() */
struct config_knob {
	const struct knob *k;
	char value[512];
	int line;
};

struct config {
	char file[256];		/* the name errors give */
	struct config_ctrl ctrls[CONFIG_MAX_CTRLS];
	int nctrls;
	int profile;		/* enum plan_profile; balanced by default */
	bool isolate;		/* default no */
	int io_cores;		/* 0: auto (every core that is not an
				 * interrupt core) */
	struct config_knob knobs[CONFIG_MAX_KNOBS];
	int nknobs;
	int line;		/* lines read */
	unsigned int seen;	/* scalar keys given (internal) */
};

/* An empty configuration named @file (the defaults). */
void config_init(struct config *c, const char *file);

/*
 * Add one line (number @c->line + 1, no newline needed) to @c.  0, or
 * -EINVAL with "FILE:LINE: what is wrong" in @err.
 */
int config_line(struct config *c, const char *line, struct lib_err *err);

/*
 * After the last line: does the whole hold together (isolate needs a
 * profile that keeps I/O cores)?  No controller line is valid: the file
 * then selects nothing.  0 or -EINVAL with @err filled.
 */
int config_finish(struct config *c, struct lib_err *err);

/* The whole of @f, or of @text, as configuration @file: config_init(),
 * config_line() each line, config_finish().  0 or -errno (-EINVAL: a bad
 * line) with @err filled. */
int config_parse_file(FILE *f, const char *file, struct config *c,
		      struct lib_err *err);
int config_parse_string(const char *text, const char *file, struct config *c,
			struct lib_err *err);

/* Open and parse file @path: as config_parse_file(); -errno with
 * "cannot read PATH: why" if it cannot be opened. */
int config_load(const char *path, struct config *c, struct lib_err *err);

/* Does some controller line of @c select the controller at PCI address
 * @bdf with @serial and @model ("" or NULL unknown)?  The index of the
 * first line that does, or -1. */
int config_selects(const struct config *c, const char *bdf,
		   const char *serial, const char *model);

/* Does controller line @cc select that controller? */
bool config_ctrl_matches(const struct config_ctrl *cc, const char *bdf,
			 const char *serial, const char *model);

/* "serial", "model", "pci" */
const char *config_by_name(enum config_by by);

#endif
