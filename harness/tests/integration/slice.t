#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- the default A/B, smaller: 2 x classic, 2 x MGLRU, interleaved ---------
test_slice() {
	# deck reads this database after us: it lives in the state directory
	local db=$state/slice.db rc=0
	rm -f "$db" "$db-wal" "$db-shm"
	$lrb run harness/tests/plans/slice.ini --db "$db" >"$tmp/slice.out" 2>"$tmp/slice.err" || rc=$?
	verdict_rc $rc || { bad slice "lrubench run failed (exit $rc): $(tail -5 "$tmp/slice.err")"; return; }
	local n; n=$(q "$db" "SELECT COUNT(*) FROM run WHERE status='completed'")
	[[ $n == 4 ]] || { bad slice "expected 4 completed runs, got $n: $(q "$db" "SELECT id,status,reason FROM run")"; return; }
	local order; order=$(q "$db" "SELECT group_concat(v.lru_mode, ' ') FROM (SELECT * FROM run ORDER BY ord) r JOIN variant v ON v.id=r.variant_id")
	[[ $order == "classic mglru classic mglru" ]] || { bad slice "runs not interleaved: $order"; return; }
	# >= 10 samples of vmstat, memory.stat and PSI in every run
	local few; few=$(q "$db" "SELECT r.id FROM run r WHERE
		(SELECT COUNT(DISTINCT seq) FROM v_value WHERE run_id=r.id AND metric LIKE 'vmstat:%') < 10 OR
		(SELECT COUNT(DISTINCT seq) FROM v_value WHERE run_id=r.id AND metric LIKE 'memory.stat:%') < 10 OR
		(SELECT COUNT(DISTINCT seq) FROM v_value WHERE run_id=r.id AND metric LIKE 'psi.memory:%') < 10")
	[[ -z $few ]] || { bad slice "runs with < 10 samples: $few"; return; }
	# generations only under MGLRU
	local gens; gens=$(q "$db" "SELECT v.lru_mode, COUNT(g.run_id) FROM run r JOIN variant v ON v.id=r.variant_id LEFT JOIN lru_gen g ON g.run_id=r.id GROUP BY r.id ORDER BY r.ord" | tr '\n' ' ')
	[[ $gens =~ ^classic\|0\ mglru\|[1-9][0-9]*\ classic\|0\ mglru\|[1-9][0-9]*\ $ ]] || { bad slice "lru_gen rows per run wrong: $gens"; return; }
	# provenance
	for k in kernel.sha256 lru.mode accel qemu.argv kernel.config_sha256 cmdline; do
		local c; c=$(q "$db" "SELECT COUNT(*) FROM run_prov WHERE key='$k' AND value<>''")
		[[ $c == 4 ]] || { bad slice "provenance $k on $c of 4 runs"; return; }
	done
	local sha; sha=$(sha256sum "$(q "$db" "SELECT value FROM run_prov WHERE key='kernel.image' LIMIT 1")" | cut -d' ' -f1)
	[[ $(q "$db" "SELECT value FROM run_prov WHERE key='kernel.sha256' LIMIT 1") == "$sha" ]] || { bad slice "kernel.sha256 is not the file's"; return; }
	# the memcg reclaimed, and the workload reported
	local steal; steal=$(q "$db" "SELECT MIN(d) FROM (SELECT run_id, MAX(v)-MIN(v) d FROM v_value WHERE metric='memory.stat:pgsteal' AND scope='wl' GROUP BY run_id)")
	[[ ${steal:-0} -gt 0 ]] || { bad slice "memcg wl reclaimed nothing (pgsteal delta $steal)"; return; }
	local res; res=$(q "$db" "SELECT COUNT(*) FROM result WHERE workload='anon' AND key='throughput' AND value > 0")
	[[ $res == 4 ]] || { bad slice "throughput reported by $res of 4 runs"; return; }
	grep -qE '^anon +throughput +2 ' "$tmp/slice.out" || { bad slice "no summary of the key metrics on stdout"; return; }
	# reclaim stall histograms (traced by default): memcg reclaim periods of wl in every run,
	# attributed by the cgroup id Debian's kernel (CGROUP_PERF) puts in each record, none lost
	local stalls; stalls=$(q "$db" "SELECT COUNT(*) FROM run r WHERE
		(SELECT MAX(v) FROM v_value WHERE run_id=r.id AND metric='reclaim:count.memcg' AND scope='wl') > 0 AND
		(SELECT MAX(v) FROM v_value WHERE run_id=r.id AND metric='reclaim:lost') = 0 AND
		(SELECT value FROM run_prov WHERE run_id=r.id AND key='guest.conf.trace/attribution') = 'cgroup-id'")
	[[ $stalls == 4 ]] || { bad slice "runs with memcg stall histograms of wl, no record lost, by cgroup id: $stalls of 4"; return; }
	ok "slice: 4 runs interleaved, samples, generations only under MGLRU, provenance, reclaim, stall histograms"
	test_final_vmstat "$db"
	test_compare "$db"
}

# --- stored final vmstat == the guest kernel's own counters at the end -----
test_final_vmstat() {
	local db=$1 mism=0 checked=0
	for run in $(q "$db" "SELECT id FROM run WHERE status='completed'"); do
		q "$db" "SELECT text FROM log WHERE run_id=$run AND name='console'" |
			tr -d '\r' | sed -n '/LRUBENCH-VMSTAT-BEGIN/,/LRUBENCH-VMSTAT-END/p' |
			grep -E '^(pgsteal|pgscan|pswp|pgmajfault|workingset)[a-z_]* ' > "$tmp/dump.$run"
		[[ -s $tmp/dump.$run ]] || { bad final-vmstat "run $run: no vmstat dump on the console"; return; }
		while read -r key val; do
			local stored; stored=$(q "$db" "SELECT v FROM v_value WHERE run_id=$run AND metric='vmstat:$key' ORDER BY seq DESC LIMIT 1")
			checked=$((checked + 1))
			[[ $stored == "$val" ]] || { mism=$((mism + 1)); diag "  run $run $key: stored $stored, kernel $val"; }
		done < "$tmp/dump.$run"
	done
	((mism == 0 && checked > 20)) && ok "final vmstat: $checked reclaim counters equal the kernel's own" ||
		bad final-vmstat "$mism of $checked counters differ"
}

test_compare() {
	local db=$1 rc=0
	# exit 1 is a regression verdict, which classic against MGLRU may well give
	$lrb compare --all "$db" > "$tmp/cmp.out" 2>&1 || rc=$?
	((rc <= 1)) || { bad compare "lrubench compare failed (exit $rc)"; return; }
	grep -qE '^anon:throughput +ops/s +higher .* n=2 .* n=2 +[+-][0-9.]+%' "$tmp/cmp.out" ||
		{ bad compare "no throughput row with n=2 and a change: $(grep throughput "$tmp/cmp.out")"; return; }
	grep -qE '^vmstat:workingset_refault_anon .*\(not comparable\)' "$tmp/cmp.out" ||
		{ bad compare "workingset_refault_anon not marked not comparable"; return; }
	rc=0
	$lrb report "$db" > /dev/null 2>&1 || rc=$?
	((rc <= 1)) && ls "$LRUBENCH_REPORTS"/*/report.md > /dev/null 2>&1 ||
		{ bad compare "lrubench report wrote no report.md (exit $rc)"; return; }
	ok "compare: n shown, change computed, cross-LRU marks; report written"
}

test_slice
done_testing
