#!/usr/bin/env bash
# swift-format over the Swift sources, with the repository's .swift-format configuration.
#
#   Scripts/format.sh           reformat in place
#   Scripts/format.sh --check   `swift format lint --strict`: fails (status 1) on any finding
#
# Covers Sources, Tests, Benchmarks, Fuzz, Examples (when present) and Package.swift. Generated
# files carry `// swift-format-ignore-file` (Scripts/gen-tables.py writes it).
set -euo pipefail
cd "$(dirname "$0")/.."
paths=()
for dir in Sources Tests Benchmarks Fuzz Examples; do [[ -d $dir ]] && paths+=("$dir"); done
paths+=(Package.swift)
case "${1:-}" in
--check) swift format lint --strict --parallel --recursive "${paths[@]}" ;;
"") swift format format --in-place --parallel --recursive "${paths[@]}" ;;
*) echo "usage: $0 [--check]" >&2; exit 64 ;;
esac
