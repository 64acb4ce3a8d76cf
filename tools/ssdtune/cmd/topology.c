// SPDX-License-Identifier: GPL-2.0
/* ssdtune topology: print what topo_gather() found, as text or JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/output.h"
#include "lib/cpuset.h"
#include "lib/hostrec.h"
#include "lib/parse.h"
#include "lib/topo.h"

struct package {
	int id, node, ncores, threads;
	int *cpus, ncpus;
};

static void free_packages(struct package *p, int np)
{
	int i;

	for (i = 0; i < np; i++)
		free(p[i].cpus);
	free(p);
}

/* Group CPUs by package: cores, threads per core, CPUs, node. */
static int packages(const struct topo *t, struct package **out)
{
	struct package *p = calloc((size_t)t->ncpus + 1, sizeof(*p));
	int np = 0, i, j, k, same;

	if (!p)
		return -1;
	for (i = 0; i < t->ncpus; i++) {
		const struct topo_cpu *c = &t->cpus[i];

		if (!c->online)
			continue;
		for (j = 0; j < np && p[j].id != c->package; j++)
			;
		if (j == np) {
			p[np].id = c->package;
			p[np].node = c->node;
			p[np].cpus = calloc((size_t)t->ncpus, sizeof(int));
			if (!p[np].cpus) {
				free_packages(p, np);
				return -1;
			}
			np++;
		}
		if (p[j].node != c->node)
			p[j].node = -2;		/* spans nodes (SNC, ...) */
		p[j].cpus[p[j].ncpus++] = c->id;
		same = 0;
		for (k = 0; k < i; k++)
			if (t->cpus[k].online && t->cpus[k].package == c->package &&
			    t->cpus[k].core == c->core)
				same++;
		if (!same)
			p[j].ncores++;
		if (same + 1 > p[j].threads)
			p[j].threads = same + 1;
	}
	for (j = 0; j < np; j++)
		qsort(p[j].cpus, (size_t)p[j].ncpus, sizeof(int), int_cmp);
	*out = p;
	return np;
}

static const char *kind(unsigned int class24)
{
	switch (class24 >> 8) {
	case 0x0108: return (class24 & 0xff) == 0x02 ? "nvme" : "nvm";
	case 0x0106: return "sata";
	case 0x0107: return "sas";
	case 0x0104: return "raid";
	case 0x0101: return "ide";
	case 0x0100: return "scsi";
	default: return "storage";
	}
}

/*
 * The driver's quirks for an ssdtune controller (its sysfs file quirks:
 * "none" or names): an array of names; null when not on ssdtune or when
 * the driver has no such file (older than this tool).
 */
static struct json_object *json_quirks(const struct topo_pci *pc)
{
	struct json_object *a;
	char buf[sizeof(pc->quirks)], *save = NULL, *w;

	if (!pc->ssdt[0] || !pc->quirks[0])
		return NULL;
	a = json_object_new_array();
	snprintf(buf, sizeof(buf), "%s", pc->quirks);
	for (w = strtok_r(buf, " \n", &save); w; w = strtok_r(NULL, " \n", &save))
		if (strcmp(w, "none"))
			json_object_array_add(a, json_object_new_string(w));
	return a;
}

/* All vectors steerable, none, some, or unknown. */
static const char *steerable(const struct topo_pci *pc)
{
	int yes = 0, no = 0, i;

	for (i = 0; i < pc->nirqs; i++) {
		if (pc->irqs[i].managed == MANAGED_NO)
			yes++;
		else if (pc->irqs[i].managed == MANAGED_YES)
			no++;
	}
	if (!pc->nirqs)
		return "no vectors";
	if (yes == pc->nirqs)
		return "all";
	if (no == pc->nirqs)
		return "none";
	if (yes + no == pc->nirqs)
		return "some";
	return "unknown (only nvme's and ssdtune's vectors are judged)";
}

/* The warnings about one storage function, appended to @arr and, in text
 * mode, printed indented. */
static void pci_warnings(const struct topo *t, const struct topo_pci *pc,
			 struct json_object *arr)
{
	char w[512];
	struct pcie_link ceil;
	int managed = 0, i;

