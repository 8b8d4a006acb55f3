#!/usr/bin/env bash
# The README's "Library in five lines" snippet must be the code of Examples/Sources/FiveLines:
# the swift block under that heading, without its `import CSEKit` line, equals the lines between
# `// README begin` and `// README end` in main.swift (which imports CSEKit itself).
set -euo pipefail
cd "$(dirname "$0")/.."
readme=$(awk '/^## Library in five lines/{f=1} f&&/^```swift/{b=1; next} b&&/^```/{exit} b' README.md | grep -v '^import CSEKit$' | sed '/^$/d')
example=$(awk '/^\/\/ README begin/{b=1; next} /^\/\/ README end/{exit} b' Examples/Sources/FiveLines/main.swift | sed '/^$/d')
grep -qx 'import CSEKit' Examples/Sources/FiveLines/main.swift || { echo "FiveLines does not import CSEKit" >&2; exit 1; }
if [[ -z $readme || $readme != "$example" ]]; then
    echo "README.md's five-line snippet and Examples/Sources/FiveLines/main.swift differ:" >&2
    diff <(echo "$readme") <(echo "$example") >&2 || true
    exit 1
fi
echo "README snippet = Examples/Sources/FiveLines/main.swift ($(echo "$example" | wc -l) lines)"
