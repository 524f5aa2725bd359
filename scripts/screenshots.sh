#!/usr/bin/env bash
# Renders the studio's screens from a scratch run store, to look at or to
# regenerate the documentation's images.
#
#   scripts/screenshots.sh docs            # docs/images/*.png, as the README and docs show them
#   scripts/screenshots.sh matrix OUTDIR   # every run screen at 1280x800, 1366x768 and 1920x1080, light and
#                                          # dark, offscreen; and after pressing Run in a real X window (Xvfb)
#
# The runs and the experiment are made here with the CLI (fixed seeds), so the
# pictures are the same on every machine; nothing of the user's store or
# settings is read or changed. BUILD=dir picks another build folder.
set -euo pipefail
cd "$(dirname "$0")/.."

build=${BUILD:-build}
cli=$build/bin/conclave
studio=$build/bin/conclave-studio
examples=resources/examples
question="Calculate 323 + 460. And what is the capital city of France?"
for tool in "$cli" "$studio"; do
  [ -x "$tool" ] || { echo "$0: $tool not found; build first (make build)" >&2; exit 2; }
done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export CONCLAVE_DB=$scratch/runs.db XDG_CONFIG_HOME=$scratch/config QT_QPA_PLATFORM=offscreen

run_id() { "$cli" run "$@" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["run_id"])'; }

echo "screenshots: making the runs and the experiment in $CONCLAVE_DB"
# On the real clock (scaled), so the timelines show real concurrency.
triage=$(run_id "$examples/triage.team.json" -i "$question" --seed 42 --time-scale 0.5)
triage_b=$(run_id "$examples/triage.team.json" -i "$question" --seed 7 --time-scale 0.5)
review=$(run_id "$examples/review-board.team.json" -i "Calculate 323 + 460." --seed 42 --time-scale 0.5)
"$cli" eval "$examples/triage.team.json" "$examples/keyword-vote.team.json" "$examples/cascade.team.json" \
  "$examples/mixture-of-agents.team.json" --taskset mixed-small --seeds 3 \
  --name "Routing designs on mixed-small" >/dev/null
experiment=$("$cli" experiments list --json | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["experiment_id"])')

shoot() { # OUT THEME SIZE ARGS...
  local out=$1 theme=$2 size=$3
  shift 3
  "$studio" "$@" --theme "$theme" --size "$size" --screenshot "$out" 2>/dev/null
  echo "  $out"
}

case ${1:-} in
docs)
  out=docs/images
  shoot $out/studio.png light 1400x860 "$examples/triage.team.json"
  shoot $out/studio-run.png light 1600x1050 "$examples/triage.team.json" --run-team "$question" --seed 42 --instant
  shoot $out/run.png light 1400x900 --run "$triage"
  shoot $out/replay.png light 1400x500 --replay "$triage" --at 1200
  shoot $out/studio-replay.png light 1366x768 "$examples/triage.team.json" --open-replay "$triage" --at 1200 \
    --select math
  shoot $out/compare.png light 1400x900 --compare "$triage" "$triage_b"
  shoot $out/experiment.png light 1400x900 --experiment "$experiment"
  shoot $out/experiment-dark.png dark 1400x900 --experiment "$experiment"
  shoot $out/studio-experiment.png light 1280x800 "$examples/triage.team.json" --open-experiment "$experiment"
  shoot $out/studio-dark.png dark 1280x800 "$examples/review-board.team.json" --open-run "$review"
  ;;
matrix)
  out=${2:?usage: $0 matrix OUTDIR}
  mkdir -p "$out"
  for size in 1280x800 1366x768 1920x1080; do
    for theme in light dark; do
      tag=$size-$theme
      shoot "$out/triage-run-$tag.png" "$theme" "$size" "$examples/triage.team.json" --run-team "$question" --seed 42 \
        --instant
      shoot "$out/review-run-$tag.png" "$theme" "$size" "$examples/review-board.team.json" \
        --run-team "Calculate 323 + 460." --seed 42 --instant
      shoot "$out/replay-$tag.png" "$theme" "$size" "$examples/triage.team.json" --open-replay "$triage" --at 1200 \
        --select math
      shoot "$out/compare-$tag.png" "$theme" "$size" --compare "$triage" "$triage_b"
      shoot "$out/experiment-$tag.png" "$theme" "$size" "$examples/triage.team.json" --open-experiment "$experiment"
      for team in triage keyword-vote; do
        scripts/xvfb-shots.sh -b "$build" -t "$theme" "$size" "$examples/$team.team.json" "$question" \
          "$out/xvfb-$team-$tag.png" >/dev/null
        echo "  $out/xvfb-$team-$tag.png (a real X window, after pressing Run)"
      done
    done
  done
  ;;
*)
  echo "usage: $0 docs | matrix OUTDIR" >&2
  exit 2
  ;;
esac
