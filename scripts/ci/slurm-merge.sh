#!/bin/bash
# lrubench on Slurm: the job after the shards (slurm-array.sh). Merges
# RESULTS/slurm-ARRAYJOB/shard-*.db into merged.db beside them, writes the
# report (REPORTS/<campaign>/, REPORTS being $LRUBENCH_REPORTS, else reports/),
# and appends the night to the history LRB_HISTORY when set.
# Queued with --dependency=afterany:ARRAYJOB, so it runs even if a shard
# failed or was cancelled: the shards there are merged (a cut one with its
# runs unfinished), and the job names each shard that did not finish.
#
# Environment: LRB_ARRAY_JOB (the array job's id), LRB_SHARDS (its task
# count), LRB_HISTORY (optional), LRUBENCH_RESULTS, LRUBENCH_BUILD.
# Exit: the campaign's status as 'lrubench report' gives it (0: no key metric
# regressed, 1: one did, 2: error, 3: incomplete: runs failed), and 3 when a
# shard did not finish (2 if the report itself failed).
#
#SBATCH --job-name=lrubench-merge
#SBATCH --cpus-per-task=1
#SBATCH --mem=2G
#SBATCH --time=00:30:00
#SBATCH --output=results/slurm-merge-%j.log
set -euo pipefail

: "${LRB_ARRAY_JOB:?set LRB_ARRAY_JOB to the shards array job id}"
: "${LRB_SHARDS:?set LRB_SHARDS to the number of shards (the tasks of the array job)}"
[[ $LRB_SHARDS =~ ^[1-9][0-9]*$ ]] || { echo "slurm-merge: LRB_SHARDS must be a positive number, not '$LRB_SHARDS'" >&2; exit 2; }
cd "${SLURM_SUBMIT_DIR:-.}"
lrb=${LRUBENCH_BUILD:-build}/lrubench
dir=${LRUBENCH_RESULTS:-results}/slurm-$LRB_ARRAY_JOB
shards=() missing=()
for ((i = 1; i <= LRB_SHARDS; i++)); do
	[[ -s $dir/shard-$i.db ]] && shards+=("$dir/shard-$i.db")
	if [[ ! -s $dir/shard-$i.rc ]]; then
		missing+=("$i")
		echo "slurm-merge: shard $i/$LRB_SHARDS is missing: task ${LRB_ARRAY_JOB}_$i did not finish (cancelled, killed or out of time)$([[ -s $dir/shard-$i.db ]] && echo "; its database is merged with its runs unfinished")" >&2
	elif [[ $(< "$dir/shard-$i.rc") != 0 ]]; then
		echo "slurm-merge: shard $i/$LRB_SHARDS failed: task ${LRB_ARRAY_JOB}_$i exited $(< "$dir/shard-$i.rc") (3: runs failed; its log: slurm-${LRB_ARRAY_JOB}_$i.log)" >&2
	fi
done
if ((${#shards[@]} == 0)); then
	echo "slurm-merge: no shard database in $dir" >&2
	exit 3
fi
rm -f "$dir/merged.db"
"$lrb" merge "$dir/merged.db" "${shards[@]}"
rc=0
"$lrb" report "$dir/merged.db" || rc=$?
echo "slurm-merge: report: exit $rc"
if [[ -n ${LRB_HISTORY:-} ]] && ((${#missing[@]} == 0)); then
	"$lrb" history add "$LRB_HISTORY" "$dir/merged.db" || rc=2
fi
if ((${#missing[@]})); then
	echo "slurm-merge: ${#missing[@]} of $LRB_SHARDS shards missing: ${missing[*]}" >&2
	((rc == 2)) || rc=3
fi
exit "$rc"
