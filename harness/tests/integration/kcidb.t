#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- kcidb: lrubench export --kcidb, validated against KCIDB's schema -----------
# The golden campaign (harness/tests/fixtures/golden/campaign.sql, a real
# 6-run campaign) exported and validated against the committed schema
# (harness/tests/fixtures/kcidb/schema-v5.3.json) with python3-jsonschema;
# its tests checked against compare's own summary of the same database.
# Then copies of it changed with SQL: a run marked failed-kernel (an ERROR
# test), two (mglru short of blocks: MISS), all (nothing measured), none
# left (an empty campaign), and files that are no campaign. Boots nothing.
golden_sql=harness/tests/fixtures/golden/campaign.sql
schema=harness/tests/fixtures/kcidb/schema-v5.3.json

# The Python that has jsonschema: Debian's (install-deps.sh), else the one on PATH.
py=
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import jsonschema' 2> /dev/null; then py=$p; break; fi
done

# validate NAME JSON: against the schema; ok or bad
validate() {
	local out
	if out=$("$py" -c 'import json,jsonschema,sys; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' "$2" "$schema" 2>&1); then
		ok "kcidb: $1: the export validates against KCIDB v5.3"
	else
		bad "$1-schema" "$(tail -5 <<< "$out")"
	fi
}

# facts JSON: one line per test "status path mark n", then "ids N UNIQUE", "counts C B T", "builds STATUS..."
facts() {
	"$py" - "$1" << 'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d.get("tests", [])
for x in t:
    m = x.get("misc", {})
    print("test", x["status"], x.get("path", ""), m.get("mark", m.get("run_status", "-")), m.get("n", "-"))
ids = [x["id"] for k in ("checkouts", "builds", "tests") for x in d.get(k, [])]
print("ids", len(ids), len(set(ids)))
print("counts", len(d.get("checkouts", [])), len(d.get("builds", [])), len(t))
print("builds", *[b.get("status", "none") for b in d.get("builds", [])])
bid = {b["id"] for b in d.get("builds", [])}
cid = {c["id"] for c in d.get("checkouts", [])}
print("dangling", sum(x["build_id"] not in bid for x in t) + sum(b["checkout_id"] not in cid for b in d.get("builds", [])))
PY
}

# export NAME DB: runs the export into $tmp/NAME.json, its exit status in rc, stderr in $tmp/NAME.err
export_db() {
	rc=0
	"$lrb" export --kcidb "$2" -o "$tmp/$1.json" 2> "$tmp/$1.err" || rc=$?
}

# compare's key rows of the summary: "metric mark" per line (workload, metric, ..., verdict)
compare_marks() {
	"$lrb" compare "$1" 2> /dev/null |
		awk '$1 ~ /^[a-z]/ && $NF ~ /^(open|same|improved|REGRESSION|changed)$/ && $3 ~ /^[0-9]+$/ { print $NF }'
}

# The status compare's mark gives (README "KCIDB export").
mark_status() {
	case $1 in
	REGRESSION) echo FAIL ;;
	improved | same) echo PASS ;;
	open | changed) echo DONE ;;
	*) echo "?" ;;
	esac
}

