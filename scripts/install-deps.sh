#!/usr/bin/env bash
# Installs every Debian 12 package Conclave needs to build, test, run and package.
# Idempotent: installs only what is missing, and runs apt-get update at most once.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config git
  clang libclang-rt-14-dev   # make fuzz: clang 14 and its libFuzzer
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev libqt6opengl6-dev qt6-svg-dev
  libgl-dev libxkbcommon-dev
  libcurl4-openssl-dev nlohmann-json3-dev libsqlite3-dev libcli11-dev librapidcheck-dev libboost-math-dev libboost-dev
  liblinear-dev   # train-router: L2-regularised logistic regression (liblinear4 at run time)
  xvfb xauth fonts-dejavu-core
  xdotool imagemagick   # scripts/xvfb-shots.sh: drive and capture the studio in a real X window
  python3 file dpkg-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO="sudo"; else
    echo "install-deps: missing packages (${missing[*]}) and not root; run as root or install sudo" >&2
    exit 1
  fi
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
