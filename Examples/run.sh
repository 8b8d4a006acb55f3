#!/usr/bin/env bash
# Builds every example against the CSEKit in this checkout and runs each one end to end:
# five-lines seals a card request with a fresh key; receiving-service decrypts and checks it; a
# payload sealed for another session, and a tampered one, are refused.
set -euo pipefail
cd "$(dirname "$0")"
../Examples/check-readme.sh
swift build 2>&1 | tail -1
bin=$(swift build --show-bin-path)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

echo "--- five-lines"
"$bin/five-lines" "$work/private.pem" > "$work/sealed.json"
head -c 120 "$work/sealed.json"; echo "…"

echo "--- receiving-service"
"$bin/receiving-service" "$work/private.pem" example-session-1 < "$work/sealed.json"

echo "--- receiving-service refuses a payload for another session"
if "$bin/receiving-service" "$work/private.pem" other-session < "$work/sealed.json"; then echo "accepted a foreign session" >&2; exit 1; fi

echo "--- receiving-service refuses a tampered payload"
python3 - "$work/sealed.json" > "$work/tampered.json" <<'PY'
import json, sys
sealed = json.load(open(sys.argv[1]))
parts = sealed["encryptedCustomerInput"].split(".")
parts[3] = ("B" if parts[3][0] != "B" else "C") + parts[3][1:]   # flip the first ciphertext character
sealed["encryptedCustomerInput"] = ".".join(parts)
print(json.dumps(sealed))
PY
if "$bin/receiving-service" "$work/private.pem" example-session-1 < "$work/tampered.json"; then echo "accepted a tampered JWE" >&2; exit 1; fi
echo "examples: all ran as expected"
