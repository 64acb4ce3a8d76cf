/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The NVMe controllers present, whatever driver they are on, with the
 * identity a configuration file selects them by (config.h): PCI address,
 * serial and model (/sys/class/ssdtune/ssdtN/{serial,model} on ssdtune,
 * /sys/class/nvme/nvmeN/{serial,model} on nvme).  Reads only.
 */
#ifndef SSDTUNE_CTRLS_H
#define SSDTUNE_CTRLS_H

#include <limits.h>
#include <stdbool.h>
#include <string.h>

#include "lib/bdf.h"
#include "lib/config.h"
#include "lib/error.h"

struct ctrl_id {
	char bdf[BDF_BUFSZ];
	char driver[64];		/* "" if none is bound */
	char ctrl[NAME_MAX + 1];	/* ssdtN, nvmeN, or "" */
	char serial[128], model[128];	/* "" unknown */
	int line;			/* the configuration line that
					 * selects it (ctrls_configured()) */
};

/* Every NVMe PCI function, by PCI address, into *@out (free it); their
 * count, or -errno with @err filled. */
int ctrls_list(struct ctrl_id **out, struct lib_err *err);

/* Only those @c selects, each with the first line that does; with
 * @matched (c->nctrls of them), whether each line selects one present.
 * Their count (maybe 0), or -errno with @err filled. */
int ctrls_configured(const struct config *c, struct ctrl_id **out,
		     bool *matched, struct lib_err *err);

/* Is the ssdtune controller of @id on ssdtune? */
static inline bool ctrl_on_ssdtune(const struct ctrl_id *id)
{
	return !strncmp(id->ctrl, "ssdt", 4);
}

#endif
