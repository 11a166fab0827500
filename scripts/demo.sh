#!/usr/bin/env bash
# The main job on the bundled demo backend: start dev-server/ on a free port, log in as the demo user,
# sync, and show what arrived. The server stops when the script ends.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(swift build -c release --show-bin-path)/sclm"
home="${SCLM_DEMO_HOME:-$PWD/.demo-home}"
py="$(python3 -c 'import sys; print(sys.executable)')"   # the interpreter itself, so SIGTERM reaches it
coproc SERVER { exec "$py" dev-server/server.py --quiet --exit-with-parent; }
server_pid=$SERVER_PID
trap 'kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null || true' EXIT
read -r url <&"${SERVER[0]}"
export SCLM_API_URL="$url" SCLM_AUTH_URL="$url" SCLM_CLIENT_ID=sclm-demo SCLM_CLIENT_SECRET=demo-secret
printf '%s\n' demo-pass | "$bin" --home "$home" login --username demo@storyclm.test --password-stdin
"$bin" --home "$home" sync
"$bin" --home "$home" list
