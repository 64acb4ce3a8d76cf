// SPDX-License-Identifier: GPL-2.0
/* ssdtune plan: the tuning plan for this host, changing nothing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/output.h"
#include "cmd/tuning.h"
#include "lib/tune.h"

static int cmd_plan(const struct command *cmd, struct cli *cli)
{
	struct lib_err err;
	struct topo t;
	struct plan p;
	int r, set, keep, skip;
	const struct plan_opts *o = tuning_opts(cmd, &r);

	if (!r)
		r = tuning_names(cmd, cli);
	if (r)
		return r;
	r = tune_plan(cli->argv, cli->argc, o, &t, &p, &err);
	if (r) {
		r = out_fail_err(&err);
	} else {
		tuning_show_plan(&p);
		tuning_count(&p, &set, &keep, &skip);
		if (!out_json())
			printf("%d to change, %d already set, %d skipped\n", set, keep, skip);
		r = out_done();
	}
	plan_free(&p);
	topo_free(&t);
	return r;
}

const struct command plan_command = {
	.name = "plan",
	.args = "[DEVICE...]",
	.summary = "show the tuning plan for this host (changes nothing)",
	.help =
"Plan interrupt affinity, I/O cores, C-state limits, governor/EPP/turbo and\n"
"(for ssdtune controllers) coalescing for the NVMe functions given as PCI\n"
"addresses or ssdtN names (default: every NVMe function), as a pure\n"
"function of the topology and the profile: latency, iops, throughput or\n"
"balanced (default).  Prints every change as 'path: old -> new  (reason)',\n"
"what is already set, what is skipped (not present, kernel-managed) and\n"
"advice that is printed only (boot isolation, irqbalance); on a terminal\n"
"wrapped to its width, each reason on lines of its own.  A setting made\n"
"alike on many CPUs, or skipped alike for many vectors, is one entry:\n"
"'.../cpuN/... on CPUs 2-3: old -> new'.\n"
"  -p, --profile P   latency, iops, throughput or balanced\n"
"  --isolate         runtime CPU isolation of the I/O cores: the default\n"
"                    IRQ affinity and every movable host interrupt, the\n"
"                    unbound and writeback workqueues moved off them, and\n"
"                    an isolated cpuset partition of them that only\n"
"                    'ssdtune run' puts tasks in (not with balanced)\n"
"  --partition NAME  the partition's cgroup, /sys/fs/cgroup/NAME\n"
"                    (default ssdtune)\n"
"  --boot            boot isolation of the I/O cores (isolcpus, nohz_full,\n"
"                    rcu_nocbs, irqaffinity) as the GRUB drop-in\n"
"                    /etc/default/grub.d/ssdtune.cfg, then update-grub\n"
"                    (not with balanced)\n"
"  --io-cores N      at most N whole cores of a device's node for I/O, in\n"
"                    the order the planner takes them (default auto: every\n"
"                    core that is not an interrupt core); the rest stay\n"
"                    housekeeping\n"
"  --verbose         one line per CPU and per vector (--json always has\n"
"                    every one)\n",
	.flags = CMD_REPLAY,
	.min_args = 0, .max_args = 64,
	.run = cmd_plan,
	.options = plan_options, .option = tuning_option,
};

