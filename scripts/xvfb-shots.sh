#!/usr/bin/env bash
# Shoots the studio as a user sees it: a real X window (Xvfb, no window
# manager) of WxH, where xdotool presses Run as a user does (Ctrl+R focuses
# the empty input, the input is typed, Return starts the run), then the screen
# is captured once the run has had time to finish.
#
#   scripts/xvfb-shots.sh [-b BUILD] [-t light|dark] [-w SECONDS] WxH TEAM INPUT OUT.png
#
# Runs in a throwaway settings folder and run store, so nothing of yours is
# read or changed. Needs Xvfb, xdotool and ImageMagick's import
# (scripts/install-deps.sh installs them).
set -euo pipefail

build=build theme=light wait=6
while getopts "b:t:w:" opt; do
  case $opt in
    b) build=$OPTARG ;;
    t) theme=$OPTARG ;;
    w) wait=$OPTARG ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -ne 4 ]; then
  echo "usage: $0 [-b BUILD] [-t light|dark] [-w SECONDS] WxH TEAM INPUT OUT.png" >&2
  exit 2
fi
size=$1 team=$2 input=$3 out=$4
if ! [[ $size =~ ^([0-9]+)x([0-9]+)$ ]]; then
  echo "$0: size '$size': expected WxH, e.g. 1366x768" >&2
  exit 2
fi
width=${BASH_REMATCH[1]} height=${BASH_REMATCH[2]}
for tool in Xvfb xdotool import; do
  command -v "$tool" >/dev/null || { echo "$0: $tool is missing; run scripts/install-deps.sh" >&2; exit 2; }
done
studio=$build/bin/conclave-studio
[ -x "$studio" ] || { echo "$0: $studio not found; build first (make build)" >&2; exit 2; }

scratch=$(mktemp -d)
display=:$((90 + RANDOM % 400))
xvfb_pid='' studio_pid=''
cleanup() {
  [ -n "$studio_pid" ] && kill "$studio_pid" 2>/dev/null || true
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT

Xvfb "$display" -screen 0 "${width}x${height}x24" -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!
for _ in $(seq 50); do
  DISPLAY=$display xdotool getmouselocation >/dev/null 2>&1 && break
  sleep 0.1
done

export DISPLAY=$display QT_QPA_PLATFORM=xcb XDG_CONFIG_HOME=$scratch/config CONCLAVE_DB=$scratch/runs.db
"$studio" "$team" --theme "$theme" >"$scratch/studio.log" 2>&1 &
studio_pid=$!

window=''
for _ in $(seq 100); do
  window=$(xdotool search --sync --onlyvisible --class conclave-studio 2>/dev/null | head -1) && [ -n "$window" ] && break
  sleep 0.1
done
[ -n "$window" ] || { echo "$0: the studio's window did not appear" >&2; cat "$scratch/studio.log" >&2; exit 1; }
# No window manager: the window takes the whole screen, as a maximised one would.
xdotool windowmove "$window" 0 0 windowsize "$window" "$width" "$height"
sleep 1.5
xdotool windowactivate --sync "$window" 2>/dev/null || xdotool windowfocus --sync "$window"
xdotool key --window "$window" ctrl+r
sleep 0.3
xdotool type --delay 5 "$input"
xdotool key Return
sleep "$wait"
import -window root "$out"
echo "$out: ${width}x${height}, $theme, after Run on $(basename "$team")"
