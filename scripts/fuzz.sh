#!/usr/bin/env bash
# `make fuzz`: builds the fuzz targets (Sources/SCLMFuzz) with libFuzzer and AddressSanitizer, links one
# harness per target and runs each for FUZZ_SECONDS (default 180) over its corpus, one at a time.
#
#   FUZZ_TARGET=json      only that target (names: FuzzTarget.all; the folders of Tests/Fuzz/Corpus)
#   FUZZ_SECONDS=600      the time per target (libFuzzer -max_total_time)
#   FUZZ_RUNS=1000000     also stop a target after that many executions (libFuzzer -runs; default unbounded)
#   FUZZ_BUILD_ONLY=1     build and link, do not run
#
# SwiftPM cannot link a fuzzer executable itself (it links executables with --defsym main=…, so Swift's own
# main wins and the binary exits without fuzzing): the library targets are built with
# `swift build -c release --target SCLMFuzz -Xswiftc -sanitize=fuzzer,address` and each harness, a function exported
# as LLVMFuzzerTestOneInput, is linked with `swiftc -sanitize=fuzzer,address -parse-as-library`.
# New inputs that add coverage go into a scratch folder, not the committed corpus; a crash input is copied
# to Tests/Fuzz/Crashes/<target>/ and the script exits 1 after the remaining targets ran.
set -euo pipefail
cd "$(dirname "$0")/.."

SCRATCH=.build/fuzz
# Optimized (with the sanitizers still on): about ten times the executions per second of a debug build.
BUILD=$SCRATCH/release
SECONDS_PER_TARGET=${FUZZ_SECONDS:-180}
MODULES=(SCLMCore SCLMStore SCLMHTTP SCLMAuth SCLMArchive SCLMSync SCLMBridge SCLMBrowser SCLMImage SCLMFuzz)
C_MODULES=(CSQLite CCurl CArchive CCrypto CISAL CSpawn CPNG)

swift build -c release --scratch-path "$SCRATCH" --target SCLMFuzz -Xswiftc -sanitize=fuzzer,address

# SwiftPM names the package after its folder (-package-name): the harness needs the same to see `package` API.
package_name=$(grep -o '"-package-name","[^"]*"' "$SCRATCH/release.yaml" | head -1 | cut -d'"' -f4)
objects=()
for module in "${MODULES[@]}"; do objects+=("$BUILD/$module.build"/*.o); done
module_maps=()
for module in "${C_MODULES[@]}"; do module_maps+=(-Xcc "-fmodule-map-file=Sources/$module/module.modulemap"); done
# shellcheck disable=SC2207 # word splitting of pkg-config's flags is intended
libraries=($(pkg-config --libs sqlite3 libcurl libarchive libcrypto libisal libpng))

targets=$(ls Tests/Fuzz/Corpus)
if [ -n "${FUZZ_TARGET:-}" ]; then
    [ -d "Tests/Fuzz/Corpus/$FUZZ_TARGET" ] || { echo "no fuzz target '$FUZZ_TARGET'; targets: $targets" >&2; exit 2; }
    targets=$FUZZ_TARGET
fi

harness_dir=$SCRATCH/harness
mkdir -p "$harness_dir"
for target in $targets; do
    cat > "$harness_dir/$target.swift" <<SWIFT
import SCLMFuzz

private let target = FuzzTarget.named("$target")!

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    target.fuzz(data.map { Array(UnsafeBufferPointer(start: \$0, count: size)) } ?? [])
    return 0
}
SWIFT
    swiftc -sanitize=fuzzer,address -parse-as-library -swift-version 6 -O -use-ld=lld -package-name "$package_name" \
        -I "$BUILD/Modules" "${module_maps[@]}" "$harness_dir/$target.swift" "${objects[@]}" \
        "${libraries[@]}" -o "$harness_dir/fuzz-$target"
done
[ -n "${FUZZ_BUILD_ONLY:-}" ] && exit 0

failed=0
logs=$SCRATCH/logs
mkdir -p "$logs"
for target in $targets; do
    found=$(mktemp -d)
    crashes=Tests/Fuzz/Crashes/$target
    artifacts=$(mktemp -d)
    scratch=$(mktemp -d)
    # -malloc_limit_mb above 4 GiB: libarchive's LZMA decoder mallocs the dictionary an entry declares (up to
    # 4 GiB, reserved, not touched: resident memory stays small, and -rss_limit_mb still watches that).
    options=(-max_total_time="$SECONDS_PER_TARGET" -max_len=65536 -timeout=30 -rss_limit_mb=2048 -malloc_limit_mb=4608
        -artifact_prefix="$artifacts/" -print_final_stats=1)
    [ -n "${FUZZ_RUNS:-}" ] && options+=(-runs="$FUZZ_RUNS")
    inputs=("$found" "Tests/Fuzz/Corpus/$target")
    [ -d "$crashes" ] && inputs+=("$crashes")
    echo "== $target: up to ${SECONDS_PER_TARGET}s${FUZZ_RUNS:+ or $FUZZ_RUNS runs}; log in $logs/$target.log"
    # One process per target, one target at a time (libFuzzer's -jobs would fork workers that log to files).
    # The zip and folder targets write their input to a scratch folder: TMPDIR keeps it out of the shared /tmp.
    status=0
    TMPDIR=$scratch SWIFT_BACKTRACE=enable=no "$harness_dir/fuzz-$target" "${options[@]}" "${inputs[@]}" \
        > "$logs/$target.log" 2>&1 || status=$?
    # The figures for docs/development.md: executions, seconds, executions per second, coverage, features.
    last=$(grep -E '^#[0-9]+' "$logs/$target.log" | tail -1)
    echo "   $(grep -E '^Done [0-9]+ runs' "$logs/$target.log" || echo 'not done')" \
        "exec/s $(grep -oE 'average_exec_per_sec: *[0-9]+' "$logs/$target.log" | grep -oE '[0-9]+$')" \
        "$(echo "$last" | grep -oE 'cov: [0-9]+ ft: [0-9]+')"
    if [ "$status" -ne 0 ]; then
        failed=1
        mkdir -p "$crashes"
        cp "$artifacts"/* "$crashes/" 2>/dev/null || true
        grep -E 'ERROR: |Fatal error|SUMMARY' "$logs/$target.log" | head -5 >&2
        echo "!! $target failed (exit $status); the input is in $crashes/" >&2
    fi
    rm -rf "$found" "$artifacts" "$scratch"
done
exit $failed
