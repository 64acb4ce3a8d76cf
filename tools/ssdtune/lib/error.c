// SPDX-License-Identifier: GPL-2.0
/* Errors as values (error.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "lib/error.h"

int lib_errf(struct lib_err *e, int errnum, const char *fmt, ...)
{
	va_list ap;

	if (e) {
		e->errnum = errnum;
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
		va_end(ap);
	}
	return errnum ? -errnum : -1;
}

int lib_enomem(struct lib_err *e)
{
	return lib_errf(e, ENOMEM, "out of memory");
}
