#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

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

test_debian612
done_testing
