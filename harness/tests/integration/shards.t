#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- shards: 2 shards merged equal the unsharded campaign; history across nights
# twin.ini: classic and MGLRU, 2 repetitions. The unsharded campaign is the
# history's first night, the merged shards its second.

struct() { # DB: each compare row's label and its n= cells (values differ between TCG runs)
	$lrb compare --all "$1" | awk '/ n=[0-9]/ { s = $1; for (i = 2; i <= NF; i++) if ($i ~ /^n=/) s = s " " $i; print s }'
}

runs_of() { q "$1" "SELECT v.name, r.rep, r.ord, r.seed, r.status FROM run r JOIN variant v ON v.id = r.variant_id ORDER BY r.ord, v.name"; }

test_shards() {
	local plan=harness/tests/plans/twin.ini hist=$tmp/hist.db rc=0
	$lrb run $plan --db "$tmp/full.db" --history "$hist" > "$tmp/full.out" 2> "$tmp/full.err" || rc=$?
	verdict_rc $rc || { bad shards "unsharded run failed (exit $rc): $(tail -3 "$tmp/full.err")"; return; }
	for i in 1 2; do
		# a shard holds one repetition: incomplete alone (exit 3), whole once merged
		rc=0; $lrb run $plan --shard $i/2 --db "$tmp/s$i.db" > /dev/null 2> "$tmp/s$i.err" || rc=$?
		[[ $rc == 3 ]] || { bad shards "shard $i/2: exit $rc, want 3: $(tail -3 "$tmp/s$i.err")"; return; }
	done
	local s1; s1=$(q "$tmp/s1.db" "SELECT value FROM meta WHERE key = 'shard'")"|"$(q "$tmp/s1.db" "SELECT group_concat(ord) FROM (SELECT ord FROM run ORDER BY ord)")
	[[ $s1 == "1/2|0,1" ]] || { bad shards "shard 1/2 ran places '$s1', want 1/2|0,1 (repetition 0, both variants)"; return; }
	if ! $lrb merge "$tmp/merged.db" "$tmp/s1.db" "$tmp/s2.db" > "$tmp/merge.out" 2> "$tmp/merge.err"; then
		bad shards "merge failed: $(tail -3 "$tmp/merge.err")"; return
	fi
	local want got ic
	want=$(runs_of "$tmp/full.db"); got=$(runs_of "$tmp/merged.db")
	[[ $got == "$want" && $(q "$tmp/full.db" "SELECT COUNT(*) FROM run WHERE status = 'completed'") == 4 ]] ||
		{ bad shards "merged runs differ from the unsharded campaign's: '$got' vs '$want'"; return; }
	ic=$(q "$tmp/merged.db" "PRAGMA integrity_check")
	[[ $ic == ok ]] || { bad shards "merged integrity_check: $ic"; return; }
	struct "$tmp/full.db" > "$tmp/full.struct"; struct "$tmp/merged.db" > "$tmp/merged.struct"
	if ! [[ -s $tmp/full.struct ]] || ! diff "$tmp/full.struct" "$tmp/merged.struct" > "$tmp/struct.diff"; then
		bad shards "compare rows or n differ: $(head -5 "$tmp/struct.diff")"; return
	fi
	ok "shards: 2 shards merged have the unsharded campaign's runs (variant, rep, place, seed, status) and compare rows with n ($(wc -l < "$tmp/full.struct") rows); $(cat "$tmp/merge.out")"
	test_merge_refused
	test_merge_resume
	test_history "$hist"
}

# A shard cut off mid-run (its last run left 'running'): merged, then resumed to completion.
test_merge_resume() {
	cp "$tmp/s2.db" "$tmp/cut.db"
	q "$tmp/cut.db" "UPDATE run SET status = 'running', ended_ns = NULL WHERE ord = 3"
	if ! $lrb merge "$tmp/cutm.db" "$tmp/s1.db" "$tmp/cut.db" > /dev/null 2> "$tmp/cutm.err" ||
		! grep -q '1 runs are not finished' "$tmp/cutm.err"; then
		bad merge-resume "merge of a cut shard: $(tail -2 "$tmp/cutm.err")"; return
	fi
	local rc=0
	$lrb run --resume "$tmp/cutm.db" > /dev/null 2> "$tmp/cutr.err" || rc=$?
	verdict_rc $rc || { bad merge-resume "resume of the merged database failed (exit $rc): $(tail -3 "$tmp/cutr.err")"; return; }
	local st; st=$(q "$tmp/cutm.db" "SELECT group_concat(status, ' ') FROM (SELECT status FROM run ORDER BY ord)")
	struct "$tmp/cutm.db" > "$tmp/cutm.struct"
	if [[ $st == "completed completed completed failed-infra completed" ]] && diff -q "$tmp/full.struct" "$tmp/cutm.struct" > /dev/null; then
		ok "merge-resume: a shard cut mid-run merged, resumed: $st; compare rows and n as unsharded"
	else
		bad merge-resume "runs '$st'; compare: $(diff "$tmp/full.struct" "$tmp/cutm.struct" | head -3)"
	fi
}

