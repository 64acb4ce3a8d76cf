// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the planner (planner.c): hand-built topologies in, plan
 * items out. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "tests.h"
#include "lib/planner.h"

/* Two nodes of four cores with two threads each: node 0 CPUs 0-3,8-11,
 * node 1 CPUs 4-7,12-15 (siblings c and c + 8). */
static struct topo_node tn[2];
static int n0[] = { 0, 1, 2, 3, 8, 9, 10, 11 }, n1[] = { 4, 5, 6, 7, 12, 13, 14, 15 };
static struct topo_cpu tc[16];
static struct topo_irq tq[5];
static struct topo_pci tp[2];
static struct topo_idle_state ts[4];
static struct topo_policy tpol[16];

static void two_nodes(struct topo *t, const char *driver)
{
	int i;

	memset(t, 0, sizeof(*t));
	tn[0] = (struct topo_node){ .id = 0, .cpus = n0, .ncpus = 8 };
	tn[1] = (struct topo_node){ .id = 1, .cpus = n1, .ncpus = 8 };
	for (i = 0; i < 16; i++) {
		tc[i] = (struct topo_cpu){ .id = i, .online = true, .package = (i % 8) / 4,
					   .core = i % 4, .node = (i % 8) / 4 };
		snprintf(tc[i].siblings, sizeof(tc[i].siblings), "%d,%d", i % 8, i % 8 + 8);
		tpol[i] = (struct topo_policy){ .id = i, .governor = "powersave",
						.epp = "balance_power" };
		snprintf(tpol[i].cpus, sizeof(tpol[i].cpus), "%d", i);
	}
	for (i = 0; i < 5; i++) {
		tq[i] = (struct topo_irq){ .irq = 40 + i, .entry = i, .managed = MANAGED_NO,
					   .affinity = "0-15", .effective = "0" };
		snprintf(tq[i].name, sizeof(tq[i].name), "ssdt0q%d", i);
	}
	memset(tp, 0, sizeof(tp));
	tp[0] = (struct topo_pci){ .bdf = "0000:41:00.0", .class24 = 0x010802, .node = 1,
				   .irqs = tq, .nirqs = 5, .coalesce_profile = "balanced",
				   .power_limit_mw = "5000" };
	snprintf(tp[0].driver, sizeof(tp[0].driver), "%s", driver);
	if (!strcmp(driver, "ssdtune"))
		snprintf(tp[0].ssdt, sizeof(tp[0].ssdt), "ssdt0");
	tp[1] = (struct topo_pci){ .bdf = "0000:00:17.0", .class24 = 0x010601, .node = 0,
				   .driver = "ahci" };
	/* state3 is shallow, state2 deep: pick by latency, never by index */
	ts[0] = (struct topo_idle_state){ .index = 0, .name = "POLL", .latency_us = 0 };
	ts[1] = (struct topo_idle_state){ .index = 1, .name = "C1", .latency_us = 2 };
	ts[2] = (struct topo_idle_state){ .index = 2, .name = "C6", .latency_us = 100,
					  .disabled_on = "5" };
	ts[3] = (struct topo_idle_state){ .index = 3, .name = "C1E", .latency_us = 1 };
	*t = (struct topo){ .nodes = tn, .nnodes = 2, .cpus = tc, .ncpus = 16,
			    .pcis = tp, .npcis = 2, .idle_available = true,
			    .idle_states = ts, .nidle_states = 4, .freq_available = true,
			    .policies = tpol, .npolicies = 16, .turbo = 0,
			    .turbo_file = "/sys/devices/system/cpu/intel_pstate/no_turbo" };
}

static const struct plan_item *item(const struct plan *p, const char *path)
{
	int i;

	for (i = 0; i < p->nitems; i++)
		if (!strcmp(p->items[i].path, path))
			return &p->items[i];
	return NULL;
}

static bool is(const struct plan *p, const char *path, enum plan_kind k,
	       const char *old, const char *val)
{
	const struct plan_item *it = item(p, path);

	return it && it->kind == k && !strcmp(it->old, old) && !strcmp(it->val, val);
}

static int count_kind(const struct plan *p, enum plan_kind k, const char *sub)
{
	int i, n = 0;

	for (i = 0; i < p->nitems; i++)
		n += p->items[i].kind == k && strstr(p->items[i].path, sub);
	return n;
}

#define CPU "/sys/devices/system/cpu/"