	ceil = pcie_link_ceiling(&pc->cap, pc->port_known ? &pc->port_cap : NULL);
	if (pc->pcie && pcie_link_degraded(&pc->cur, &ceil)) {
		snprintf(w, sizeof(w), "link trained below its capability: %s x%d of %s x%d (%u of %u MB/s)",
			 pcie_speed_str(pc->cur.speed), pc->cur.width,
			 pcie_speed_str(ceil.speed), ceil.width,
			 pcie_link_mbps(&pc->cur), pcie_link_mbps(&ceil));
		json_object_array_add(arr, json_object_new_string(w));
	}
	if (pc->pcie && pc->port_known && pcie_link_degraded(&ceil, &pc->cap)) {
		snprintf(w, sizeof(w), "the upstream port %s caps the link at %s x%d (%u MB/s); the device can do %s x%d (%u MB/s)",
			 pc->port, pcie_speed_str(ceil.speed), ceil.width,
			 pcie_link_mbps(&ceil), pcie_speed_str(pc->cap.speed),
			 pc->cap.width, pcie_link_mbps(&pc->cap));
		json_object_array_add(arr, json_object_new_string(w));
	}
	if (pc->node < 0 && t->nnodes > 1) {
		snprintf(w, sizeof(w), "NUMA node unknown (numa_node is -1) on a %d-node host",
			 t->nnodes);
		json_object_array_add(arr, json_object_new_string(w));
	}
	for (i = 0; i < pc->nirqs; i++)
		managed += pc->irqs[i].managed == MANAGED_YES;
	if (managed && !strcmp(kind(pc->class24), "nvme"))
		snprintf(w, sizeof(w), "%d of %d interrupt vectors are kernel-managed: their affinity cannot be set; 'ssdtune attach %s' makes them steerable",
			 managed, pc->nirqs, pc->bdf);
	else if (managed)
		snprintf(w, sizeof(w), "%d of %d interrupt vectors are kernel-managed: their affinity cannot be set",
			 managed, pc->nirqs);
	if (managed)
		json_object_array_add(arr, json_object_new_string(w));
}

static void json_numa(const struct topo *t, struct json_object *root)
{
	struct json_object *numa = json_object_new_object();
	struct json_object *nodes = json_object_new_array();
	char list[TOPO_LIST], key[16];
	int i, j;

	for (i = 0; i < t->nnodes; i++) {
		const struct topo_node *n = &t->nodes[i];
		struct json_object *o = json_object_new_object();
		struct json_object *d = json_object_new_object();

		json_object_object_add(o, "node", json_object_new_int(n->id));
		cpulist_format(n->cpus, (size_t)n->ncpus, list, sizeof(list));
		json_object_object_add(o, "cpus", json_object_new_string(list));
		json_object_object_add(o, "cpu_count", json_object_new_int(n->ncpus));
		json_object_object_add(o, "memory_bytes",
				       n->mem_total >= 0 ? json_object_new_int64(n->mem_total) : NULL);
		json_object_object_add(o, "free_bytes",
				       n->mem_free >= 0 ? json_object_new_int64(n->mem_free) : NULL);
		for (j = 0; j < t->nnodes; j++) {
			snprintf(key, sizeof(key), "%d", t->nodes[j].id);
			json_object_object_add(d, key, json_object_new_int(n->distance[j]));
		}
		json_object_object_add(o, "distances", d);
		json_object_array_add(nodes, o);
	}
	json_object_object_add(numa, "nodes", nodes);
	json_object_object_add(root, "numa", numa);
}

static void json_cpus(const struct topo *t, const struct package *p, int np,
		      struct json_object *root)
{
	struct json_object *cpus = json_object_new_object();
	struct json_object *pkgs = json_object_new_array();
	struct json_object *list = json_object_new_array();
	int *online = calloc((size_t)t->ncpus + 1, sizeof(int));
	char buf[TOPO_LIST];
	int i, non = 0, threads = 1;

