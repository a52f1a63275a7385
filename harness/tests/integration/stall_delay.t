#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- a planted reclaim delay: the stall p99 moves, and compare shows it -----
# kernels/reclaim-delay.ini is minimal.ini plus a 50 ms busy-wait in every memcg
# reclaim. Both kernels under the classic LRU, 2 blocks (4 runs of ~20 s); the
# minimal build is the kbuild test's, the delayed one a one-patch build (~2 min
# cold with ccache, cached after). minimal has no CGROUP_PERF: the tracer
# attributes by /proc/TID/cgroup there.
test_stall_delay() {
	local out=$tmp/stall t0=$SECONDS rc=0
	mkdir -p "$out"
	$lrb kernel build minimal > /dev/null 2> "$out/a.err" ||
		{ bad stall-delay "building minimal failed: $(tail -5 "$out/a.err")"; return; }
	$lrb kernel build reclaim-delay > /dev/null 2> "$out/b.err" ||
		{ bad stall-delay "building reclaim-delay failed: $(tail -5 "$out/b.err")"; return; }
	local db=$tmp/stall.db
	# exit 1 is likely: the delay regresses the workload's throughput (a key metric)
	$lrb ab --baseline minimal --patched reclaim-delay --plan harness/tests/plans/stall.ini \
		--db "$db" > "$out/ab.out" 2> "$out/ab.err" || rc=$?
	verdict_rc $rc || { bad stall-delay "lrubench ab exit $rc: $(tail -5 "$out/ab.err")"; return; }
	local traced; traced=$(q "$db" "SELECT COUNT(*) FROM run r WHERE r.status='completed' AND
		(SELECT value FROM run_prov WHERE run_id=r.id AND key='guest.conf.trace/attribution') = 'proc' AND
		(SELECT MAX(v) FROM v_value WHERE run_id=r.id AND metric='reclaim:count.memcg' AND scope='wl') > 0 AND
		(SELECT MAX(v) FROM v_value WHERE run_id=r.id AND metric='reclaim:lost') = 0")
	[[ $traced == 4 ]] || { bad stall-delay "completed runs with memcg stalls of wl by /proc, none lost: $traced of 4"; return; }
	# Every delayed period is at least 50 ms: the smallest bucket holding one is >= 44 ms.
	local fast; fast=$(q "$db" "SELECT COUNT(*) FROM v_value x JOIN run r ON r.id=x.run_id JOIN variant v ON v.id=r.variant_id
		WHERE v.name LIKE 'reclaim-delay.%' AND x.metric LIKE 'reclaim:hist.memcg.%' AND x.v > 0
		AND CAST(substr(x.metric, 20) AS INTEGER) < 44000000")
	[[ $fast == 0 ]] || { bad stall-delay "the delayed kernel has $fast bucket values under 44 ms"; return; }
	$lrb compare --all "$db" > "$out/cmp.out" 2>&1
	# metric key better n base cand change interval q verdict
	local row; row=$(grep -E '^reclaim:p99_ns\.memcg\[wl\] ' "$out/cmp.out" | head -1)
	[[ -n $row ]] || { bad stall-delay "compare --all has no reclaim:p99_ns.memcg[wl] row"; return; }
	local n ch; read -r _ n ch <<< "$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[+-][0-9.]+%$/) { print $1, $3, $i; exit } }' <<< "$row")"
	[[ $n == 2 ]] || { bad stall-delay "p99 row without 2 blocks: $row"; return; }
	awk -v c="${ch%\%}" 'BEGIN { exit !(c >= 30) }' ||
		{ bad stall-delay "memcg stall p99 moved $ch with a planted 50 ms delay (want >= +30%): $row"; return; }
	local p50; p50=$(grep -E '^reclaim:p50_ns\.memcg\[wl\] ' "$out/cmp.out" | grep -oE '[+-][0-9.]+%' | head -1)
	ok "stall-delay: memcg reclaim stall p99 $ch, p50 $p50 with a 50 ms planted delay (compare: $(awk '{ print $NF }' <<< "$row")); 4 runs by /proc attribution, none lost; $((SECONDS - t0)) s"
}

test_stall_delay
done_testing
