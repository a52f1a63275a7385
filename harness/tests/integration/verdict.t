#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- half the memcg for the candidate: a regression, exit 1, a failing case -
test_verdict() {
	local db=$tmp/half.db rc=0
	$lrb run harness/tests/plans/halfmem.ini --db "$db" > "$tmp/half.out" 2> "$tmp/half.err" || rc=$?
	[[ $rc == 1 ]] || { bad verdict "lrubench run exit $rc, want 1 (regression): $(tail -3 "$tmp/half.err")"; return; }
	local lim; lim=$(q "$db" "SELECT group_concat(v.name || '=' || p.value, ' ') FROM run r JOIN variant v ON v.id = r.variant_id JOIN run_prov p ON p.run_id = r.id AND p.key = 'guest.conf.memcg/wl/memory.max' WHERE r.rep = 0")
	[[ $lim == "full=67108864 half=33554432" ]] || { bad verdict "memcg limits read back in the guests: $lim"; return; }
	local noise=()
	[[ -s $state/aa.db ]] && noise=(--noise "$state/aa.db")
	rc=0
	$lrb report "$db" --junit "$tmp/half-junit.xml" --json "$tmp/half.json" "${noise[@]}" > /dev/null 2> "$tmp/half-report.err" || rc=$?
	[[ $rc == 1 ]] || { bad verdict "lrubench report exit $rc, want 1 (regression): $(tail -2 "$tmp/half-report.err")"; return; }
	rc=0
	$lrb compare "$db" > "$tmp/half-cmp.out" 2>&1 || rc=$?
	[[ $rc == 1 ]] || { bad verdict "lrubench compare exit $rc, want 1"; return; }
	xmllint --noout "$tmp/half-junit.xml" || { bad verdict "JUnit XML not well-formed"; return; }
	grep -q '<testcase classname="lrubench.anon" name="anon:majflt">' "$tmp/half-junit.xml" &&
		grep -A1 'name="anon:majflt">' "$tmp/half-junit.xml" | grep -q '<failure type="regression"' ||
		{ bad verdict "no failing JUnit case for anon:majflt: $(grep -A1 'name="anon:majflt"' "$tmp/half-junit.xml")"; return; }
	grep -q '"metric": "anon:majflt".*' "$tmp/half.json" && grep -q '"regressions": [1-9]' "$tmp/half.json" ||
		{ bad verdict "JSON verdict table without the regression"; return; }
	grep -qE '^anon +majflt +3 .* REGRESSION$' "$tmp/half-cmp.out" ||
		{ bad verdict "compare does not mark anon:majflt: $(grep -E '^anon +majflt' "$tmp/half-cmp.out")"; return; }
	local dir; dir="$LRUBENCH_REPORTS/$(q "$db" "SELECT value FROM meta WHERE key='campaign'")"
	check_report "$dir" verdict || return
	if ((${#noise[@]})); then
		grep -q '^MDE: the change an A/A campaign' "$dir/report.md" || { bad verdict "report.md does not quote the A/A noise"; return; }
	fi
	local regs; regs=$(grep -o '"regressions": [0-9]*' "$tmp/half.json")
	ok "verdict: half the memcg is a regression (run, compare, report exit 1, failing JUnit case anon:majflt, $regs), report well-formed"
}

test_verdict
done_testing