	for (i = 0; i < t->ncpus; i++) {
		const struct topo_cpu *c = &t->cpus[i];
		struct json_object *o = json_object_new_object();

		if (c->online && online)
			online[non++] = c->id;
		json_object_object_add(o, "cpu", json_object_new_int(c->id));
		json_object_object_add(o, "online", json_object_new_boolean(c->online));
		json_object_object_add(o, "package", json_object_new_int(c->package));
		json_object_object_add(o, "core", json_object_new_int(c->core));
		json_object_object_add(o, "node", json_object_new_int(c->node));
		json_object_object_add(o, "siblings", out_jstr(c->siblings));
		json_object_array_add(list, o);
	}
	for (i = 0; i < np; i++) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "package", json_object_new_int(p[i].id));
		json_object_object_add(o, "node", p[i].node >= 0 ? json_object_new_int(p[i].node) : NULL);
		json_object_object_add(o, "cores", json_object_new_int(p[i].ncores));
		json_object_object_add(o, "threads_per_core", json_object_new_int(p[i].threads));
		cpulist_format(p[i].cpus, (size_t)p[i].ncpus, buf, sizeof(buf));
		json_object_object_add(o, "cpus", json_object_new_string(buf));
		json_object_array_add(pkgs, o);
		if (p[i].threads > threads)
			threads = p[i].threads;
	}
	json_object_object_add(cpus, "count", json_object_new_int(t->ncpus));
	cpulist_format(online, (size_t)non, buf, sizeof(buf));
	json_object_object_add(cpus, "online", json_object_new_string(buf));
	json_object_object_add(cpus, "smt", json_object_new_boolean(threads > 1));
	json_object_object_add(cpus, "threads_per_core", json_object_new_int(threads));
	json_object_object_add(cpus, "packages", pkgs);
	json_object_object_add(cpus, "cpus", list);
	json_object_object_add(root, "cpus", cpus);
	free(online);
}

static struct json_object *json_link(const struct topo_pci *pc)
{
	struct json_object *l = json_object_new_object();
	struct pcie_link ceil;

	json_object_object_add(l, "pcie", json_object_new_boolean(pc->pcie));
	if (!pc->pcie)
		return l;
	ceil = pcie_link_ceiling(&pc->cap, pc->port_known ? &pc->port_cap : NULL);
	json_object_object_add(l, "speed", json_object_new_string(pcie_speed_str(pc->cur.speed)));
	json_object_object_add(l, "width", json_object_new_int(pc->cur.width));
	json_object_object_add(l, "max_speed", json_object_new_string(pcie_speed_str(pc->cap.speed)));
	json_object_object_add(l, "max_width", json_object_new_int(pc->cap.width));
	json_object_object_add(l, "bandwidth_mbps", json_object_new_int((int)pcie_link_mbps(&pc->cur)));
	json_object_object_add(l, "max_bandwidth_mbps", json_object_new_int((int)pcie_link_mbps(&pc->cap)));
	json_object_object_add(l, "port", out_jstr(pc->port_known ? pc->port : NULL));
	if (pc->port_known) {
		json_object_object_add(l, "port_max_speed", json_object_new_string(pcie_speed_str(pc->port_cap.speed)));
		json_object_object_add(l, "port_max_width", json_object_new_int(pc->port_cap.width));
	}
	json_object_object_add(l, "downtrained", json_object_new_boolean(pcie_link_degraded(&pc->cur, &ceil)));
	json_object_object_add(l, "port_limited", json_object_new_boolean(pc->port_known && pcie_link_degraded(&ceil, &pc->cap)));
	return l;
}

static void json_storage(const struct topo *t, struct json_object *root,
			 struct json_object *warnings)
{
	struct json_object *arr = json_object_new_array();
	char buf[32];
	int i, j;

