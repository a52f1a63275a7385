#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# SIGINT: the guest is stopped, what it sent is kept, exit 130, resume finishes,
# on the guest image the campaign started with though the guest binaries were
# rebuilt in between (a private build directory, so no other test sees it).
test_lrubench_interrupted() {
	local db=$tmp/int.db
	local LRUBENCH_RESULTS=$tmp/results-int; export LRUBENCH_RESULTS
	local LRUBENCH_BUILD=$tmp/build; export LRUBENCH_BUILD
	mkdir -p "$LRUBENCH_BUILD/guest"
	cp -a "$build/guest/bin" "$LRUBENCH_BUILD/guest/bin"
	cp -a "$build"/accel-probe-* "$LRUBENCH_BUILD"/ 2> /dev/null
	$lrb run harness/tests/plans/one.ini --reps 1 --db "$db" > /dev/null 2> "$tmp/int.err" &
	local pid=$! n=0 rc=0
	until grep -q '^v vmstat' "$LRUBENCH_RESULTS"/one-*/run-1/stream.raw 2> /dev/null || ((n++ > 600)); do sleep 0.2; done
	sleep 2
	kill -INT $pid; wait $pid || rc=$?
	local first; first=$(q "$db" "SELECT status || '|' || reason FROM run WHERE id = 1")
	local ns; ns=$(q "$db" "SELECT COUNT(*) FROM sample WHERE run_id = 1")
	local orphans; orphans=$(pgrep -f "$LRUBENCH_RESULTS/one-" | wc -l)
	printf 'rebuilt' >> "$LRUBENCH_BUILD/guest/bin/wl-shell-monitor" # a changed guest binary
	$lrb run --resume "$db" > /dev/null 2> "$tmp/int2.err"
	local st; st=$(q "$db" "SELECT group_concat(status, ' ') FROM (SELECT status FROM run ORDER BY ord)")
	local images; images=$(q "$db" "SELECT COUNT(*) || ' ' || COUNT(DISTINCT value) FROM run_prov WHERE key = 'guest.image_sha256'")
	if [[ $rc == 130 && $first == "failed-infra|interrupted: lrubench was asked to stop" && $ns -ge 1 && $orphans == 0 && $st == "failed-infra completed" ]]; then
		ok "lrubench-interrupted: exit 130, $ns samples kept, no QEMU left, resumed: $st"
	else
		bad lrubench-interrupted "rc $rc, first '$first' ($ns samples), orphans $orphans, runs '$st'"
	fi
	if [[ $images == "2 1" ]] && grep -q "keep the guest image it started with" "$tmp/int2.err"; then
		ok "lrubench-interrupted: guest binaries rebuilt before --resume, both runs booted the campaign's image"
	else
		bad lrubench-interrupted-image "runs with an image and distinct images: '$images'; resume said: $(grep -i image "$tmp/int2.err" | head -3)"
	fi
}

test_lrubench_interrupted
done_testing
