#!/usr/bin/env bash
# Regenerates Sources/cse/startup-order.txt, the symbol ordering file with which `cse` is linked
# (Package.swift, `startupLinkerFlags`; Benchmarks/README.md, "One-shot memory").
#
#   Scripts/startup-order.sh
#
# A one-shot `cse` process's peak RSS is mostly pages of the executable, and the kernel maps the
# pages around each page touched (64 KB windows): the fewer windows start-up touches, the smaller
# the process. lld places the functions named in the file first in `.text`, in the file's order,
# so the code that start-up and the common commands run sits together.
#
# The list is every function of `cse` that these runs execute, in the order they first run
# (callgrind, `--demangle=no`): `cse --version`; one `cse seal` of a card request; `cse encrypt
# --lines` over 100 payloads; `cse wallet decrypt --lines` over 100 Apple Pay EC_v1 and 100 Google
# Pay ECv2 tokens (the vectors in ../shared/vectors/wallets; skipped when absent). A name that
# `cse` defines more than once (a local symbol of several object files, such as a value witness)
# is left out: lld would move every section that defines it.
#
# Run it after a change that renames or adds much start-up code, then rebuild and compare
# `Benchmarks/process-bench.sh`'s one-shot RSS. A stale list is harmless: lld skips names that no
# longer exist (`--no-warn-symbol-ordering`), and code not listed keeps its place.
# Prerequisites (Debian): valgrind, openssl, python3.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in valgrind openssl python3 objcopy nm; do
    command -v "$tool" >/dev/null || { echo "startup-order: needs $tool" >&2; exit 1; }
done
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

swift build -c release --product cse 2>&1 | tail -1
CSE="$(swift build -c release --product cse --show-bin-path)/cse"
# Valgrind cannot read the toolchain's DWARF 5; the symbol table is enough.
objcopy --strip-debug "$CSE" "$WORK/cse"

openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$WORK/key.pem" 2>/dev/null
openssl pkey -in "$WORK/key.pem" -pubout -out "$WORK/pub.pem"
printf '%s\n' '{"cardNumber":"4567350000000006","expiryDate":"12/30","cvv":"123","cardholderName":"Wile E. Coyote"}' > "$WORK/card.json"
for _ in $(seq 100); do printf '%s\n' '{"cardNumber":"4567350000000006","expiryDate":"1230"}'; done > "$WORK/payloads.jsonl"

run=0
profile() { # profile STDIN ARGS...: one callgrind run of cse
    local input=$1; shift
    run=$((run + 1))
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$WORK/run$run.out" "$WORK/cse" "$@" < "$input" > "$WORK/run$run.stdout" 2> "$WORK/run$run.stderr" ||
        { echo "startup-order: cse $* failed under valgrind:" >&2; tail -5 "$WORK/run$run.stderr" >&2; exit 1; }
}
profile /dev/null --version
profile "$WORK/card.json" seal --product builtin:card --key "$WORK/pub.pem" --kid order --session-id order
profile "$WORK/payloads.jsonl" encrypt --key "$WORK/pub.pem" --kid order --lines
wallets=../shared/vectors/wallets
if [[ -d $wallets ]]; then
    install -m 600 "$wallets/gala/private_key.pem" "$WORK/apple.key"
    python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1])), separators=(",", ":")))' "$wallets/gala/token.json" > "$WORK/apple1"
    for _ in $(seq 100); do cat "$WORK/apple1"; done > "$WORK/apple.jsonl"
    profile "$WORK/apple.jsonl" wallet decrypt --lines --merchant-cert "$wallets/gala/certificate.pem" --merchant-key "$WORK/apple.key" \
        --now 2021-09-01T19:03:06Z
    google=$wallets/moov-google-pay-decryptor
    install -m 600 "$google/merchant_private_key.pem" "$WORK/google.key"
    python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1])), separators=(",", ":")))' "$google/ecv2-test-environment.token.json" > "$WORK/google1"
    for _ in $(seq 100); do cat "$WORK/google1"; done > "$WORK/google.jsonl"
    profile "$WORK/google.jsonl" wallet decrypt --lines --recipient merchant:12345678901234567890 --merchant-key "$WORK/google.key" \
        --root-keys "$google/google-test-root-keys.json" --now 2022-02-22T02:37:49Z
else
    echo "startup-order: $wallets not found; the wallet runs are left out" >&2
fi

# Names defined more than once in cse (local symbols of several objects).
nm --defined-only "$WORK/cse" | awk '{ print $3 }' | sort | uniq -d > "$WORK/ambiguous.txt"

python3 - "$WORK" "$run" > Sources/cse/startup-order.txt <<'EOF'
import re, sys
work, runs = sys.argv[1], int(sys.argv[2])
ambiguous = set(open(f"{work}/ambiguous.txt").read().split())
order, seen = [], set()
for i in range(1, runs + 1):
    objects, functions, current = {}, {}, None
    for line in open(f"{work}/run{i}.out", errors="replace"):
        m = re.match(r"^(c?ob|c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if not m:
            continue
        kind, number, name = m.groups()
        table = objects if kind.endswith("ob") else functions
        if name is not None:
            table[number] = name
        if kind == "ob":
            current = objects[number]
        elif kind == "fn" and current is not None and current.endswith("/cse"):
            symbol = re.sub(r"'\d+$", "", functions[number])  # callgrind's recursion suffix
            if symbol.startswith("0x") or symbol in ambiguous or symbol in seen:
                continue
            seen.add(symbol)
            order.append(symbol)
print("# lld --symbol-ordering-file for cse: made by Scripts/startup-order.sh, do not edit")
print("\n".join(order))
EOF
echo "Sources/cse/startup-order.txt: $(($(wc -l < Sources/cse/startup-order.txt) - 1)) functions over $run runs"
# SwiftPM does not track the file as a link input: relink so that the new order takes effect.
rm -f "$CSE"
swift build -c release --product cse 2>&1 | tail -1