	for (i = 0; i < t->npcis; i++) {
		const struct topo_pci *pc = &t->pcis[i];
		struct json_object *o = json_object_new_object();
		struct json_object *irqs = json_object_new_array();
		struct json_object *w = json_object_new_array();

		json_object_object_add(o, "pci_address", json_object_new_string(pc->bdf));
		snprintf(buf, sizeof(buf), "0x%06x", pc->class24);
		json_object_object_add(o, "class", json_object_new_string(buf));
		json_object_object_add(o, "kind", json_object_new_string(kind(pc->class24)));
		snprintf(buf, sizeof(buf), "0x%04x", pc->vendor);
		json_object_object_add(o, "vendor_id", json_object_new_string(buf));
		snprintf(buf, sizeof(buf), "0x%04x", pc->device);
		json_object_object_add(o, "device_id", json_object_new_string(buf));
		json_object_object_add(o, "name", out_jstr(pc->name));
		json_object_object_add(o, "numa_node", json_object_new_int(pc->node));
		json_object_object_add(o, "driver", out_jstr(pc->driver));
		json_object_object_add(o, "ssdtune_controller", out_jstr(pc->ssdt));
		json_object_object_add(o, "quirks", json_quirks(pc));
		json_object_object_add(o, "link", json_link(pc));
		for (j = 0; j < pc->nirqs; j++) {
			const struct topo_irq *q = &pc->irqs[j];
			struct json_object *qo = json_object_new_object();

			json_object_object_add(qo, "irq", json_object_new_int(q->irq));
			json_object_object_add(qo, "msix_entry", pc->irqs_by_rank ?
					       NULL : json_object_new_int(q->entry));
			json_object_object_add(qo, "queue", q->queue < 0 ?
					       NULL : json_object_new_int(q->queue));
			json_object_object_add(qo, "name", out_jstr(q->name));
			json_object_object_add(qo, "affinity", out_jstr(q->affinity));
			json_object_object_add(qo, "effective_affinity", out_jstr(q->effective));
			json_object_object_add(qo, "managed", q->managed == MANAGED_UNKNOWN ?
					       NULL : json_object_new_boolean(q->managed));
			json_object_object_add(qo, "managed_reason", out_jstr(q->managed_why));
			json_object_array_add(irqs, qo);
		}
		json_object_object_add(o, "irqs", irqs);
		json_object_object_add(o, "steerable", json_object_new_string(steerable(pc)));
		pci_warnings(t, pc, w);
		for (j = 0; j < (int)json_object_array_length(w); j++) {
			char msg[600];

			snprintf(msg, sizeof(msg), "%s: %s", pc->bdf,
				 json_object_get_string(json_object_array_get_idx(w, (size_t)j)));
			json_object_array_add(warnings, json_object_new_string(msg));
		}
		json_object_object_add(o, "warnings", w);
		json_object_array_add(arr, o);
	}
	json_object_object_add(root, "storage", arr);
}

static void json_power(const struct topo *t, struct json_object *root,
		       struct json_object *warnings)
{
	struct json_object *idle = json_object_new_object();
	struct json_object *freq = json_object_new_object();
	struct json_object *irqb = json_object_new_object();
	struct json_object *arr;
	int i;

	json_object_object_add(idle, "available", json_object_new_boolean(t->idle_available));
	if (t->idle_available) {
		json_object_object_add(idle, "driver", out_jstr(t->idle_driver));
		json_object_object_add(idle, "governor", out_jstr(t->idle_governor));
		arr = json_object_new_array();
		for (i = 0; i < t->nidle_states; i++) {
			const struct topo_idle_state *s = &t->idle_states[i];
			struct json_object *o = json_object_new_object();

			json_object_object_add(o, "name", out_jstr(s->name));
			json_object_object_add(o, "desc", out_jstr(s->desc));
			json_object_object_add(o, "latency_us", json_object_new_int((int)s->latency_us));
			json_object_object_add(o, "disabled_on", json_object_new_string(s->disabled_on));
			json_object_array_add(arr, o);
		}
		json_object_object_add(idle, "states", arr);
	} else {
		json_object_array_add(warnings, json_object_new_string("cpuidle: not available on this host (no /sys/devices/system/cpu/cpuidle): C-state settings skipped"));
	}
	json_object_object_add(root, "cpuidle", idle);

