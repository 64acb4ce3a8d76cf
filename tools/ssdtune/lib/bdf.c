// SPDX-License-Identifier: GPL-2.0
/* PCI address parsing and formatting: pure, unit-tested in tests/. */
#include <stdio.h>

#include "lib/bdf.h"
#include "lib/parse.h"

/* Read between @min and @max hex digits from *@sp into *@val. */
static int hexfield(const char **sp, int min, int max, unsigned int *val)
{
	const char *s = *sp;
	unsigned int v = 0;
	int n = 0;

	while (n < max && hex_digit(s[n]) >= 0) {
		v = (v << 4) | (unsigned int)hex_digit(s[n]);
		n++;
	}
	if (n < min || hex_digit(s[n]) >= 0)
		return -1;
	*sp = s + n;
	*val = v;
	return 0;
}

int bdf_parse(const char *s, struct bdf *out)
{
	struct bdf b = { 0 };
	const char *p = s;
	unsigned int first;

	if (!s)
		return -1;
	if (hexfield(&p, 1, 8, &first) || *p != ':')
		return -1;
	p++;
	/* Is there a domain?  "D:BB:DD.F" has a second ':' after 2 digits. */
	if (p[0] && p[1] && p[2] == ':') {
		b.domain = first;
		if (hexfield(&p, 2, 2, &b.bus) || *p != ':')
			return -1;
		p++;
	} else {
		if (p - s != 3)	/* bus without domain: exactly 2 digits */
			return -1;
		b.bus = first;
	}
	if (hexfield(&p, 2, 2, &b.dev) || *p != '.')
		return -1;
	p++;
	if (hexfield(&p, 1, 1, &b.fn) || *p != '\0')
		return -1;
	if (b.bus > 0xff || b.dev > 0x1f || b.fn > 7)
		return -1;
	*out = b;
	return 0;
}

char *bdf_format(const struct bdf *b, char *buf, size_t len)
{
	snprintf(buf, len, "%04x:%02x:%02x.%x", b->domain, b->bus, b->dev, b->fn);
	return buf;
}
