// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune Identify: who the controller is (model, serial, firmware, the
 * optional features and power states it reports) and the transfer limits
 * the disks are set up with.
 */
#include <linux/dma-mapping.h>
#include "ssdt.h"

/*
 * Identify Controller.  Again after a reset (@again) the controller must be
 * the one the disks were set up for: same model and serial; else -ENODEV.
 * A smaller transfer limit (new firmware after an activation) is taken:
 * passthrough follows it at once, the disks at the rescan this asks for
 * (ssdt_ns.c), as stock revalidates its namespaces after a reset.
 */
int ssdt_identify_ctrl(struct ssdt_ctrl *ctrl, bool again)
{
	struct nvme_command cmd = { };
	struct nvme_id_ctrl *id;
	char model[41], serial[21];
	u32 max_xfer;
	u8 mdts;
	dma_addr_t dma;
	int ret;

	id = dma_alloc_coherent(ssdt_dev(ctrl), sizeof(*id), &dma, GFP_KERNEL);
	if (!id)
		return -ENOMEM;
	cmd.identify.opcode = nvme_admin_identify;
	cmd.identify.cns = NVME_ID_CNS_CTRL;
	cmd.identify.dptr.prp1 = cpu_to_le64(dma);
	ret = ssdt_admin_exec(ctrl, &cmd, NULL);
	if (ret) {
		dev_err(ssdt_dev(ctrl), "Identify Controller failed: %d\n", ret);
		ret = ret < 0 ? ret : -EIO;
		goto out;
	}
	max_xfer = SSDT_MAX_XFER;
	mdts = ssdt_debug_mdts() ?: id->mdts;	/* debug hook */
	/* MDTS is in units of the minimum page size, 0 = no limit. */
	if (mdts && mdts < 20)
		max_xfer = min_t(u32, max_xfer, (1u << mdts) *
				 (1u << (12 + NVME_CAP_MPSMIN(ctrl->cap))));
	memcpy(model, id->mn, sizeof(id->mn));
	memcpy(serial, id->sn, sizeof(id->sn));
	model[sizeof(id->mn)] = '\0';
	serial[sizeof(id->sn)] = '\0';
	strim(model);
	strim(serial);
	if (again && (strcmp(model, ctrl->model) || strcmp(serial, ctrl->serial))) {
		dev_err(ssdt_dev(ctrl), "after the reset the controller is %s serial %s: not the %s serial %s it was\n",
			model, serial, ctrl->model, ctrl->serial);
		ret = -ENODEV;
		goto out;
	}
	if (again && max_xfer < ctrl->max_xfer) {
		dev_warn(ssdt_dev(ctrl), "after the reset the controller takes at most %u bytes a command, not %u: the disks follow\n",
			 max_xfer, ctrl->max_xfer);
		WRITE_ONCE(ctrl->max_xfer, max_xfer);
		ssdt_ns_rescan_async(ctrl);
	}
	strscpy(ctrl->model, model, sizeof(ctrl->model));
	strscpy(ctrl->serial, serial, sizeof(ctrl->serial));
	memcpy(ctrl->firmware, id->fr, sizeof(id->fr));
	strim(ctrl->firmware);
	ctrl->oncs = le16_to_cpu(id->oncs);
	ctrl->oacs = le16_to_cpu(id->oacs);
	ctrl->oaes = le32_to_cpu(id->oaes);
	ctrl->mtfa = le16_to_cpu(id->mtfa);
	ctrl->aerl = id->aerl;
	ctrl->fna = id->fna;
	ctrl->wctemp = le16_to_cpu(id->wctemp);
	ctrl->vwc = id->vwc;
	ctrl->npss = min_t(u8, id->npss, ARRAY_SIZE(ctrl->psd) - 1);
	ctrl->nn = le32_to_cpu(id->nn);
	ctrl->crdt[0] = le16_to_cpu(id->crdt1);
	ctrl->crdt[1] = le16_to_cpu(id->crdt2);
	ctrl->crdt[2] = le16_to_cpu(id->crdt3);
	ctrl->shutdown_s = ssdt_shutdown_timeout_s(le32_to_cpu(id->rtd3e),
						   READ_ONCE(ssdt_shutdown_timeout));
	memcpy(ctrl->psd, id->psd, sizeof(ctrl->psd));
	/* Abort Command Limit, 0's based: a new count at every start */
	atomic_set(&ctrl->aborts_left, id->acl + 1);
	ctrl->apsta = id->apsta;
	ctrl->hmpre = le32_to_cpu(id->hmpre);
	ctrl->hmmin = le32_to_cpu(id->hmmin);
	ctrl->hmminds = le32_to_cpu(id->hmminds);
	ctrl->hmmaxd = le16_to_cpu(id->hmmaxd);
	if (!again) {
		u32 q = ssdt_quirks_model(le16_to_cpu(id->vid), id->mn,
					  sizeof(id->mn)) & ~ctrl->quirks;

		if (q) {
			char names[160];

			ctrl->quirks |= q;
			ssdt_quirks_names(q, names, sizeof(names));
			dev_info(ssdt_dev(ctrl), "quirks by model: %s\n", names);
		}
		ctrl->max_xfer = max_xfer;
		dev_info(ssdt_dev(ctrl), "%s, serial %s, firmware %s, NVMe %u.%u\n",
			 ctrl->model, ctrl->serial, ctrl->firmware,
			 NVME_MAJOR(ctrl->vs), NVME_MINOR(ctrl->vs));
	}
out:
	dma_free_coherent(ssdt_dev(ctrl), sizeof(*id), id, dma);
	return ret;
}

