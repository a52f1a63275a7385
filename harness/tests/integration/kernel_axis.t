#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

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

test_kernel_axis
done_testing
