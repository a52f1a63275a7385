#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- names and paths with spaces, quotes, ';' and ',' reach QEMU and the guest as plain values
test_odd_paths() {
	local img; img=$($lrb kernel fetch 2>/dev/null) || { bad odd-paths "kernel fetch failed"; return; }
	local rel; rel=$(basename "$img" | sed 's/^vmlinuz-//')
	local odd="$tmp/it's a dir; with,comma \"q\""
	mkdir -p "$odd/kernel" "$odd/plans"
	cp "$img" "$odd/kernel/bzImage"
	cp "$(dirname "$img")/config-$rel" "$odd/kernel/config"
	ln -s "$(cd "$(dirname "$img")/.." && pwd)/lib" "$odd/kernel/lib"
	sed 's/^\[guest\]/[guest]\ncmdline = lrubench_test=it'"'"'s;fine,ok/' harness/tests/plans/one.ini > "$odd/plans/odd plan;1.ini"
	local LRUBENCH_RESULTS="$odd/results"; export LRUBENCH_RESULTS
	if ! $lrb run "$odd/plans/odd plan;1.ini" --kernel "$odd/kernel/bzImage" --db "$odd/cam paign;'.db" > /dev/null 2> "$tmp/odd.err"; then
		bad odd-paths "run failed: $(tail -3 "$tmp/odd.err")"; return
	fi
	local db="$odd/cam paign;'.db"
	local st; st=$(q "$db" "SELECT status FROM run")
	local argv; argv=$(q "$db" "SELECT value FROM run_prov WHERE key='qemu.argv'")
	local cmd; cmd=$(q "$db" "SELECT value FROM run_prov WHERE key='guest.conf.kernel/cmdline'")
	if [[ $st == completed && $argv == *"-kernel $odd/kernel/bzImage "* && $cmd == *"lrubench_test=it's;fine,ok"* ]]; then
		ok "odd-paths: spaces, quotes, ';' and ',' in paths and values reached QEMU and the guest verbatim"
	else
		bad odd-paths "status '$st'; guest cmdline '$cmd'; argv '${argv:0:200}'"
	fi
}

test_odd_paths
done_testing
