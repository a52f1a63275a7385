#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- the disk fills while the store writes: a clear stop, then a resume finishes
test_disk_full() {
	local mnt=$tmp/small
	mkdir -p "$mnt"
	if ! mount -t tmpfs -o size=400k tmpfs "$mnt" 2> /dev/null; then
		skip root "cannot mount a small tmpfs (needs root)"; return
	fi
	local db=$mnt/full.db rc=0
	$lrb run harness/tests/plans/one.ini --reps 1 --db "$db" > /dev/null 2> "$tmp/full.err" || rc=$?
	local msg; msg=$(grep -c 'lrubench run --resume' "$tmp/full.err")
	mount -o remount,size=64m "$mnt"
	local ic; ic=$(q "$db" "PRAGMA integrity_check")
	local rc2=0
	$lrb run --resume "$db" > /dev/null 2> "$tmp/full2.err" || rc2=$?
	local st; st=$(q "$db" "SELECT group_concat(status, ' ') FROM (SELECT status FROM run ORDER BY ord)")
	umount "$mnt"
	if [[ $rc == 2 && $msg -ge 1 && $ic == ok && $rc2 == 0 && $st == "failed-infra completed" ]]; then
		ok "disk-full: stopped with exit 2 and a resume hint, integrity ok, resumed: $st"
	else
		bad disk-full "rc $rc, hint $msg, integrity '$ic', resume rc $rc2, runs '$st': $(grep -i error "$tmp/full.err" | head -2)"
	fi
}

test_disk_full
done_testing
