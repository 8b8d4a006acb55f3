#!/usr/bin/env bash
# libFuzzer targets for CSEKit's parsers (docs/SECURITY.md, "Fuzzing").
#
#   Scripts/fuzz.sh TARGET SECONDS [libFuzzer flags…]   build and run one target
#   Scripts/fuzz.sh all SECONDS [libFuzzer flags…]      build and run every target in turn
#   Scripts/fuzz.sh build [TARGET…]                     build only
#   Scripts/fuzz.sh list                                the target names
#
# SECONDS is libFuzzer's -max_total_time; add e.g. -runs=1000000 to stop at a run count.
# Run long sessions under `nice -n 19` on shared machines.
#
# How it builds: the package's library modules are compiled once, in release mode with
# `-sanitize=fuzzer,address` (coverage instrumentation and AddressSanitizer; the C shims with
# -fsanitize=fuzzer-no-link,address), into .build/fuzz. Each target is then one
# `swiftc -parse-as-library` invocation: Fuzz/TARGET.swift plus Fuzz/Support/*.swift, linked with
# the modules' object files, libFuzzer's main and OpenSSL/GMP. No Package.swift target is
# involved, so a plain `swift build` never sees the fuzzers.
#
# Corpora: Tests/FuzzCorpus/TARGET/ holds the committed seeds (read only); new inputs go to
# .build/fuzz/corpus/TARGET/. A crash, leak, timeout or out-of-memory input is written to
# .build/fuzz/artifacts/TARGET/ and the script exits non-zero. Reproduce one with
#   .build/fuzz/bin/TARGET .build/fuzz/artifacts/TARGET/crash-…
set -euo pipefail
cd "$(dirname "$0")/.."

# One-time initialisation of Swift globals is not a leak (see Fuzz/lsan.supp).
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# Stacks deep enough to reach the one-time initialiser frame the suppressions name: a global
# built from parsed JSON (the built-in products) allocates ~40 frames deep, and the default 30
# frames cut the `_WZ`/swift_once frame off, so its memory was reported as a leak.
export ASAN_OPTIONS="malloc_context_size=96${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

TARGETS=(base64 jwe keys product mask validators regex iin gateway cli-lines rsa-differential http client-api google-pay apple-pay)
BUILD=.build/fuzz
MODULES=(CSECore CSECrypto CSEJOSE CSEValidation CSEPayments CSEGateways CSEWallets CSEWalletsHTTP CSEHTTP CSEClientAPI CSEServerAPI CSEJournal CSEKit CSEDemoKeys CSECLI CCSEShims CMontgomeryIFMA CCurl CICURegex CSQLiteLoader)

usage() { sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 64; }

# Extra sources a target compiles in besides Fuzz/Support.
extra_sources() {
    case "$1" in
        mask) echo "Tests/CSEValidationTests/MaskReferenceModel.swift" ;;
    esac
}

build_modules() {
    echo "fuzz: building the library modules (release, -sanitize=fuzzer,address) into $BUILD" >&2
    swift build -c release --build-path "$BUILD" --target CSECLI \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing -Xcc -fsanitize=fuzzer-no-link,address 2>&1 \
        | grep -E "error:|Build .*complete" >&2 || true
    test -f "$BUILD/release/Modules/CSECLI.swiftmodule" || { echo "fuzz: module build failed" >&2; exit 1; }
}

# The object files of a module's current sources. A Swift module's come from its output file map,
# so the objects of renamed or deleted sources left in an incremental .build/fuzz are not linked
# (they define the same symbols again); a C module's are every object in its build directory.
module_objects() {
    local dir=$BUILD/release/$1.build
    if [[ -f $dir/output-file-map.json ]]; then
        python3 -c 'import json, sys
for source, entry in json.load(open(sys.argv[1])).items():
    if source and "object" in entry: print(entry["object"])' "$dir/output-file-map.json" | sort
    else
        find "$dir" -name '*.o' | sort
    fi
}