static void test_plan_latency(void)
{
	struct topo t;
	struct plan p;
	int i, ok;

	two_nodes(&t, "ssdtune");
	CHECK(!plan_build(&t, &(struct plan_opts){ .profile = PROFILE_LATENCY }, NULL, 0, &p) && p.ndevs == 1,
	      "plan picks the NVMe function and not the SATA one");
	CHECK(!strcmp(p.devs[0].irq_cpus, "4,12") && !strcmp(p.devs[0].io_cpus, "5-7,13-15"),
	      "interrupt core on the device's node, a whole core, separate from the I/O cores");
	for (i = 0, ok = 1; i < 5; i++) {
		char path[64], key[64];

		snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", 40 + i);
		snprintf(key, sizeof(key), "irq 0000:41:00.0 vector %d", i);
		ok &= is(&p, path, PLAN_SET, "0-15", "4,12") && item(&p, path)->vector == i &&
		      !strcmp(item(&p, path)->key, key);
	}
	CHECK(ok, "every steerable vector goes to the interrupt core, keyed by PCI address and vector index");
	CHECK(is(&p, CPU "cpu5/cpuidle/state2/disable", PLAN_KEEP, "1", "1") &&
	      is(&p, CPU "cpu13/cpuidle/state2/disable", PLAN_SET, "0", "1") &&
	      is(&p, CPU "cpu4/cpuidle/state2/disable", PLAN_SET, "0", "1"),
	      "C6 (100 us) is disabled on the chosen cores; already-disabled ones are kept");
	CHECK(!count_kind(&p, PLAN_SET, "state3/") && !count_kind(&p, PLAN_SET, "state1/") &&
	      !count_kind(&p, PLAN_SET, "state0/"),
	      "states within the 2 us bound stay, whatever their index");
	CHECK(!count_kind(&p, PLAN_SET, CPU "cpu0/") && !count_kind(&p, PLAN_SET, CPU "cpu3/") &&
	      count_kind(&p, PLAN_SET, "cpuidle") == 7,
	      "C-states change only on the chosen cores");
	CHECK(is(&p, CPU "cpufreq/policy4/scaling_governor", PLAN_SET, "powersave", "performance") &&
	      !item(&p, CPU "cpufreq/policy0/scaling_governor"),
	      "performance governor on the chosen cores only");
	CHECK(is(&p, CPU "intel_pstate/no_turbo", PLAN_SET, "1", "0"), "turbo on via no_turbo");
	CHECK(is(&p, "/sys/class/ssdtune/ssdt0/coalesce_profile", PLAN_SET, "balanced", "off") &&
	      is(&p, "/sys/class/ssdtune/ssdt0/power_limit_mw", PLAN_SET, "5000", "0"),
	      "ssdtune controller: no coalescing, no power limit");
	CHECK(strstr(p.cmdline, "isolcpus=managed_irq,domain,5-7,13-15") &&
	      strstr(p.cmdline, "irqaffinity=0-3,8-11"),
	      "boot isolation covers the I/O cores; other interrupts go to housekeeping CPUs");
	plan_free(&p);
}

static void test_plan_profiles(void)
{
	struct topo t;
	struct plan p;

	two_nodes(&t, "ssdtune");
	CHECK(!plan_build(&t, &(struct plan_opts){ .profile = PROFILE_BALANCED }, NULL, 0, &p) &&
	      !count_kind(&p, PLAN_SET, "cpuidle") &&
	      !count_kind(&p, PLAN_SET, "scaling_governor") &&
	      is(&p, CPU "cpufreq/policy5/energy_performance_preference", PLAN_SET,
		 "balance_power", "balance_performance") &&
	      !item(&p, CPU "intel_pstate/no_turbo") && !p.cmdline[0],
	      "balanced: C-states, governor and turbo left alone, EPP balance_performance");
	plan_free(&p);
	CHECK(!plan_build(&t, &(struct plan_opts){ .profile = PROFILE_IOPS }, NULL, 0, &p) &&
	      is(&p, "/sys/class/ssdtune/ssdt0/coalesce_profile", PLAN_SET, "balanced", "iops"),
	      "iops: coalescing profile iops");
	plan_free(&p);
}