test_golden() {
	local db=$tmp/golden.db
	export_db golden "$db"
	# compare and the export: the same exit status (0 here)
	local crc=0; "$lrb" compare "$db" > /dev/null 2>&1 || crc=$?
	if ((rc == crc)) && [[ -s $tmp/golden.json ]]; then
		ok "kcidb: golden: exported, exit $rc as compare's"
	else
		bad golden-exit "export exit $rc, compare exit $crc; $(cat "$tmp/golden.err")"
		return
	fi
	validate golden "$tmp/golden.json"
	local f; f=$(facts "$tmp/golden.json")
	local want=() got=() m
	while read -r m; do want+=("$(mark_status "$m") $m"); done < <(compare_marks "$db")
	mapfile -t got < <(awk '$1 == "test" { print $2, $4 }' <<< "$f")
	local why=()
	# one test per key metric x candidate: compare's summary has 5 key rows, 1 candidate
	((${#want[@]} == 5)) || why+=("compare's summary has ${#want[@]} key rows, this test expects 5")
	[[ "${got[*]}" == "${want[*]}" ]] || why+=("export's 'status mark' (${got[*]}) != compare's (${want[*]})")
	grep -qx 'counts 1 1 5' <<< "$f" || why+=("checkouts, builds, tests: $(grep counts <<< "$f"), want 1 1 5")
	grep -qx 'ids 7 7' <<< "$f" || why+=("ids not unique: $(grep ids <<< "$f")")
	grep -qx 'builds PASS' <<< "$f" || why+=("the build's status: $(grep builds <<< "$f"), want PASS (6 runs booted)")
	grep -qx 'dangling 0' <<< "$f" || why+=("a build_id or checkout_id names no object")
	grep -q '^test PASS lrubench\.golden\.system\.vmstat_pswpout\.mglru same 3$' <<< "$f" ||
		why+=("no PASS test at path lrubench.golden.system.vmstat_pswpout.mglru, n 3")
	grep -q '"tree_name": "debian"' "$tmp/golden.json" || why+=("the checkout does not say Debian's kernel")
	grep -q '"config_name": "config-6.1.0-57-cloud-amd64"' "$tmp/golden.json" || why+=("the build has no config name")
	if ((${#why[@]} == 0)); then
		ok "kcidb: golden: 5 key tests (1 PASS 4 DONE) with compare's verdicts, ids unique, Debian's checkout and build"
	else
		bad golden-content "$(printf '%s\n' "${why[@]}")"
	fi
	# the same export twice: byte for byte (stable ids, stable order)
	"$lrb" export --kcidb "$db" > "$tmp/again.json" 2> /dev/null
	if cmp -s "$tmp/golden.json" "$tmp/again.json"; then
		ok "kcidb: golden: stdout export equals the -o file (stable)"
	else
		bad golden-stable "$(diff "$tmp/golden.json" "$tmp/again.json" | head -5)"
	fi
}

# failed NAME RUN_IDS...: a copy of golden with those runs failed-kernel, exported
failed_copy() {
	local name=$1; shift
	cp "$tmp/golden.db" "$tmp/$name.db"
	local id
	for id in "$@"; do
		# a kernel that fails before the agent: the guest never answered
		sqlite3 -batch "$tmp/$name.db" "UPDATE run SET status = 'failed-kernel', reason = 'kernel panic (planted by kcidb.t)' WHERE id = $id;
			UPDATE run_prov SET value = 'never' WHERE run_id = $id AND key = 'boot_to_agent_s'" ||
			return 1
	done
	export_db "$name" "$tmp/$name.db"
}

test_failed() {
	# run 6: mglru's third repetition; 2 blocks are left, enough for verdicts
	failed_copy failed 6 || { bad failed "could not make the copy"; return; }
	local why=() f
	((rc == 3)) || why+=("exit $rc, want 3 (incomplete, as compare); $(cat "$tmp/failed.err")")
	grep -q 'incomplete: 1 planned run failed' "$tmp/failed.err" || why+=("stderr does not say why: $(cat "$tmp/failed.err")")
	f=$(facts "$tmp/failed.json")
	grep -qx 'test ERROR lrubench.golden.run.mglru failed-kernel -' <<< "$f" || why+=("no ERROR test for run 6: $(grep '^test' <<< "$f" | tr '\n' ';')")
	grep -q '"id": "lrubench:golden-20261207-041308:run:6".*"log_excerpt": "kernel panic (planted by kcidb.t)"' "$tmp/failed.json" ||
		why+=("the ERROR test does not carry the run's id and reason")
	(($(grep -c '^test [A-Z]* lrubench.golden.*\.mglru [a-z]* 2$' <<< "$f") == 5)) || why+=("the 5 key tests do not have n = 2")
	grep -qx 'counts 1 1 6' <<< "$f" || why+=("$(grep counts <<< "$f"), want 1 1 6")
	grep -qx 'builds PASS' <<< "$f" || why+=("the build: $(grep builds <<< "$f"), want PASS (5 runs booted)")
	if ((${#why[@]} == 0)); then
		ok "kcidb: a run failed: an ERROR test with its reason, key tests on 2 blocks, exit 3"
	else
		bad failed "$(printf '%s\n' "${why[@]}")"
	fi
	[[ -s $tmp/failed.json ]] && validate failed "$tmp/failed.json"

	# runs 4 and 6: mglru has 1 block, no verdict: MISS, and two ERROR
	failed_copy short 4 6 || { bad short "could not make the copy"; return; }
	f=$(facts "$tmp/short.json")
	why=()
	((rc == 3)) || why+=("exit $rc, want 3")
	(($(grep -c '^test MISS ' <<< "$f") == 5)) || why+=("want 5 MISS key tests: $(grep '^test' <<< "$f" | tr '\n' ';')")
	(($(grep -c '^test ERROR ' <<< "$f") == 2)) || why+=("want 2 ERROR tests")
	grep -q '"number"' "$tmp/short.json" && why+=("a MISS test carries a number")
	if ((${#why[@]} == 0)); then
		ok "kcidb: mglru short of blocks: its 5 key tests MISS, 2 ERROR, exit 3"
	else
		bad short "$(printf '%s\n' "${why[@]}")"
	fi
	[[ -s $tmp/short.json ]] && validate short "$tmp/short.json"

	# every run: nothing measured is not a clean export
	failed_copy none 1 2 3 4 5 6 || { bad none "could not make the copy"; return; }
	f=$(facts "$tmp/none.json")
	why=()
	((rc == 3)) || why+=("exit $rc, want 3")
	grep -q 'no run was measured' "$tmp/none.err" || why+=("stderr: $(cat "$tmp/none.err")")
	(($(grep -c '^test ERROR ' <<< "$f") == 6)) || why+=("want 6 ERROR tests: $(grep '^test' <<< "$f" | tr '\n' ';')")
	grep -qx 'builds FAIL' <<< "$f" || why+=("the build: $(grep builds <<< "$f"), want FAIL (no run booted, kernel failures)")
	if ((${#why[@]} == 0)); then
		ok "kcidb: nothing measured: exit 3, 6 ERROR tests, the build FAIL"
	else
		bad none "$(printf '%s\n' "${why[@]}")"
	fi
	[[ -s $tmp/none.json ]] && validate none "$tmp/none.json"
}

# refused NAME DB WORDS: exit 2, stderr naming DB and saying WORDS, no file written
refused() {
	export_db "$1" "$2"
	if ((rc == 2)) && grep -qF "$2" "$tmp/$1.err" && grep -q "$3" "$tmp/$1.err" && [[ ! -e $tmp/$1.json ]]; then
		ok "kcidb: $1: exit 2, '$(head -1 "$tmp/$1.err")'"
	else
		bad "$1" "exit $rc, stderr '$(cat "$tmp/$1.err")', $(ls "$tmp/$1.json" 2>&1)"
	fi
}

test_bad_input() {
	echo "not a database" > "$tmp/text.db"
	refused text "$tmp/text.db" 'not a campaign\|not a database'
	sqlite3 -batch "$tmp/other.db" 'CREATE TABLE t(x); INSERT INTO t VALUES(1)'
	refused other "$tmp/other.db" 'campaign'
	cp "$tmp/golden.db" "$tmp/empty.db"
	sqlite3 -batch "$tmp/empty.db" 'PRAGMA foreign_keys = ON; DELETE FROM run'
	refused empty "$tmp/empty.db" 'empty campaign: it has no run'
	refused missing "$tmp/nothere.db" 'No such file'
}

if ! command -v sqlite3 > /dev/null; then
	skip sqlite3 "kcidb: sqlite3 is not installed (make deps)"
elif [[ -z $py ]]; then
	skip jsonschema "kcidb: python3-jsonschema is not installed (make deps)"
elif ! sqlite3 -batch "$tmp/golden.db" < "$golden_sql"; then
	bad kcidb "$golden_sql did not load"
else
	test_golden
	test_failed
	test_bad_input
fi
done_testing
