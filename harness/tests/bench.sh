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

# The sampler in a guest with 8 memcgs, beside a shell monitor (bash + cat, a process
# per cat) that reads the same files at the same interval (workloads/wl-shell-monitor.c).
for iv in 1s 100ms; do
	sed -e "s/^interval = .*/interval = $iv/" harness/tests/plans/sampler.ini > "$tmp/sampler-$iv.ini"
	$build/lrubench run "$tmp/sampler-$iv.ini" --db "$tmp/$iv.db" > /dev/null 2> "$tmp/$iv.err" ||
		{ tail -5 "$tmp/$iv.err"; exit 1; }
	echo "== guest at interval $iv, 8 memcgs ($(q "$tmp/$iv.db" "SELECT value FROM run_prov WHERE key='accel'"))"
	q "$tmp/$iv.db" "SELECT 'boot to agent: ' || value || ' s' FROM run_prov WHERE key='boot_to_agent_s'"
	q "$tmp/$iv.db" "SELECT printf('agent sampler: %d samples, CPU %.2f ms per sample, %.2f%% of one vCPU; %.2f ms to take a sample; %.1f KB streamed per sample',
		COUNT(DISTINCT seq),
		(MAX(CASE WHEN metric='agent:cpu_ns' THEN v END) - MIN(CASE WHEN metric='agent:cpu_ns' THEN v END)) / 1e6 / (COUNT(DISTINCT seq) - 1),
		100.0 * (MAX(CASE WHEN metric='agent:cpu_ns' THEN v END) - MIN(CASE WHEN metric='agent:cpu_ns' THEN v END)) / (MAX(t_ns) - MIN(t_ns)),
		AVG(CASE WHEN metric='agent:sample_ns' THEN v END) / 1e6,
		(SELECT CAST(value AS REAL) FROM run_prov WHERE key='stream.bytes') / 1024.0 / COUNT(DISTINCT seq))
		FROM v_value"
	q "$tmp/$iv.db" "SELECT printf('reclaim tracer, part of the agent''s figure: %.3f ms CPU per sample (no reclaim here: the per-record cost is in its own section below)',
		(MAX(v) - MIN(v)) / 1e6 / (COUNT(DISTINCT seq) - 1)) FROM v_value WHERE metric = 'reclaim:cpu_ns'"
	q "$tmp/$iv.db" "SELECT printf('shell monitor: %d samples, CPU %.2f ms per sample, %.2f%% of one vCPU; %.2f ms to take a sample (median)',
		MAX(CASE WHEN key='samples' THEN value END), MAX(CASE WHEN key='cpu_ns_per_sample' THEN value END) / 1e6,
		MAX(CASE WHEN key='cpu_pct' THEN value END), MAX(CASE WHEN key='lat_p50' THEN value END) / 1e6)
		FROM result WHERE workload='shell'"
done

echo "== -j 1 vs -j 2: 4 runs of the one-run plan"
for j in 1 2; do
	start=$(date +%s.%N)
	$build/lrubench run harness/tests/plans/one.ini --reps 4 -j $j --db "$tmp/j$j.db" > /dev/null 2> "$tmp/j$j.err" ||
		{ tail -5 "$tmp/j$j.err"; exit 1; }
	end=$(date +%s.%N)
	[[ $j == 1 ]] && wall_j1=$(echo "$end - $start" | bc)
	echo "-j $j: $(echo "$end - $start" | bc) s wall for $(q "$tmp/j$j.db" "SELECT COUNT(*) FROM run WHERE status='completed'") completed runs"
done

echo "== the harness's share of the -j 1 campaign's wall time (all but the workloads' own run time)"
# The workloads' time per run: first workload-start to last workload-exit, on the guest's clock.
work=$(q "$tmp/j1.db" "SELECT SUM(w) / 1e9 FROM (SELECT MAX(CASE WHEN kind='workload-exit' THEN t_ns END) -
	MIN(CASE WHEN kind='workload-start' THEN t_ns END) w FROM event GROUP BY run_id)")
wall1=$(q "$tmp/j1.db" "SELECT (MAX(ended_ns) - MIN(started_ns)) / 1e9 FROM run")
echo "workloads ran $work s of the runs' $wall1 s and the command's $wall_j1 s wall:" \
	"harness share $(awk -v w="$work" -v t="$wall_j1" 'BEGIN { printf "%.1f", 100 * (1 - w / t) }')% (boot, setup, teardown, ingest, scheduling, build checks)"