static void test_plan_rules(void)
{
	struct topo t;
	struct plan p;
	int sel = 0, i;

	two_nodes(&t, "nvme");
	for (i = 1; i < 5; i++)
		tq[i].managed = MANAGED_YES;
	CHECK(!plan_build(&t, &(struct plan_opts){ .profile = PROFILE_LATENCY }, NULL, 0, &p) &&
	      is(&p, "/proc/irq/40/smp_affinity_list", PLAN_SET, "0-15", "4,12") &&
	      count_kind(&p, PLAN_SKIP, "/proc/irq/") == 4 &&
	      count_kind(&p, PLAN_SET, "/proc/irq/") == 1 &&
	      !item(&p, "/sys/class/ssdtune/ssdt0/coalesce_profile"),
	      "kernel-managed vectors are reported as skipped, not moved; no knobs on nvme");
	plan_free(&p);

	tp[0].node = 0;
	CHECK(!plan_build(&t, &(struct plan_opts){ .profile = PROFILE_LATENCY }, &sel, 1, &p) &&
	      !strcmp(p.devs[0].irq_cpus, "1,9") && !strcmp(p.devs[0].io_cpus, "2-3,10-11"),
	      "CPU 0's core is left out when the node has cores to spare");
	plan_free(&p);

	tn[0].ncpus = 4;	/* node 0: CPUs 0-3, one thread per core here */
	for (i = 0; i < 4; i++)
		snprintf(tc[i].siblings, sizeof(tc[i].siblings), "%d", i);
	tn[0].cpus = (int[]){ 0, 1 };
	tn[0].ncpus = 2;
	CHECK(!plan_build(&t, &(struct plan_opts){ .profile = PROFILE_LATENCY }, &sel, 1, &p) &&
	      !strcmp(p.devs[0].irq_cpus, "1") && !strcmp(p.devs[0].io_cpus, "0"),
	      "two cores: interrupts keep the one without CPU 0, I/O gets CPU 0's");
	plan_free(&p);
	tn[0].ncpus = 1;
	CHECK(!plan_build(&t, &(struct plan_opts){ .profile = PROFILE_LATENCY }, &sel, 1, &p) &&
	      !strcmp(p.devs[0].irq_cpus, "0") && !strcmp(p.devs[0].io_cpus, "0"),
	      "one core: interrupts and I/O share it (and the plan says so)");
	plan_free(&p);

	two_nodes(&t, "ssdtune");
	t.idle_available = t.freq_available = false;
	t.turbo = -1;
	CHECK(!plan_build(&t, &(struct plan_opts){ .profile = PROFILE_LATENCY }, NULL, 0, &p) &&
	      is(&p, CPU "cpuidle", PLAN_SKIP, "", "") && is(&p, CPU "cpufreq", PLAN_SKIP, "", "") &&
	      strstr(item(&p, CPU "cpuidle")->reason, "not present") &&
	      !count_kind(&p, PLAN_SET, CPU),
	      "no cpuidle, no cpufreq (a VM): skipped as not present, nothing planned there");
	plan_free(&p);

	two_nodes(&t, "ssdtune");
	tp[0].class24 = 0x010601;
	CHECK(plan_build(&t, &(struct plan_opts){ .profile = PROFILE_LATENCY }, NULL, 0, &p) == -ENODEV,
	      "no NVMe function: -ENODEV");
	plan_free(&p);
}

/* The planner's side of the configuration: io_cores and the knobs it
 * leaves to the configuration (the two-node topology above). */
static void test_plan_config(void)
{
	struct topo t;
	struct plan p;

	two_nodes(&t, "ssdtune");
	CHECK(!plan_build(&t, &(struct plan_opts){ .profile = PROFILE_LATENCY, .io_cores = 2 },
			  NULL, 0, &p) &&
	      !strcmp(p.devs[0].irq_cpus, "4,12") && !strcmp(p.devs[0].io_cpus, "5-6,13-14") &&
	      !count_kind(&p, PLAN_SET, CPU "cpu7/") && count_kind(&p, PLAN_SET, CPU "cpu6/"),
	      "io_cores 2: the first two whole cores after the interrupt core, nothing on the rest");
	CHECK(strstr(p.housekeeping, "7") && strstr(p.cmdline, "isolcpus=managed_irq,domain,5-6,13-14"),
	      "io_cores 2: the left-over core is housekeeping");
	plan_free(&p);
	CHECK(!plan_build(&t, &(struct plan_opts){ .profile = PROFILE_LATENCY, .io_cores = 64 },
			  NULL, 0, &p) && !strcmp(p.devs[0].io_cpus, "5-7,13-15"),
	      "io_cores above what the node has: every core, as without it");
	plan_free(&p);
	CHECK(!plan_build(&t, &(struct plan_opts){ .profile = PROFILE_LATENCY,
			  .keep_coalesce = true, .keep_power = true }, NULL, 0, &p) &&
	      is(&p, "/sys/class/ssdtune/ssdt0/coalesce_profile", PLAN_SKIP, "balanced", "") &&
	      is(&p, "/sys/class/ssdtune/ssdt0/power_limit_mw", PLAN_SKIP, "5000", ""),
	      "knobs the configuration sets are skipped by the plan");
	plan_free(&p);
}

