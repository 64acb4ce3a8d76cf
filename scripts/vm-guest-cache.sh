# shellcheck shell=bash
# Sourced by the guest-cmd.sh that scripts/vm.sh writes, before CMD runs:
# the programs the guest runs, from a page cache.
#
# virtme-ng gives the guest the host's root over 9p without a cache
# (cache=none): every exec reads the binary and its libraries from the
# host again, at about 15 MB/s under TCG.  vm.sh exports the root a second
# time, read-only, under the tag ssdtroot; here it is mounted with
# cache=loose and put under new overlays on /usr, /etc and the repository,
# so that a program read once stays in the guest's page cache.  Measured
# on 6.12: an exec of /bin/true 99 -> 76 ms, python3 -c pass
# 1.0 -> 0.53 s; 58-privileges and 57-passthrough 210 -> 186 s.
#
# The host's root does not change under a running suite: nothing the
# guest reads through these mounts is written by the host meanwhile
# ($BUILD, which is, stays the uncached read-write mount it was).
# Writes still land in a tmpfs upper layer; what virtme-ng had already
# written to its own /etc overlay (sudoers, fstab) stays on top.  Any
# step that fails leaves that directory as virtme-ng set it up, with one
# line on stderr.
ssdt_guest_cache() {
	local r=/run/ssdt-root d lower up
	grep -qsx ssdtroot /sys/bus/virtio/devices/*/mount_tag 2>/dev/null ||
		return 0
	mkdir -p "$r/root" "$r/ov" "$r/build" || return 0
	if ! mount -t 9p -o trans=virtio,version=9p2000.L,access=any,msize=512000,cache=loose,ro \
		ssdtroot "$r/root"; then
		echo "vm-guest-cache: cannot mount ssdtroot: the guest runs uncached" >&2
		return 0
	fi
	mount -t tmpfs ssdt-ov "$r/ov" || return 0
	for d in /usr /etc "$SSDT_REPO"; do
		up=$r/ov/${d//\//_}
		mkdir -p "$up.u" "$up.w"
		lower=$r/root$d
		# virtme-ng's own upper layer of /etc stays on top
		[ "$d" = /etc ] && [ -d /run/tmp/virtme_rw_overlay0/upper ] &&
			lower=/run/tmp/virtme_rw_overlay0/upper:$lower
		if [ "$d" = "$SSDT_REPO" ]; then
			# $BUILD (the read-write mount inside the repository)
			# moves aside while the repository gets its overlay
			mount --move "$SSDT_BUILD" "$r/build" || continue
		fi
		mount -t overlay ssdt-cache -o "lowerdir=$lower,upperdir=$up.u,workdir=$up.w" "$d" ||
			echo "vm-guest-cache: no cached overlay on $d" >&2
		if [ "$d" = "$SSDT_REPO" ]; then
			mount --move "$r/build" "$SSDT_BUILD" ||
				echo "vm-guest-cache: cannot move $SSDT_BUILD back" >&2
		fi
	done
	hash -r
}
ssdt_guest_cache
unset -f ssdt_guest_cache
