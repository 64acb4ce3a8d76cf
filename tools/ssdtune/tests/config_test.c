// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the configuration file parser (config.c): good files in,
 * struct config out; every kind of bad line names the file, the line and
 * what is wrong.  The planner's side of a configuration is plan_test.c's. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "tests.h"
#include "lib/config.h"
#include "lib/planner.h"

/* Parse @text as "t.conf": 0 and the config, or the error line. */
static int conf(const char *text, struct config *c, struct lib_err *e)
{
	memset(e, 0, sizeof(*e));
	return config_parse_string(text, "t.conf", c, e);
}

/* Does @text fail with an error starting "t.conf:@line: " and containing
 * @what? */
static int conf_bad(const char *text, int line, const char *what)
{
	static struct config c;
	struct lib_err e;
	char head[32];

	if (line)
		snprintf(head, sizeof(head), "t.conf:%d: ", line);
	else
		snprintf(head, sizeof(head), "t.conf: ");
	if (conf(text, &c, &e) != -EINVAL) {
		printf("# accepted: %s\n", text);
		return 0;
	}
	if (strncmp(e.msg, head, strlen(head)) || !strstr(e.msg, what) ||
	    strchr(e.msg, '\n')) {
		printf("# error: %s\n", e.msg);
		return 0;
	}
	return 1;
}

static void test_config_good(void)
{
	static struct config c;
	struct lib_err e;
	FILE *f;
	int r;

	r = conf("# ssdtune.conf\n"
		 "\n"
		 "controller = serial:S5GXNX0T123456     # the first\n"
		 "  controller=model:Samsung SSD 990 PRO 2TB\t\n"
		 "controller = pci:41:00.0\n"
		 "controller = serial:a#b\n"
		 "profile = latency\n"
		 "isolate = yes\n"
		 "io_cores = 4\n"
		 "coalesce_profile = adaptive\n"
		 "power_limit_mw = 8000 #watts/1000\n"
		 "energy_model = a=b c#d\n", &c, &e);
	CHECK(!r, "config: a full file parses");
	if (r)
		printf("# %s\n", e.msg);
	CHECK(c.nctrls == 4 && c.ctrls[0].by == CONFIG_BY_SERIAL &&
	      !strcmp(c.ctrls[0].value, "S5GXNX0T123456") && c.ctrls[0].line == 3,
	      "config: controller = serial:, trailing comment cut, line kept");
	CHECK(c.ctrls[1].by == CONFIG_BY_MODEL &&
	      !strcmp(c.ctrls[1].value, "Samsung SSD 990 PRO 2TB"),
	      "config: a model with spaces runs to the end of the line, blanks trimmed");
	CHECK(c.ctrls[2].by == CONFIG_BY_PCI && !strcmp(c.ctrls[2].value, "0000:41:00.0"),
	      "config: pci: addresses are kept in the kernel's spelling");
	CHECK(!strcmp(c.ctrls[3].value, "a#b"),
	      "config: a '#' not after a blank is part of the value");
	CHECK(c.profile == PROFILE_LATENCY && c.isolate && c.io_cores == 4,
	      "config: profile, isolate and io_cores");
	CHECK(c.nknobs == 3 && !strcmp(c.knobs[0].value, "adaptive") &&
	      !strcmp(c.knobs[1].value, "8000") && c.knobs[1].line == 11 &&
	      !strcmp(c.knobs[2].value, "a=b c#d"),
	      "config: knobs by name, the value runs past a second '='");

	r = conf("controller = pci:0000:42:00.0", &c, &e);
	CHECK(!r && c.profile == PROFILE_BALANCED && !c.isolate && !c.io_cores &&
	      !c.nknobs && c.nctrls == 1,
	      "config: defaults balanced, no isolation, io_cores auto; no final newline needed");
	r = conf("controller = pci:0000:42:00.0\r\nio_cores = auto\r\n", &c, &e);
	CHECK(!r && !c.io_cores, "config: io_cores = auto, CRLF line ends");

	CHECK(config_selects(&c, "0000:42:00.0", NULL, NULL) == 0 &&
	      config_selects(&c, "0000:41:00.0", "x", "y") == -1,
	      "config_selects: by PCI address");
	conf("controller = serial:SN1\ncontroller = model:QEMU NVMe Ctrl\n", &c, &e);
	CHECK(config_selects(&c, "0000:01:00.0", "SN1  ", "") == 0 &&
	      config_selects(&c, "0000:01:00.0", "SN2", "QEMU NVMe Ctrl") == 1 &&
	      config_selects(&c, "0000:01:00.0", "SN2", "QEMU NVMe") == -1 &&
	      config_selects(&c, "0000:01:00.0", "", "") == -1,
	      "config_selects: by serial or model, sysfs padding aside, whole strings only");

	f = tmpfile();
	if (f) {
		fputs("controller = serial:X\nprofile = iops\nprofle = x\n", f);
		rewind(f);
		memset(&e, 0, sizeof(e));
		r = config_parse_file(f, "/etc/ssdtune/ssdtune.conf", &c, &e);
		fclose(f);
	}
	CHECK(f && r == -EINVAL &&
	      !strncmp(e.msg, "/etc/ssdtune/ssdtune.conf:3: unknown key 'profle' (keys: controller, profile, isolate, io_cores, coalesce_mode,", 109),
	      "config_parse_file: an unknown key names file, line and the keys");

	/* a line of CONFIG_LINE_MAX bytes and its newline (fuzz-corpus/
	 * config/line-of-1024-bytes): a file takes what a string takes */
	f = tmpfile();
	if (f) {
		fprintf(f, "controller = serial:X #%0*d\n",
			CONFIG_LINE_MAX - (int)strlen("controller = serial:X #"), 7);
		rewind(f);
		memset(&e, 0, sizeof(e));
		r = config_parse_file(f, "t.conf", &c, &e);
		fclose(f);
	}
	CHECK(f && r == 0 && c.nctrls == 1,
	      "config_parse_file: a line of 1024 bytes and its newline fits");
}

