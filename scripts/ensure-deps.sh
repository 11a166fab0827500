#!/usr/bin/env bash
# Installs the Debian packages sclm builds and tests against, when any is missing (needs root or sudo).
# Usage: scripts/ensure-deps.sh [extra-package …]
set -euo pipefail

packages=(libsqlite3-dev libarchive-dev libcurl4-openssl-dev libssl-dev libisal-dev libpng-dev libsystemd-dev pkg-config "$@")
missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing missing packages: ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "error: need root (or sudo) to install ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
