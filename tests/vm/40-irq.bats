#!/usr/bin/env bats
# IRQ steering: ssdtune's queue vectors are not kernel-managed, start on a
# CPU their queue serves (irq_spread=queue, the default) or on the
# controller's NUMA node (irq_spread=node), and follow smp_affinity_list
# writes.  (The stock driver's refusal is in 00-harness.bats.)
#
# Note: without interrupt remapping (the guest has no IOMMU), x86 moves an
# MSI/MSI-X vector when it next fires, so effective_affinity_list changes
# after the write plus one interrupt; the tests trigger one by reading
# through the queue (dd pinned to a CPU that submits to it).
#
# vm-kernels: both (vector affinity in each kernel's IRQ core)

load lib/common

setup() {
	setup_attached
	# The controller and its disk, for kick: no lookup (a few subshells,
	# ~0.1 s each under TCG) per kick.
	c=$(ssdt_ctrl)
	disk=$(ssdt_disk)
}

teardown_file() {
	teardown_stock
}

# kick Q: make queue Q's vector fire (a few 4K direct reads from the first
# CPU that submits to it; nothing for the admin queue, which no CPU maps
# to).  Uses $c and $disk (setup).
kick() {
	local cpu=""
	read -r cpu <"$c/queues/$1/cpus" || true
	cpu=${cpu%%[,-]*}
	[ -n "$cpu" ] || return 0
	taskset -c "$cpu" dd if="$disk" of=/dev/null bs=4k count=8 iflag=direct status=none
}

# check_node_spread: every vector on node 1's CPUs, the I/O vectors on 2+ CPUs
check_node_spread() {
	local c node want used="" q irq aff eff cpu nq distinct
	c=$(ssdt_ctrl)
	node=$(trim "$c/numa_node")
	[ "$node" = 1 ]
	want=" $(node_cpus "$node") "
	while read -r q irq; do
		read -r aff <"/proc/irq/$irq/smp_affinity_list"
		read -r eff <"/proc/irq/$irq/effective_affinity_list"
		echo "$q irq $irq: smp_affinity_list=$aff effective_affinity_list=$eff (node $node CPUs:$want)"
		for cpu in $(expand_cpulist "$aff") $(expand_cpulist "$eff"); do
			[[ $want == *" $cpu "* ]] || { echo "CPU $cpu is not on node $node"; return 1; }
		done
		[ "$q" = q0 ] || used="$used $eff"
	done < <(ssdt_queue_irqs)
	nq=$(echo $used | wc -w)
	distinct=$(echo $used | tr ' ' '\n' | sort -u | wc -l)
	echo "$nq I/O queue vectors on $distinct distinct CPUs"
	[ "$nq" -lt 2 ] || [ "$distinct" -ge 2 ]
}

@test "irq_spread=queue (default): each I/O vector starts on a CPU its queue serves, preferring node 1; the admin vector on node 1" {
	[ "$(trim /sys/module/ssdtune/parameters/irq_spread)" = queue ]
	want=" $(node_cpus 1) "
	nio=0
	while read -r q irq; do
		read -r aff <"/proc/irq/$irq/smp_affinity_list"
		if [ "$q" = q0 ]; then
			echo "admin irq $irq: $aff"
			for cpu in $(expand_cpulist "$aff"); do [[ $want == *" $cpu "* ]]; done
			continue
		fi
		read -r serves <"$c/queues/$q/cpus" || true
		serves=" $(expand_cpulist "$serves") "
		echo "$q irq $irq: smp_affinity_list=$aff, queue serves CPUs:$serves"
		# one CPU (the kernel prints a single CPU as its number)
		[[ $aff =~ ^[0-9]+$ ]] || { echo "$q irq $irq: not one CPU"; false; }
		[[ $serves == *" $aff "* ]] || { echo "CPU $aff does not submit to $q"; false; }
		# a queue serving a node-1 CPU gets a node-1 CPU
		for cpu in $serves; do
			if [[ $want == *" $cpu "* ]]; then
				[[ $want == *" $aff "* ]] || { echo "$q serves node-1 CPU $cpu but got CPU $aff"; false; }
			fi
		done
		kick "$q"
		read -r eff <"/proc/irq/$irq/effective_affinity_list"
		[ "$eff" = "$aff" ]
		nio=$((nio + 1))
	done < <(ssdt_queue_irqs)
	# one queue per online CPU in this guest, so every CPU has its own vector
	read -r online </sys/devices/system/cpu/online
	[ "$nio" = "$(expand_cpulist "$online" | wc -w)" ]
}

