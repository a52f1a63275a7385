#!/bin/bash
# lrubench on Slurm: the job after the shards (slurm-array.sh). Merges
# results/slurm-ARRAYJOB/shard-*.db into merged.db beside them, writes the
# report, and appends the night to the history LRB_HISTORY when set.
# Queued with --dependency=afterany:ARRAYJOB, so it runs even if a shard
# failed: the shards that finished are merged, and the job then fails to say
# that some are missing.
#
#SBATCH --job-name=lrubench-merge
#SBATCH --cpus-per-task=1
#SBATCH --mem=2G
#SBATCH --time=00:30:00
#SBATCH --output=results/slurm-merge-%j.log
set -euo pipefail

: "${LRB_ARRAY_JOB:?set LRB_ARRAY_JOB to the shards array job id}"
cd "${SLURM_SUBMIT_DIR:-.}"
dir=results/slurm-$LRB_ARRAY_JOB
shopt -s nullglob
shards=("$dir"/shard-*.db)
if ((${#shards[@]} == 0)); then
	echo "slurm-merge: no shard database in $dir" >&2
	exit 1
fi
build/lrubench merge "$dir/merged.db" "${shards[@]}"
build/lrubench report "$dir/merged.db"
if [[ -n ${LRB_HISTORY:-} ]]; then
	build/lrubench history add "$LRB_HISTORY" "$dir/merged.db"
fi
if [[ -n ${LRB_SHARDS:-} ]] && ((${#shards[@]} < LRB_SHARDS)); then
	echo "slurm-merge: ${#shards[@]} of $LRB_SHARDS shards finished" >&2
	exit 1
fi
