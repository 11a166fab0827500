#!/usr/bin/env bash
# The main job on the bundled demo backend. Until the sync issue lands it shows a fresh home's status.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(swift build -c release --show-bin-path)/sclm"
home="${SCLM_DEMO_HOME:-$PWD/.demo-home}"
"$bin" --home "$home" status
