#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- the catalogue: every workload under both LRUs, its results, its disks, compare reads it
test_catalogue() {
	local db=$tmp/catalogue.db rc=0
	# one repetition a side: every run measured, but too few blocks for a verdict (exit 3)
	$lrb run harness/tests/plans/catalogue.ini --db "$db" >"$tmp/catalogue.out" 2>"$tmp/catalogue.err" || rc=$?
	[[ $rc == 3 ]] || { bad catalogue "lrubench run exit $rc, want 3 (one block): $(tail -5 "$tmp/catalogue.err")"; return; }
	local what; what=$(check_catalogue_runs "$db" catalogue 2) || { bad catalogue "$what"; return; }
	# The disks were there: the tools disk read-only, the scratch disk writable, mounted.
	local argv; argv=$(q "$db" "SELECT value FROM run_prov WHERE run_id=1 AND key='qemu.argv'")
	[[ $argv == *"readonly=on"*"serial=lrubench-tools"* && $argv == *"cache=unsafe"*"serial=lrubench-scratch"* ]] ||
		{ bad catalogue "disks not on QEMU's command line: ${argv:0:300}"; return; }
	local mounts; mounts=$(q "$db" "SELECT COUNT(*) FROM event WHERE kind='boot' AND (text LIKE 'tools disk % on /tools read-only' OR text LIKE 'scratch disk % on /scratch')")
	[[ $mounts == 4 ]] || { bad catalogue "tools and scratch disks mounted $mounts times in 2 runs"; return; }
	ls "$LRUBENCH_RESULTS"/catalogue-*/run-*/scratch.ext4 > /dev/null 2>&1 &&
		{ bad catalogue "scratch disks left behind after the runs"; return; }
	# compare reads it: a row per workload with both LRUs.
	rc=0; $lrb compare --all "$db" > "$tmp/catalogue.cmp" 2>&1 || rc=$?
	[[ $rc == 3 ]] && grep -q '^INCOMPLETE: mglru has 1 block measured beside classic' "$tmp/catalogue.cmp" ||
		{ bad catalogue "lrubench compare exit $rc, want 3 with INCOMPLETE"; return; }
	local rows; rows=$(grep -cE '^[a-z-]+:throughput +ops/s +higher .* n=1 .* n=1' "$tmp/catalogue.cmp")
	[[ $rows == 11 ]] || { bad catalogue "compare shows $rows throughput rows with both LRUs, not 11"; return; }
	ok "catalogue: 11 workloads x 2 LRUs: $what; disks attached and mounted; compare reads it"
	check_marks "$db"
}

# app-switch's marks came through the agent as events, and agree with its results: a launch
# mark per app (its first launch) and per switch (warm or cold), a kill mark per kill.
check_marks() {
	local db=$1 run bad=""
	for run in $(q "$1" "SELECT id FROM run WHERE status='completed'"); do
		local launches kills cold reloads
		launches=$(q "$db" "SELECT COUNT(*) FROM event WHERE run_id=$run AND kind='mark' AND (text LIKE 'app-switch launch_cold_ns % ns' OR text LIKE 'app-switch launch_warm_ns % ns')")
		kills=$(q "$db" "SELECT COUNT(*) FROM event WHERE run_id=$run AND kind='mark' AND text LIKE 'app-switch kill % app'")
		cold=$(q "$db" "SELECT COUNT(*) FROM event WHERE run_id=$run AND kind='mark' AND text LIKE 'app-switch launch_cold_ns %'")
		reloads=$(q "$db" "SELECT CAST(value AS INT) FROM result WHERE run_id=$run AND workload='app-switch' AND key='reloads'")
		[[ $launches == 6 ]] || bad+=" run $run: $launches launch marks, want 3 apps + 3 switches;"
		[[ $kills == "$(q "$db" "SELECT CAST(value AS INT) FROM result WHERE run_id=$run AND workload='app-switch' AND key='kills'")" ]] ||
			bad+=" run $run: $kills kill marks, not the kills result;"
		[[ $cold == "$(q "$db" "SELECT CAST(value AS INT) FROM result WHERE run_id=$run AND workload='app-switch' AND key='launches_cold'")" && $((cold - 3)) == "$reloads" ]] ||
			bad+=" run $run: $cold cold launch marks, results disagree (reloads $reloads);"
	done
	[[ -z $bad ]] || { bad catalogue "marks:$bad"; return; }
	# The report draws them: the cold and warm launch CDFs per LRU.
	local rc=0 camp plots
	$lrb report "$db" > "$tmp/catalogue.report" 2>&1 || rc=$?
	camp=$(q "$db" "SELECT value FROM meta WHERE key='campaign'")
	plots=$LRUBENCH_REPORTS/$camp/plots
	[[ $rc == 3 && -s $plots/marks-app-switch-launch_cold_ns-cdf.png && -s $plots/marks-app-switch-launch_warm_ns-cdf.png ]] ||
		{ bad catalogue "report exit $rc (want 3), launch CDFs: $(ls "$plots" 2>&1 | grep -c marks-) marks plots in $plots"; return; }
	ok "catalogue: app-switch's launch and kill marks agree with its results; the report draws the launch CDFs"
}

test_catalogue
done_testing