test_merge_refused() {
	local rc=0
	# another plan: shard 2's database with its plan text changed by one line
	cp "$tmp/s2.db" "$tmp/other.db"
	q "$tmp/other.db" "UPDATE meta SET value = value || char(10) || '# another plan' WHERE key = 'plan.text'"
	$lrb merge "$tmp/bad.db" "$tmp/s1.db" "$tmp/other.db" > /dev/null 2> "$tmp/bad.err" || rc=$?
	if [[ $rc != 2 || -e $tmp/bad.db || -e $tmp/bad.db.merging ]] || ! grep -q "$tmp/s1.db and $tmp/other.db were run from different plans" "$tmp/bad.err"; then
		bad merge-refused "rc $rc, out exists: $(ls "$tmp"/bad.db* 2> /dev/null), stderr: $(cat "$tmp/bad.err")"; return
	fi
	# a shard with itself: kept once
	if ! $lrb merge "$tmp/self.db" "$tmp/s1.db" "$tmp/s1.db" > "$tmp/self.out" 2> "$tmp/self.err"; then
		bad merge-refused "self merge failed: $(tail -3 "$tmp/self.err")"; return
	fi
	local runs; runs=$(runs_of "$tmp/self.db")
	[[ $runs == "$(runs_of "$tmp/s1.db")" ]] && grep -q "2 runs from 4 (2 duplicates dropped" "$tmp/self.out" ||
		{ bad merge-refused "self merge: '$runs'; $(cat "$tmp/self.out")"; return; }
	# more shards than repetitions: refused before anything boots
	rc=0
	$lrb run harness/tests/plans/twin.ini --shard 3/3 --db "$tmp/s3.db" > /dev/null 2> "$tmp/s3.err" || rc=$?
	[[ $rc == 2 && ! -e $tmp/s3.db ]] && grep -q 'at most 2 shards' "$tmp/s3.err" ||
		{ bad merge-refused "--shard 3/3 of 2 repetitions: rc $rc: $(tail -1 "$tmp/s3.err")"; return; }
	ok "merge-refused: another plan refused naming both files, nothing written; a shard with itself kept once; 3 shards of 2 repetitions refused"
}

test_history() {
	local hist=$1 dir=$LRUBENCH_REPORTS/history/twin
	local full; full=$(q "$tmp/full.db" "SELECT value FROM meta WHERE key = 'campaign'")
	local merged; merged=$(q "$tmp/merged.db" "SELECT value FROM meta WHERE key = 'campaign'")
	grep -q "^previous  none: the first night of this plan" "$tmp/full.out" ||
		{ bad history "the first night's comparison is missing from run --history's output"; return; }
	if ! $lrb history add "$hist" "$tmp/merged.db" > "$tmp/hist2.out" 2> "$tmp/hist2.err"; then
		bad history "history add failed: $(tail -3 "$tmp/hist2.err")"; return
	fi
	grep -q "^previous  $full " "$tmp/hist2.out" ||
		{ bad history "second night not compared with the first: $(head -4 "$tmp/hist2.out")"; return; }
	local line; line=$(grep -E '^classic +anon:throughput ' "$tmp/hist2.out")
	[[ $line =~ n=2\ +[0-9.]+\ ±[0-9]+%\ n=2\ +[+-][0-9.]+% ]] ||
		{ bad history "no change of throughput against the previous night: '$line'"; return; }
	$lrb history pin "$hist" "$full" > /dev/null 2>&1 && $lrb history show "$hist" "$merged" > "$tmp/hist3.out" 2>&1
	grep -q "^pinned    $full " "$tmp/hist3.out" || { bad history "pinned night not shown: $(head -4 "$tmp/hist3.out")"; return; }
	local png=$dir/anon_throughput.png svg=$dir/anon_throughput.svg
	local points; points=$(grep -c '^[01] ' "$dir/anon_throughput.dat" 2> /dev/null)
	if [[ -s $png && -s $svg && $points == 4 ]] && head -c 4 "$png" | LC_ALL=C grep -qa PNG && grep -q '<svg' "$svg"; then
		ok "history: 2 nights appended (run --history, history add), the second against the first, pinned shown, trend plot $(stat -c %s "$png") B PNG, $(stat -c %s "$svg") B SVG, 2 nights x 2 variants"
	else
		bad history "trend plot: png $(stat -c %s "$png" 2> /dev/null), svg $(stat -c %s "$svg" 2> /dev/null), $points points"
	fi
}

test_shards
done_testing
