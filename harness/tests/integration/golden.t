#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- golden: a stored campaign renders byte for byte as it did ------------
# harness/tests/fixtures/golden/ (its README.md says more): campaign.sql, a
# real campaign's database as SQL; render.sh, which rebuilds the database,
# runs compare and report on it and normalises what differs between builds;
# expected/, what the code rendered when the fixture was made or last
# deliberately updated (scripts/golden-update.sh). Any byte that differs
# after normalisation fails. Boots nothing: seconds.
fix=harness/tests/fixtures/golden

test_golden() {
	local t
	# report.md lists the plots and the deck: without gnuplot or pdfunite it says so instead
	for t in sqlite3 gnuplot pdfunite; do
		command -v "$t" > /dev/null || { skip "$t" "golden: $t is not installed (make deps)"; return; }
	done
	if ! "$fix/render.sh" "$build" "$tmp/render" > "$tmp/render.log" 2>&1; then
		bad golden "render.sh failed: $(tail -5 "$tmp/render.log")"
		return
	fi
	local got=$tmp/render/golden
	test_content "$got"
	test_same "$fix/expected" "$got"
	test_unchanged "$tmp/render/db.sha256"
}

# compare and report read the campaign and write nothing to it (not even its
# journal mode): the file's checksum before them and after them is the same.
test_unchanged() {
	local n; n=$(sort -u "$1" | wc -l)
	if [[ $(wc -l < "$1") -eq 2 && $n -eq 1 ]]; then
		ok "golden: compare and report left the campaign's file as it was"
	else
		bad golden-readonly "the campaign's checksum before and after compare and report: $(tr '\n' ' ' < "$1")"
	fi
}

# The outputs hold the campaign, not an empty shell: equal empty files would pass the diff.
test_content() {
	local got=$1 why=()
	# compare's summary: a row per key metric (5: anon's 2, the system family's 3), 3 blocks each,
	# a verdict at the end of each
	local key; key=$(grep -cE '^(anon|system) +[a-z0-9._:]+ +3 +[0-9].* (open|same|improved|REGRESSION|changed)$' "$got/compare.txt")
	((key >= 5)) || why+=("compare.txt: $key key verdict rows, want >= 5")
	# --all: every row, with n = 3 and q
	local rows; rows=$(grep -cE '^[a-z][a-z0-9._:-]+(\[[a-z0-9_]+\])? +(key +)?(lower|higher) +3 .* [01]\.[0-9]{3} +(~|same|open|undecided|improved|REGRESSION|changed|worse\?|better\?)$' "$got/compare.txt")
	((rows >= 30)) || why+=("compare.txt: $rows every-row verdict rows with n=3, want >= 30")
	local nc; nc=$(grep -cE ' n/c$' "$got/compare.txt")
	((nc >= 2)) || why+=("compare.txt: $nc not-comparable rows, want >= 2")
	# report.md: its sections, the same key rows as compare, six completed runs with samples
	local s
	for s in '## Claims' '## Verdicts' '## Every row' '## Comparison' '## Reclaim stalls' '## Plots' '## Runs' '## Provenance'; do
		grep -qx "$s.*" "$got/report.md" || why+=("report.md: no section '$s'")
	done
	local mkey; mkey=$(grep -cE '^(anon|system) +[a-z0-9._:]+ +3 +[0-9].* (open|same|improved|REGRESSION|changed)$' "$got/report.md")
	((mkey == key)) || why+=("report.md: $mkey key verdict rows, compare.txt $key")
	local runs; runs=$(grep -cE '^[1-6] +(classic|mglru) +[1-3] +completed +[1-9][0-9]* ' "$got/report.md")
	((runs == 6)) || why+=("report.md: $runs completed runs with samples, want 6")
	local lines; lines=$(wc -l < "$got/report.md")
	((lines >= 200)) || why+=("report.md: $lines lines, want >= 200")
	# JUnit and JSON: a test case and a verdict per row
	local cases; cases=$(grep -c '<testcase ' "$got/junit.xml")
	((cases >= 30)) || why+=("junit.xml: $cases test cases, want >= 30")
	local verdicts; verdicts=$(grep -c '"verdict": ' "$got/report.json")
	((verdicts >= 30)) || why+=("report.json: $verdicts verdicts, want >= 30")
	if ((${#why[@]})); then
		bad golden-content "$(printf '%s\n' "${why[@]}")"
	else
		ok "golden: real content: $key key verdict rows, $rows rows in every row, $runs runs, $lines lines of report.md, $cases JUnit cases"
	fi
}

# Each golden file or directory the same, byte for byte; a file missing or new fails too.
test_same() {
	local exp=$1 got=$2 name
	[[ -d $exp ]] || { bad golden "no $exp: scripts/golden-update.sh makes it"; return; }
	while read -r name; do
		if [[ ! -e $exp/$name ]]; then
			bad "golden: $name" "rendered, but not in $exp (new output? scripts/golden-update.sh)"
		elif [[ ! -e $got/$name ]]; then
			bad "golden: $name" "in $exp, but no longer rendered"
		elif diff -ru "$exp/$name" "$got/$name" > "$tmp/diff" 2>&1; then
			ok "golden: $name identical"
		else
			bad "golden: $name" "differs from $exp/$name ($(grep -c '^[-+][^-+]' "$tmp/diff") lines changed; the diff's first 40 lines, - golden, + now):
$(head -40 "$tmp/diff")"
		fi
	done < <({ ls -A "$exp"; ls -A "$got"; } | sort -u)
}

test_golden
done_testing
