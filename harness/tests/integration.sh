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

# --- the default A/B, smaller: 2 x classic, 2 x MGLRU, interleaved ---------
test_slice() {
	local db=$tmp/slice.db
	if ! $lrb run harness/tests/plans/slice.ini --db "$db" >"$tmp/slice.out" 2>"$tmp/slice.err"; then
		bad slice "lrubench run failed: $(tail -5 "$tmp/slice.err")"; return
	fi
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
	grep -q "anon:throughput" "$tmp/slice.out" || { bad slice "no comparison table on stdout"; return; }
	ok "slice: 4 runs interleaved, samples, generations only under MGLRU, provenance, reclaim"
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
	local db=$1
	$lrb compare "$db" > "$tmp/cmp.out" 2>&1 || { bad compare "lrubench compare failed"; return; }
	grep -qE '^anon:throughput +ops/s +higher .* n=2 .* n=2 +[+-][0-9.]+%' "$tmp/cmp.out" ||
		{ bad compare "no throughput row with n=2 and a change: $(grep throughput "$tmp/cmp.out")"; return; }
	grep -qE '^vmstat:workingset_refault_anon .*\(not comparable\)' "$tmp/cmp.out" ||
		{ bad compare "workingset_refault_anon not marked not comparable"; return; }
	$lrb report "$db" > /dev/null 2>&1 && ls "$LRUBENCH_REPORTS"/*/report.md > /dev/null 2>&1 ||
		{ bad compare "lrubench report wrote no report.md"; return; }
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
	local db=$tmp/ab.db
	if ! $lrb ab --baseline minimal --patched patched-example --plan harness/tests/plans/ab.ini \
		--db "$db" > "$out/ab.out" 2> "$out/ab.err"; then
		bad kbuild-ab "lrubench ab failed: $(tail -8 "$out/ab.err")"; return
	fi
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
	expect_err broken "broken\.ini: the kernel build failed \('make bzImage' exit 2" \
		"#error lrubench test: this kernel does not build" "log .*/failed-[0-9a-f]{16}\.log" || return
	# Builds come before any run: a campaign whose kernel cannot build creates no database.
	rc=0; $lrb run harness/tests/plans/one.ini --kernel "$d/missing.ini" --db "$tmp/kerr.db" > /dev/null 2> "$d/run.err" || rc=$?
	[[ $rc == 2 && ! -e $tmp/kerr.db ]] || { bad kbuild-errors "run with an unbuildable kernel: rc $rc, db $(ls "$tmp/kerr.db" 2>&1)"; return; }
	grep -q 'missing\.ini:2: patch' "$d/run.err" || { bad kbuild-errors "run: $(tail -2 "$d/run.err")"; return; }
	ok "kbuild-errors: missing patch, patch that does not apply, config without LRU_GEN, failing build: each named, with the log's tail; nothing runs"
}

tests=${LRUBENCH_TESTS:-"refuse slice hang garbage kbuild kbuild_errors"}
for t in $tests; do
	echo "== $t" >&2
	"test_$t"
done
echo "integration: $passed passed, $failed failed"
((failed == 0))
