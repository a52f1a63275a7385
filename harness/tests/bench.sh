#!/bin/bash
# Benchmarks: figures printed, never asserted.
#   bench.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
tmp=$(mktemp -d /tmp/lrubench-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export LRUBENCH_RESULTS=$tmp/results LRUBENCH_REPORTS=$tmp/reports
q() { sqlite3 -batch -noheader "$1" "$2"; }

echo "== host ingest rate (a real 6.1 sample repeated, 4 KiB chunks, WAL store)"
$build/bench-ingest harness/tests/fixtures/stream/mglru-6.1-clean.stream 5000 "$tmp/ingest.db"

for iv in 1s 100ms; do
	sed "s/^interval = .*/interval = $iv/" harness/tests/plans/one.ini > "$tmp/one-$iv.ini"
	$build/lrubench run "$tmp/one-$iv.ini" --db "$tmp/$iv.db" > /dev/null 2> "$tmp/$iv.err" ||
		{ tail -5 "$tmp/$iv.err"; exit 1; }
	echo "== guest at interval $iv ($(q "$tmp/$iv.db" "SELECT value FROM run_prov WHERE key='accel'"))"
	q "$tmp/$iv.db" "SELECT 'boot to agent: ' || value || ' s' FROM run_prov WHERE key='boot_to_agent_s'"
	q "$tmp/$iv.db" "SELECT printf('sampler: %d samples, agent CPU %.2f ms per sample, %.2f%% of one vCPU; %.2f ms to take a sample; %.1f KB streamed per sample',
		COUNT(DISTINCT seq),
		(MAX(CASE WHEN metric='agent:cpu_ns' THEN v END) - MIN(CASE WHEN metric='agent:cpu_ns' THEN v END)) / 1e6 / (COUNT(DISTINCT seq) - 1),
		100.0 * (MAX(CASE WHEN metric='agent:cpu_ns' THEN v END) - MIN(CASE WHEN metric='agent:cpu_ns' THEN v END)) / (MAX(t_ns) - MIN(t_ns)),
		AVG(CASE WHEN metric='agent:sample_ns' THEN v END) / 1e6,
		(SELECT CAST(value AS REAL) FROM run_prov WHERE key='stream.bytes') / 1024.0 / COUNT(DISTINCT seq))
		FROM v_value"
done

echo "== -j 1 vs -j 2: 4 runs of the one-run plan"
for j in 1 2; do
	start=$(date +%s.%N)
	$build/lrubench run harness/tests/plans/one.ini --reps 4 -j $j --db "$tmp/j$j.db" > /dev/null 2> "$tmp/j$j.err" ||
		{ tail -5 "$tmp/j$j.err"; exit 1; }
	end=$(date +%s.%N)
	echo "-j $j: $(echo "$end - $start" | bc) s wall for $(q "$tmp/j$j.db" "SELECT COUNT(*) FROM run WHERE status='completed'") completed runs"
done

echo "== merge: 8 shards of real runs (the -j 1 campaign's database relabelled as repetitions 4k..4k+3)"
for k in 0 1 2 3 4 5 6 7; do
	cp "$tmp/j1.db" "$tmp/shard$k.db"
	q "$tmp/shard$k.db" "UPDATE run SET rep = rep + 4 * $k, ord = ord + 4 * $k; UPDATE meta SET value = '32' WHERE key = 'repetitions'"
done
$build/lrubench merge "$tmp/merged8.db" "$tmp"/shard[0-7].db
