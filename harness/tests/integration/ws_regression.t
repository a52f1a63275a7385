#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- a planted regression in the classic LRU's refault handling -------------
# kernels/ws-refault-delay.ini is minimal.ini with workingset_refault()
# busy-waiting 50 us per refault under the classic LRU (MGLRU returns before
# that point). ws-shift moves the working set; the test asks three things:
#   - the scenario engaged the refault path: thousands of workingset refaults
#     in every classic run of both kernels (the precondition signal);
#   - the classic LRU regresses: a REGRESSION verdict on a ws-shift key metric
#     of the classic pair;
#   - MGLRU does not: no REGRESSION in its pair, the same data and rules.
test_ws_regression() {
	local out=$tmp/wsr t0=$SECONDS rc=0
	mkdir -p "$out"
	$lrb kernel build minimal > /dev/null 2> "$out/a.err" ||
		{ bad ws-regression "building minimal failed: $(tail -5 "$out/a.err")"; return; }
	$lrb kernel build ws-refault-delay > /dev/null 2> "$out/b.err" ||
		{ bad ws-regression "building ws-refault-delay failed: $(tail -5 "$out/b.err")"; return; }
	local db=$tmp/wsr.db
	$lrb ab --baseline minimal --patched ws-refault-delay --plan harness/tests/plans/ws-shift-ab.ini \
		--db "$db" > "$out/ab.out" 2> "$out/ab.err" || rc=$?
	[[ $rc == 1 ]] || { bad ws-regression "lrubench ab exit $rc, want 1 (a key metric regressed): $(tail -5 "$out/ab.err")"; return; }
	local few; few=$(q "$db" "SELECT v.name || ':' || x.workload || '=' || x.value FROM result x JOIN run r ON r.id=x.run_id
		JOIN variant v ON v.id=r.variant_id WHERE r.status='completed' AND v.name LIKE '%.classic'
		AND x.key = 'refault_' || x.workload AND x.value < 1000" | tr '\n' ' ')
	local n; n=$(q "$db" "SELECT COUNT(*) FROM run WHERE status='completed'")
	[[ -z $few && $n == 20 ]] || { bad ws-regression "completed runs $n of 20; classic runs with under 1000 refaults of their kind: $few"; return; }
	# ab's tables: "CAND against BASE (baseline): ..." then its key rows; REGRESSION rows per pair
	local regs; regs=$(awk '/ against [^ ]+ \(baseline\)/ { pair = $1 " " $3 }
		($1 == "file" || $1 == "anon") && $NF == "REGRESSION" { n[pair]++ }
		END { printf "%d %d", n["ws-refault-delay.classic minimal.classic"], n["ws-refault-delay.mglru minimal.mglru"] }' "$out/ab.out")
	local classic=${regs% *} mglru=${regs#* }
	diag "$(grep -E '^(file|anon) | against ' "$out/ab.out" | head -30)"
	((classic >= 1 && mglru == 0)) ||
		{ bad ws-regression "ws-shift REGRESSION rows: classic pair $classic (want >= 1), MGLRU pair $mglru (want 0)"; return; }
	ok "ws-regression: 50 us per refault under classic: $classic ws-shift key regression(s) in the classic pair, none in MGLRU's; refaults in every classic run; $((SECONDS - t0)) s"
}

test_ws_regression
done_testing