	json_object_object_add(freq, "available", json_object_new_boolean(t->freq_available));
	if (t->freq_available) {
		json_object_object_add(freq, "driver", out_jstr(t->freq_driver));
		arr = json_object_new_array();
		for (i = 0; i < t->npolicies; i++) {
			const struct topo_policy *p = &t->policies[i];
			struct json_object *o = json_object_new_object();

			json_object_object_add(o, "policy", json_object_new_int(p->id));
			json_object_object_add(o, "cpus", json_object_new_string(p->cpus));
			json_object_object_add(o, "governor", out_jstr(p->governor));
			json_object_object_add(o, "epp", out_jstr(p->epp));
			json_object_array_add(arr, o);
		}
		json_object_object_add(freq, "policies", arr);
	} else {
		json_object_array_add(warnings, json_object_new_string("cpufreq: not available on this host (no /sys/devices/system/cpu/cpufreq/policy*): governor, EPP and turbo settings skipped"));
	}
	json_object_object_add(freq, "turbo", t->turbo < 0 ? NULL : json_object_new_boolean(t->turbo));
	json_object_object_add(freq, "turbo_file", out_jstr(t->turbo_file));
	json_object_object_add(root, "cpufreq", freq);

	json_object_object_add(irqb, "running", json_object_new_boolean(t->irqbalance_pid > 0));
	json_object_object_add(irqb, "pid", t->irqbalance_pid > 0 ?
			       json_object_new_int(t->irqbalance_pid) : NULL);
	json_object_object_add(root, "irqbalance", irqb);
	if (t->irqbalance_pid > 0)
		json_object_array_add(warnings, json_object_new_string("irqbalance is running: it may move interrupt vectors after they are set"));
}

/* Text output: a compact rendering of the same object. */
static void print_numa(const struct topo *t)
{
	char list[TOPO_LIST];
	int i, j;

	printf("NUMA: %d node%s\n", t->nnodes, t->nnodes == 1 ? "" : "s");
	for (i = 0; i < t->nnodes; i++) {
		const struct topo_node *n = &t->nodes[i];

		cpulist_format(n->cpus, (size_t)n->ncpus, list, sizeof(list));
		printf("  node %d: cpus %s (%d)", n->id, list[0] ? list : "none", n->ncpus);
		if (n->mem_total >= 0)
			printf(", memory %lld MiB (%lld MiB free)",
			       n->mem_total >> 20, n->mem_free >> 20);
		printf(", distances");
		for (j = 0; j < t->nnodes; j++)
			printf(" %d", n->distance[j]);
		printf("\n");
	}
}

static void print_cpus(const struct topo *t, const struct package *p, int np)
{
	char list[TOPO_LIST];
	int i, threads = 1, cores = 0;

	for (i = 0; i < np; i++) {
		cores += p[i].ncores;
		if (p[i].threads > threads)
			threads = p[i].threads;
	}
	printf("CPUs: %d, %d package%s, %d cores, %s\n", t->ncpus, np,
	       np == 1 ? "" : "s", cores,
	       threads > 1 ? "SMT on" : "no SMT");
	for (i = 0; i < np; i++) {
		cpulist_format(p[i].cpus, (size_t)p[i].ncpus, list, sizeof(list));
		printf("  package %d: ", p[i].id);
		if (p[i].node >= 0)
			printf("node %d, ", p[i].node);
		printf("%d cores x %d thread%s, cpus %s\n", p[i].ncores,
		       p[i].threads, p[i].threads == 1 ? "" : "s", list);
	}
}

static void print_link(const struct topo_pci *pc)
{
	struct pcie_link ceil;

	if (!pc->pcie) {
		printf("    link: not PCI Express\n");
		return;
	}
	ceil = pcie_link_ceiling(&pc->cap, pc->port_known ? &pc->port_cap : NULL);
	printf("    link %s x%d (%u MB/s), capable of %s x%d (%u MB/s)",
	       pcie_speed_str(pc->cur.speed), pc->cur.width,
	       pcie_link_mbps(&pc->cur),
	       pcie_speed_str(ceil.speed), ceil.width,
	       pcie_link_mbps(&ceil));
	if (pc->port_known)
		printf(" behind %s", pc->port);
	printf("\n");
}

