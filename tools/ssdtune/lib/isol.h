/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What CPU isolation can use and what the host already isolates: every
 * interrupt in /proc/irq, the default IRQ affinity, the workqueue masks,
 * per-CPU PM QoS, the cgroup v2 cpuset root and its partitions, isolcpus
 * and nohz_full.  Read only; topo_gather() calls it.
 */
#ifndef SSDTUNE_ISOL_H
#define SSDTUNE_ISOL_H

#include "lib/error.h"
#include "lib/topo.h"

#define CGROUP_ROOT		"/sys/fs/cgroup"
#define PROC_IRQ		"/proc/irq"
#define IRQ_DEFAULT_AFFINITY	PROC_IRQ "/default_smp_affinity"
#define WQ_CPUMASK		"/sys/devices/virtual/workqueue/cpumask"
#define WQ_WRITEBACK_CPUMASK	"/sys/devices/virtual/workqueue/writeback/cpumask"

/* Fill t->isol and each t->cpus[i].pm_qos.  0 or -ENOMEM (@err filled):
 * what is absent stays empty. */
int isol_gather(struct topo *t, struct lib_err *err);
void isol_free(struct topo_isol *i);

#endif