link_target() {
    local target=$1
    [[ -f Fuzz/$target.swift ]] || { echo "fuzz: unknown target '$target' (try: ${TARGETS[*]})" >&2; exit 64; }
    local objects=()
    for module in "${MODULES[@]}"; do
        while IFS= read -r object; do objects+=("$object"); done < <(module_objects "$module")
    done
    mkdir -p "$BUILD/bin"
    # shellcheck disable=SC2046
    # The fuzz drivers are part of the package: they may use its `package` helpers, so they are
    # compiled with the package name SwiftPM gives the root package: its identity (the directory
    # name, lowercased) as a C99 identifier, every other character an underscore and a leading
    # digit prefixed with one (a checkout in `ci-check` is `ci_check`).
    local package_name
    package_name=$(basename "$PWD" | tr '[:upper:]' '[:lower:]' | sed -e 's/[^a-z0-9_]/_/g' -e 's/^[0-9]/_&/')
    swiftc -O -sanitize=fuzzer,address -parse-as-library -use-ld=lld \
        -package-name "$package_name" \
        -enable-upcoming-feature MemberImportVisibility -enable-upcoming-feature ExistentialAny \
        -I "$BUILD/release/Modules" \
        -Xcc -fmodule-map-file=Sources/COpenSSL/module.modulemap \
        -Xcc -fmodule-map-file=Sources/CGMP/module.modulemap \
        -Xcc -fmodule-map-file="$BUILD/release/CCurl.build/module.modulemap" \
        -Xcc -ISources/CCurl/include \
        -Xcc -fmodule-map-file="$BUILD/release/CICURegex.build/module.modulemap" \
        -Xcc -ISources/CICURegex/include \
        -Xcc -fmodule-map-file="$BUILD/release/CCSEShims.build/module.modulemap" \
        -Xcc -ISources/CCSEShims/include \
        -Xcc -fmodule-map-file="$BUILD/release/CMontgomeryIFMA.build/module.modulemap" \
        -Xcc -ISources/CMontgomeryIFMA/include \
        -Xcc -fmodule-map-file=Sources/CSQLite/module.modulemap \
        -Xcc -fmodule-map-file="$BUILD/release/CSQLiteLoader.build/module.modulemap" \
        -Xcc -ISources/CSQLiteLoader/include \
        Fuzz/Support/*.swift "Fuzz/$target.swift" $(extra_sources "$target") \
        "${objects[@]}" -lcrypto -lgmp \
        -o "$BUILD/bin/$target"
}

# Runs one target; prints "TARGET runs=N seconds=S exec/s=R result=ok|FAILED" last.
run_target() {
    local target=$1 seconds=$2; shift 2
    local corpus="$BUILD/corpus/$target" artifacts="$BUILD/artifacts/$target" log="$BUILD/logs/$target.log"
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")" "Tests/FuzzCorpus/$target"
    local started=$SECONDS status=0
    "$BUILD/bin/$target" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" "$@" "$corpus" "Tests/FuzzCorpus/$target" >"$log" 2>&1 || status=$?
    local runs rate
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    if [[ $status -ne 0 ]]; then
        grep -E "ERROR: |fuzz invariant broken|Test unit written|SUMMARY" "$log" | sed -n 1,20p >&2 || tail -30 "$log" >&2
        echo "$target runs=${runs:-?} seconds=$((SECONDS - started)) exec/s=${rate:-?} result=FAILED (log: $log)"
        return 1
    fi
    echo "$target runs=${runs:-?} seconds=$((SECONDS - started)) exec/s=${rate:-?} result=ok"
}

[[ $# -ge 1 ]] || usage
command=$1; shift
case "$command" in
    list) printf '%s\n' "${TARGETS[@]}" ;;
    build)
        build_modules
        for target in "${@:-${TARGETS[@]}}"; do link_target "$target"; done ;;
    all)
        [[ $# -ge 1 ]] || usage
        seconds=$1; shift
        build_modules
        for target in "${TARGETS[@]}"; do link_target "$target"; done
        failed=0
        for target in "${TARGETS[@]}"; do run_target "$target" "$seconds" "$@" || failed=1; done
        exit $failed ;;
    -h|--help) usage ;;
    *)
        [[ $# -ge 1 ]] || usage
        seconds=$1; shift
        build_modules
        link_target "$command"
        run_target "$command" "$seconds" "$@" ;;
esac