/* One storage function; @dev its JSON (for the warnings). */
static void print_function(const struct topo_pci *pc, struct json_object *dev)
{
	struct json_object *w;
	int j;

	printf("  %s %s [%04x:%04x] %s\n", pc->bdf, kind(pc->class24),
	       pc->vendor, pc->device, pc->name);
	if (pc->node >= 0)
		printf("    node %d", pc->node);
	else
		printf("    no NUMA node (the firmware gives none)");
	printf(", driver %s", pc->driver[0] ? pc->driver : "none");
	if (pc->ssdt[0])
		printf(" (%s%s%s)", pc->ssdt, pc->quirks[0] ? ", quirks: " : "",
		       pc->quirks);
	printf("\n");
	print_link(pc);
	printf("    %d interrupt vector%s", pc->nirqs, pc->nirqs == 1 ? "" : "s");
	if (pc->nirqs)
		printf(", steerable: %s", steerable(pc));
	printf("\n");
	for (j = 0; j < pc->nirqs; j++) {
		const struct topo_irq *q = &pc->irqs[j];

		printf("      irq %d %s: affinity %s, effective %s, %s%s\n",
		       q->irq, q->name[0] ? q->name : "?",
		       q->affinity[0] ? q->affinity : "?",
		       q->effective[0] ? q->effective : "?",
		       q->managed == MANAGED_YES ? "managed" :
		       q->managed == MANAGED_NO ? "steerable" :
		       "managed: unknown for ",
		       q->managed == MANAGED_YES || q->managed == MANAGED_NO ? "" :
		       pc->driver[0] ? pc->driver : "no driver");
	}
	json_object_object_get_ex(dev, "warnings", &w);
	for (j = 0; j < (int)json_object_array_length(w); j++)
		printf("    warning: %s\n",
		       json_object_get_string(json_object_array_get_idx(w, (size_t)j)));
}

static void print_idle(const struct topo *t)
{
	int i;

	if (!t->idle_available) {
		printf("cpuidle: not available (skipped)\n");
		return;
	}
	printf("cpuidle: driver %s, governor %s\n",
	       t->idle_driver[0] ? t->idle_driver : "?",
	       t->idle_governor[0] ? t->idle_governor : "?");
	for (i = 0; i < t->nidle_states; i++) {
		const struct topo_idle_state *s = &t->idle_states[i];

		printf("  %s: exit latency %u us", s->name, s->latency_us);
		if (s->disabled_on[0])
			printf(", disabled on cpus %s", s->disabled_on);
		printf("\n");
	}
}

static void print_freq(const struct topo *t)
{
	int i, j;

	if (!t->freq_available) {
		printf("cpufreq: not available (skipped)\n");
		return;
	}
	printf("cpufreq: driver %s\n", t->freq_driver[0] ? t->freq_driver : "?");
	for (i = 0; i < t->npolicies; i++) {
		const struct topo_policy *pol = &t->policies[i];

		/* One line per distinct setting would be shorter; policies
		 * are per CPU on most x86, so group equal neighbours. */
		j = i;
		while (j + 1 < t->npolicies &&
		       !strcmp(t->policies[j + 1].governor, pol->governor) &&
		       !strcmp(t->policies[j + 1].epp, pol->epp))
			j++;
		printf("  policies %d-%d: governor %s", pol->id,
		       t->policies[j].id, pol->governor);
		if (pol->epp[0])
			printf(", EPP %s", pol->epp);
		printf("\n");
		i = j;
	}
}

static void print_text(const struct topo *t, const struct package *p, int np,
		       struct json_object *root)
{
	struct json_object *storage;
	int i;

	print_numa(t);
	print_cpus(t, p, np);
	printf("Storage: %d function%s\n", t->npcis, t->npcis == 1 ? "" : "s");
	json_object_object_get_ex(root, "storage", &storage);
	for (i = 0; i < t->npcis; i++)
		print_function(&t->pcis[i],
			       json_object_array_get_idx(storage, (size_t)i));
	print_idle(t);
	print_freq(t);
	printf("turbo: %s\n", t->turbo < 0 ? "unknown" : t->turbo ? "on" : "off");
	if (t->irqbalance_pid > 0)
		printf("irqbalance: running (pid %d)\n", t->irqbalance_pid);
	else
		printf("irqbalance: not running\n");
}

