#!/usr/bin/env bats
# The Ansible role misc/ansible/roles/ssdtune on the host: ansible-lint
# (production profile) and the playbook's syntax, and the configuration
# the role's template writes read back by check-config.  ansible-core and
# ansible-lint come from PyPI into build/ansible (make setup).  The role
# itself runs in the VM: tests/vm/ansible/role.bats.

load ../helpers

ANSIBLE=${ANSIBLE_VENV:-$REPO/build/ansible}/bin

setup() {
	[ -x "$SSDTUNE" ] || skip "no $SSDTUNE (make -C tools/ssdtune)"
	[ -x "$ANSIBLE/ansible-lint" ] || { echo "no $ANSIBLE/ansible-lint (make setup)"; return 1; }
	export PATH=$ANSIBLE:$PATH ANSIBLE_ROLES_PATH=$REPO/misc/ansible/roles
	export ANSIBLE_LOCAL_TEMP=$BATS_TEST_TMPDIR/ansible-tmp ANSIBLE_HOME=$BATS_TEST_TMPDIR/ansible-home
}

@test "ansible-lint passes the role and the playbook (production profile), and fails a broken copy" {
	cd "$REPO/misc/ansible"
	run ansible-lint --offline --profile production
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"Passed"* ]]
	cp -r "$REPO/misc/ansible" "$BATS_TEST_TMPDIR/broken"
	sed -i 's/^- name: Check the tuning.*/- ansible.builtin.command: true/' \
		"$BATS_TEST_TMPDIR/broken/roles/ssdtune/tasks/main.yml"
	cd "$BATS_TEST_TMPDIR/broken"
	run ansible-lint --offline --profile production
	[ "$status" -ne 0 ]
	[[ "$output" == *"name[missing]"* ]]
}

@test "the playbook passes ansible-playbook --syntax-check" {
	run ansible-playbook -i localhost, --syntax-check "$REPO/misc/ansible/playbook.yml"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "the role's template writes a configuration check-config reads back as the variables say" {
	cat >"$BATS_TEST_TMPDIR/render.yml" <<EOP
- name: Render the template
  hosts: localhost
  connection: local
  gather_facts: false
  vars:
    ssdtune_controllers: ["serial:S4N1SSDT", "model:Samsung SSD 990 PRO 2TB"]
    ssdtune_profile: latency
    ssdtune_isolate: true
    ssdtune_io_cores: 2
    ssdtune_knobs: {power_limit_mw: 9000, coalesce_profile: adaptive}
  tasks:
    - name: Render
      ansible.builtin.template:
        src: $REPO/misc/ansible/roles/ssdtune/templates/ssdtune.conf.j2
        dest: $BATS_TEST_TMPDIR/ssdtune.conf
        mode: "0644"
EOP
	run ansible-playbook -i localhost, -e ansible_python_interpreter=/usr/bin/python3 "$BATS_TEST_TMPDIR/render.yml"
	echo "$output"
	[ "$status" -eq 0 ]
	cat "$BATS_TEST_TMPDIR/ssdtune.conf"
	run --separate-stderr "$SSDTUNE" check-config --json "$BATS_TEST_TMPDIR/ssdtune.conf"
	echo "$stderr"
	[ "$status" -eq 0 ]
	printf '%s' "$output" | python3 -c '
import json, sys
v = json.load(sys.stdin)
assert [(c["by"], c["value"]) for c in v["controllers"]] == [("serial", "S4N1SSDT"), ("model", "Samsung SSD 990 PRO 2TB")], v
assert (v["profile"], v["isolate"], v["io_cores"]) == ("latency", True, 2), v
assert v["knobs"] == {"coalesce_profile": "adaptive", "power_limit_mw": "9000"}, v
'
}

@test "the role installs the packages with apt, dependencies included, never with dpkg -i; with ssdtune-dkms the running kernel's headers first" {
	local tasks=$REPO/misc/ansible/roles/ssdtune/tasks/install-deb.yml
	run grep -rn 'dpkg -i' "$REPO/misc/ansible"
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	python3 - "$tasks" <<'EOP'
import sys, yaml
tasks = yaml.safe_load(open(sys.argv[1]))
apt = [t for t in tasks if "ansible.builtin.apt" in t]
assert [sorted(t["ansible.builtin.apt"]) for t in apt] == [
    ["cache_valid_time", "name", "update_cache"],
    ["cache_valid_time", "deb", "update_cache"]], apt
headers, debs = apt
assert headers["ansible.builtin.apt"]["name"] == "linux-headers-{{ ssdtune_kernel_release }}", headers
assert any("ssdtune-dkms_" in w for w in headers["when"]), headers
assert debs["loop"] == "{{ ssdtune_debs }}", debs
assert tasks.index(headers) < tasks.index(debs)
EOP
	# the kernel comes from the facts the example play gathers (min)
	grep -q 'ansible_facts.kernel' "$REPO/misc/ansible/roles/ssdtune/defaults/main.yml"
	grep -q 'gather_subset: \[min\]' "$REPO/misc/ansible/playbook.yml"
}
