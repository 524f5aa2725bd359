#!/usr/bin/env bash
# Starts the studio on an example team, or, with no display, shows the CLI on the examples.
set -euo pipefail
build="$1"
example="$2"

if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ] || [ "${QT_QPA_PLATFORM:-}" = "offscreen" ]; then
  exec "$build/bin/conclave-studio" "$example"
fi

cat <<MSG
No display found, so the studio cannot open a window here.
To see it on a virtual display:   xvfb-run -a $build/bin/conclave-studio $example
To render it to a picture:        QT_QPA_PLATFORM=offscreen $build/bin/conclave-studio $example --screenshot studio.png

Meanwhile, the command-line tool on the example teams.

\$ conclave validate resources/examples/*.team.json
MSG
"$build/bin/conclave" validate resources/examples/*.team.json
question="Calculate 323 + 460. And what is the capital city of France?"
echo
echo "\$ conclave run $example --input \"$question\"    # on the simulated clock"
"$build/bin/conclave" run "$example" --input "$question"
echo
echo "\$ conclave run $example --input \"$question\" --time-scale 0.2    # real time, five times faster"
"$build/bin/conclave" run "$example" --input "$question" --time-scale 0.2
