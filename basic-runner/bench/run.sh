#!/usr/bin/env bash
# Installs the peer interpreters (Debian's bwbasic, yabasic, brandy), builds
# basic-runner's release runner and runs every benchmark in all four.
# Usage: basic-runner/bench/run.sh [interpreter ...]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if ! command -v bwbasic >/dev/null || ! command -v yabasic >/dev/null || ! command -v brandy >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bwbasic yabasic brandy
fi
(cd "$here/../.." && cargo build --release -p basic-runner --example run)
python3 "$here/bench.py" "$@"
