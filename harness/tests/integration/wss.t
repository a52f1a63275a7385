#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- lrubench wss: working sets within 15% of what the parameters give -------
test_wss() {
	local db=$tmp/wss.db rc=0
	$lrb wss harness/tests/plans/wss.ini --start 15s --window 4s --windows 3 --db "$db" \
		>"$tmp/wss.out" 2>"$tmp/wss.err" || rc=$?
	[[ $rc == 0 ]] || { bad wss "lrubench wss exit $rc: $(tail -5 "$tmp/wss.err")"; return; }
	[[ $(q "$db" "SELECT lru_mode FROM variant") == mglru ]] || { bad wss "the pass did not run MGLRU"; return; }
	grep -q '^wss_methods=gen,ref,drop$' <(q "$db" "SELECT value FROM run_prov WHERE key='run.conf'") ||
		{ bad wss "run.conf has no probe"; return; }
	# each estimate with a model: 3 windows, within 15% of the known value
	local memcg quantity method pages known windows checked=0
	while IFS='|' read -r memcg quantity method pages known windows; do
		[[ $windows == 3 ]] || { bad wss "$memcg $quantity $method: $windows windows"; return; }
		awk -v p="$pages" -v k="$known" 'BEGIN { exit !(k > 0 && p / k > 0.85 && p / k < 1.15) }' ||
			{ bad wss "$memcg $quantity $method: $pages pages, known $known (beyond 15%)"; return; }
		checked=$((checked + 1))
	done < <(q "$db" "SELECT memcg, quantity, method, pages, known, windows FROM wss WHERE known IS NOT NULL")
	local want; want=$(q "$db" "SELECT group_concat(memcg || '/' || quantity || '/' || method, ' ') FROM (SELECT * FROM wss WHERE known IS NOT NULL ORDER BY memcg, quantity, method)")
	[[ $want == "anon/anon/gen anon/anon/ref files/file/drop" ]] || { bad wss "rows with a known value: $want"; return; }
	# nothing was reclaimed behind the probe's back
	grep -q WARNING "$tmp/wss.out" && { bad wss "$(grep WARNING "$tmp/wss.out")"; return; }
	# the limits against the working sets, on stdout and in the pass's report
	grep -qE '^anon +\[memcg\] +32\.0 MiB +[0-9.]+ MiB +[0-9.]+$' "$tmp/wss.out" || { bad wss "no limit / working set line: $(tail -4 "$tmp/wss.out")"; return; }
	local dir; dir="$LRUBENCH_REPORTS/$(q "$db" "SELECT value FROM meta WHERE key='campaign'")"
	grep -q '^## Working sets' "$dir/report.md" || { bad wss "report.md has no working sets"; return; }
	xmllint --noout "$dir/index.html" || { bad wss "index.html not well-formed"; return; }
	ok "wss: $checked estimates within 15% of the known working sets: $(q "$db" "SELECT group_concat(memcg || '/' || method || ' ' || CAST(pages AS INT) || '~' || CAST(known AS INT), ', ') FROM wss WHERE known IS NOT NULL")"
}

test_wss
done_testing
