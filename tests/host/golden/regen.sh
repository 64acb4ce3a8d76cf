#!/bin/sh
# Regenerate the golden plans: plan-FIXTURE-PROFILE.txt for every fixture
# of ../fixtures/mktopo.py (but the 8n512c benchmark) and every profile,
# and plan-FIXTURE-PROFILE-isolate.txt with --isolate (not for balanced);
# plan-FIXTURE-PROFILE-ioN.txt with --io-cores N for a few (config.bats).
# Review the diff before committing: tune.bats compares against these.
# What depends on the machine (irqbalance, tuned, power-profiles-daemon)
# is left out.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
bin=${SSDTUNE:-$repo/tools/ssdtune/ssdtune}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan() {	# plan FIXTURE OUT ARGS...: ssdtune plan ARGS on FIXTURE into OUT
	fx=$1 out=$2
	shift 2
	"$bin" --root "$tmp/$fx" plan "$@" |
		grep -Ev '^note: (irqbalance|tuned runs|power-profiles-daemon runs)|^/etc/systemd/system/irqbalance' >"$here/$out"
}
for fx in 1s8c 2s24c 4n128c vm; do
	"$repo/tests/host/fixtures/mktopo.py" "$fx" "$tmp/$fx/sys" "$tmp/$fx/proc"
	for prof in latency iops throughput balanced latency-isolate iops-isolate \
		throughput-isolate; do
		iso=
		case $prof in *-isolate) iso=--isolate ;; esac
		plan "$fx" "plan-$fx-$prof.txt" --profile "${prof%-isolate}" $iso
	done
done
# --io-cores N: FIXTURE:PROFILE:N
for c in 1s8c:throughput:3 2s24c:latency:2 4n128c:iops:4 vm:latency:1; do
	fx=${c%%:*} n=${c##*:} prof=${c#*:}
	prof=${prof%:*}
	plan "$fx" "plan-$fx-$prof-io$n.txt" --profile "$prof" --io-cores "$n"
done
# the many-drive fixtures (manydrives.bats): iops and latency
for fx in 2s64c16d 2n8d 4n24d 1n12d mix; do
	"$repo/tests/host/fixtures/mktopo.py" "$fx" "$tmp/$fx/sys" "$tmp/$fx/proc"
	for prof in iops latency; do
		plan "$fx" "plan-$fx-$prof.txt" --profile "$prof"
	done
done
