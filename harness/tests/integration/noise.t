#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- A/A: a variant against itself reports no regression -------------------
test_noise() {
	# deck and verdict read this database after us: it lives in the state directory
	local db=$state/aa.db rc=0
	rm -f "$db" "$db-wal" "$db-shm"
	$lrb noise harness/tests/plans/halfmem.ini --db "$db" > "$tmp/aa.out" 2> "$tmp/aa.err" || rc=$?
	[[ $rc == 0 ]] || { bad noise "lrubench noise exit $rc: $(tail -3 "$tmp/aa.err")"; return; }
	local n; n=$(q "$db" "SELECT COUNT(*) FROM run WHERE status='completed'")
	[[ $n == 6 ]] || { bad noise "expected 6 completed runs, got $n"; return; }
	local mde; mde=$(q "$db" "SELECT COUNT(*) FROM noise WHERE mde > 0")
	((mde > 5)) || { bad noise "noise figures with an MDE: $mde"; return; }
	grep -q '^anon:throughput .*%' "$tmp/aa.out" || { bad noise "no noise table on stdout"; return; }
	rc=0
	$lrb report "$db" --junit "$tmp/aa-junit.xml" > /dev/null 2> "$tmp/aa-report.err" || rc=$?
	[[ $rc == 0 ]] || { bad noise "A/A reported a regression (exit $rc): $(grep -o 'name="[^"]*">\s*<failure[^>]*' "$tmp/aa-junit.xml" | head -3)"; return; }
	xmllint --noout "$tmp/aa-junit.xml" || { bad noise "JUnit XML not well-formed"; return; }
	grep -q '<testsuites [^>]* failures="0"' "$tmp/aa-junit.xml" || { bad noise "JUnit has failures"; return; }
	check_report "$LRUBENCH_REPORTS/$(q "$db" "SELECT value FROM meta WHERE key='campaign'")" noise || return
	ok "noise: A/A of 3+3 runs, no regression (exit 0), MDE of $mde metrics stored, report well-formed"
}

test_noise
done_testing
