/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * ssdtune: the files of /sys/class/ssdtune/ssdtN, its knobs and its
 * read-only attributes, one table for the driver and the tool
 * (Documentation/ABI/testing/sysfs-class-ssdtune).  No include guard: a
 * user defines the macros it needs, includes this file, and gets one
 * expansion per line; the macros it did not define expand to nothing,
 * and all are undefined at the end.  The ranges are in ssdtune.h, which
 * must be included first.
 *
 * SSDTUNE_KNOB(file, kind, max): kind WORD (one of the words of its list
 * below), UINT (0..max) or TEXT (a line the driver parses).
 * SSDTUNE_COALESCE_MODE(ID, word): coalesce_mode, in the order of the
 * driver's enum: off; hw (NVMe features 0x08/0x09 on the device); host
 * (moderation in the driver); auto (hw where the device lets it change,
 * else host).
 * SSDTUNE_COALESCE_PROFILE(ID, word): coalesce_profile; the driver gives
 * each its settings.
 * apst_max_latency_us reads SSDTUNE_APST_UNSUPPORTED on a controller
 * without APST.
 * SSDTUNE_POWER_MODE(ID, word): the words power_limit_mode takes: hw (an
 * NVMe power state, feature 0x02), host (an energy budget in the driver),
 * auto (hw where a state fits, else host).  Read back it may also say
 * SSDTUNE_POWER_MODE_OFF.
 * SSDTUNE_ATTR(file): a read-only file of the controller directory.
 * SSDTUNE_QUEUE_ATTR(file): a read-only file of each queue's directory,
 * SSDTUNE_QUEUES_DIR/SSDTUNE_QUEUE_PREFIX<K> (queues/qK; K 0 is the admin
 * queue).
 * Every file of the driver's own is a line here: its sysfs code takes the
 * names from these lines, and the tool builds every path it reads or
 * writes from them.
 */
#ifndef SSDTUNE_KNOB
#define SSDTUNE_KNOB(file, kind, max)
#endif
#ifndef SSDTUNE_COALESCE_MODE
#define SSDTUNE_COALESCE_MODE(id, word)
#endif
#ifndef SSDTUNE_COALESCE_PROFILE
#define SSDTUNE_COALESCE_PROFILE(id, word)
#endif
#ifndef SSDTUNE_POWER_MODE
#define SSDTUNE_POWER_MODE(id, word)
#endif
#ifndef SSDTUNE_ATTR
#define SSDTUNE_ATTR(file)
#endif
#ifndef SSDTUNE_QUEUE_ATTR
#define SSDTUNE_QUEUE_ATTR(file)
#endif

SSDTUNE_KNOB(coalesce_mode, WORD, 0)
SSDTUNE_KNOB(coalesce_threshold, UINT, SSDTUNE_COALESCE_MAX_THRESHOLD)
SSDTUNE_KNOB(coalesce_time_us, UINT, SSDTUNE_COALESCE_MAX_TIME_US)
SSDTUNE_KNOB(coalesce_profile, WORD, 0)
SSDTUNE_KNOB(power_limit_mw, UINT, SSDTUNE_POWER_MAX_MW)
SSDTUNE_KNOB(power_limit_mode, WORD, 0)
SSDTUNE_KNOB(energy_model, TEXT, 0)
SSDTUNE_KNOB(apst_max_latency_us, UINT, SSDTUNE_APST_MAX_LATENCY_US)
SSDTUNE_KNOB(poll_queues, UINT, SSDTUNE_POLL_QUEUES_MAX)

SSDTUNE_COALESCE_MODE(OFF, "off")
SSDTUNE_COALESCE_MODE(HW, "hw")
SSDTUNE_COALESCE_MODE(HOST, "host")
SSDTUNE_COALESCE_MODE(AUTO, "auto")

SSDTUNE_COALESCE_PROFILE(BALANCED, "balanced")
SSDTUNE_COALESCE_PROFILE(IOPS, "iops")
SSDTUNE_COALESCE_PROFILE(LATENCY, "latency")
SSDTUNE_COALESCE_PROFILE(ADAPTIVE, "adaptive")
SSDTUNE_COALESCE_PROFILE(OFF, "off")

SSDTUNE_POWER_MODE(HW, "hw")
SSDTUNE_POWER_MODE(HOST, "host")
SSDTUNE_POWER_MODE(AUTO, "auto")

SSDTUNE_ATTR(model)
SSDTUNE_ATTR(serial)
SSDTUNE_ATTR(firmware)
SSDTUNE_ATTR(numa_node)
SSDTUNE_ATTR(pci_address)
SSDTUNE_ATTR(state)
SSDTUNE_ATTR(io_queues)
SSDTUNE_ATTR(queue_depth)
SSDTUNE_ATTR(shadow_doorbells)
SSDTUNE_ATTR(quirks)
SSDTUNE_ATTR(hmb_bytes)
SSDTUNE_ATTR(coalesce_caps)
SSDTUNE_ATTR(coalesce_active)
SSDTUNE_ATTR(power_caps)
SSDTUNE_ATTR(power_states)
SSDTUNE_ATTR(power_state)
SSDTUNE_ATTR(power_limit_active)
SSDTUNE_ATTR(power_estimate_mw)
SSDTUNE_ATTR(energy_uj)
SSDTUNE_ATTR(throttle_events)
SSDTUNE_ATTR(throttled_us)
SSDTUNE_ATTR(temperature_mc)
SSDTUNE_ATTR(temperature_warn_mc)

SSDTUNE_QUEUE_ATTR(irq)
SSDTUNE_QUEUE_ATTR(cpus)
SSDTUNE_QUEUE_ATTR(submitted)
SSDTUNE_QUEUE_ATTR(completed)
SSDTUNE_QUEUE_ATTR(interrupts)
SSDTUNE_QUEUE_ATTR(polled)
SSDTUNE_QUEUE_ATTR(retries)
SSDTUNE_QUEUE_ATTR(stale_completions)

#undef SSDTUNE_KNOB
#undef SSDTUNE_COALESCE_MODE
#undef SSDTUNE_COALESCE_PROFILE
#undef SSDTUNE_POWER_MODE
#undef SSDTUNE_ATTR
#undef SSDTUNE_QUEUE_ATTR
