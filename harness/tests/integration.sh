#!/bin/bash
# Integration tests: real guests of Debian's 6.1 kernel under QEMU (TCG here).
#   integration.sh BUILD_DIR
# Each test prints "ok" or "FAIL: why"; the last line is "N passed, N failed".
set -uo pipefail
build=${1:-build}
lrb=$build/lrubench
tmp=$(mktemp -d /tmp/lrubench-it.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export LRUBENCH_RESULTS=$tmp/results LRUBENCH_REPORTS=$tmp/reports
passed=0 failed=0

ok() { echo "ok   $1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1: $2"; failed=$((failed + 1)); }
q() { sqlite3 -batch -noheader "$1" "$2"; }
# lrubench run/compare/report exit statuses: 0 no key metric regressed, 1 one did,
# 2 error, 3 incomplete (runs failed, a variant with fewer than 2 blocks)
verdict_rc() { (($1 == 0 || $1 == 1)); }

# --- the default A/B, smaller: 2 x classic, 2 x MGLRU, interleaved ---------
test_slice() {
	local db=$tmp/slice.db rc=0
	$lrb run harness/tests/plans/slice.ini --db "$db" >"$tmp/slice.out" 2>"$tmp/slice.err" || rc=$?
	verdict_rc $rc || { bad slice "lrubench run failed (exit $rc): $(tail -5 "$tmp/slice.err")"; return; }
	local n; n=$(q "$db" "SELECT COUNT(*) FROM run WHERE status='completed'")
	[[ $n == 4 ]] || { bad slice "expected 4 completed runs, got $n: $(q "$db" "SELECT id,status,reason FROM run")"; return; }
	local order; order=$(q "$db" "SELECT group_concat(v.lru_mode, ' ') FROM (SELECT * FROM run ORDER BY ord) r JOIN variant v ON v.id=r.variant_id")
	[[ $order == "classic mglru classic mglru" ]] || { bad slice "runs not interleaved: $order"; return; }
	# >= 10 samples of vmstat, memory.stat and PSI in every run
	local few; few=$(q "$db" "SELECT r.id FROM run r WHERE
		(SELECT COUNT(DISTINCT seq) FROM v_value WHERE run_id=r.id AND metric LIKE 'vmstat:%') < 10 OR
		(SELECT COUNT(DISTINCT seq) FROM v_value WHERE run_id=r.id AND metric LIKE 'memory.stat:%') < 10 OR
		(SELECT COUNT(DISTINCT seq) FROM v_value WHERE run_id=r.id AND metric LIKE 'psi.memory:%') < 10")
	[[ -z $few ]] || { bad slice "runs with < 10 samples: $few"; return; }
	# generations only under MGLRU
	local gens; gens=$(q "$db" "SELECT v.lru_mode, COUNT(g.run_id) FROM run r JOIN variant v ON v.id=r.variant_id LEFT JOIN lru_gen g ON g.run_id=r.id GROUP BY r.id ORDER BY r.ord" | tr '\n' ' ')
	[[ $gens =~ ^classic\|0\ mglru\|[1-9][0-9]*\ classic\|0\ mglru\|[1-9][0-9]*\ $ ]] || { bad slice "lru_gen rows per run wrong: $gens"; return; }
	# provenance
	for k in kernel.sha256 lru.mode accel qemu.argv kernel.config_sha256 cmdline; do
		local c; c=$(q "$db" "SELECT COUNT(*) FROM run_prov WHERE key='$k' AND value<>''")
		[[ $c == 4 ]] || { bad slice "provenance $k on $c of 4 runs"; return; }
	done
	local sha; sha=$(sha256sum "$(q "$db" "SELECT value FROM run_prov WHERE key='kernel.image' LIMIT 1")" | cut -d' ' -f1)
	[[ $(q "$db" "SELECT value FROM run_prov WHERE key='kernel.sha256' LIMIT 1") == "$sha" ]] || { bad slice "kernel.sha256 is not the file's"; return; }
	# the memcg reclaimed, and the workload reported
	local steal; steal=$(q "$db" "SELECT MIN(d) FROM (SELECT run_id, MAX(v)-MIN(v) d FROM v_value WHERE metric='memory.stat:pgsteal' AND scope='wl' GROUP BY run_id)")
	[[ ${steal:-0} -gt 0 ]] || { bad slice "memcg wl reclaimed nothing (pgsteal delta $steal)"; return; }
	local res; res=$(q "$db" "SELECT COUNT(*) FROM result WHERE workload='anon' AND key='throughput' AND value > 0")
	[[ $res == 4 ]] || { bad slice "throughput reported by $res of 4 runs"; return; }
	grep -qE '^anon +throughput +2 ' "$tmp/slice.out" || { bad slice "no summary of the key metrics on stdout"; return; }
	# reclaim stall histograms (traced by default): memcg reclaim periods of wl in every run,
	# attributed by the cgroup id Debian's kernel (CGROUP_PERF) puts in each record, none lost
	local stalls; stalls=$(q "$db" "SELECT COUNT(*) FROM run r WHERE
		(SELECT MAX(v) FROM v_value WHERE run_id=r.id AND metric='reclaim:count.memcg' AND scope='wl') > 0 AND
		(SELECT MAX(v) FROM v_value WHERE run_id=r.id AND metric='reclaim:lost') = 0 AND
		(SELECT value FROM run_prov WHERE run_id=r.id AND key='guest.conf.trace/attribution') = 'cgroup-id'")
	[[ $stalls == 4 ]] || { bad slice "runs with memcg stall histograms of wl, no record lost, by cgroup id: $stalls of 4"; return; }
	ok "slice: 4 runs interleaved, samples, generations only under MGLRU, provenance, reclaim, stall histograms"
	test_final_vmstat "$db"
	test_compare "$db"
}

# --- stored final vmstat == the guest kernel's own counters at the end -----
test_final_vmstat() {
	local db=$1 mism=0 checked=0
	for run in $(q "$db" "SELECT id FROM run WHERE status='completed'"); do
		q "$db" "SELECT text FROM log WHERE run_id=$run AND name='console'" |
			tr -d '\r' | sed -n '/LRUBENCH-VMSTAT-BEGIN/,/LRUBENCH-VMSTAT-END/p' |
			grep -E '^(pgsteal|pgscan|pswp|pgmajfault|workingset)[a-z_]* ' > "$tmp/dump.$run"
		[[ -s $tmp/dump.$run ]] || { bad final-vmstat "run $run: no vmstat dump on the console"; return; }
		while read -r key val; do
			local stored; stored=$(q "$db" "SELECT v FROM v_value WHERE run_id=$run AND metric='vmstat:$key' ORDER BY seq DESC LIMIT 1")
			checked=$((checked + 1))
			[[ $stored == "$val" ]] || { mism=$((mism + 1)); echo "  run $run $key: stored $stored, kernel $val"; }
		done < "$tmp/dump.$run"
	done
	((mism == 0 && checked > 20)) && ok "final vmstat: $checked reclaim counters equal the kernel's own" ||
		bad final-vmstat "$mism of $checked counters differ"
}

test_compare() {
	local db=$1 rc=0
	# exit 1 is a regression verdict, which classic against MGLRU may well give
	$lrb compare --all "$db" > "$tmp/cmp.out" 2>&1 || rc=$?
	((rc <= 1)) || { bad compare "lrubench compare failed (exit $rc)"; return; }
	grep -qE '^anon:throughput +ops/s +higher .* n=2 .* n=2 +[+-][0-9.]+%' "$tmp/cmp.out" ||
		{ bad compare "no throughput row with n=2 and a change: $(grep throughput "$tmp/cmp.out")"; return; }
	grep -qE '^vmstat:workingset_refault_anon .*\(not comparable\)' "$tmp/cmp.out" ||
		{ bad compare "workingset_refault_anon not marked not comparable"; return; }
	rc=0
	$lrb report "$db" > /dev/null 2>&1 || rc=$?
	((rc <= 1)) && ls "$LRUBENCH_REPORTS"/*/report.md > /dev/null 2>&1 ||
		{ bad compare "lrubench report wrote no report.md (exit $rc)"; return; }
	ok "compare: n shown, change computed, cross-LRU marks; report written"
}

# --- a kernel without LRU_GEN is refused before boot ----------------------
test_refuse() {
	local img; img=$($lrb kernel fetch 2>/dev/null) || { bad refuse "kernel fetch failed"; return; }
	mkdir -p "$tmp/nolrugen"
	cp "$img" "$tmp/nolrugen/bzImage"
	sed 's/^CONFIG_LRU_GEN=y/# CONFIG_LRU_GEN is not set/' "$(dirname "$img")/config-$(basename "$img" | sed 's/^vmlinuz-//')" > "$tmp/nolrugen/config"
	local rc=0
	$lrb run harness/tests/plans/one.ini --kernel "$tmp/nolrugen/bzImage" --db "$tmp/refuse.db" > /dev/null 2> "$tmp/refuse.err" || rc=$?
	if [[ $rc == 2 ]] && grep -q 'CONFIG_LRU_GEN' "$tmp/refuse.err" && [[ ! -e $tmp/refuse.db ]]; then
		ok "refuse: kernel without LRU_GEN refused before boot, option named"
	else
		bad refuse "rc=$rc, db exists: $([[ -e $tmp/refuse.db ]] && echo yes || echo no), stderr: $(tail -2 "$tmp/refuse.err")"
	fi
}

# --- a guest that stops answering is killed, partial samples kept ---------
test_hang() {
	local db=$tmp/hang.db
	$lrb run harness/tests/plans/one.ini --db "$db" --fault hang@4000 --silence 15s > /dev/null 2> "$tmp/hang.err"
	local st; st=$(q "$db" "SELECT status || '|' || reason FROM run")
	local ns; ns=$(q "$db" "SELECT COUNT(*) FROM sample")
	if [[ $st == failed-infra\|channel\ silent* ]] && ((ns >= 3)); then
		ok "hang: killed at the silence timeout ($st), $ns samples kept"
	else
		bad hang "status '$st', $ns samples"
	fi
}

# --- garbage on the channel: rejected and counted, the run completes -------
test_garbage() {
	local db=$tmp/garbage.db
	$lrb run harness/tests/plans/one.ini --db "$db" --fault garbage@2000 > /dev/null 2> "$tmp/garbage.err"
	local st; st=$(q "$db" "SELECT status FROM run")
	local rej; rej=$(q "$db" "SELECT value FROM run_prov WHERE key='stream.rejected'")
	if [[ $st == completed ]] && ((${rej:-0} > 0)); then
		ok "garbage: $rej hostile lines rejected, run completed"
	else
		bad garbage "status '$st', rejected '$rej': $(tail -3 "$tmp/garbage.err")"
	fi
}

# --- injected faults: classified, samples kept, the next run completes -----
# Two runs of one variant; the fault hits only the first.
fault_campaign() { # NAME KIND[@MS] [extra args]
	local name=$1 fault=$2; shift 2
	$lrb run harness/tests/plans/one.ini --reps 2 --db "$tmp/$name.db" --fault "$fault" \
		--fault-run 1 "$@" > /dev/null 2> "$tmp/$name.err"
}

check_fault() { # NAME STATUS REASON_GLOB MIN_SAMPLES
	local name=$1 want=$2 glob=$3 min=$4 db=$tmp/$1.db
	local first; first=$(q "$db" "SELECT status || '|' || reason FROM run ORDER BY ord LIMIT 1")
	local ns; ns=$(q "$db" "SELECT COUNT(*) FROM sample WHERE run_id = (SELECT id FROM run ORDER BY ord LIMIT 1)")
	local last; last=$(q "$db" "SELECT status FROM run ORDER BY ord DESC LIMIT 1")
	# shellcheck disable=SC2053
	if [[ ${first%%|*} == "$want" && ${first#*|} == $glob && $ns -ge $min && $last == completed ]]; then
		ok "$name: $first; $ns samples kept; the next run completed"
	else
		bad "$name" "first run '$first' with $ns samples, last run '$last': $(tail -3 "$tmp/$name.err")"
	fi
}

test_panic() {
	fault_campaign panic panic@4000
	check_fault panic failed-kernel "*Kernel panic - not syncing: sysrq triggered crash*" 3
	local ev; ev=$(q "$tmp/panic.db" "SELECT COUNT(*) FROM event WHERE kind='kernel' AND text LIKE '%Kernel panic%'")
	((ev >= 1)) || bad panic "the panic is not an event on the run"
	$lrb report "$tmp/panic.db" > /dev/null 2>&1
	grep -q 'KERNEL WARNED x[0-9]*: .*Kernel panic' "$LRUBENCH_REPORTS"/one-*/report.md ||
		bad panic "report.md does not mark the run whose kernel complained"
}

test_crash() {
	fault_campaign crash crash@4000
	check_fault crash failed-kernel "*Attempted to kill init*" 3
}

test_oom() {
	fault_campaign oom oom
	check_fault oom failed-workload "oom: anon memcg wl oom_kill *" 1
}

# QEMU killed from outside: an infrastructure failure, retried, never averaged.
test_qemu_killed() {
	local db=$tmp/qkill.db
	local LRUBENCH_RESULTS=$tmp/results-qkill; export LRUBENCH_RESULTS
	$lrb run harness/tests/plans/one.ini --reps 1 --db "$db" > /dev/null 2> "$tmp/qkill.err" &
	local pid=$! n=0
	until grep -q '^v vmstat' "$LRUBENCH_RESULTS"/one-*/run-1/stream.raw 2> /dev/null || ((n++ > 600)); do sleep 0.2; done
	sleep 3
	pkill -KILL -f "$LRUBENCH_RESULTS/one-.*/run-1/" || true
	wait $pid
	local first; first=$(q "$db" "SELECT status || '|' || reason FROM run WHERE id = 1")
	local retry; retry=$(q "$db" "SELECT r.status FROM run r JOIN run_prov p ON p.run_id = r.id AND p.key = 'retry_of' AND p.value = '1'")
	local ns; ns=$(q "$db" "SELECT COUNT(*) FROM sample WHERE run_id = 1")
	local n_used; n_used=$($lrb compare --all "$db" | grep -E '^anon:throughput' | grep -c 'n=1')
	if [[ $first == "failed-infra|QEMU died (signal 9)" && $retry == completed && $ns -ge 1 && $n_used == 1 ]]; then
		ok "qemu-killed: $first, $ns samples kept, retried and completed, averaged over n=1"
	else
		bad qemu-killed "first '$first' ($ns samples), retry '$retry', compare n=1 rows: $n_used"
	fi
}

# lrubench itself killed mid-campaign: the store survives, QEMU dies with it, resume finishes.
test_lrubench_killed() {
	local db=$tmp/kill.db
	local LRUBENCH_RESULTS=$tmp/results-kill; export LRUBENCH_RESULTS
	$lrb run harness/tests/plans/one.ini --reps 2 --db "$db" > /dev/null 2> "$tmp/kill.err" &
	local pid=$! n=0
	until grep -q 'run 2: variant' "$tmp/kill.err" || ((n++ > 1500)); do sleep 0.2; done
	sleep 4
	kill -KILL $pid; wait $pid 2> /dev/null
	sleep 1
	local ic; ic=$(q "$db" "PRAGMA integrity_check")
	local orphans; orphans=$(pgrep -f "$LRUBENCH_RESULTS/one-" | wc -l)
	local first_start; first_start=$(q "$db" "SELECT started_ns FROM run WHERE id = 1")
	if ! $lrb run --resume "$db" > /dev/null 2> "$tmp/resume.err"; then
		bad lrubench-killed "resume failed: $(tail -3 "$tmp/resume.err")"; return
	fi
	local st; st=$(q "$db" "SELECT group_concat(status, ' ') FROM (SELECT status FROM run ORDER BY ord)")
	local again; again=$(q "$db" "SELECT started_ns FROM run WHERE id = 1")
	if [[ $ic == ok && $orphans == 0 && $st == "completed failed-infra completed" && $again == "$first_start" ]]; then
		ok "lrubench-killed: integrity_check ok, no QEMU left, resumed: $st, run 1 not run again"
	else
		bad lrubench-killed "integrity '$ic', orphan QEMUs $orphans, runs '$st', run 1 start $first_start -> $again"
	fi
}

# SIGINT: the guest is stopped, what it sent is kept, exit 130, resume finishes.
test_lrubench_interrupted() {
	local db=$tmp/int.db
	local LRUBENCH_RESULTS=$tmp/results-int; export LRUBENCH_RESULTS
	$lrb run harness/tests/plans/one.ini --reps 1 --db "$db" > /dev/null 2> "$tmp/int.err" &
	local pid=$! n=0 rc=0
	until grep -q '^v vmstat' "$LRUBENCH_RESULTS"/one-*/run-1/stream.raw 2> /dev/null || ((n++ > 600)); do sleep 0.2; done
	sleep 2
	kill -INT $pid; wait $pid || rc=$?
	local first; first=$(q "$db" "SELECT status || '|' || reason FROM run WHERE id = 1")
	local ns; ns=$(q "$db" "SELECT COUNT(*) FROM sample WHERE run_id = 1")
	local orphans; orphans=$(pgrep -f "$LRUBENCH_RESULTS/one-" | wc -l)
	$lrb run --resume "$db" > /dev/null 2> "$tmp/int2.err"
	local st; st=$(q "$db" "SELECT group_concat(status, ' ') FROM (SELECT status FROM run ORDER BY ord)")
	if [[ $rc == 130 && $first == "failed-infra|interrupted: lrubench was asked to stop" && $ns -ge 1 && $orphans == 0 && $st == "failed-infra completed" ]]; then
		ok "lrubench-interrupted: exit 130, $ns samples kept, no QEMU left, resumed: $st"
	else
		bad lrubench-interrupted "rc $rc, first '$first' ($ns samples), orphans $orphans, runs '$st'"
	fi
}

# --- names and paths with spaces, quotes, ';' and ',' reach QEMU and the guest as plain values
test_odd_paths() {
	local img; img=$($lrb kernel fetch 2>/dev/null) || { bad odd-paths "kernel fetch failed"; return; }
	local rel; rel=$(basename "$img" | sed 's/^vmlinuz-//')
	local odd="$tmp/it's a dir; with,comma \"q\""
	mkdir -p "$odd/kernel" "$odd/plans"
	cp "$img" "$odd/kernel/bzImage"
	cp "$(dirname "$img")/config-$rel" "$odd/kernel/config"
	ln -s "$(cd "$(dirname "$img")/.." && pwd)/lib" "$odd/kernel/lib"
	sed 's/^\[guest\]/[guest]\ncmdline = lrubench_test=it'"'"'s;fine,ok/' harness/tests/plans/one.ini > "$odd/plans/odd plan;1.ini"
	local LRUBENCH_RESULTS="$odd/results"; export LRUBENCH_RESULTS
	if ! $lrb run "$odd/plans/odd plan;1.ini" --kernel "$odd/kernel/bzImage" --db "$odd/cam paign;'.db" > /dev/null 2> "$tmp/odd.err"; then
		bad odd-paths "run failed: $(tail -3 "$tmp/odd.err")"; return
	fi
	local db="$odd/cam paign;'.db"
	local st; st=$(q "$db" "SELECT status FROM run")
	local argv; argv=$(q "$db" "SELECT value FROM run_prov WHERE key='qemu.argv'")
	local cmd; cmd=$(q "$db" "SELECT value FROM run_prov WHERE key='guest.conf.kernel/cmdline'")
	if [[ $st == completed && $argv == *"-kernel $odd/kernel/bzImage "* && $cmd == *"lrubench_test=it's;fine,ok"* ]]; then
		ok "odd-paths: spaces, quotes, ';' and ',' in paths and values reached QEMU and the guest verbatim"
	else
		bad odd-paths "status '$st'; guest cmdline '$cmd'; argv '${argv:0:200}'"
	fi
}

# --- the disk fills while the store writes: a clear stop, then a resume finishes
test_disk_full() {
	local mnt=$tmp/small
	mkdir -p "$mnt"
	if ! mount -t tmpfs -o size=400k tmpfs "$mnt" 2> /dev/null; then
		echo "skip disk-full: cannot mount a small tmpfs (needs root)"; return
	fi
	local db=$mnt/full.db rc=0
	$lrb run harness/tests/plans/one.ini --reps 1 --db "$db" > /dev/null 2> "$tmp/full.err" || rc=$?
	local msg; msg=$(grep -c 'lrubench run --resume' "$tmp/full.err")
	mount -o remount,size=64m "$mnt"
	local ic; ic=$(q "$db" "PRAGMA integrity_check")
	local rc2=0
	$lrb run --resume "$db" > /dev/null 2> "$tmp/full2.err" || rc2=$?
	local st; st=$(q "$db" "SELECT group_concat(status, ' ') FROM (SELECT status FROM run ORDER BY ord)")
	umount "$mnt"
	if [[ $rc == 2 && $msg -ge 1 && $ic == ok && $rc2 == 0 && $st == "failed-infra completed" ]]; then
		ok "disk-full: stopped with exit 2 and a resume hint, integrity ok, resumed: $st"
	else
		bad disk-full "rc $rc, hint $msg, integrity '$ic', resume rc $rc2, runs '$st': $(grep -i error "$tmp/full.err" | head -2)"
	fi
}

# --- reports: a report's files are there, parse, and hold what they should --
# check_report DIR NAME: index.html well-formed XML, plots present and non-empty
check_report() {
	local dir=$1 name=$2 f
	[[ -s $dir/report.md && -s $dir/index.html ]] || { bad "$name" "no report.md or index.html in $dir"; return 1; }
	xmllint --noout "$dir/index.html" 2> "$tmp/$name.xml.err" ||
		{ bad "$name" "index.html is not well-formed: $(head -3 "$tmp/$name.xml.err")"; return 1; }
	# the verdict table first, then the full comparison
	local v c; v=$(grep -n '^## Verdicts' "$dir/report.md" | cut -d: -f1); c=$(grep -n '^## Comparison' "$dir/report.md" | cut -d: -f1)
	[[ -n $v && -n $c && $v -lt $c ]] || { bad "$name" "report.md: verdicts not before the comparison"; return 1; }
	for f in heatmap bars-0-anon ts-majfault ts-swap ts-psi ts-pgsteal balance; do
		for e in png svg pdf; do
			[[ -s $dir/plots/$f.$e ]] || { bad "$name" "plot $f.$e missing or empty"; return 1; }
		done
	done
	ls "$dir"/plots/gen-*-_wl.png > /dev/null 2>&1 || { bad "$name" "no MGLRU generations plot of memcg wl"; return 1; }
	if command -v pdfinfo > /dev/null; then
		[[ $(pdfinfo "$dir/deck.pdf" 2> /dev/null | awk '/^Pages:/ { print $2 }') == 11 ]] ||
			{ bad "$name" "no 11-page deck.pdf in $dir"; return 1; }
	fi
	# every plot is inlined in the page
	local svgs; svgs=$(grep -c '<svg' "$dir/index.html")
	((svgs >= $(ls "$dir"/plots/*.svg | wc -l))) || { bad "$name" "index.html inlines $svgs of the SVG plots"; return 1; }
	return 0
}

# --- the deck of a real campaign, read as a person would --------------------
# slice's database (classic and MGLRU, 2 blocks; run here when slice did not
# run first) and, when the noise test left it, the A/A one beside it.
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ print $3 * 256 + $4 "x" $7 * 256 + $8 }'; }
pgm_ink() { # the share of inked pixels (< 200 of 255) of a P5 PGM, in per mille
	local w h; read -r w h < <(sed -n '2p' "$1")
	tail -c $((w * h)) "$1" | od -An -v -tu1 | tr -s ' ' '\n' | awk -v n=$((w * h)) '$1 != "" && $1 < 200 { d++ } END { print int(1000 * d / n) }'
}
test_deck() {
	local db=$tmp/slice.db dir=$tmp/deck rc=0 f
	command -v pdftoppm > /dev/null && command -v pdfunite > /dev/null ||
		{ echo "SKIP deck: poppler-utils is not installed (make deps)"; return; }
	if [[ ! -s $db ]]; then
		$lrb run harness/tests/plans/slice.ini --db "$db" > /dev/null 2> "$tmp/deck-run.err" || rc=$?
		verdict_rc $rc || { bad deck "lrubench run failed (exit $rc): $(tail -3 "$tmp/deck-run.err")"; return; }
	fi
	local dbs=("$db"); [[ -s $tmp/aa.db ]] && dbs+=("$tmp/aa.db")
	rc=0; $lrb claims "${dbs[@]}" --deck "$dir" > "$tmp/deck.out" 2> "$tmp/deck.err" || rc=$?
	[[ $rc == 0 ]] || { bad deck "lrubench claims --deck exit $rc: $(tail -2 "$tmp/deck.err")"; return; }
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
	[[ $t1 != *"NO CLAIM MEASURED"* ]] || { bad deck "title says nothing was measured"; return; }
	for c in C1 C2 C3 C4 C5 C6 C7 C8; do
		[[ $t2 == *"$c"* ]] || { bad deck "scoreboard page without $c"; return; }
	done
	[[ $t3 == *"deciding: "*"blocks"* ]] || { bad deck "C1 page without its deciding numbers: $t3"; return; }
	# report writes one too (test_compare reported slice's database)
	local camp; camp=$(q "$db" "SELECT value FROM meta WHERE key='campaign'")
	[[ -s $LRUBENCH_REPORTS/$camp/deck.pdf ]] || $lrb report "$db" > /dev/null 2>&1
	[[ $(pdfinfo "$LRUBENCH_REPORTS/$camp/deck.pdf" 2> /dev/null | awk '/^Pages:/ { print $2 }') == 11 ]] ||
		{ bad deck "lrubench report wrote no 11-page deck.pdf"; return; }
	ok "deck: ${#dbs[@]} database(s), 11 pages of 960x540 pt, 16:9 PNGs, ink on each (least $least per mille), kernel $rel named, C1's page with its numbers"
}

# --- failure is never green: a kernel that panics in every run --------------
# Both variants' runs fail (failed-kernel, not retried): run, compare and
# report exit 3, the summary says INCOMPLETE, and JUnit carries each lost run
# as an <error> with its reason and the console's tail.
test_failed_runs() {
	local db=$tmp/failed.db rc=0
	$lrb run harness/tests/plans/slice.ini --reps 1 --fault panic@3000 --db "$db" \
		> "$tmp/failed.out" 2> "$tmp/failed.err" || rc=$?
	[[ $rc == 3 ]] || { bad failed-runs "lrubench run exit $rc, want 3: $(tail -3 "$tmp/failed.err")"; return; }
	local st; st=$(q "$db" "SELECT group_concat(status, ' ') FROM (SELECT status FROM run ORDER BY ord)")
	[[ $st == "failed-kernel failed-kernel" ]] || { bad failed-runs "runs: $st"; return; }
	grep -q '^INCOMPLETE: no run was measured' "$tmp/failed.out" ||
		{ bad failed-runs "run's summary does not say INCOMPLETE: $(head -3 "$tmp/failed.out")"; return; }
	rc=0; $lrb compare "$db" > "$tmp/failed.cmp" 2> "$tmp/failed.cmp.err" || rc=$?
	[[ $rc == 3 ]] && grep -q 'incomplete: no run was measured (exit 3)' "$tmp/failed.cmp.err" ||
		{ bad failed-runs "lrubench compare exit $rc, want 3: $(cat "$tmp/failed.cmp.err")"; return; }
	rc=0; $lrb report "$db" --junit "$tmp/failed.xml" > /dev/null 2> "$tmp/failed.rep.err" || rc=$?
	[[ $rc == 3 ]] || { bad failed-runs "lrubench report exit $rc, want 3"; return; }
	xmllint --noout "$tmp/failed.xml" || { bad failed-runs "JUnit XML not well-formed"; return; }
	local errs; errs=$(grep -cE '<error type="failed-kernel" message="failed-kernel: [^"]*Kernel panic' "$tmp/failed.xml")
	[[ $errs == 2 ]] || { bad failed-runs "JUnit: $errs failed-kernel errors, want 2"; return; }
	grep -q '<error type="nothing-measured"' "$tmp/failed.xml" && grep -q '<testsuites [^>]* errors="4"' "$tmp/failed.xml" ||
		{ bad failed-runs "JUnit totals: $(grep -o '<testsuites [^>]*>' "$tmp/failed.xml")"; return; }
	grep -q 'console (last lines):' "$tmp/failed.xml" && grep -q 'sysrq triggered crash' "$tmp/failed.xml" ||
		{ bad failed-runs "JUnit errors without the console's tail"; return; }
	ok "failed-runs: a kernel panicking in every run: run, compare, report exit 3, INCOMPLETE, JUnit $errs errors with reason and console tail"
}

# --- A/A: a variant against itself reports no regression -------------------
test_noise() {
	local db=$tmp/aa.db rc=0
	$lrb noise harness/tests/plans/halfmem.ini --db "$db" > "$tmp/aa.out" 2> "$tmp/aa.err" || rc=$?
	[[ $rc == 0 ]] || { bad noise "lrubench noise exit $rc: $(tail -3 "$tmp/aa.err")"; return; }
	local n; n=$(q "$db" "SELECT COUNT(*) FROM run WHERE status='completed'")
	[[ $n == 6 ]] || { bad noise "expected 6 completed runs, got $n"; return; }
	local mde; mde=$(q "$db" "SELECT COUNT(*) FROM noise WHERE mde > 0")
	((mde > 5)) || { bad noise "noise figures with an MDE: $mde"; return; }
	grep -q '^anon:throughput .*%' "$tmp/aa.out" || { bad noise "no noise table on stdout"; return; }
	rc=0
	$lrb report "$db" --junit "$tmp/aa-junit.xml" > /dev/null 2> "$tmp/aa-report.err" || rc=$?
	[[ $rc == 0 ]] || { bad noise "A/A reported a regression (exit $rc): $(grep -o 'name="[^"]*">\s*<failure[^>]*' "$tmp/aa-junit.xml" | head -3)"; return; }
	xmllint --noout "$tmp/aa-junit.xml" || { bad noise "JUnit XML not well-formed"; return; }
	grep -q '<testsuites [^>]* failures="0"' "$tmp/aa-junit.xml" || { bad noise "JUnit has failures"; return; }
	check_report "$LRUBENCH_REPORTS/$(q "$db" "SELECT value FROM meta WHERE key='campaign'")" noise || return
	ok "noise: A/A of 3+3 runs, no regression (exit 0), MDE of $mde metrics stored, report well-formed"
}

# --- half the memcg for the candidate: a regression, exit 1, a failing case -
test_verdict() {
	local db=$tmp/half.db rc=0
	$lrb run harness/tests/plans/halfmem.ini --db "$db" > "$tmp/half.out" 2> "$tmp/half.err" || rc=$?
	[[ $rc == 1 ]] || { bad verdict "lrubench run exit $rc, want 1 (regression): $(tail -3 "$tmp/half.err")"; return; }
	local lim; lim=$(q "$db" "SELECT group_concat(v.name || '=' || p.value, ' ') FROM run r JOIN variant v ON v.id = r.variant_id JOIN run_prov p ON p.run_id = r.id AND p.key = 'guest.conf.memcg/wl/memory.max' WHERE r.rep = 0")
	[[ $lim == "full=67108864 half=33554432" ]] || { bad verdict "memcg limits read back in the guests: $lim"; return; }
	local noise=()
	[[ -s $tmp/aa.db ]] && noise=(--noise "$tmp/aa.db")
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

# --- the catalogue: every workload reports every result of its row, and its memcg reclaimed
# $1 db, $2 test name, $3 expected runs. Workloads are named after their types in the plan.
check_catalogue_runs() {
	local db=$1 name=$2 want=$3
	local n; n=$(q "$db" "SELECT COUNT(*) FROM run WHERE status='completed'")
	[[ $n == "$want" ]] || { bad "$name" "expected $want completed runs, got $n: $(q "$db" "SELECT id,status,reason FROM run")"; return 1; }
	local missing="" checked=0
	while read -r type key _unit _better only; do
		for run in $(q "$db" "SELECT r.id FROM run r WHERE EXISTS (SELECT 1 FROM result WHERE run_id=r.id AND workload='$type')"); do
			local lru; lru=$(q "$db" "SELECT v.lru_mode FROM run r JOIN variant v ON v.id=r.variant_id WHERE r.id=$run")
			local has; has=$(q "$db" "SELECT COUNT(*) FROM result WHERE run_id=$run AND workload='$type' AND key='$key'")
			checked=$((checked + 1))
			if [[ $only == - || $only == "$lru" ]]; then
				[[ $has == 1 ]] || missing+=" $type:$key(run $run)"
			else
				[[ $has == 0 ]] || missing+=" $type:$key(run $run, not $only)"
			fi
		done
	done < <($lrb list --results)
	[[ -z $missing ]] || { bad "$name" "results missing or misplaced:$missing"; return 1; }
	# Every memcg of every run reclaimed (memory.stat pgsteal grew).
	local idle; idle=$(q "$db" "SELECT run_id || ':' || scope || '=' || (MAX(v) - MIN(v)) FROM v_value WHERE metric='memory.stat:pgsteal' GROUP BY run_id, scope HAVING MAX(v) - MIN(v) <= 0")
	[[ -z $idle ]] || { bad "$name" "memcgs that reclaimed nothing (run:memcg=pgsteal delta): $idle"; return 1; }
	local memcgs; memcgs=$(q "$db" "SELECT COUNT(DISTINCT scope) FROM v_value WHERE metric='memory.stat:pgsteal'")
	echo "$checked results checked, $memcgs memcgs reclaimed"
}

test_catalogue() {
	local db=$tmp/catalogue.db rc=0
	# one repetition a side: every run measured, but too few blocks for a verdict (exit 3)
	$lrb run harness/tests/plans/catalogue.ini --db "$db" >"$tmp/catalogue.out" 2>"$tmp/catalogue.err" || rc=$?
	[[ $rc == 3 ]] || { bad catalogue "lrubench run exit $rc, want 3 (one block): $(tail -5 "$tmp/catalogue.err")"; return; }
	local what; what=$(check_catalogue_runs "$db" catalogue 2) || return
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
	[[ $rows == 10 ]] || { bad catalogue "compare shows $rows throughput rows with both LRUs, not 10"; return; }
	ok "catalogue: 10 workloads x 2 LRUs: $what; disks attached and mounted; compare reads it"
}

test_lowmem() {
	local db=$tmp/lowmem.db rc=0
	$lrb run harness/tests/plans/lowmem.ini --db "$db" >"$tmp/lowmem.out" 2>"$tmp/lowmem.err" || rc=$?
	[[ $rc == 3 ]] || { bad lowmem "lrubench run exit $rc, want 3 (one block): $(tail -5 "$tmp/lowmem.err")"; return; }
	local what; what=$(check_catalogue_runs "$db" lowmem 2) || return
	# Global reclaim: kswapd worked and took CPU in both runs.
	local busy; busy=$(q "$db" "SELECT COUNT(*) FROM result WHERE workload='lowmem-cost' AND key='kswapd_cpu_ms' AND value > 0")
	[[ $busy == 2 ]] || { bad lowmem "kswapd CPU measured in $busy of 2 runs"; return; }
	ok "lowmem: lowmem-cost x 2 LRUs: $what; kswapd busy in both"
}

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

# --- kernels built from recipes: cached, patched, booted, compared --------
# The first build of each recipe compiles (minutes on 2 cores); once the cache
# (kernels/cache, or LRUBENCH_KERNELS) has them, the test takes about as long
# as its 4 guest runs.
test_kbuild() {
	local out=$tmp/kb
	mkdir -p "$out"
	local t0=$SECONDS
	local a b
	a=$($lrb kernel build minimal 2> "$out/a1.err") ||
		{ bad kbuild "building minimal failed: $(tail -15 "$out/a1.err")"; return; }
	local ta=$((SECONDS - t0)) dir_a; dir_a=$(dirname "$a")
	t0=$SECONDS
	b=$($lrb kernel build patched-example 2> "$out/b1.err") ||
		{ bad kbuild "building patched-example failed: $(tail -15 "$out/b1.err")"; return; }
	local tb=$((SECONDS - t0)) dir_b; dir_b=$(dirname "$b")
	local how_a="built in ${ta}s" how_b="built in ${tb}s"
	grep -q 'up to date' "$out/a1.err" && how_a="cached"
	grep -q 'up to date' "$out/b1.err" && how_b="cached"
	echo "  kbuild: minimal $how_a, patched-example $how_b" >&2
	[[ $a != "$b" && -s $a && -s $b ]] || { bad kbuild "same or empty images: $a $b"; return; }
	for f in bzImage config System.map build.log manifest; do
		[[ -s $dir_a/$f && -s $dir_b/$f ]] || { bad kbuild "$f missing from a build directory"; return; }
	done
	# The manifest's hashes are the artifacts' and the patch's own.
	local m=$dir_b/manifest psha
	psha=$(sha256sum kernels/patches/0001-mm-vmscan-default-swappiness-100.patch | cut -d' ' -f1)
	grep -q "^patches = patches/0001-mm-vmscan-default-swappiness-100.patch sha256:$psha\$" "$m" ||
		{ bad kbuild "manifest does not name the patch's hash: $(grep ^patches "$m")"; return; }
	grep -q '^patches = none$' "$dir_a/manifest" || { bad kbuild "baseline manifest lists patches"; return; }
	grep -q "^config_sha256 = $(sha256sum "$dir_b/config" | cut -d' ' -f1)\$" "$m" ||
		{ bad kbuild "manifest config_sha256 is not the config's"; return; }
	grep -q "^bzimage_sha256 = $(sha256sum "$b" | cut -d' ' -f1)\$" "$m" ||
		{ bad kbuild "manifest bzimage_sha256 is not the image's"; return; }
	grep -q "^build_key = ${dir_b##*/build-}\$" "$m" || { bad kbuild "build_key is not the directory's"; return; }

	# An unchanged recipe builds nothing: same image, same log, no make run.
	local log_before; log_before=$(stat -c '%Y %i' "$dir_a/build.log" "$a")
	local a2; a2=$($lrb -v kernel build minimal 2> "$out/a2.err") ||
		{ bad kbuild "second build of minimal failed: $(tail -5 "$out/a2.err")"; return; }
	[[ $a2 == "$a" ]] || { bad kbuild "second build gave another image: $a2"; return; }
	grep -q "kernel minimal: up to date: $dir_a" "$out/a2.err" ||
		{ bad kbuild "second build not reported up to date: $(cat "$out/a2.err")"; return; }
	if grep -qE 'compiling|extracting|config:' "$out/a2.err"; then
		bad kbuild "second build of an unchanged recipe did work: $(cat "$out/a2.err")"; return
	fi
	[[ $(stat -c '%Y %i' "$dir_a/build.log" "$a") == "$log_before" ]] ||
		{ bad kbuild "second build rewrote the build directory"; return; }
	$lrb kernel check minimal > "$out/check.out" 2>&1 && grep -q '^ok:' "$out/check.out" ||
		{ bad kbuild "kernel check minimal: $(cat "$out/check.out")"; return; }
	$lrb kernel list > "$out/list.out" 2>&1 &&
		grep -qE "^  patched-example +built +$b\$" "$out/list.out" ||
		{ bad kbuild "kernel list does not show patched-example built: $(cat "$out/list.out")"; return; }
	ok "kbuild: minimal ($how_a) and patched-example ($how_b) built, manifests hash what went in; an unchanged recipe builds nothing"

	# Boot both under each LRU mode, interleaved: the patch shows in the guest.
	local db=$tmp/ab.db rc=0
	# one repetition of each: measured, but too few blocks for a verdict (exit 3)
	$lrb ab --baseline minimal --patched patched-example --plan harness/tests/plans/ab.ini \
		--db "$db" > "$out/ab.out" 2> "$out/ab.err" || rc=$?
	[[ $rc == 3 ]] || { bad kbuild-ab "lrubench ab exit $rc, want 3: $(tail -8 "$out/ab.err")"; return; }
	local st; st=$(q "$db" "SELECT group_concat(v.name || ':' || r.status, ' ') FROM (SELECT * FROM run ORDER BY ord) r JOIN variant v ON v.id=r.variant_id")
	[[ $st == "minimal.classic:completed patched-example.classic:completed minimal.mglru:completed patched-example.mglru:completed" ]] ||
		{ bad kbuild-ab "runs: $st"; return; }
	local sw; sw=$(q "$db" "SELECT group_concat(v.name || '=' || p.value, ' ') FROM (SELECT * FROM run ORDER BY ord) r JOIN variant v ON v.id=r.variant_id JOIN run_prov p ON p.run_id=r.id AND p.key='guest.conf.vm/swappiness'")
	[[ $sw == "minimal.classic=60 patched-example.classic=100 minimal.mglru=60 patched-example.mglru=100" ]] ||
		{ bad kbuild-ab "vm.swappiness the guests saw: '$sw' (patched 100, baseline 60 expected)"; return; }
	for k in kernel.recipe kernel.source_id kernel.patches kernel.config_sha256 kernel.compiler kernel.build_key; do
		local c; c=$(q "$db" "SELECT COUNT(*) FROM run_prov WHERE key='$k' AND value<>''")
		[[ $c == 4 ]] || { bad kbuild-ab "provenance $k on $c of 4 runs"; return; }
	done
	local pp; pp=$(q "$db" "SELECT DISTINCT p.value FROM run_prov p JOIN run r ON r.id=p.run_id JOIN variant v ON v.id=r.variant_id WHERE p.key='kernel.patches' AND v.name LIKE 'patched-example.%'")
	[[ $pp == *"sha256:$psha" ]] || { bad kbuild-ab "patched runs' kernel.patches: $pp"; return; }
	local rel; rel=$(q "$db" "SELECT DISTINCT p.value FROM run_prov p JOIN run r ON r.id=p.run_id JOIN variant v ON v.id=r.variant_id WHERE p.key='guest.kernel_release' AND v.name LIKE 'minimal.%'")
	[[ $rel == "$(sed -n 's/^release = //p' "$dir_a/manifest")" ]] ||
		{ bad kbuild-ab "the guest ran release '$rel', not the baseline build's"; return; }
	grep -q '^== patched-example against minimal, lru mglru (baseline minimal.mglru)' "$out/ab.out" ||
		{ bad kbuild-ab "no per-mode comparison for mglru"; return; }
	ok "kbuild-ab: 4 runs interleaved; guests of the patched kernel see vm.swappiness 100, the baseline's 60; recipe, source, patches, config, compiler in provenance"
}

# An A/B killed mid-campaign resumes with run --resume: the resumed runs boot the
# kernels the recipes built (the variants are re-made from plan.remap), not the plan's.
test_kbuild_resume() {
	local db=$tmp/abk.db out=$tmp/kbuild-resume
	mkdir -p "$out"
	$lrb ab --baseline minimal --patched patched-example --plan harness/tests/plans/ab.ini \
		--db "$db" > /dev/null 2> "$out/ab.err" &
	local pid=$! n=0
	until grep -q 'run 2: variant' "$out/ab.err" || ((n++ > 3000)); do sleep 0.2; done
	sleep 3
	kill -KILL $pid; wait $pid 2> /dev/null
	local ic; ic=$(q "$db" "PRAGMA integrity_check")
	local first; first=$(q "$db" "SELECT status FROM run WHERE ord = 0")
	local rc=0
	$lrb run --resume "$db" > "$out/resume.out" 2> "$out/resume.err" || rc=$?
	[[ $rc == 3 ]] || { bad kbuild-resume "resume exit $rc, want 3 (one block): $(tail -5 "$out/resume.err")"; return; }
	local st; st=$(q "$db" "SELECT group_concat(v.name || ':' || r.status, ' ') FROM (SELECT * FROM run ORDER BY ord) r JOIN variant v ON v.id=r.variant_id")
	local sw; sw=$(q "$db" "SELECT group_concat(v.name || '=' || p.value, ' ') FROM (SELECT * FROM run WHERE status = 'completed' ORDER BY ord) r JOIN variant v ON v.id=r.variant_id JOIN run_prov p ON p.run_id=r.id AND p.key='guest.conf.vm/swappiness'")
	local want="minimal.classic=60 minimal.mglru=60 patched-example.mglru=100 patched-example.classic=100"
	if [[ $ic == ok && $first == completed &&
		$st == "minimal.classic:completed patched-example.classic:failed-infra minimal.mglru:completed patched-example.mglru:completed patched-example.classic:completed" &&
		$sw == "$want" ]]; then
		ok "kbuild-resume: ab killed in run 2, integrity ok, resumed on the built kernels: $sw"
	else
		bad kbuild-resume "integrity '$ic', first '$first', runs '$st', swappiness '$sw' (want '$want'): $(tail -3 "$out/resume.err")"
	fi
}

# --- recipes that cannot build: each stops early, naming the cause --------
test_kbuild_errors() {
	local d=$tmp/recipes k=$PWD/kernels
	mkdir -p "$d"
	printf '[patches]\npatch = nope.patch\n[config]\nfragment = %s/minimal.config\nfragment = %s/lrubench.config\n' "$k" "$k" > "$d/missing.ini"
	printf -- '--- a/mm/vmscan.c\n+++ b/mm/vmscan.c\n@@ -192,1 +192,1 @@\n-int vm_swappiness = 61;\n+int vm_swappiness = 1;\n' > "$d/bad.patch"
	printf '[patches]\npatch = bad.patch\n[config]\nfragment = %s/lrubench.config\n' "$k" > "$d/badpatch.ini"
	printf '# CONFIG_LRU_GEN is not set\n' > "$d/nolrugen.config"
	printf '[config]\nbase = minimal\nfragment = %s/minimal.config\nfragment = %s/lrubench.config\nfragment = nolrugen.config\n' "$k" "$k" > "$d/nolrugen.ini"
	printf -- '--- a/kernel/bounds.c\n+++ b/kernel/bounds.c\n@@ -8,2 +8,3 @@\n #define __GENERATING_BOUNDS_H\n+#error lrubench test: this kernel does not build\n /* Include headers that define the enum constants of interest */\n' > "$d/break.patch"
	printf '[patches]\npatch = break.patch\n[config]\nfragment = %s/minimal.config\nfragment = %s/lrubench.config\n' "$k" "$k" > "$d/broken.ini"
	local rc
	expect_err() { # recipe, pattern...
		local r=$1; shift
		rc=0; $lrb kernel build "$d/$r.ini" > /dev/null 2> "$d/$r.err" || rc=$?
		[[ $rc == 2 ]] || { bad kbuild-errors "$r: exit $rc, expected 2"; return 1; }
		for pat in "$@"; do
			grep -qE -- "$pat" "$d/$r.err" || { bad kbuild-errors "$r: no '$pat' in: $(cat "$d/$r.err")"; return 1; }
		done
	}
	expect_err missing "missing\.ini:2: patch $d/nope\.patch: No such file or directory" || return
	expect_err badpatch "badpatch\.ini:2: patch bad\.patch does not apply to tarball:" "Hunk #1 FAILED" || return
	expect_err nolrugen "lacks what lrubench needs: CONFIG_LRU_GEN \(not set" || return
	mkdir -p "$d/intree" && touch "$d/intree/Makefile" "$d/intree/Kconfig" "$d/intree/.config"
	printf '[source]\ntree = intree\n[config]\nfragment = %s/lrubench.config\n' "$k" > "$d/intree.ini"
	expect_err intree "intree\.ini:2: tree $d/intree was built in place \(it has \.config\).*make mrproper" || return
	expect_err broken "broken\.ini: the kernel build failed \('make bzImage' exit 2" \
		"#error lrubench test: this kernel does not build" "log .*/failed-[0-9a-f]{16}\.log" || return
	# Builds come before any run: a campaign whose kernel cannot build creates no database.
	rc=0; $lrb run harness/tests/plans/one.ini --kernel "$d/missing.ini" --db "$tmp/kerr.db" > /dev/null 2> "$d/run.err" || rc=$?
	[[ $rc == 2 && ! -e $tmp/kerr.db ]] || { bad kbuild-errors "run with an unbuildable kernel: rc $rc, db $(ls "$tmp/kerr.db" 2>&1)"; return; }
	grep -q 'missing\.ini:2: patch' "$d/run.err" || { bad kbuild-errors "run: $(tail -2 "$d/run.err")"; return; }
	ok "kbuild-errors: missing patch, patch that does not apply, config without LRU_GEN, a tree built in place, failing build: each named, with the log's tail; nothing runs"
}

# --- a planted reclaim delay: the stall p99 moves, and compare shows it -----
# kernels/reclaim-delay.ini is minimal.ini plus a 50 ms busy-wait in every memcg
# reclaim. Both kernels under the classic LRU, 2 blocks (4 runs of ~20 s); the
# minimal build is the kbuild test's, the delayed one a one-patch build (~2 min
# cold with ccache, cached after). minimal has no CGROUP_PERF: the tracer
# attributes by /proc/TID/cgroup there.
test_stall_delay() {
	local out=$tmp/stall t0=$SECONDS rc=0
	mkdir -p "$out"
	$lrb kernel build minimal > /dev/null 2> "$out/a.err" ||
		{ bad stall-delay "building minimal failed: $(tail -5 "$out/a.err")"; return; }
	$lrb kernel build reclaim-delay > /dev/null 2> "$out/b.err" ||
		{ bad stall-delay "building reclaim-delay failed: $(tail -5 "$out/b.err")"; return; }
	local db=$tmp/stall.db
	# exit 1 is likely: the delay regresses the workload's throughput (a key metric)
	$lrb ab --baseline minimal --patched reclaim-delay --plan harness/tests/plans/stall.ini \
		--db "$db" > "$out/ab.out" 2> "$out/ab.err" || rc=$?
	verdict_rc $rc || { bad stall-delay "lrubench ab exit $rc: $(tail -5 "$out/ab.err")"; return; }
	local traced; traced=$(q "$db" "SELECT COUNT(*) FROM run r WHERE r.status='completed' AND
		(SELECT value FROM run_prov WHERE run_id=r.id AND key='guest.conf.trace/attribution') = 'proc' AND
		(SELECT MAX(v) FROM v_value WHERE run_id=r.id AND metric='reclaim:count.memcg' AND scope='wl') > 0 AND
		(SELECT MAX(v) FROM v_value WHERE run_id=r.id AND metric='reclaim:lost') = 0")
	[[ $traced == 4 ]] || { bad stall-delay "completed runs with memcg stalls of wl by /proc, none lost: $traced of 4"; return; }
	# Every delayed period is at least 50 ms: the smallest bucket holding one is >= 44 ms.
	local fast; fast=$(q "$db" "SELECT COUNT(*) FROM v_value x JOIN run r ON r.id=x.run_id JOIN variant v ON v.id=r.variant_id
		WHERE v.name LIKE 'reclaim-delay.%' AND x.metric LIKE 'reclaim:hist.memcg.%' AND x.v > 0
		AND CAST(substr(x.metric, 20) AS INTEGER) < 44000000")
	[[ $fast == 0 ]] || { bad stall-delay "the delayed kernel has $fast bucket values under 44 ms"; return; }
	$lrb compare --all "$db" > "$out/cmp.out" 2>&1
	# metric key better n base cand change interval q verdict
	local row; row=$(grep -E '^reclaim:p99_ns\.memcg\[wl\] ' "$out/cmp.out" | head -1)
	[[ -n $row ]] || { bad stall-delay "compare --all has no reclaim:p99_ns.memcg[wl] row"; return; }
	local n ch; read -r _ n ch <<< "$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[+-][0-9.]+%$/) { print $1, $3, $i; exit } }' <<< "$row")"
	[[ $n == 2 ]] || { bad stall-delay "p99 row without 2 blocks: $row"; return; }
	awk -v c="${ch%\%}" 'BEGIN { exit !(c >= 30) }' ||
		{ bad stall-delay "memcg stall p99 moved $ch with a planted 50 ms delay (want >= +30%): $row"; return; }
	local p50; p50=$(grep -E '^reclaim:p50_ns\.memcg\[wl\] ' "$out/cmp.out" | grep -oE '[+-][0-9.]+%' | head -1)
	ok "stall-delay: memcg reclaim stall p99 $ch, p50 $p50 with a 50 ms planted delay (compare: $(awk '{ print $NF }' <<< "$row")); 4 runs by /proc attribution, none lost; $((SECONDS - t0)) s"
}

# --- bisect: the first bad commit of a synthetic history on linux-source-6.1 -
# Three commits: the tarball, a patch that costs 100 us per new anonymous page,
# a harmless comment. Bisecting anon:populate_s from the first to the last must
# measure both ends, call the middle commit bad and name it (not the bad end),
# without touching the repository's work tree. Each commit is a kernel build
# (about 3 minutes through a warm ccache here): a fourth commit, a harmless one
# before the regression that a step would call good, made the test 1064 s
# against 920 s, for a decision the good end already exercises.
# A git repository of a linux-source tarball, one commit: DIR TARBALL MESSAGE.
# Later commits in it need the identity exported here (run it in a subshell).
linux_repo() {
	local d=$1
	mkdir -p "$d" && tar -xf "$2" -C "$d" --strip-components=1 && cd "$d" || return 1
	export GIT_AUTHOR_NAME=lrubench GIT_AUTHOR_EMAIL=lrubench@localhost \
		GIT_COMMITTER_NAME=lrubench GIT_COMMITTER_EMAIL=lrubench@localhost
	# -f: Debian's tarball ships a .gitignore that ignores its top level.
	git init -q && git add -f -A . && git commit -q -m "$3"
}

bisect_repo() { # DIR: the history; prints the three commits, oldest first
	(
		linux_repo "$1" /usr/src/linux-source-6.1.tar.xz "linux-source-6.1" &&
			git apply "$OLDPWD/harness/tests/fixtures/bisect/0002-mm-costly-anonymous-fault.patch" &&
			git commit -q -am "mm/memory: 100 us per new anonymous page (the regression)" &&
			sed -i '1a /* lrubench bisect test: a harmless commit after the regression. */' mm/vmscan.c &&
			git commit -q -am "mm/vmscan: a comment (harmless)" &&
			git rev-list --reverse HEAD
	)
}

# --- your own tree: a branch on top of a mainline-like history, git + ref --
# The repository is linux-source-6.12 as one commit tagged v6.12.118 and a
# branch my-series of two commits (vm.swappiness 100, a comment), as a
# developer's patch series on mainline. A recipe naming the branch (git + ref)
# builds and boots it (the guest sees swappiness 100); a recipe applying the
# range v6.12.118..my-series to the tarball resolves (its patches apply).
# ccache being warm from kbuild612, the build recompiles little.
test_owntree612() {
	local repo=$tmp/linux612 out=$tmp/owntree k=$PWD/kernels t0=$SECONDS
	mkdir -p "$out"
	local frags="fragment = $k/minimal.config
fragment = $k/minimal-6.12.config
fragment = $k/lrubench.config
fragment = $k/lrubench-6.12.config"
	(
		linux_repo "$repo" /usr/src/linux-source-6.12.tar.xz "Linux 6.12.118 (linux-source-6.12)" &&
			git tag v6.12.118 && git checkout -q -b my-series &&
			sed -i 's/^int vm_swappiness = 60;$/int vm_swappiness = 100;/' mm/vmscan.c &&
			git commit -q -am "mm/vmscan: default vm.swappiness to 100" &&
			sed -i '1a /* my-series: a second commit. */' mm/workingset.c &&
			git commit -q -am "mm/workingset: a comment"
	) > "$out/repo.log" 2>&1 || { bad owntree612 "could not make the repository: $(tail -3 "$out/repo.log")"; return; }
	local trepo=$((SECONDS - t0))
	printf '[source]\ngit = %s\nref = my-series\n[config]\nbase = minimal\n%s\n' "$repo" "$frags" > "$out/mine.ini"
	printf '[source]\ntarball = /usr/src/linux-source-6.12.tar.xz\n[patches]\nrange = v6.12.118..my-series\nrepo = %s\n[config]\nbase = minimal\n%s\n' "$repo" "$frags" > "$out/range.ini"
	local rc=0 db=$out/mine.db
	$lrb run harness/tests/plans/one.ini --kernel "$out/mine.ini" --db "$db" > "$out/run.out" 2> "$out/run.err" || rc=$?
	[[ $rc == 0 || $rc == 1 ]] || { bad owntree612 "run on git + ref failed (exit $rc): $(tail -8 "$out/run.err")"; return; }
	local head; head=$(git -C "$repo" rev-parse my-series)
	local got; got=$(q "$db" "SELECT group_concat(key || '=' || value, ' ') FROM run_prov WHERE key IN ('kernel.source', 'kernel.source_id', 'guest.conf.vm/swappiness') ORDER BY key")
	[[ $(q "$db" "SELECT status FROM run") == completed && $got == *"guest.conf.vm/swappiness=100"* &&
		$got == *"kernel.source=git:$repo@my-series"* && $got == *"kernel.source_id=git:$head"* ]] ||
		{ bad owntree612 "the branch's kernel did not run as built: $got"; return; }
	local rel; rel=$(q "$db" "SELECT value FROM run_prov WHERE key='guest.kernel_release'")
	[[ $rel == 6.12.118-lrb-* ]] || { bad owntree612 "guest release $rel"; return; }
	rc=0; $lrb kernel check "$out/range.ini" > "$out/range.out" 2> "$out/range.err" || rc=$?
	[[ $rc == 0 ]] && grep -q 'patch 1/1: v6.12.118..my-series' "$out/range.err" ||
		{ bad owntree612 "range recipe: exit $rc: $(tail -4 "$out/range.out" "$out/range.err")"; return; }
	# The developer's tree is as it was: the branch checked out, nothing changed.
	[[ -z $(git -C "$repo" status --porcelain) && $(git -C "$repo" rev-parse --abbrev-ref HEAD) == my-series ]] ||
		{ bad owntree612 "the repository's work tree changed"; return; }
	ok "owntree612: git + ref of a branch on v6.12.118 built and booted ($rel, swappiness 100 from the branch), the range v6.12.118..my-series applies to the tarball; repository ${trepo} s, all $((SECONDS - t0)) s"
}

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
	[[ -z $(ls "$tmp/results" 2>/dev/null | grep bisect) ]] || { bad bisect "a refused bisection left a directory"; return; }

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
	local chg; chg=$(q "$db" "SELECT printf('%+.0f%%', 100 * change) FROM bisect_step WHERE role='bad'")
	ok "bisect: $c1 (the costly patch) named first bad in $((SECONDS - t0)) s; bad end $chg; steps $(q "$db" "SELECT COUNT(*) FROM bisect_step WHERE role='step'"), with values, log and campaign; repository untouched"

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

# --- Debian 6.12: xz-compressed modules, MGLRU on by default, no zram LZO --
test_debian612() {
	local db=$tmp/debian612.db rc=0
	$lrb run harness/tests/plans/debian612.ini --db "$db" >"$tmp/d612.out" 2>"$tmp/d612.err" || rc=$?
	verdict_rc $rc || { bad debian612 "lrubench run failed (exit $rc): $(tail -5 "$tmp/d612.err")"; return; }
	local n; n=$(q "$db" "SELECT COUNT(*) FROM run WHERE status='completed'")
	[[ $n == 4 ]] || { bad debian612 "expected 4 completed runs, got $n: $(q "$db" "SELECT id,status,reason FROM run")"; return; }
	local rel; rel=$(q "$db" "SELECT COUNT(*) FROM run_prov WHERE key='kernel.image' AND value LIKE '%vmlinuz-6.12.%'")
	[[ $rel == 4 ]] || { bad debian612 "runs on a 6.12 kernel: $rel of 4"; return; }
	local gens; gens=$(q "$db" "SELECT v.lru_mode, COUNT(g.run_id) FROM run r JOIN variant v ON v.id=r.variant_id LEFT JOIN lru_gen g ON g.run_id=r.id GROUP BY r.id ORDER BY r.ord" | tr '\n' ' ')
	[[ $gens =~ ^classic\|0\ mglru\|[1-9][0-9]*\ classic\|0\ mglru\|[1-9][0-9]*\ $ ]] || { bad debian612 "lru_gen rows per run wrong (classic must switch MGLRU off): $gens"; return; }
	ok "debian612: 4 runs on 6.12 with xz modules, generations only under MGLRU"
}

# --- linux-source-6.12 built from kernels/minimal-6.12.ini, booted under both LRUs --
# The first run on a machine compiles the recipe (about 22 CPU-minutes: 12-15
# minutes on 2 idle cores, 31 on this busy one); later runs find it in the cache.
test_kbuild612() {
	local out=$tmp/kb612 db=$tmp/minimal612.db rc=0 t0=$SECONDS img how
	mkdir -p "$out"
	img=$($lrb kernel build minimal-6.12 2> "$out/build.err") ||
		{ bad kbuild612 "building minimal-6.12 failed: $(tail -15 "$out/build.err")"; return; }
	how="built in $((SECONDS - t0)) s"
	grep -q 'up to date' "$out/build.err" && how=cached
	echo "  kbuild612: minimal-6.12 $how" >&2
	local rel; rel=$(sed -n 's/^release = //p' "$(dirname "$img")/manifest")
	[[ $rel == 6.12.*-lrb-* ]] || { bad kbuild612 "release '$rel' is no 6.12 build's"; return; }
	# kernel check knows the series: zram's compressors come from its backends.
	$lrb kernel check minimal-6.12 > "$out/check.out" 2>&1 &&
		grep -q '^version  6\.12\.' "$out/check.out" &&
		grep -q '^zram     lzo-rle lzo lz4: since 6.12 zram compresses through its own backends' "$out/check.out" &&
		grep -q '^ok: ' "$out/check.out" ||
		{ bad kbuild612 "kernel check minimal-6.12: $(cat "$out/check.out")"; return; }
	$lrb run harness/tests/plans/minimal612.ini --db "$db" > "$out/run.out" 2> "$out/run.err" || rc=$?
	verdict_rc $rc || { bad kbuild612 "lrubench run failed (exit $rc): $(tail -5 "$out/run.err")"; return; }
	local n; n=$(q "$db" "SELECT COUNT(*) FROM run WHERE status='completed'")
	[[ $n == 4 ]] || { bad kbuild612 "expected 4 completed runs, got $n: $(q "$db" "SELECT id,status,reason FROM run")"; return; }
	local gens; gens=$(q "$db" "SELECT v.lru_mode, COUNT(g.run_id) FROM run r JOIN variant v ON v.id=r.variant_id LEFT JOIN lru_gen g ON g.run_id=r.id GROUP BY r.id ORDER BY r.ord" | tr '\n' ' ')
	[[ $gens =~ ^classic\|0\ mglru\|[1-9][0-9]*\ classic\|0\ mglru\|[1-9][0-9]*\ $ ]] ||
		{ bad kbuild612 "lru_gen rows per run wrong (MGLRU runs only): $gens"; return; }
	# Provenance: the guest ran the build's release, and the recipe is named.
	local grel; grel=$(q "$db" "SELECT group_concat(DISTINCT value) FROM run_prov WHERE key='guest.kernel_release'")
	local krel; krel=$(q "$db" "SELECT COUNT(*) FROM run_prov WHERE key='kernel.release' AND value='$rel'")
	local rcp; rcp=$(q "$db" "SELECT COUNT(*) FROM run_prov WHERE key='kernel.recipe' AND value='minimal-6.12'")
	[[ $grel == "$rel" && $krel == 4 && $rcp == 4 ]] ||
		{ bad kbuild612 "provenance: guest release '$grel' (want $rel), kernel.release on $krel, kernel.recipe on $rcp of 4 runs"; return; }
	ok "kbuild612: minimal-6.12 ($how) boots $rel; 4 runs under both LRUs, lru_gen rows for MGLRU only, zram lzo-rle through the 6.12 backend"
}

# --- kernel as an axis: Debian's 6.1 and 6.12, each under both LRUs -------------
# harness/tests/plans/kernels.ini: workloads/plans/kernels.ini made small (8 short
# runs, no kernel to build); compare and report must show the kernel x LRU table.
test_kernel_axis() {
	local db=$tmp/kernels.db out=$tmp/kernels rc=0 t0=$SECONDS
	mkdir -p "$out"
	$lrb run harness/tests/plans/kernels.ini --db "$db" > "$out/run.out" 2> "$out/run.err" || rc=$?
	verdict_rc $rc || { bad kernel-axis "lrubench run failed (exit $rc): $(tail -5 "$out/run.err")"; return; }
	local st; st=$(q "$db" "SELECT group_concat(v.name || ':' || r.status, ' ') FROM (SELECT * FROM run ORDER BY ord) r JOIN variant v ON v.id=r.variant_id")
	local block="classic-6.1:completed mglru-6.1:completed classic-6.12:completed mglru-6.12:completed"
	[[ $st == "$block $block" ]] || { bad kernel-axis "runs: $st"; return; }
	local gens; gens=$(q "$db" "SELECT v.lru_mode, COUNT(g.run_id) FROM run r JOIN variant v ON v.id=r.variant_id LEFT JOIN lru_gen g ON g.run_id=r.id GROUP BY r.id ORDER BY r.ord" | tr '\n' ' ')
	[[ $gens =~ ^(classic\|0\ mglru\|[1-9][0-9]*\ ){4}$ ]] || { bad kernel-axis "lru_gen rows per run wrong (MGLRU runs only): $gens"; return; }
	# Each variant ran its kernel, with lz4 (the compressor both have) in its zram.
	local rel; rel=$(q "$db" "SELECT group_concat(x) FROM (SELECT DISTINCT v.id, v.name || '=' || substr(p.value, 1, instr(p.value || '-', '-') - 1) x FROM run r JOIN variant v ON v.id=r.variant_id JOIN run_prov p ON p.run_id=r.id AND p.key='guest.kernel_release' ORDER BY v.id)")
	[[ $rel =~ ^classic-6\.1=6\.1\.[0-9]+,mglru-6\.1=6\.1\.[0-9]+,classic-6\.12=6\.12\.[0-9+a-z]+,mglru-6\.12=6\.12\.[0-9+a-z]+$ ]] ||
		{ bad kernel-axis "guest releases per variant: $rel"; return; }
	local lz4; lz4=$(q "$db" "SELECT COUNT(*) FROM run_prov WHERE key='guest.conf.zram/comp_algorithm' AND value LIKE '%[lz4]%'")
	[[ $lz4 == 8 ]] || { bad kernel-axis "zram compressing with lz4 in $lz4 of 8 runs"; return; }
	$lrb compare "$db" > "$out/compare.out" 2>&1
	grep -q '^kernel x LRU: ' "$out/compare.out" &&
		grep -qE '^anon +throughput +6\.1\.0-[0-9]+-cloud-amd64 ' "$out/compare.out" &&
		grep -qE '^ +6\.12\.[0-9]+\+deb12-cloud-amd64 ' "$out/compare.out" ||
		{ bad kernel-axis "compare shows no kernel x LRU table: $(grep -A4 'kernel x LRU' "$out/compare.out" | head -8)"; return; }
	# the campaign's own report (reports/<campaign>/report.md)
	local md; md=$(ls "$LRUBENCH_REPORTS"/kernels-test-*/report.md 2> /dev/null | head -1)
	grep -q '^## Kernel x LRU' "$md" ||
		{ bad kernel-axis "report.md has no kernel x LRU section"; return; }
	ok "kernel-axis: 8 runs on Debian 6.1 and 6.12 under both LRUs, interleaved, lz4 zram on both, lru_gen rows for MGLRU only; compare and report show the kernel x LRU table ($((SECONDS - t0)) s)"
}

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

tests=${LRUBENCH_TESTS:-"refuse slice failed_runs noise deck verdict hang garbage panic crash oom qemu_killed lrubench_killed lrubench_interrupted odd_paths disk_full catalogue lowmem shards kbuild kbuild_resume kbuild_errors stall_delay bisect debian612 kbuild612 owntree612 kernel_axis wss"}
for t in $tests; do
	echo "== $t" >&2
	"test_$t"
done
echo "integration: $passed passed, $failed failed"
((failed == 0))
