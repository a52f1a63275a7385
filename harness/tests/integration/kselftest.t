#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# Per run of DB: "variant passed/failed/skipped failing-tests", one line each, in run order.
selftest_rows() {
	q "$1" "SELECT v.name || ' ' ||
		(SELECT value FROM result WHERE run_id=r.id AND workload='selftest' AND key='tests_passed') || '/' ||
		(SELECT value FROM result WHERE run_id=r.id AND workload='selftest' AND key='tests_failed') || '/' ||
		(SELECT value FROM result WHERE run_id=r.id AND workload='selftest' AND key='tests_skipped') || ' ' ||
		COALESCE((SELECT group_concat(key, ',') FROM result WHERE run_id=r.id AND workload='selftest'
			AND key LIKE 'ok\_%' ESCAPE '\' AND value = 0), '-')
		FROM run r JOIN variant v ON v.id=r.variant_id WHERE r.status='completed' ORDER BY r.ord"
}

# --- the kernel's memcg selftest: 14/14 on both LRUs of 6.1 and 6.12, in a host-like guest
test_kselftest() {
	local db=$tmp/kselftest.db rc=0
	$lrb run workloads/plans/kselftest.ini --reps 1 --db "$db" >"$tmp/ks.out" 2>"$tmp/ks.err" || rc=$?
	# one repetition a side: every run measured, too few blocks for a verdict (exit 3)
	[[ $rc == 3 ]] || { bad kselftest "lrubench run exit $rc, want 3 (one block): $(tail -5 "$tmp/ks.err")"; return; }
	local rows; rows=$(selftest_rows "$db" | tr '\n' ';')
	[[ $rows == "classic-6.1 14.0/0.0/0.0 -;mglru-6.1 14.0/0.0/0.0 -;classic-6.12 14.0/0.0/0.0 -;mglru-6.12 14.0/0.0/0.0 -;" ]] ||
		{ bad kselftest "want 14 passed, 0 failed, 0 skipped per variant: $rows"; return; }
	# Each kernel ran its own series' suite, in a guest set up as a host.
	local suites; suites=$(q "$db" "SELECT COUNT(*) FROM result x JOIN run r ON r.id=x.run_id JOIN variant v ON v.id=r.variant_id
		WHERE x.workload='selftest' AND ((v.name LIKE '%-6.1' AND x.key='ok_current') OR (v.name LIKE '%-6.12' AND x.key='ok_current_peak'))")
	[[ $suites == 4 ]] || { bad kselftest "runs with their series' suite (ok_current on 6.1, ok_current_peak on 6.12): $suites of 4"; return; }
	local host; host=$(q "$db" "SELECT COUNT(*) FROM run_prov WHERE (key='guest.conf.net/lo' AND value='up')
		OR (key='guest.conf.cgroup2/options' AND value LIKE '%,nsdelegate%' AND value NOT LIKE '%memory_recursiveprot%')")
	[[ $host == 8 ]] || { bad kselftest "lo up and cgroup2 with nsdelegate alone: $host of 8 provenance rows"; return; }

	# The opposite: under systemd's memory_recursiveprot (lrubench's default)
	# 6.1's test_memcg_low fails, the rest pass.
	db=$tmp/kselftest-rp.db rc=0
	$lrb run harness/tests/plans/kselftest-recursiveprot.ini --db "$db" >"$tmp/ksrp.out" 2>"$tmp/ksrp.err" || rc=$?
	[[ $rc == 3 ]] || { bad kselftest "recursiveprot: lrubench run exit $rc, want 3: $(tail -5 "$tmp/ksrp.err")"; return; }
	rows=$(selftest_rows "$db" | tr '\n' ';')
	[[ $rows == "classic 13.0/1.0/0.0 ok_low;mglru 13.0/1.0/0.0 ok_low;" ]] ||
		{ bad kselftest "recursiveprot: want test_memcg_low alone failing: $rows"; return; }
	host=$(q "$db" "SELECT COUNT(*) FROM run_prov WHERE key='guest.conf.cgroup2/options' AND value LIKE '%nsdelegate,memory_recursiveprot%'")
	[[ $host == 2 ]] || { bad kselftest "recursiveprot: cgroup2 mounted with it in $host of 2 runs"; return; }
	grep -q 'wl-kselftest-memcg: not ok 4 test_memcg_low' <(q "$db" "SELECT text FROM log") ||
		{ bad kselftest "recursiveprot: the failing TAP line is not in the runs' log"; return; }
	ok "kselftest: test_memcontrol 14/14 on classic and MGLRU of 6.1 and 6.12; under memory_recursiveprot only test_memcg_low fails (6.1)"
}

test_kselftest
done_testing
