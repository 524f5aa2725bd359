#!/bin/bash
# A sweep against real endpoints as a Slurm job array: one shard per task.
#   sbatch docs/sweeps/eval-slurm-array.sh
# then, when every task has finished:
#   conclave experiments merge results/shard-*.sqlite --db results/merged.sqlite
#   conclave experiments show ID --db results/merged.sqlite
#SBATCH --job-name=conclave-eval
#SBATCH --array=0-3
#SBATCH --cpus-per-task=2
#SBATCH --time=02:00:00
#SBATCH --output=results/shard-%a.log
set -euo pipefail
SHARDS=4
mkdir -p results
DB="results/shard-${SLURM_ARRAY_TASK_ID}.sqlite"
# A re-queued task finds its own database and runs only the missing trials
# (the same spec gives the same experiment id, and stored trials are skipped).
exec conclave eval teams/baseline.team.json teams/candidate.team.json \
    --taskset teams/tasks.jsonl --seeds 3 --yes \
    --shard "${SLURM_ARRAY_TASK_ID}/${SHARDS}" --db "$DB"