@test "every queue vector accepts each CPU in smp_affinity_list and effective_affinity_list follows" {
	read -r online </sys/devices/system/cpu/online
	cpus=$(expand_cpulist "$online")
	nio=0
	while read -r q irq; do
		for cpu in $cpus; do
			echo "$cpu" >"/proc/irq/$irq/smp_affinity_list" ||
				{ echo "$q irq $irq: writing $cpu failed"; false; }
			read -r aff <"/proc/irq/$irq/smp_affinity_list"
			[ "$aff" = "$cpu" ]
			kick "$q"
			read -r eff <"/proc/irq/$irq/effective_affinity_list"
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

# irq_snapshot NAME: NAME[IRQ.CPU] = CPU's count of IRQ (the CPU's column
# of /proc/interrupts, CPU 0 first), for every IRQ, from one builtin read:
# an awk per count cost ~0.1 s under TCG.
irq_snapshot() {
	local -n snap=$1
	local -a f
	local k
	while read -r -a f; do
		[[ ${f[0]:-} == *: ]] || continue
		for ((k = 1; k < ${#f[@]}; k++)); do
			[[ ${f[k]} =~ ^[0-9]+$ ]] || break
			snap[${f[0]%:}.$((k - 1))]=${f[k]}
		done
	done </proc/interrupts
}

@test "after moving every vector to CPU 0, I/O from every CPU completes and its interrupts arrive on CPU 0 only" {
	read -r online </sys/devices/system/cpu/online
	cpus=$(expand_cpulist "$online")
	read -ra cpuv <<<"$cpus"
	irqs=""
	while read -r q irq; do
		echo 0 >"/proc/irq/$irq/smp_affinity_list"
		kick "$q"
		[ "$q" = q0 ] || irqs="$irqs $irq"
	done < <(ssdt_queue_irqs)
	declare -A before after
	irq_snapshot before
	fio --name=t --filename="$disk" --direct=1 --ioengine=libaio --rw=randread --bs=4k \
		--iodepth=4 --size=64M --io_size=1M --numjobs=${#cpuv[@]} \
		--cpus_allowed="$online" --cpus_allowed_policy=split \
		--output=/dev/null
	irq_snapshot after
	on0=0 elsewhere=0
	for irq in $irqs; do
		for cpu in $cpus; do
			[ -n "${before[$irq.$cpu]:-}" ] && [ -n "${after[$irq.$cpu]:-}" ] ||
				{ echo "no count of irq $irq on CPU $cpu in /proc/interrupts"; false; }
			d=$((${after[$irq.$cpu]} - ${before[$irq.$cpu]}))
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

# Last in the file: it leaves the module loaded with irq_spread=node, which
# teardown_file unloads.  Before the other tests it had to reload the module
# with the defaults for them (a detach, an unload, a load and an attach:
# ~15 s under TCG).
@test "irq_spread=node: vectors start on the controller's NUMA node (node 1: CPUs 2-3), spread over them; a bad value refuses to load" {
	detach
	module_unload
	run insmod "$SSDT_KO" irq_spread=nodes
	echo "$output"
	[ "$status" -ne 0 ]
	[[ $output == *"Invalid"* ]]
	refute module_loaded
	insmod "$SSDT_KO" irq_spread=node
	[ "$(trim /sys/module/ssdtune/parameters/irq_spread)" = node ]
	attach
	c=$(ssdt_ctrl)
	disk=$(ssdt_disk)
	for q in "$c"/queues/q*; do kick "${q##*/}"; done
	check_node_spread
}
