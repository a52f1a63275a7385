#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- a guest that stops answering is killed, partial samples kept ---------
test_hang() {
	local db=$tmp/hang.db
	$lrb run harness/tests/plans/one.ini --db "$db" --fault hang@4000 --silence 15s > /dev/null 2> "$tmp/hang.err"
	local st; st=$(q "$db" "SELECT status || '|' || reason FROM run")
	local ns; ns=$(q "$db" "SELECT COUNT(*) FROM sample")
	if [[ $st == failed-infra\|channel\ silent* ]] && ((ns >= 3)); then
		ok "hang: killed at the silence timeout ($st), $ns samples kept"
	else
		bad hang "status '$st', $ns samples"
	fi
}

test_hang
done_testing
