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
}

test_catalogue
done_testing
