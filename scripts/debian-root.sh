#!/usr/bin/env bash
# A Debian 12 root that Tests/Debian boots with `systemd-nspawn -b`: debootstrap's minbase with systemd and
# dbus, and everything the package and its tests need baked in (a container with --private-network cannot
# reach the mirror): the package's shared libraries, chromium, xvfb, nginx-light, prometheus-node-exporter
# and python3 (the dev-server runs inside the container). Built once (cold: about 80 CPU-s and 2–3 min) and
# kept as a tar.zst (340 MB; 860 MB unpacked, mostly Chromium and Mesa), named by a hash of its package list.
#
# The cache lives outside the clone, in /var/cache/sclm (SCLM_DEBIAN_ROOT_CACHE overrides it), beside apt's
# own cache: every clone and worktree on the machine shares one root instead of rebuilding it in each
# .build/, and `swift package clean` does not throw it away.
#
# Usage: scripts/debian-root.sh   (prints the path of the tar.zst; needs root, debootstrap, systemd-nspawn)
set -euo pipefail

BASE=systemd,systemd-sysv,dbus
PACKAGES=(
    libpam-systemd ca-certificates
    # sclm's shared libraries (debian/control's ${shlibs:Depends}), so `apt install ./sclm_*.deb` works offline
    libsqlite3-0 libarchive13 libcurl4 libssl3 libisal2 libstdc++6 libgcc-s1 zlib1g acl
    # the recipe (docs/fleet.md) and the tests: the kiosk's browser and display, the site cache, the metrics
    chromium xvfb xauth nginx-light prometheus-node-exporter python3
)
MIRROR=${SCLM_DEBIAN_MIRROR:-http://deb.debian.org/debian}
CACHE=${SCLM_DEBIAN_ROOT_CACHE:-/var/cache/sclm}
# The archive's name: a hash of what goes in (bump LAYOUT when the steps below change what the root holds).
LAYOUT=2
key=$(echo "$LAYOUT $BASE ${PACKAGES[*]} $MIRROR" | sha256sum | cut -c1-12)
archive="$CACHE/debian-root-bookworm-$key.tar.zst"
if [ -s "$archive" ]; then
    echo "$archive"
    exit 0
fi

mkdir -p "$CACHE"
exec 9>"$CACHE/lock"
flock 9  # one build at a time; a second caller waits for it and uses its archive
if [ -s "$archive" ]; then
    echo "$archive"
    exit 0
fi
work=$(mktemp -d "$CACHE/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
root="$work/root"
fail() { tail -30 "$work/log" >&2; exit 1; }
debootstrap --variant=minbase --include="$BASE" --cache-dir=/var/cache/apt/archives bookworm "$root" "$MIRROR" \
    >"$work/log" 2>&1 || fail
# As on a stock Debian 12: its updates and security suites too (Chromium's releases come through security).
cat >"$root/etc/apt/sources.list" <<END
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb ${SCLM_DEBIAN_SECURITY:-http://deb.debian.org/debian-security} bookworm-security main
END
# No translations, manuals or documentation in the root (a third of its size; the tests read none), and
# Chromium's UI strings in English only.
cat >"$root/etc/dpkg/dpkg.cfg.d/01-test-root-minimal" <<END
path-exclude=/usr/share/locale/*
path-exclude=/usr/share/man/*
path-exclude=/usr/share/doc/*
path-exclude=/usr/share/info/*
path-exclude=/usr/lib/chromium/locales/*
path-include=/usr/lib/chromium/locales/en-US.pak
END
# The rest with apt inside the root (debootstrap's own resolver fails to configure Chromium's dependencies),
# with the host's network and its downloaded packages.
systemd-nspawn -q -D "$root" --register=no --keep-unit -M sclm-root-build --bind=/var/cache/apt/archives \
    --setenv=DEBIAN_FRONTEND=noninteractive sh -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends ${PACKAGES[*]}" >>"$work/log" 2>&1 \
    || fail
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/usr/share/locale/* "$root"/usr/share/man/* \
    "$root"/usr/share/doc/*
# No console login and no network configuration waiting in the booted container.
ln -sf /dev/null "$root/etc/systemd/system/console-getty.service"
ln -sf /dev/null "$root/etc/systemd/system/systemd-networkd-wait-online.service"
echo "sclm-test" >"$root/etc/hostname"
printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' >"$root/etc/hosts"  # as the installer writes
tar -C "$root" --numeric-owner -cf - . | zstd -q -T0 -3 -o "$work/root.tar.zst"
rm -f "$CACHE"/debian-root-bookworm-*.tar.zst  # an older list's
mv "$work/root.tar.zst" "$archive"
echo "$archive"
