// SPDX-License-Identifier: GPL-2.0
/*
 * NVMe Format NVM with user data erase, keeping the namespace's LBA
 * format: bench's purge where the controller supports it.  A namespace on
 * ssdtune is formatted through the driver's netlink command
 * SSDTUNE_CMD_FORMAT; one on the stock nvme driver through its admin
 * passthrough ioctl (the nvme core freezes and rescans around it).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/fs.h>
#include <linux/nvme_ioctl.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "lib/format.h"
#include "lib/ssdtdev.h"
#include "lib/sysfs.h"
#include "uapi/linux/ssdtune.h"

#define NVME_ADMIN_IDENTIFY	0x06
#define NVME_ADMIN_FORMAT_NVM	0x80
#define NVME_SC_INVALID_OPCODE	0x01
#define NVME_ID_NS_FLBAS	26	/* Identify Namespace byte offset */
#define NVME_FORMAT_SES_SHIFT	9	/* Format NVM CDW10 */
#define FORMAT_TIMEOUT_MS	(600 * 1000)

/* The namespace id in "<ctrl>n<nsid>". */
static int nsid_of(const char *name, unsigned int *nsid)
{
	const char *n = strrchr(name, 'n');
	char *end;
	unsigned long v;

	if (!n || !n[1])
		return -1;
	errno = 0;
	v = strtoul(n + 1, &end, 10);
	if (errno || *end || !v || v > 0xffffffffUL)
		return -1;
	*nsid = (unsigned int)v;
	return 0;
}

static int format_ssdt(const char *ctrl, const char *disk, char *why,
		       size_t len)
{
	int idx = ssdtdev_index(ctrl), family, r = FORMAT_FAILED;
	struct nl_sock *sk = NULL;
	struct nl_msg *m = NULL;
	unsigned int nsid;

	if (idx < 0 || nsid_of(disk, &nsid)) {
		snprintf(why, len, "%s is not an ssdtune namespace name", disk);
		return FORMAT_UNSUPPORTED;
	}
	sk = nl_socket_alloc();
	if (!sk || genl_connect(sk) < 0) {
		snprintf(why, len, "no generic netlink socket");
		goto out;
	}
	family = genl_ctrl_resolve(sk, SSDTUNE_GENL_NAME);
	if (family < 0) {
		snprintf(why, len, "no netlink family '%s' (ssdtune.ko not loaded)",
			 SSDTUNE_GENL_NAME);
		r = FORMAT_UNSUPPORTED;
		goto out;
	}
	m = nlmsg_alloc();
	if (!m || !genlmsg_put(m, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, 0,
			       SSDTUNE_CMD_FORMAT, SSDTUNE_GENL_VERSION) ||
	    nla_put_u32(m, SSDTUNE_A_CTRL, (uint32_t)idx) ||
	    nla_put_u32(m, SSDTUNE_A_NSID, nsid) ||
	    nla_put_u32(m, SSDTUNE_A_SES, SSDTUNE_SES_USER_DATA)) {
		snprintf(why, len, "out of memory");
		goto out;
	}
	r = nl_send_auto(sk, m);
	if (r >= 0)
		r = nl_wait_for_ack(sk);
	if (!r) {
		r = FORMAT_DONE;
	} else {
		snprintf(why, len, "ssdtune Format NVM of %s: %s", disk,
			 nl_geterror(r));
		r = r == -NLE_OPNOTSUPP ? FORMAT_UNSUPPORTED : FORMAT_FAILED;
	}
out:
	nlmsg_free(m);
	nl_socket_free(sk);
	return r;
}

/* Is @fd the block device sysfs calls @disk (its dev number)? */
static bool is_disk(int fd, const char *disk)
{
	char p[PATH_MAX], buf[32];
	unsigned int maj, min;
	struct stat st;

	snprintf(p, sizeof(p), "/sys/block/%s/dev", disk);
	return !fstat(fd, &st) && S_ISBLK(st.st_mode) &&
	       !sys_read(p, buf, sizeof(buf)) &&
	       sscanf(buf, "%u:%u", &maj, &min) == 2 &&
	       major(st.st_rdev) == maj && minor(st.st_rdev) == min;
}

static int format_nvme(const char *disk, const char *path, char *why,
		       size_t len)
{
	struct nvme_admin_cmd c;
	unsigned char *id = NULL;
	int fd, nsid, r = FORMAT_FAILED;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, len, "cannot open %s: %s", path, strerror(errno));
		return FORMAT_FAILED;
	}
	if (!is_disk(fd, disk)) {
		snprintf(why, len, "%s is not the block device /sys/block/%s names",
			 path, disk);
		goto out;
	}
	id = calloc(1, 4096);
	nsid = ioctl(fd, NVME_IOCTL_ID);
	if (!id || nsid <= 0) {
		snprintf(why, len, "%s: no NVMe namespace id", path);
		goto out;
	}
	/* The LBA format in force, so that Format keeps size and block size. */
	memset(&c, 0, sizeof(c));
	c.opcode = NVME_ADMIN_IDENTIFY;
	c.nsid = (uint32_t)nsid;
	c.addr = (uintptr_t)id;
	c.data_len = 4096;
	r = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c);
	if (r) {
		snprintf(why, len, "Identify Namespace of %s: %s", path,
			 r < 0 ? strerror(errno) : "NVMe error status");
		r = FORMAT_FAILED;
		goto out;
	}
	memset(&c, 0, sizeof(c));
	c.opcode = NVME_ADMIN_FORMAT_NVM;
	c.nsid = (uint32_t)nsid;
	c.cdw10 = (id[NVME_ID_NS_FLBAS] & 0xf) |
		  (SSDTUNE_SES_USER_DATA << NVME_FORMAT_SES_SHIFT);
	c.timeout_ms = FORMAT_TIMEOUT_MS;
	r = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c);
	if (!r) {
		ioctl(fd, BLKFLSBUF, 0);	/* what the page cache held is gone */
		r = FORMAT_DONE;
	} else if (r > 0) {
		snprintf(why, len, "Format NVM of %s: NVMe status %#x", path, r);
		r = (r & 0xff) == NVME_SC_INVALID_OPCODE ? FORMAT_UNSUPPORTED :
							   FORMAT_FAILED;
	} else {
		snprintf(why, len, "Format NVM of %s: %s", path, strerror(errno));
		r = FORMAT_FAILED;
	}
out:
	free(id);
	close(fd);
	return r;
}

int format_namespace(const char *driver, const char *ctrl, const char *disk,
		     const char *path, char *why, size_t len)
{
	why[0] = '\0';
	if (!strcmp(driver, "ssdtune"))
		return format_ssdt(ctrl, disk, why, len);
	if (!strcmp(driver, "nvme"))
		return format_nvme(disk, path, why, len);
	snprintf(why, len, "driver '%s' is not nvme or ssdtune", driver);
	return FORMAT_UNSUPPORTED;
}
