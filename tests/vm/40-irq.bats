#!/usr/bin/env bats
# IRQ steering: ssdtune's queue vectors are not kernel-managed, start on the
# controller's NUMA node, and follow smp_affinity_list writes.  (The stock
# driver's refusal is in 00-harness.bats.)
#
# Note: without interrupt remapping (the guest has no IOMMU), x86 moves an
# MSI/MSI-X vector when it next fires, so effective_affinity_list changes
# after the write plus one interrupt; the tests trigger one by reading
# through the queue (dd pinned to a CPU that submits to it).

load lib/common

setup() {
	setup_attached
}

teardown_file() {
	teardown_stock
}

# queue_cpu Q: first CPU that submits to queue Q ("" for the admin queue)
queue_cpu() {
	local c l
	c=$(ssdt_ctrl) || return 1
	l=$(trim "$c/queues/$1/cpus") || l=""
	l=$(expand_cpulist "$l")
	echo "${l%% *}"
}

# kick Q: make queue Q's vector fire (a few 4K direct reads from its CPU)
kick() {
	local cpu
	cpu=$(queue_cpu "$1")
	[ -n "$cpu" ] || return 0
	taskset -c "$cpu" dd if="$(ssdt_disk)" of=/dev/null bs=4k count=8 iflag=direct status=none
}

@test "queue vectors start on the CPUs of the controller's NUMA node (node 1: CPUs 2-3), spread over them" {
	c=$(ssdt_ctrl)
	node=$(trim "$c/numa_node")
	[ "$node" = 1 ]
	want=" $(node_cpus "$node") "
	used=""
	while read -r q irq; do
		aff=$(trim "/proc/irq/$irq/smp_affinity_list")
		eff=$(trim "/proc/irq/$irq/effective_affinity_list")
		echo "$q irq $irq: smp_affinity_list=$aff effective_affinity_list=$eff (node $node CPUs:$want)"
		for cpu in $(expand_cpulist "$aff") $(expand_cpulist "$eff"); do
			[[ $want == *" $cpu "* ]] || { echo "CPU $cpu is not on node $node"; false; }
		done
		[ "$q" = q0 ] || used="$used $eff"
	done < <(ssdt_queue_irqs)
	nq=$(echo $used | wc -w)
	distinct=$(echo $used | tr ' ' '\n' | sort -u | wc -l)
	echo "$nq I/O queue vectors on $distinct distinct CPUs"
	if [ "$nq" -ge 2 ]; then
		[ "$distinct" -ge 2 ]
	fi
}

@test "every queue vector accepts each CPU in smp_affinity_list and effective_affinity_list follows" {
	cpus=$(expand_cpulist "$(trim /sys/devices/system/cpu/online)")
	nio=0
	while read -r q irq; do
		for cpu in $cpus; do
			echo "$cpu" >"/proc/irq/$irq/smp_affinity_list" ||
				{ echo "$q irq $irq: writing $cpu failed"; false; }
			[ "$(trim "/proc/irq/$irq/smp_affinity_list")" = "$cpu" ]
			kick "$q"
			eff=$(trim "/proc/irq/$irq/effective_affinity_list")
			if [ "$q" = q0 ]; then
				# nothing to make the admin vector fire on demand
				continue
			fi
			[ "$eff" = "$cpu" ] || { echo "$q irq $irq: wrote $cpu, effective $eff after I/O"; false; }
		done
		[ "$q" = q0 ] && echo "$q (admin) irq $irq: accepted CPUs $cpus" ||
			{ echo "$q irq $irq: followed CPUs $cpus"; nio=$((nio + 1)); }
	done < <(ssdt_queue_irqs)
	[ "$nio" -ge 1 ]
}

# percpu_irq IRQ CPU: that CPU's column for IRQ in /proc/interrupts
percpu_irq() { awk -v i="$1:" -v c="$2" '$1 == i { print $(c + 2) }' /proc/interrupts; }

@test "after moving every vector to CPU 0, I/O from every CPU completes and its interrupts arrive on CPU 0 only" {
	disk=$(ssdt_disk)
	cpus=$(expand_cpulist "$(trim /sys/devices/system/cpu/online)")
	irqs=""
	while read -r q irq; do
		echo 0 >"/proc/irq/$irq/smp_affinity_list"
		kick "$q"
		[ "$q" = q0 ] || irqs="$irqs $irq"
	done < <(ssdt_queue_irqs)
	declare -A before
	for irq in $irqs; do for cpu in $cpus; do before[$irq.$cpu]=$(percpu_irq "$irq" "$cpu"); done; done
	fio --name=t --filename="$disk" --direct=1 --ioengine=libaio --rw=randread --bs=4k \
		--iodepth=4 --size=64M --io_size=1M --numjobs=$(echo $cpus | wc -w) \
		--cpus_allowed="$(trim /sys/devices/system/cpu/online)" --cpus_allowed_policy=split \
		--output=/dev/null
	on0=0 elsewhere=0
	for irq in $irqs; do
		for cpu in $cpus; do
			d=$(($(percpu_irq "$irq" "$cpu") - ${before[$irq.$cpu]}))
			if [ "$cpu" = 0 ]; then on0=$((on0 + d)); else elsewhere=$((elsewhere + d)); fi
		done
	done
	echo "I/O queue interrupts on CPU 0: $on0, on other CPUs: $elsewhere"
	[ "$on0" -gt 0 ]
	[ "$elsewhere" -eq 0 ]
	# back to node 1
	n1=($(node_cpus 1))
	k=0
	for irq in $irqs; do echo "${n1[$((k++ % ${#n1[@]}))]}" >"/proc/irq/$irq/smp_affinity_list"; done
}
