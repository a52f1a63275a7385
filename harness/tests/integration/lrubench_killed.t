#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# lrubench itself killed mid-campaign: the store survives, QEMU dies with it, resume finishes.
test_lrubench_killed() {
	local db=$tmp/kill.db
	local LRUBENCH_RESULTS=$tmp/results-kill; export LRUBENCH_RESULTS
	$lrb run harness/tests/plans/one.ini --reps 2 --db "$db" > /dev/null 2> "$tmp/kill.err" &
	local pid=$! n=0
	until grep -q 'run 2: variant' "$tmp/kill.err" || ((n++ > 1500)); do sleep 0.2; done
	sleep 4
	kill -KILL $pid; wait $pid 2> /dev/null
	sleep 1
	local ic; ic=$(q "$db" "PRAGMA integrity_check")
	local orphans; orphans=$(pgrep -f "$LRUBENCH_RESULTS/one-" | wc -l)
	local first_start; first_start=$(q "$db" "SELECT started_ns FROM run WHERE id = 1")
	if ! $lrb run --resume "$db" > /dev/null 2> "$tmp/resume.err"; then
		bad lrubench-killed "resume failed: $(tail -3 "$tmp/resume.err")"; return
	fi
	local st; st=$(q "$db" "SELECT group_concat(status, ' ') FROM (SELECT status FROM run ORDER BY ord)")
	local again; again=$(q "$db" "SELECT started_ns FROM run WHERE id = 1")
	if [[ $ic == ok && $orphans == 0 && $st == "completed failed-infra completed" && $again == "$first_start" ]]; then
		ok "lrubench-killed: integrity_check ok, no QEMU left, resumed: $st, run 1 not run again"
	else
		bad lrubench-killed "integrity '$ic', orphan QEMUs $orphans, runs '$st', run 1 start $first_start -> $again"
	fi
}

test_lrubench_killed
done_testing
