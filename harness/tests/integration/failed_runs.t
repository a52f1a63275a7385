#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- failure is never green: a kernel that panics in every run --------------
# Both variants' runs fail (failed-kernel, not retried): run, compare and
# report exit 3, the summary says INCOMPLETE, and JUnit carries each lost run
# as an <error> with its reason and the console's tail.
test_failed_runs() {
	local db=$tmp/failed.db rc=0
	$lrb run harness/tests/plans/slice.ini --reps 1 --fault panic@3000 --db "$db" \
		> "$tmp/failed.out" 2> "$tmp/failed.err" || rc=$?
	[[ $rc == 3 ]] || { bad failed-runs "lrubench run exit $rc, want 3: $(tail -3 "$tmp/failed.err")"; return; }
	local st; st=$(q "$db" "SELECT group_concat(status, ' ') FROM (SELECT status FROM run ORDER BY ord)")
	[[ $st == "failed-kernel failed-kernel" ]] ||
		{ bad failed-runs "runs: $st: $(q "$db" "SELECT group_concat(id || ' ' || status || ': ' || reason, '; ') FROM run")"; return; }
	grep -q '^INCOMPLETE: no run was measured' "$tmp/failed.out" ||
		{ bad failed-runs "run's summary does not say INCOMPLETE: $(head -3 "$tmp/failed.out")"; return; }
	rc=0; $lrb compare "$db" > "$tmp/failed.cmp" 2> "$tmp/failed.cmp.err" || rc=$?
	[[ $rc == 3 ]] && grep -q 'incomplete: no run was measured (exit 3)' "$tmp/failed.cmp.err" ||
		{ bad failed-runs "lrubench compare exit $rc, want 3: $(cat "$tmp/failed.cmp.err")"; return; }
	rc=0; $lrb report "$db" --junit "$tmp/failed.xml" > /dev/null 2> "$tmp/failed.rep.err" || rc=$?
	[[ $rc == 3 ]] || { bad failed-runs "lrubench report exit $rc, want 3"; return; }
	xmllint --noout "$tmp/failed.xml" || { bad failed-runs "JUnit XML not well-formed"; return; }
	local errs; errs=$(grep -cE '<error type="failed-kernel" message="failed-kernel: [^"]*Kernel panic' "$tmp/failed.xml")
	[[ $errs == 2 ]] || { bad failed-runs "JUnit: $errs failed-kernel errors, want 2"; return; }
	grep -q '<error type="nothing-measured"' "$tmp/failed.xml" && grep -q '<testsuites [^>]* errors="4"' "$tmp/failed.xml" ||
		{ bad failed-runs "JUnit totals: $(grep -o '<testsuites [^>]*>' "$tmp/failed.xml")"; return; }
	grep -q 'console (last lines):' "$tmp/failed.xml" && grep -q 'sysrq triggered crash' "$tmp/failed.xml" ||
		{ bad failed-runs "JUnit errors without the console's tail"; return; }
	ok "failed-runs: a kernel panicking in every run: run, compare, report exit 3, INCOMPLETE, JUnit $errs errors with reason and console tail"
}

test_failed_runs
done_testing
