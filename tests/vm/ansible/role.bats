#!/usr/bin/env bats
# The Ansible role misc/ansible/roles/ssdtune against the guest
# (connection local; ansible-core from PyPI in build/ansible), as an admin
# runs it on a host: it installs the ssdtune package of make deb, writes
# /etc/ssdtune/ssdtune.conf, enables the units and applies the profile.
# A second run changes nothing; check mode reports a vector moved by hand
# as drift and changes nothing; a normal run puts it back.  Everything it
# installs goes to the overlays of lib/pkgns.  The module is the build's
# (insmod), not DKMS's: 89-packages tests that build.  The guest has no
# systemd as PID 1: SYSTEMD_OFFLINE=1 lets systemctl enable units
# offline, as in a chroot.

load ../lib/common
load ../lib/pkgns

ANSIBLE=$SSDT_BUILD/ansible/bin

setup_file() {
	pkg_debs || return 1
	teardown_stock
	module_load || return 1
	pkgns_setup
	PLAY=$SSDT_TMP/ansible/site.yml
	mkdir -p "${PLAY%/*}"
	cat >"$PLAY" <<-EOF
	- name: Tune this host with ssdtune
	  hosts: all
	  # no facts: the role needs none here (no systemd to start units
	  # with), and every module costs seconds under TCG
	  gather_facts: false
	  roles:
	    - role: ssdtune
	      vars:
	        ssdtune_install: deb
	        ssdtune_debs: ["$TOOL_DEB"]
	        # the guest's apt lists stay as the host has them
	        ssdtune_apt_update_cache: false
	        ssdtune_controllers: ["serial:$SSDT_VM_NVME_SERIAL"]
	        ssdtune_profile: latency
	        ssdtune_knobs: {coalesce_threshold: 7, coalesce_mode: host}
	EOF
	export PLAY
}

teardown_file() {
	pkgns_teardown
}

setup() {
	bdf=$(nvme_bdf)
	dmesg_mark
}

# play [ARG...]: ansible-playbook on the guest in the namespace; the
# output in $output, the recap's changed= count in $changed.
play() {
	run in_pkg env SYSTEMD_OFFLINE=1 PATH="$ANSIBLE:$PATH" \
		ANSIBLE_ROLES_PATH="$SSDT_REPO/misc/ansible/roles" ANSIBLE_HOME="$SSDT_TMP/ansible/home" \
		ANSIBLE_LOCAL_TEMP="$SSDT_TMP/ansible/tmp" ANSIBLE_REMOTE_TEMP="$SSDT_TMP/ansible/remote" ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 ANSIBLE_PIPELINING=1 \
		"$ANSIBLE/ansible-playbook" -i localhost, -c local \
		-e ansible_python_interpreter=/usr/bin/python3 "$@" "$PLAY"
	echo "$output"
	changed=$(printf '%s\n' "$output" | sed -n 's/^localhost *: .*changed=\([0-9]*\).*failed=\([0-9]*\).*/\1 \2/p')
	echo "changed, failed: $changed"
	[ "$status" -eq 0 ] || return 1
	[ "${changed#* }" = 0 ] || return 1
	changed=${changed% *}
}

# first_irq: the IRQ of the controller's first I/O queue.
first_irq() { trim "$(ssdt_ctrl)/queues/q1/irq"; }

@test "first run: installs the package, writes the config, enables the units, attaches and tunes; verify is clean" {
	play
	[ "$changed" -gt 0 ]
	[ "$(in_pkg dpkg-query -W -f='${Status}' ssdtune)" = "install ok installed" ]
	in_pkg test -L /etc/systemd/system/multi-user.target.wants/ssdtune.service
	in_pkg test -L /etc/systemd/system/timers.target.wants/ssdtune-metrics.timer
	in_pkg grep -qx "controller = serial:$SSDT_VM_NVME_SERIAL" /etc/ssdtune/ssdtune.conf
	[ "$(pci_driver "$bdf")" = ssdtune ]
	[ "$(trim "$(ssdt_ctrl)/coalesce_threshold")" = 7 ]
	in_pkg /usr/sbin/ssdtune verify --config /etc/ssdtune/ssdtune.conf
	dmesg_clean_since_mark
}

@test "second run: changed=0" {
	play
	[ "$changed" -eq 0 ]
}

@test "check mode reports a vector moved by hand as changed and changes nothing; a normal run puts it back" {
	local irq was
	irq=$(first_irq)
	was=$(cat "/proc/irq/$irq/smp_affinity_list")
	echo "applied: $was"
	# every CPU but the applied ones; the guest has two
	if [ "$was" = 0 ]; then echo 1 >"/proc/irq/$irq/smp_affinity_list"; else echo 0 >"/proc/irq/$irq/smp_affinity_list"; fi
	moved=$(cat "/proc/irq/$irq/smp_affinity_list")
	[ "$moved" != "$was" ]
	play --check
	[ "$changed" -eq 1 ]
	# the one change: verify's drift, nothing applied
	[[ "$output" == *"Check the tuning (ssdtune verify --config)]"*"changed: [localhost]"* ]]
	[[ "$output" != *"Apply the tuning"*"changed: [localhost]"* ]]
	[ "$(cat "/proc/irq/$irq/smp_affinity_list")" = "$moved" ]
	play
	[ "$changed" -gt 0 ]
	[ "$(cat "/proc/irq/$irq/smp_affinity_list")" = "$was" ]
	in_pkg /usr/sbin/ssdtune verify --config /etc/ssdtune/ssdtune.conf
}
