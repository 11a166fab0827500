#!/usr/bin/env bash
# Prints sclm's version, SCLMVersion.current in Sources/SCLMCore/Version.swift (the one place it is set), and
# fails when debian/changelog's newest entry names another: `sclm --version`, the changelog and the package
# then agree. A release bumps both (`dch -v VERSION`).
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/SCLMCore/Version.swift)
changelog=$(dpkg-parsechangelog -S Version)
if [ -z "$version" ] || [ "$version" != "$changelog" ]; then
    echo "error: SCLMVersion.current is '$version' but debian/changelog says '$changelog'; make them agree" >&2
    exit 1
fi
echo "$version"
