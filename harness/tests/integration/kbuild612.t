#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

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

test_kbuild612
done_testing