/* 2^@shift 512-byte sectors, or UINT_MAX when that does not fit. */
static u32 ssdt_shift_sectors(u32 shift)
{
	return shift >= 32 ? UINT_MAX : 1u << shift;
}

/*
 * The limits Identify Controller does not carry: Identify I/O Command Set
 * specific Controller (CNS 06h) for the NVM set gives the Write Zeroes
 * size limit (WZSL, in minimum page sizes) and the Dataset Management
 * range size limit (DMRSL, in logical blocks).  A controller older than
 * NVMe 2.0 refuses the command: no such limits then.  One that may not
 * even read CNS 06h right (ssdt_cns_limited()) is not asked.  Write Zeroes is
 * held to the transfer limit when WZSL is 0, as the stock driver does:
 * MDTS does not bind it by the letter, but devices have failed larger.
 */
int ssdt_identify_nvm_limits(struct ssdt_ctrl *ctrl)
{
	u32 mps_shift = 12 + NVME_CAP_MPSMIN(ctrl->cap);
	struct nvme_command cmd = { };
	struct nvme_id_ctrl_nvm *id;
	dma_addr_t dma;
	int ret;

	ctrl->max_zeroes_sectors = 0;	/* the disks' transfer limit */
	ctrl->dmrsl = 0;
	ctrl->dmrl = 0;
	if (ssdt_cns_limited(ctrl->vs, ctrl->quirks & SSDT_QUIRK_IDENTIFY_CNS))
		return 0;
	id = dma_alloc_coherent(ssdt_dev(ctrl), sizeof(*id), &dma, GFP_KERNEL);
	if (!id)
		return -ENOMEM;
	cmd.identify.opcode = nvme_admin_identify;
	cmd.identify.cns = NVME_ID_CNS_CS_CTRL;
	cmd.identify.csi = NVME_CSI_NVM;
	cmd.identify.dptr.prp1 = cpu_to_le64(dma);
	ret = ssdt_admin_exec(ctrl, &cmd, NULL);
	if (ret > 0) {
		dev_dbg(ssdt_dev(ctrl), "no NVM command set limits (status %#x)\n",
			ret);
		ret = 0;
	} else if (!ret) {
		if (id->wzsl)
			ctrl->max_zeroes_sectors =
				ssdt_shift_sectors(id->wzsl + mps_shift -
						   SECTOR_SHIFT);
		ctrl->dmrsl = le32_to_cpu(id->dmrsl);
		ctrl->dmrl = id->dmrl;
	}
	dma_free_coherent(ssdt_dev(ctrl), sizeof(*id), id, dma);
	return ret;
}
