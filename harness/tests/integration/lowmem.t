#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- lowmem-cost in a small guest of its own: global reclaim, kswapd busy
test_lowmem() {
	local db=$tmp/lowmem.db rc=0
	$lrb run harness/tests/plans/lowmem.ini --db "$db" >"$tmp/lowmem.out" 2>"$tmp/lowmem.err" || rc=$?
	[[ $rc == 3 ]] || { bad lowmem "lrubench run exit $rc, want 3 (one block): $(tail -5 "$tmp/lowmem.err")"; return; }
	local what; what=$(check_catalogue_runs "$db" lowmem 2) || { bad lowmem "$what"; return; }
	# Global reclaim: kswapd worked and took CPU in both runs.
	local busy; busy=$(q "$db" "SELECT COUNT(*) FROM result WHERE workload='lowmem-cost' AND key='kswapd_cpu_ms' AND value > 0")
	[[ $busy == 2 ]] || { bad lowmem "kswapd CPU measured in $busy of 2 runs"; return; }
	ok "lowmem: lowmem-cost x 2 LRUs: $what; kswapd busy in both"
}

test_lowmem
done_testing
