#!/usr/bin/env bats
# ssdtune metrics on the driver: the Prometheus text passes Debian's
# promtool (unpacked by setup into build/prometheus), the queues' counters
# rise under fio, and node_exporter's textfile collector (Debian's, also
# unpacked there) serves the file ssdtune-metrics.service writes.
#
# vm-kernels: one (the tool's Prometheus export)

load lib/common

PROM=$SSDT_BUILD/prometheus

setup_file() {
	setup_attached
}

teardown_file() {
	pkill -f "$PROM/node_exporter" 2>/dev/null
	teardown_stock
}

setup() {
	if [ ! -x "$PROM/promtool" ] || [ ! -x "$PROM/node_exporter" ]; then
		err "no $PROM/promtool or node_exporter (make setup)"
		return 1
	fi
	ctrl=$(ssdt_ctrl)
	dmesg_mark
}

# total FILE NAME: the sum of NAME's samples of the I/O queues (queue 0,
# the admin queue, left out) in metrics file FILE.
total() {
	awk -v n="$2" 'index($1, n "{") == 1 && $1 !~ /queue="0"/ { s += $2 } END { printf "%d\n", s }' "$1"
}

@test "metrics on the driver: promtool finds nothing, the settings as sysfs shows them, the queues' counters rise under fio" {
	local m1=$SSDT_TMP/m1.prom m2=$SSDT_TMP/m2.prom c name
	name=${ctrl##*/}
	ssdt metrics >"$m1"
	"$PROM/promtool" check metrics <"$m1"
	grep -qx "ssdtune_controller_state{controller=\"$name\",state=\"live\"} 1" "$m1"
	grep -qx "ssdtune_coalesce_threshold_completions{controller=\"$name\"} $(trim "$ctrl/coalesce_threshold")" "$m1"
	grep -q "^ssdtune_temperature_celsius{controller=\"$name\"} [0-9]" "$m1"
	grep -q "^ssdtune_controller_info{controller=\"$name\",pci_address=\"$(nvme_bdf)\"" "$m1"
	# 2048 reads of 4 KiB
	run_fio "$(ssdt_disk)" --rw=randread --bs=4k --size=8M --iodepth=8 >/dev/null
	ssdt metrics >"$m2"
	"$PROM/promtool" check metrics <"$m2"
	for c in ssdtune_queue_submitted_commands_total ssdtune_queue_completions_total; do
		a=$(total "$m1" "$c") b=$(total "$m2" "$c")
		echo "$c: $a -> $b"
		[ $((b - a)) -ge 2048 ]
	done
	[ "$(total "$m2" ssdtune_queue_interrupts_total)" -gt "$(total "$m1" ssdtune_queue_interrupts_total)" ]
	dmesg_clean_since_mark
}

@test "node_exporter's textfile collector serves what metrics --output writes: the ssdtune samples, no scrape error" {
	local dir=$SSDT_TMP/textfile port=9911 out=$SSDT_TMP/scrape.txt
	rm -rf "$dir"
	mkdir -p "$dir"
	ssdt metrics --output "$dir/ssdtune.prom"
	ip link set lo up
	"$PROM/node_exporter" --collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$dir" --web.listen-address="127.0.0.1:$port" \
		>"$SSDT_TMP/node_exporter.log" 2>&1 &
	scrape() {
		python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' \
			"http://127.0.0.1:$port/metrics" >"$out" 2>/dev/null
	}
	wait_for 60 scrape || { cat "$SSDT_TMP/node_exporter.log"; false; }
	kill %1
	grep -E '^ssdtune_queue_completions_total|^node_textfile_scrape_error' "$out"
	grep -qx 'node_textfile_scrape_error 0' "$out"
	grep -q "^ssdtune_queue_completions_total{controller=\"${ctrl##*/}\",queue=\"1\"} [0-9]" "$out"
	grep -q '^node_textfile_mtime_seconds{file=".*ssdtune.prom"}' "$out"
}
