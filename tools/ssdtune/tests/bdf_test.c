// SPDX-License-Identifier: GPL-2.0
/* Unit tests of PCI addresses (bdf.c): the kernel's spellings in, and out. */
#include <string.h>

#include "tap.h"
#include "tests.h"
#include "lib/bdf.h"

static int bdf_is(const char *s, unsigned int dom, unsigned int bus,
		  unsigned int dev, unsigned int fn)
{
	struct bdf b;

	return !bdf_parse(s, &b) && b.domain == dom && b.bus == bus &&
	       b.dev == dev && b.fn == fn;
}

static int bdf_bad(const char *s)
{
	struct bdf b = { 1, 2, 3, 4 };

	return bdf_parse(s, &b) == -1 && b.domain == 1 && b.fn == 4;
}

void test_bdf(void)
{
	struct bdf b = { 0x10000, 0xe0, 0x06, 0 };
	char buf[BDF_BUFSZ];

	CHECK(bdf_is("0000:41:00.0", 0, 0x41, 0, 0),
	      "bdf_parse accepts the kernel's DDDD:BB:DD.F");
	CHECK(bdf_is("41:00.0", 0, 0x41, 0, 0),
	      "bdf_parse reads BB:DD.F as domain 0");
	CHECK(bdf_is("0000:AF:1F.7", 0, 0xaf, 0x1f, 7),
	      "bdf_parse accepts upper-case hex and the top device/function");
	CHECK(bdf_is("10000:e0:06.0", 0x10000, 0xe0, 6, 0),
	      "bdf_parse accepts a five-digit (VMD) domain");
	CHECK(bdf_bad("0000:41:20.0"), "bdf_parse refuses device 0x20");
	CHECK(bdf_bad("0000:41:00.8"), "bdf_parse refuses function 8");
	CHECK(bdf_bad("0000:41:00.0 "), "bdf_parse refuses trailing text");
	CHECK(bdf_bad("0000:41:00"), "bdf_parse refuses a missing function");
	CHECK(bdf_bad("0000:4:00.0"), "bdf_parse refuses a one-digit bus");
	CHECK(bdf_bad("000041:00.0"), "bdf_parse refuses a missing separator");
	CHECK(bdf_bad("123456789:00:00.0"),
	      "bdf_parse refuses a domain over eight digits");
	CHECK(bdf_bad("") && bdf_bad(NULL) && bdf_bad("zz"),
	      "bdf_parse refuses empty, NULL and junk");
	CHECK(bdf_bad("0000:41:00.0/../x"), "bdf_parse refuses path tricks");
	CHECK(!strcmp(bdf_format(&b, buf, sizeof(buf)), "10000:e0:06.0"),
	      "bdf_format spells a VMD domain like the kernel");
	b = (struct bdf){ 0, 0x41, 0, 0 };
	CHECK(!strcmp(bdf_format(&b, buf, sizeof(buf)), "0000:41:00.0"),
	      "bdf_format pads to DDDD:BB:DD.F");
}
