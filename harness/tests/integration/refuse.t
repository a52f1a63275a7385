#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- a kernel without LRU_GEN is refused before boot ----------------------
test_refuse() {
	kernel_without "$tmp/nolrugen" LRU_GEN || { bad refuse "kernel fetch failed"; return; }
	local rc=0
	$lrb run harness/tests/plans/one.ini --kernel "$tmp/nolrugen/bzImage" --db "$tmp/refuse.db" > /dev/null 2> "$tmp/refuse.err" || rc=$?
	if [[ $rc == 2 ]] && grep -q 'CONFIG_LRU_GEN' "$tmp/refuse.err" && [[ ! -e $tmp/refuse.db ]]; then
		ok "refuse: kernel without LRU_GEN refused before boot, option named"
	else
		bad refuse "rc=$rc, db exists: $([[ -e $tmp/refuse.db ]] && echo yes || echo no), stderr: $(tail -2 "$tmp/refuse.err")"
	fi
}

test_refuse
done_testing
