#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- the deck of a real campaign, read as a person would --------------------
# slice's database (classic and MGLRU, 2 blocks; run here when slice did not
# run first) and, when the noise test left it, the A/A one beside it: both in
# the state directory (LRUBENCH_IT_STATE) the runner hands to every test.

test_deck() {
	local db=$state/slice.db dir=$tmp/deck rc=0 f
	command -v pdftoppm > /dev/null && command -v pdfunite > /dev/null ||
		{ skip poppler "poppler-utils is not installed (make deps)"; return; }
	if [[ ! -s $db ]]; then
		diag "slice did not run before: running its campaign here"
		$lrb run harness/tests/plans/slice.ini --db "$db" > /dev/null 2> "$tmp/deck-run.err" || rc=$?
		verdict_rc $rc || { bad deck "lrubench run failed (exit $rc): $(tail -3 "$tmp/deck-run.err")"; return; }
	fi
	local dbs=("$db"); [[ -s $state/aa.db ]] && dbs+=("$state/aa.db")
	# slice runs no claim's scenario (no anon/file mix, no probe): every primary signal is
	# untested, so claims exits 3, and the deck is written all the same and says so
	rc=0; $lrb claims "${dbs[@]}" --deck "$dir" > "$tmp/deck.out" 2> "$tmp/deck.err" || rc=$?
	[[ $rc == 3 ]] || { bad deck "lrubench claims --deck exit $rc, want 3 (no claim tested): $(tail -2 "$tmp/deck.err")"; return; }
	grep -q "no claim was tested" "$tmp/deck.err" || { bad deck "exit 3 without saying why: $(cat "$tmp/deck.err")"; return; }
	local pdf=$dir/deck.pdf
	[[ $(tail -1 "$tmp/deck.out") == "$pdf" ]] || { bad deck "claims did not name $pdf last"; return; }
	local pages; pages=$(pdfinfo "$pdf" | awk '/^Pages:/ { print $2 }')
	[[ $pages == 11 ]] || { bad deck "$pages pages, want 11 (title, scoreboard, 8 claims, provenance)"; return; }
	local sized; sized=$(pdfinfo -f 1 -l 99 "$pdf" | grep -cE 'size: +960 x 540 pts')
	[[ $sized == 11 ]] || { bad deck "$sized of 11 pages are 960x540 pt (16:9)"; return; }
	pdftoppm -png -r 48 "$pdf" "$dir/png" && pdftoppm -gray -r 24 "$pdf" "$dir/pgm" ||
		{ bad deck "pdftoppm could not render $pdf"; return; }
	local n=0 least=1000
	for f in "$dir"/png-*.png; do
		n=$((n + 1))
		[[ $(png_size "$f") == 640x360 ]] || { bad deck "$f is $(png_size "$f"), not 640x360 (16:9)"; return; }
	done
	[[ $n == 11 ]] || { bad deck "pdftoppm rendered $n PNG pages"; return; }
	for f in "$dir"/pgm-*.pgm; do
		local ink; ink=$(pgm_ink "$f")
		((ink >= 2)) || { bad deck "$f looks blank: ink on $ink per mille of its pixels"; return; }
		((ink < least)) && least=$ink
	done
	local rel; rel=$(q "$db" "SELECT value FROM run_prov WHERE key='kernel.release' LIMIT 1")
	local t1 t2 t3; t1=$(pdftotext -f 1 -l 1 "$pdf" -) t2=$(pdftotext -f 2 -l 2 "$pdf" -) t3=$(pdftotext -f 3 -l 3 "$pdf" -)
	[[ -n $rel && $t1 == *"$rel"* && $t1 == *"runs measured"* ]] || { bad deck "title page without kernel '$rel': $t1"; return; }
	[[ $t1 == *"NO CLAIM MEASURED"* ]] || { bad deck "title does not say that no claim was measured: $t1"; return; }
	for c in C1 C2 C3 C4 C5 C6 C7 C8; do
		[[ $t2 == *"$c"* ]] || { bad deck "scoreboard page without $c"; return; }
	done
	# slice runs no anon/file mix: C1 is not tested, and its page says why (its precondition)
	[[ $t3 == *"NOT TESTED"* && $t3 == *"why: precondition mix:steal_attributed"* ]] ||
		{ bad deck "C1 page without its verdict and precondition: $t3"; return; }
	# report writes one too (test_compare reported slice's database)
	local camp; camp=$(q "$db" "SELECT value FROM meta WHERE key='campaign'")
	[[ -s $LRUBENCH_REPORTS/$camp/deck.pdf ]] || $lrb report "$db" > /dev/null 2>&1
	[[ $(pdfinfo "$LRUBENCH_REPORTS/$camp/deck.pdf" 2> /dev/null | awk '/^Pages:/ { print $2 }') == 11 ]] ||
		{ bad deck "lrubench report wrote no 11-page deck.pdf"; return; }
	ok "deck: ${#dbs[@]} database(s), 11 pages of 960x540 pt, 16:9 PNGs, ink on each (least $least per mille), kernel $rel named, C1's page with its precondition"
}

test_deck
done_testing