static const char *save_dir;	/* --save DIR */

enum { OPT_SAVE = 0x2f0 };

static const struct option topology_options[] = {
	{ "save", required_argument, NULL, OPT_SAVE },
	{ NULL, 0, NULL, 0 },
};

static int topology_option(struct cli *cli, int val, const char *arg)
{
	(void)cli;
	if (val == OPT_SAVE) {
		if (!arg[0])
			return usage_error(NULL, "--save needs a directory");
		save_dir = arg;
	}
	return 0;
}

/* --save DIR: the recording, before the host is read for the report. */
static int save(struct json_object *root, struct hostrec_stats *st)
{
	struct json_object *j = json_object_new_object();
	struct lib_err err;

	if (hostrec_save(save_dir, st, &err)) {
		json_object_put(j);
		return out_fail_err(&err);
	}
	json_object_object_add(j, "dir", json_object_new_string(save_dir));
	json_object_object_add(j, "files", json_object_new_int64((long long)st->files));
	json_object_object_add(j, "links", json_object_new_int64((long long)st->links));
	json_object_object_add(j, "unreadable", json_object_new_int64((long long)st->skipped));
	json_object_object_add(j, "bytes", json_object_new_int64((long long)st->bytes));
	json_object_object_add(root, "recording", j);
	return 0;
}

static int cmd_topology(const struct command *cmd, struct cli *cli)
{
	struct json_object *root = report_obj(), *warnings;
	struct hostrec_stats st;
	struct package *p = NULL;
	struct lib_err err;
	struct topo t;
	int np, r;

	(void)cmd;
	(void)cli;
	json_object_object_del(root, "writes");	/* reads only */
	if (save_dir && (r = save(root, &st)))
		return r;
	if (topo_gather(&t, &err)) {
		topo_free(&t);
		return out_fail_err(&err);
	}
	np = packages(&t, &p);
	if (np < 0) {
		topo_free(&t);
		return out_fail(EXIT_REFUSED, "out of memory");
	}
	warnings = json_object_new_array();
	json_numa(&t, root);
	json_cpus(&t, p, np, root);
	json_storage(&t, root, warnings);
	json_power(&t, root, warnings);
	json_object_object_add(root, "warnings", warnings);
	if (!out_json())
		print_text(&t, p, np, root);
	if (!out_json() && save_dir)
		printf("recorded in %s: %lu files, %lu links, %llu KiB (%lu unreadable, left out);\n"
		       "replay it: ssdtune --root %s topology\n", save_dir, st.files,
		       st.links, (st.bytes + 1023) / 1024, st.skipped, save_dir);
	free_packages(p, np);
	topo_free(&t);
	return out_done();
}

const struct command topology_command = {
	.name = "topology",
	.args = "",
	.summary = "show NUMA nodes, CPUs, storage, links, IRQs, power settings",
	.help =
"Print the host as the tuner sees it: NUMA nodes with CPUs, memory and\n"
"distances; packages, cores and SMT; every storage PCI function with its\n"
"NUMA node, driver, PCIe link (trained vs capable, and the bandwidth each\n"
"allows) and interrupt vectors (affinity, effective affinity, whether they\n"
"are kernel-managed); cpuidle states, cpufreq governor/EPP, turbo, and\n"
"whether irqbalance runs.  Changes nothing on the host.\n"
"  --save DIR  also record the files of /sys and /proc read for this into\n"
"              the new directory DIR (made 0700; one that is there is\n"
"              refused), to send with a bug report: anyone can replay\n"
"              it with 'ssdtune --root DIR topology' or 'plan'\n",
	.flags = CMD_REPLAY,
	.min_args = 0, .max_args = 0,
	.run = cmd_topology,
	.options = topology_options, .option = topology_option,
};
