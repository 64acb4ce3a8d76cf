#!/bin/sh
# Regenerate the golden plans: plan-FIXTURE-PROFILE.txt for every fixture
# of ../fixtures/mktopo.py (but the 8n512c benchmark) and every profile,
# and plan-FIXTURE-PROFILE-isolate.txt with --isolate (not for balanced).
# Review the diff before committing: tune.bats compares against these.
# What depends on the machine (irqbalance, tuned, power-profiles-daemon)
# is left out.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
bin=${SSDTUNE:-$repo/tools/ssdtune/ssdtune}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for fx in 1s8c 2s24c 4n128c vm; do
	"$repo/tests/host/fixtures/mktopo.py" "$fx" "$tmp/$fx/sys" "$tmp/$fx/proc"
	for prof in latency iops throughput balanced latency-isolate iops-isolate \
		throughput-isolate; do
		iso=
		case $prof in *-isolate) iso=--isolate ;; esac
		unshare --mount --propagation private -- sh -c '
			d=$1; shift
			mount --bind "$d/sys" /sys && mount --bind "$d/proc/irq" /proc/irq &&
			mount --bind "$d/proc/interrupts" /proc/interrupts && exec "$@"' \
			sh "$tmp/$fx" "$bin" plan --profile "${prof%-isolate}" $iso |
			grep -Ev '^note: (irqbalance|tuned runs|power-profiles-daemon runs)|^/etc/systemd/system/irqbalance' >"$here/plan-$fx-$prof.txt"
	done
done
