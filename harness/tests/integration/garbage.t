#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- garbage on the channel: rejected and counted, the run completes -------
test_garbage() {
	local db=$tmp/garbage.db
	$lrb run harness/tests/plans/one.ini --db "$db" --fault garbage@2000 > /dev/null 2> "$tmp/garbage.err"
	local st; st=$(q "$db" "SELECT status FROM run")
	local rej; rej=$(q "$db" "SELECT value FROM run_prov WHERE key='stream.rejected'")
	if [[ $st == completed ]] && ((${rej:-0} > 0)); then
		ok "garbage: $rej hostile lines rejected, run completed"
	else
		bad garbage "status '$st', rejected '$rej': $(tail -3 "$tmp/garbage.err")"
	fi
}

test_garbage
done_testing