echo "== minimum detectable effect of the quick plan: before (Welch, 2 runs a side) and after (paired blocks)"
# An A/A of its baseline: repetitions = auto, so as many blocks as the plan would run.
rc=0
$build/lrubench noise workloads/plans/quick.ini --db "$tmp/aa.db" > "$tmp/aa.out" 2> "$tmp/aa.err" || rc=$?
((rc != 2 && rc < 100)) || { tail -5 "$tmp/aa.err"; exit 1; }
grep -E '^(metric|mix:anon_steal_pct|mix:majflt|mix:file_read_bytes|scan:hot_majflt|scan:stream_throughput|kv:throughput|kv:read_bytes|files:throughput|files:hit_ratio|vmstat:pswpout|vmstat:pgmajfault|psi.memory:full.total) ' "$tmp/aa.out"
awk '$2 ~ /^[0-9]+$/ && $6 ~ /%$/ && $7 ~ /%$/ { b[nb++] = $6 + 0; a[na++] = $7 + 0 }
	function median(x, n,   i, j, t) { for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
		return n ? (n % 2 ? x[int(n / 2)] : (x[n / 2 - 1] + x[n / 2]) / 2) : 0 }
	END { printf "all %d rows: median MDE before %.1f%% (Welch, 2 runs a side, alpha 0.05), after %.1f%% (paired, %s blocks, key level)\n", nb, median(b, nb), median(a, na), blocks }' \
	blocks="$(q "$tmp/aa.db" "SELECT MAX(blocks) FROM noise")" "$tmp/aa.out"

echo "== the reclaim tracer: its CPU in the guest beside the sampler's, and an A/A with and without tracing"
# The quick plan's workloads under the classic LRU, untraced (baseline) against traced,
# 4 blocks; its noise floor is the quick plan's A/A above (traced, as plans are by default).
awk '/^\[variant / { skip = 1; next } /^\[/ { skip = 0 } skip { next }
	/^name = / { print "name = trace-aa"; next } /^baseline = / { print "baseline = untraced"; next }
	{ print } END { print "\n[variant untraced]\nlru = classic\ntrace = off\n\n[variant traced]\nlru = classic\ntrace = on" }' \
	workloads/plans/quick.ini > "$tmp/trace-aa.ini"
rc=0
$build/lrubench run "$tmp/trace-aa.ini" --reps 4 --db "$tmp/trace-aa.db" > /dev/null 2> "$tmp/trace-aa.err" || rc=$?
((rc <= 1)) || { tail -5 "$tmp/trace-aa.err"; exit 1; }
q "$tmp/trace-aa.db" "WITH d AS (SELECT x.run_id, x.metric, MAX(x.v) - MIN(x.v) AS inc, COUNT(DISTINCT x.seq) - 1 AS n,
		(MAX(x.t_ns) - MIN(x.t_ns)) / 1e9 AS s FROM v_value x JOIN run r ON r.id = x.run_id JOIN variant v ON v.id = r.variant_id
		WHERE v.name = 'traced' AND r.status = 'completed' AND x.metric IN ('reclaim:cpu_ns', 'reclaim:records', 'reclaim:lost', 'agent:cpu_ns')
		GROUP BY x.run_id, x.metric)
	SELECT printf('tracer: %.3f ms CPU per sample, %.1f us per record (%.0f records/s, %d lost) beside the whole agent''s %.2f ms per sample, tracer included (%d traced runs)',
		SUM(CASE WHEN metric = 'reclaim:cpu_ns' THEN inc END) / 1e6 / SUM(CASE WHEN metric = 'reclaim:cpu_ns' THEN n END),
		SUM(CASE WHEN metric = 'reclaim:cpu_ns' THEN inc END) / 1e3 / SUM(CASE WHEN metric = 'reclaim:records' THEN inc END),
		SUM(CASE WHEN metric = 'reclaim:records' THEN inc END) / SUM(CASE WHEN metric = 'reclaim:records' THEN s END),
		SUM(CASE WHEN metric = 'reclaim:lost' THEN inc END),
		SUM(CASE WHEN metric = 'agent:cpu_ns' THEN inc END) / 1e6 / SUM(CASE WHEN metric = 'agent:cpu_ns' THEN n END),
		COUNT(DISTINCT run_id)) FROM d"
# traced against untraced, every key metric, with the A/A's minimum detectable effect beside
$build/lrubench report "$tmp/trace-aa.db" --noise "$tmp/aa.db" > /dev/null 2>&1 || true
$build/lrubench compare --all "$tmp/trace-aa.db" 2> /dev/null | awk '/^metric +key/ { on = 1 } on && ($1 == "metric" || $2 == "key") { print } /^\* baseline/ { exit }'

echo "== merge: 8 shards of real runs (the -j 1 campaign's database relabelled as repetitions 4k..4k+3)"
for k in 0 1 2 3 4 5 6 7; do
	cp "$tmp/j1.db" "$tmp/shard$k.db"
	q "$tmp/shard$k.db" "UPDATE run SET rep = rep + 4 * $k, ord = ord + 4 * $k; UPDATE meta SET value = '32' WHERE key = 'repetitions'"
done
$build/lrubench merge "$tmp/merged8.db" "$tmp"/shard[0-7].db

echo "== the campaign's false-alarm rate and the intervals' coverage, 10x the unit tests' Monte Carlo"
LRUBENCH_SIM_SCALE=10 LRUBENCH_TEST_FILTER=test_campaign_far "$build/tests/test-verdict-sim" 2>&1 |
	grep -E 'A/A campaigns|PASSED|FAILED'
LRUBENCH_SIM_SCALE=10 "$build/tests/test-intervals" 2>&1 | grep -E 'coverage|FAILED'
