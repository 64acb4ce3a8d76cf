# fio measurement for scripts/demo.sh and scripts/bench/bench.sh (guest side).
# Needs common.bash.

# dev_irqs BDF: the IRQ numbers of the controller's MSI/MSI-X vectors
dev_irqs() {
	local f
	for f in /sys/bus/pci/devices/"$1"/msi_irqs/*; do
		[ -e "$f" ] && echo "${f##*/}"
	done
}

# irq_total IRQS...: sum of their counts over all CPUs
irq_total() {
	awk -v list=" $* " '
		{ n = $1; sub(":", "", n) }
		index(list, " " n " ") {
			for (k = 2; k <= NF && $k ~ /^[0-9]+$/; k++) s += $k
		}
		END { print s + 0 }' /proc/interrupts
}

# ipi_total: the rescheduling and function-call interrupts so far, all CPUs
ipi_total() {
	awk '$1 == "RES:" || $1 == "CAL:" {
		for (k = 2; k <= NF && $k ~ /^[0-9]+$/; k++) s += $k
	} END { print s + 0 }' /proc/interrupts
}

# measure LABEL DEV BDF QD JOBS SECS [CPUS [ENGINE [RW [BS]]]]: 4K random
# read (or fio's RW, e.g. read or randrw:70 (70% reads), at BS); prints
# fiojson.py's line
#   LABEL qd=QD jobs=JOBS iops=N mean_us=N p99_us=N irq_per_io=N err=N p50_us=N cpu_us_per_io=N
# and keeps fio's JSON in $SSDT_TMP/LABEL-qdQD-jJOBS.json.  With CPUS (a
# cpulist) the jobs are pinned, one CPU each in turn (cpus_allowed_policy
# split), so that two drivers measured one after the other see the same
# placement; without it (or "") the scheduler places them.  ENGINE is
# libaio (default), io_uring, psync (pread: one I/O in flight per job,
# whatever QD says), or io_uring-hipri (io_uring with IOPOLL: the disk must
# have poll queues).
measure() {
	local label=$1 dev=$2 bdf=$3 qd=$4 jobs=$5 secs=$6 cpus=${7:-} engine=${8:-libaio} irqs i0 i1 json
	local rw=${9:-randread} bs=${10:-4k} opt=()
	case $rw in
	*:*) opt=(--rwmixread="${rw#*:}"); rw=${rw%%:*} ;;
	esac
	# a job that writes flushes at its end, so the host's writeback of the
	# image does not fall on the next run
	case $rw in
	*rw | *write) opt+=(--end_fsync=1) ;;
	esac
	[ -n "$cpus" ] && opt+=(--cpus_allowed="$cpus" --cpus_allowed_policy=split)
	case $engine in
	libaio | io_uring | psync) opt+=(--ioengine="$engine") ;;
	io_uring-hipri) opt+=(--ioengine=io_uring --hipri) ;;
	*) echo "measure: unknown engine $engine" >&2; return 1 ;;
	esac
	irqs=$(dev_irqs "$bdf")
	json=$SSDT_TMP/$label-qd$qd-j$jobs.json
	i0=$(irq_total $irqs) p0=$(ipi_total)
	fio --name=m --filename="$dev" --direct=1 --rw="$rw" \
		--bs="$bs" --iodepth="$qd" --numjobs="$jobs" --group_reporting \
		--size=512M --time_based --runtime="$secs" --ramp_time=1 \
		--randrepeat=0 "${opt[@]}" --output-format=json --output="$json" || return 1
	i1=$(irq_total $irqs) p1=$(ipi_total)
	python3 "$SSDT_REPO/scripts/bench/fiojson.py" "$json" "$label" "$qd" "$jobs" \
		$((i1 - i0)) ipis=$((p1 - p0))
}

# bench_rounds NAME ROUNDS ARMS: call binding R ARM for each round R and
# arm, the arms' order reversed every other round (each arm's mean place
# in a round is the same, so an order effect falls on all of them)
bench_rounds() {
	local name=$1 rounds=$2 arms=$3 r order arm t0
	t0=$(date +%s)
	for r in $(seq 1 "$rounds"); do
		order=$arms
		[ $((r % 2)) -eq 0 ] && order=$(echo "$arms" | tr ' ' '\n' | tac | tr '\n' ' ')
		for arm in $order; do
			binding "$r" "$arm"
		done
		echo "$name: round $r of $rounds done after $(($(date +%s) - t0)) s" >&2
	done
}

# bench_warm DEV SECS: a discarded warm-up run (4 jobs at QD32)
bench_warm() {
	fio --name=warm --filename="$1" --direct=1 --ioengine=libaio --rw=randread \
		--bs=4k --iodepth=32 --numjobs=4 --size=512M --time_based \
		--runtime="$2" --output=/dev/null || err "warm-up fio failed on $1"
}

# bench_bind BDF DRIVER POLL_QUEUES: a fresh binding of the controller to
# DRIVER (nvme or ssdtune) with that many poll queues (nvme's parameter is
# writable and read at probe; ssdtune's is a load parameter, so the module
# is loaded anew); sets dev to its disk.  Every binding is a new probe.
bench_bind() {
	local bdf=$1 drv=$2 pq=$3 io
	if [ "$(pci_driver "$bdf")" = ssdtune ]; then detach || return 1; fi
	if [ "$drv" = nvme ]; then
		echo "$pq" >/sys/module/nvme/parameters/poll_queues ||
			err "cannot set nvme.poll_queues=$pq" || return 1
		# a new probe reads the parameter
		echo "$bdf" >"/sys/bus/pci/devices/$bdf/driver/unbind" || err "cannot unbind $bdf" || return 1
		sysfs_bind nvme "$bdf" || err "cannot bind $bdf to nvme" || return 1
		dev=$(nvme_disk) || err "no nvme disk" || return 1
	else
		module_unload || err "cannot unload ssdtune" || return 1
		insmod "$SSDT_KO" poll_queues="$pq" || err "insmod poll_queues=$pq failed" || return 1
		attach || return 1
		dev=$(ssdt_disk) || err "no ssdtune disk" || return 1
	fi
	io=$(trim "/sys/block/${dev#/dev/}/queue/io_poll")
	if [ "$pq" -gt 0 ] && [ "$io" != 1 ]; then
		err "$drv with poll_queues=$pq: $dev is not pollable (queue/io_poll $io)"
	fi
}

# plan_io_cpus BDF [PLAN-OPTION...]: the I/O cores (a cpulist) that
# 'ssdtune plan --profile latency' gives the controller at BDF.
plan_io_cpus() {
	local bdf=$1
	shift
	"$SSDT_TOOL" plan --profile latency "$@" --json "$bdf" |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["io_cpus"])'
}
