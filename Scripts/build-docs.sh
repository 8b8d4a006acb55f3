#!/usr/bin/env bash
# Builds the DocC documentation of CSEKit: .build/docs/CSEKit.doccarchive (static hosting layout).
#
#   Scripts/build-docs.sh                 build; every DocC warning is an error
#   SWIFT_BUILD_FLAGS=--enable-code-coverage Scripts/build-docs.sh   reuse a coverage build (CI)
#
# One umbrella catalog (Sources/CSEKit/CSEKit.docc) documents the whole public API under
# `import CSEKit`: the symbol graph of the CSEKit module is extracted with the symbols of the
# modules it re-exports (CSECore, CSECrypto, CSEJOSE, CSEValidation, CSEPayments, CSEGateways, and
# any module later added to Sources/CSEKit/CSEKit.swift), from the modules `swift build` built.
# Then `docc convert --warnings-as-errors`, and a check that every top-level public symbol is
# curated in a topic group of CSEKit.md (members are reached through their type's page).
#
# Open: python3 -m http.server -d .build/docs/site 8000 --bind 127.0.0.1, then
# http://127.0.0.1:8000/documentation/csekit/  — or `docc preview` (see README).
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(${SWIFT_BUILD_FLAGS:-})
swift build "${flags[@]}" --target CSEKit 2>&1 | tail -1
bin=$(swift build "${flags[@]}" --show-bin-path)
graphs=.build/docs/symbol-graphs
rm -rf .build/docs && mkdir -p "$graphs"

# The modules CSEKit re-exports, read from its source so a new module needs no edit here.
reexported=$(sed -nE 's/^@_exported (public )?import ([A-Za-z0-9_]+).*/\2/p' Sources/CSEKit/CSEKit.swift | paste -sd, -)
modulemaps=()
for map in "$bin"/*.build/module.modulemap; do modulemaps+=(-Xcc "-fmodule-map-file=$map"); done
includes=()
for dir in Sources/*/; do [[ -f $dir/module.modulemap ]] && includes+=(-I "$dir"); done
swift-symbolgraph-extract -module-name CSEKit -target "$(uname -m)-unknown-linux-gnu" \
    -I "$bin/Modules" "${includes[@]}" "${modulemaps[@]}" \
    -minimum-access-level public -skip-synthesized-members -emit-extension-block-symbols \
    -experimental-allowed-reexported-modules="$reexported" -output-dir "$graphs"
echo "symbol graph: CSEKit with re-exported $reexported"

if ! docc convert Sources/CSEKit/CSEKit.docc --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name CSEKit --fallback-bundle-identifier org.csekit.CSEKit \
    --output-path .build/docs/site --transform-for-static-hosting --warnings-as-errors \
    > .build/docs/convert.log 2>&1; then
    cat .build/docs/convert.log >&2
    echo "docc convert failed (every warning is an error)" >&2
    exit 1
fi
grep -iE "warning|error" .build/docs/convert.log || echo "docc convert: no warnings"
[[ -f .build/docs/site/index.html ]] || { echo "docc produced no site" >&2; exit 1; }

python3 - "$graphs/CSEKit.symbols.json" Sources/CSEKit/CSEKit.docc <<'PY'
import json, pathlib, re, sys
graph = json.load(open(sys.argv[1]))
curated = set()
for page in pathlib.Path(sys.argv[2]).glob("*.md"):
    curated |= set(re.findall(r"^\s*- ``([A-Za-z0-9_]+)``\s*$", page.read_text(), re.M))
top = sorted({s["pathComponents"][0] for s in graph["symbols"] if len(s["pathComponents"]) == 1})
missing = [name for name in top if name not in curated]
pages = sum(1 for _ in pathlib.Path(".build/docs/site/data/documentation").rglob("*.json"))
if missing:
    print("not in any topic group of Sources/CSEKit/CSEKit.docc:", ", ".join(missing), file=sys.stderr)
    sys.exit(1)
print(f"docs: {len(graph['symbols'])} public symbols, {len(top)} top-level, all curated in topic groups; {pages} pages")
PY
echo "DocC archive: .build/docs/site (no warnings)"
