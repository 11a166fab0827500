#!/usr/bin/env bash
# The main job on the bundled demo backend: start dev-server/ on a free port, log in as the demo user,
# sync the demo client's presentations (metadata, then content with a live progress display), list what
# is installed and where. The server stops when the script ends. Each run starts from a fresh demo home
# (.demo-home) unless SCLM_DEMO_HOME names another one.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(swift build -c release --show-bin-path)/sclm"
if [[ -z "${SCLM_DEMO_HOME:-}" ]]; then rm -rf "$PWD/.demo-home"; fi
home="${SCLM_DEMO_HOME:-$PWD/.demo-home}"
py="$(python3 -c 'import sys; print(sys.executable)')"   # the interpreter itself, so SIGTERM reaches it
coproc SERVER { exec "$py" dev-server/server.py --quiet --exit-with-parent --osam sample-content/osam.json; }
server_pid=$SERVER_PID
trap 'kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null || true' EXIT
read -r url <&"${SERVER[0]}"
export SCLM_API_URL="$url" SCLM_AUTH_URL="$url" SCLM_CLIENT_ID=sclm-demo SCLM_CLIENT_SECRET=demo-secret
sclm() { "$bin" --home "$home" "$@"; }
# The sample decks' StoryCLM.Http call goes to this backend on loopback, which content reaches only when
# bridge.httpAllowedHosts lists it (by default, public hosts only).
authority="${url#*://}"
sclm config set bridge.httpAllowedHosts "${authority%%/*}" >/dev/null
if [[ -t 1 && -z "${NO_COLOR:-}" ]]; then bold=$'\033[1m' plain=$'\033[0m'; else bold='' plain=''; fi
step() { printf '\n%s$ sclm %s%s\n' "$bold" "$*" "$plain"; }

echo "Demo backend at $url, sclm home $home"
step login --username demo@storyclm.test --password-stdin
printf '%s\n' demo-pass | sclm login --username demo@storyclm.test --password-stdin
step 'sync --client "Demo Pharma"'
sclm sync --client "Demo Pharma"
step 'list --client "Demo Pharma"'
sclm list --client "Demo Pharma"
step content path 101
sources="$(sclm content path 101)"
echo "$sources"
ls "$sources"

printf '\nsclm is not on PATH yet. Run it from the build:\n  %s --home %s list\n' "$bin" "$home"
printf 'or install it with its man page and shell completions:\n  make install            # or: make install PREFIX=$HOME/.local\n'
