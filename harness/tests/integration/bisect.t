#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- bisect: the first bad commit of a synthetic history on linux-source-6.1 -
# Three commits: the tarball, a patch that costs 100 us per new anonymous page,
# a harmless comment. Bisecting anon:populate_s from the first to the last must
# measure both ends, call the middle commit bad and name it (not the bad end),
# without touching the repository's work tree. Each commit is a kernel build in
# the series' workspace (kernels/README.md): the tarball's commit differs from
# the minimal build before it only by its release string, the next ones by a
# file or two. A fourth commit, a harmless one before the regression that a
# step would call good, made the test 1064 s against 920 s when each commit
# was a 3-minute ccache build, for a decision the good end already exercises.

test_bisect() {
	local repo=$tmp/linux out=$tmp/bisect dir=$tmp/bisect/run t0=$SECONDS
	mkdir -p "$out"
	local commits; commits=($(bisect_repo "$repo")) || { bad bisect "could not make the synthetic history"; return; }
	((${#commits[@]} == 3)) || { bad bisect "history has ${#commits[@]} commits: ${commits[*]}"; return; }
	local c0=${commits[0]} c1=${commits[1]} c2=${commits[2]}
	local head_before reflog_before
	head_before=$(git -C "$repo" rev-parse HEAD)
	reflog_before=$(git -C "$repo" reflog | wc -l) # a checkout would add to it, even one undone
	local common=(--repo "$repo" --recipe minimal --plan harness/tests/plans/bisect.ini --accel tcg)

	# Mistakes are caught before anything builds.
	local rc=0
	$lrb bisect --good "$c0" --bad "$c2" "${common[@]}" --metric anon:populate > /dev/null 2> "$out/typo.err" || rc=$?
	[[ $rc == 2 ]] && grep -q "workload anon (anon-zipf) has no result 'populate' (it has: .*populate_s" "$out/typo.err" ||
		{ bad bisect "a misspelt metric: rc $rc, $(cat "$out/typo.err")"; return; }
	rc=0; $lrb bisect --good "$c2" --bad "$c0" "${common[@]}" --metric anon:populate_s > /dev/null 2> "$out/order.err" || rc=$?
	[[ $rc == 2 ]] && grep -q "is not an ancestor of --bad" "$out/order.err" ||
		{ bad bisect "swapped ends: rc $rc, $(cat "$out/order.err")"; return; }
	rc=0; $lrb bisect --good "$c0" --bad "$c2" "${common[@]}" --metric anon:duration > /dev/null 2> "$out/dir.err" || rc=$?
	[[ $rc == 2 ]] && grep -q "duration has no better direction" "$out/dir.err" ||
		{ bad bisect "a metric without direction: rc $rc, $(cat "$out/dir.err")"; return; }
	[[ -z $(ls "$LRUBENCH_RESULTS" 2>/dev/null | grep bisect) ]] || { bad bisect "a refused bisection left a directory"; return; }

	rc=0
	$lrb bisect --good "$c0" --bad "$c2" "${common[@]}" --metric anon:populate_s --dir "$dir" \
		> "$out/bisect.out" 2> "$out/bisect.err" || rc=$?
	local db=$dir/bisect.db
	[[ $rc == 0 ]] || { bad bisect "exit $rc: $(tail -15 "$out/bisect.err"; tail -15 "$out/bisect.out")"; return; }
	grep -q "^first bad commit: $c1 mm/memory: 100 us per new anonymous page" "$out/bisect.out" ||
		{ bad bisect "wrong or no first bad commit: $(grep -i 'first bad' "$out/bisect.out")"; return; }
	[[ $(q "$db" "SELECT value FROM bisect_param WHERE key='first_bad'") == "$c1" ]] ||
		{ bad bisect "database's first_bad is not $c1"; return; }
	# The ends, then git's one step: the costly commit, bad.
	local steps; steps=$(q "$db" "SELECT group_concat(role || ':' || substr(commit_sha, 1, 12) || ':' || decision, ' ') FROM (SELECT * FROM bisect_step ORDER BY ord)")
	[[ $steps == "good:${c0:0:12}:good bad:${c2:0:12}:bad step:${c1:0:12}:bad" ]] || { bad bisect "steps: $steps"; return; }
	local weak; weak=$(q "$db" "SELECT ord FROM bisect_step WHERE n < 2 OR length(log) < 100 OR log NOT LIKE '%bisect step%' OR campaigns IS NULL OR build_key IS NULL")
	[[ -z $weak ]] || { bad bisect "steps without values, log, campaign or build: $weak"; return; }
	# The step campaigns are databases of their own, whole.
	local camp
	for camp in $(q "$db" "SELECT campaigns FROM bisect_step"); do
		[[ -s $camp && $(q "$camp" "PRAGMA integrity_check") == ok ]] || { bad bisect "$camp: missing or not whole"; return; }
		[[ $(q "$camp" "SELECT COUNT(*) FROM run WHERE status='completed'") -ge 4 ]] ||
			{ bad bisect "$camp: fewer than 4 completed runs"; return; }
	done
	[[ -n $(q "$db" "SELECT value FROM bisect_param WHERE key='git_bisect_log'" | grep "first bad commit: \[$c1\]") ]] ||
		{ bad bisect "git bisect log not stored"; return; }
	# The repository is as it was: same HEAD, clean tree, no bisection left running.
	[[ $(git -C "$repo" rev-parse HEAD) == "$head_before" && -z $(git -C "$repo" status --porcelain) &&
		$(git -C "$repo" reflog | wc -l) == "$reflog_before" ]] ||
		{ bad bisect "the repository's work tree, HEAD or reflog changed"; return; }
	git -C "$repo" bisect log > /dev/null 2>&1 && { bad bisect "a bisection is still in progress"; return; }
	# Every exported tree is gone: a bisection must not fill the disk.
	local kc=${LRUBENCH_KERNELS:-kernels/cache} left
	[[ -d $kc/ccache ]] || { bad bisect "no kernel cache at $kc"; return; }
	left=$(ls -d "$kc/src-${c0:0:16}" "$kc/src-${c1:0:16}" "$kc/src-${c2:0:16}" 2>/dev/null)
	[[ -z $left ]] || { bad bisect "exported trees left behind: $left"; return; }
	# The commits were built in the series' workspace, one after another: after the
	# first (fresh only when the cache had no 6.1 build), each recompiled a few files.
	local key inc=0 files=""
	for key in $(q "$db" "SELECT DISTINCT build_key FROM bisect_step"); do
		grep -q '^workspace = ws-6\.1 (incremental' "$kc/build-$key/manifest" 2> /dev/null || continue
		inc=$((inc + 1)) files+=" $(sed -n 's/^compiled_files = //p' "$kc/build-$key/manifest")"
	done
	((inc >= 2)) || { bad bisect "$inc of the 3 commits built incrementally in ws-6.1"; return; }
	local chg; chg=$(q "$db" "SELECT printf('%+.0f%%', 100 * change) FROM bisect_step WHERE role='bad'")
	ok "bisect: $c1 (the costly patch) named first bad in $((SECONDS - t0)) s; bad end $chg; steps $(q "$db" "SELECT COUNT(*) FROM bisect_step WHERE role='step'"), with values, log and campaign; repository untouched; $inc builds incremental (files compiled:$files)"

	# Ends that do not differ: nothing to bisect (the builds are cached by now).
	rc=0
	$lrb bisect --good "$c1" --bad "$c2" "${common[@]}" --reps 2 --metric anon:populate_s --dir "$out/none" \
		> "$out/none.out" 2> "$out/none.err" || rc=$?
	[[ $rc == 1 ]] && grep -q "anon:populate_s: nothing to bisect: the bad end is" "$out/none.out" ||
		{ bad bisect-none "rc $rc: $(tail -5 "$out/none.out"; tail -5 "$out/none.err")"; return; }
	[[ $(q "$out/none/bisect.db" "SELECT COUNT(*) FROM bisect_step WHERE role='step'") == 0 ]] ||
		{ bad bisect-none "steps ran"; return; }
	[[ -z $(q "$out/none/bisect.db" "SELECT value FROM bisect_param WHERE key IN ('git_bisect_log', 'git_bisect_run')") ]] ||
		{ bad bisect-none "git bisect was started"; return; }
	ok "bisect-none: ends without a regression are refused before git bisect starts"
}

test_bisect
done_testing