/* latency: an I/O vector follows its queue's CPUs, those of the I/O cores
 * first; read again at apply when the plan changes poll_queues */
static void test_plan_follow(void)
{
	static const char *const qcpus[5] = { "", "4", "5,13", "6-7", "0" };
	const struct plan_item *it;
	struct topo t;
	struct plan p;
	char buf[64];
	int i;

	two_nodes(&t, "ssdtune");
	for (i = 0; i < 5; i++) {
		tq[i].queue = i;
		snprintf(tq[i].qcpus, sizeof(tq[i].qcpus), "%s", qcpus[i]);
	}
	tp[0].poll_queues[0] = '0';
	snprintf(tp[0].io_queues, sizeof(tp[0].io_queues), "4");
	CHECK(!plan_build(&t, &(struct plan_opts){ .profile = PROFILE_LATENCY }, NULL, 0, &p),
	      "latency plan with queue CPUs");
	CHECK(is(&p, "/proc/irq/40/smp_affinity_list", PLAN_SET, "0-15", "4,12"),
	      "the admin vector on the interrupt core");
	CHECK(is(&p, "/proc/irq/41/smp_affinity_list", PLAN_SET, "0-15", "4") &&
	      is(&p, "/proc/irq/42/smp_affinity_list", PLAN_SET, "0-15", "5,13") &&
	      is(&p, "/proc/irq/43/smp_affinity_list", PLAN_SET, "0-15", "6-7"),
	      "an I/O vector on the CPUs of its queue, the interrupt core's too when it has no other");
	CHECK(is(&p, "/proc/irq/44/smp_affinity_list", PLAN_SKIP, "0-15", ""),
	      "the queue that becomes a poll queue is left alone");
	it = item(&p, "/proc/irq/42/smp_affinity_list");
	CHECK(it && it->follow && !strcmp(it->follow, "/sys/class/ssdtune/ssdt0/queues/q2/cpus") &&
	      !strcmp(it->within, "5-7,13-15") && it->vector == 2,
	      "poll_queues changes: the vector is read again from its queue at apply");
	for (i = 0; i < p.nitems && strcmp(p.items[i].path, "/sys/class/ssdtune/ssdt0/poll_queues"); i++)
		;
	CHECK(i < p.nitems && i < (int)(it - p.items), "poll_queues is written before the vectors");
	plan_free(&p);
	snprintf(tp[0].poll_queues, sizeof(tp[0].poll_queues), "1");
	CHECK(!plan_build(&t, &(struct plan_opts){ .profile = PROFILE_LATENCY }, NULL, 0, &p) &&
	      (it = item(&p, "/proc/irq/42/smp_affinity_list")) && !it->follow,
	      "poll_queues as planned: today's queue CPUs are the target");
	plan_free(&p);
	CHECK(!plan_build(&t, &(struct plan_opts){ .profile = PROFILE_IOPS }, NULL, 0, &p) &&
	      is(&p, "/proc/irq/42/smp_affinity_list", PLAN_SET, "0-15", "4,12"),
	      "iops keeps its vectors on the interrupt cores");
	plan_free(&p);
	CHECK(!plan_follow_target("5,13", "5-7,13-15", buf, sizeof(buf)) && !strcmp(buf, "5,13") &&
	      !plan_follow_target("4-5,12", "5-7,13-15", buf, sizeof(buf)) && !strcmp(buf, "5") &&
	      !plan_follow_target("4", "5-7", buf, sizeof(buf)) && !strcmp(buf, "4") &&
	      plan_follow_target("", "5-7", buf, sizeof(buf)) == -EINVAL &&
	      plan_follow_target("x", "5-7", buf, sizeof(buf)) == -EINVAL,
	      "follow target: the queue's CPUs among the I/O cores, else all of them; junk refused");
	two_nodes(&t, "ssdtune");
}

void test_planner(void)
{
	test_plan_latency();
	test_plan_follow();
	test_plan_profiles();
	test_plan_rules();
	test_plan_config();
}
