#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# QEMU killed from outside: an infrastructure failure, retried, never averaged.
test_qemu_killed() {
	local db=$tmp/qkill.db
	local LRUBENCH_RESULTS=$tmp/results-qkill; export LRUBENCH_RESULTS
	$lrb run harness/tests/plans/one.ini --reps 1 --db "$db" > /dev/null 2> "$tmp/qkill.err" &
	local pid=$! n=0
	until grep -q '^v vmstat' "$LRUBENCH_RESULTS"/one-*/run-1/stream.raw 2> /dev/null || ((n++ > 600)); do sleep 0.2; done
	sleep 3
	pkill -KILL -f "$LRUBENCH_RESULTS/one-.*/run-1/" || true
	wait $pid
	local first; first=$(q "$db" "SELECT status || '|' || reason FROM run WHERE id = 1")
	local retry; retry=$(q "$db" "SELECT r.status FROM run r JOIN run_prov p ON p.run_id = r.id AND p.key = 'retry_of' AND p.value = '1'")
	local ns; ns=$(q "$db" "SELECT COUNT(*) FROM sample WHERE run_id = 1")
	local n_used; n_used=$($lrb compare --all "$db" | grep -E '^anon:throughput' | grep -c 'n=1')
	if [[ $first == "failed-infra|QEMU died (signal 9)" && $retry == completed && $ns -ge 1 && $n_used == 1 ]]; then
		ok "qemu-killed: $first, $ns samples kept, retried and completed, averaged over n=1"
	else
		bad qemu-killed "first '$first' ($ns samples), retry '$retry', compare n=1 rows: $n_used"
	fi
}

test_qemu_killed
done_testing