static void test_config_bad(void)
{
	static char longline[CONFIG_LINE_MAX + 40];
	static struct config none;
	struct lib_err e;

	CHECK(conf_bad("controller = pci:0000:41:00.0\nprofle = latency\n", 2,
		       "unknown key 'profle' (keys: controller, profile, isolate, io_cores, coalesce_mode"),
	      "config: unknown key");
	CHECK(conf_bad("controller = pci:0000:41:00.0\nprofile latency\n", 2, "missing '='"),
	      "config: missing '='");
	CHECK(conf_bad("controller = pci:0000:41:00.0\nprofile =   # none\n", 2,
		       "empty value for 'profile'"),
	      "config: empty value (a comment is not a value)");
	CHECK(conf_bad("= latency\n", 1, "missing key"), "config: missing key");
	CHECK(conf_bad("controller = pci:0000:41:00.0\nprofile = fast\n", 2, "bad profile 'fast'"),
	      "config: bad profile");
	CHECK(conf_bad("controller = pci:0000:41:00.0\nisolate = true\n", 2,
		       "bad value 'true' for isolate (yes or no)"),
	      "config: bad yes/no");
	CHECK(conf_bad("io_cores = 0\n", 1, "bad number '0' for io_cores") &&
	      conf_bad("io_cores = -2\n", 1, "bad number") &&
	      conf_bad("io_cores = 2x\n", 1, "bad number") &&
	      conf_bad("io_cores = 99999999999999999999\n", 1, "bad number") &&
	      conf_bad("io_cores = 4097\n", 1, "bad number"),
	      "config: bad numbers for io_cores (0, negative, junk, overflow, too many)");
	CHECK(conf_bad("controller = pci:0000:41:20.0\n", 1, "bad PCI address '0000:41:20.0'") &&
	      conf_bad("controller = pci:nvme0\n", 1, "bad PCI address"),
	      "config: bad PCI address");
	CHECK(conf_bad("controller = nvme0\n", 1, "bad controller selector 'nvme0'") &&
	      conf_bad("controller = serial:\n", 1, "needs a value") &&
	      conf_bad("controller = model:   # nothing\n", 1, "needs a value") &&
	      conf_bad("controller = Serial:X\n", 1, "bad controller selector"),
	      "config: bad controller selectors");
	CHECK(conf_bad("controller = pci:0000:41:00.0\nprofile = iops\nprofile = latency\n", 3,
		       "'profile' given twice") &&
	      conf_bad("isolate = no\nisolate = no\n", 2, "'isolate' given twice") &&
	      conf_bad("io_cores = 2\nio_cores = auto\n", 2, "'io_cores' given twice") &&
	      conf_bad("power_limit_mw = 1\npower_limit_mw = 2\n", 2,
		       "'power_limit_mw' given twice (first on line 1)"),
	      "config: a scalar key or a knob given twice");
	CHECK(conf_bad("controller = pci:0000:41:00.0\ncoalesce_profile = fast\n", 2,
		       "coalesce_profile must be one of balanced, iops, latency, adaptive, off, not 'fast'") &&
	      conf_bad("coalesce_threshold = 257\n", 1, "coalesce_threshold must be a whole number 0..256") &&
	      conf_bad("power_limit_mw = 1e3\n", 1, "power_limit_mw must be a whole number"),
	      "config: knob values knob_check() refuses");
	CHECK(!conf("# nothing\nprofile = latency\n", &none, &e) && none.nctrls == 0 &&
	      none.profile == PROFILE_LATENCY,
	      "config: a file without a controller line is good: it selects nothing");
	CHECK(conf_bad("controller = pci:0000:41:00.0\nisolate = yes\n", 0,
		       "isolate = yes needs the latency, iops or throughput profile"),
	      "config: isolation with the balanced profile");
	memset(longline, 'x', sizeof(longline) - 1);
	memcpy(longline, "controller = serial:", 20);
	CHECK(conf_bad(longline, 1, "line longer than"), "config: an overlong line");
}

void test_config(void)
{
	test_config_good();
	test_config_bad();
}
