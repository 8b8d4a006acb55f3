#!/usr/bin/env bash
# Builds every example against the CSEKit in this checkout and runs each one end to end:
# five-lines seals a card request with a fresh key; receiving-service decrypts and checks it; a
# payload sealed for another session, and a tampered one, are refused; client-api-flow runs the
# Client API flow against Tests/Emulators/client_api_emulator.py on 127.0.0.1, which decrypts the
# sealed body with its own key and checks it.
set -euo pipefail
cd "$(dirname "$0")"
../Examples/check-readme.sh
swift build 2>&1 | tail -1
bin=$(swift build --show-bin-path)
work=$(mktemp -d)
emulator_pid="" server_pid=""
cleanup() {
    # An emulator exits when its standard input closes; if it does not within 5 s, it is killed.
    if [[ -n $emulator_pid ]]; then
        exec {to_emulator}>&- || true
        for _ in $(seq 50); do kill -0 "$emulator_pid" 2>/dev/null || break; sleep 0.1; done
        kill "$emulator_pid" 2>/dev/null || true
    fi
    if [[ -n $server_pid ]]; then
        exec {to_server}>&- || true
        for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
        kill "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

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

echo "--- iban-check: the validation product alone"
"$bin/iban-check" "GB82 WEST 1234 5698 7654 32" "DE89370400440532013000" | tee "$work/iban.txt"
grep -qx "GB82WEST12345698765432 valid (GB)" "$work/iban.txt"
grep -qx "error: iban.checksum" "$work/iban.txt"
if "$bin/iban-check" "GB82 WEST 1234 5698 7654 33" > /dev/null; then echo "a bad check digit was accepted" >&2; exit 1; fi
# Its only C code, CICURegex, compiles without ICU's headers (as with no libicu-dev installed).
clang -fsyntax-only -Wall -Wextra -Werror -DCICU_NO_ICU_HEADERS -I ../Sources/CICURegex/include ../Sources/CICURegex/icu_regex.c
# It links no C library of the other layers (OpenSSL, GMP, libcurl, ICU).
if ldd "$bin/iban-check" | grep -E 'libcrypto|libssl|libgmp|libcurl|libicu'; then
    echo "iban-check links a library the validation product should not need" >&2; exit 1
fi

echo "--- client-api-flow against the Client API test emulator (127.0.0.1 only)"
fixtures=${CSEKIT_SHARED_VECTORS:-../../shared/vectors}/client-api
if [[ ! -d $fixtures ]] || ! /usr/bin/python3 -c 'import jwcrypto' 2>/dev/null; then
    # The same rule as the test suites: third-party fixtures are never copied into the repository.
    echo "SKIPPED client-api-flow: needs $fixtures (the SDKs' response fixtures) and python3-jwcrypto"
else
    session_id=5c0ffee0e1a2b3c4d5e6f708192a3b4c customer_id=cust-example-1
    coproc EMULATOR {
        exec /usr/bin/python3 -u ../Tests/Emulators/client_api_emulator.py --fixtures "$fixtures" \
            --session-id "$session_id" --customer-id "$customer_id" 2> "$work/emulator.err"
    }
    emulator_pid=$EMULATOR_PID
    exec {to_emulator}>&"${EMULATOR[1]}" {from_emulator}<&"${EMULATOR[0]}"
    # It prints `PORT <n>` once it accepts connections on 127.0.0.1; 30 s at most.
    read -r -t 30 -u "$from_emulator" ready || { cat "$work/emulator.err" >&2; echo "the emulator did not start" >&2; exit 1; }
    [[ $ready =~ ^PORT\ ([0-9]+)$ ]] || { echo "the emulator said '$ready', not PORT <n>" >&2; exit 1; }
    base="http://127.0.0.1:${BASH_REMATCH[1]}"
    session_json() {
        printf '{"clientSessionId":"%s","customerId":"%s","clientApiUrl":"%s/client","assetUrl":"%s/assets"}\n' \
            "$1" "$customer_id" "$base" "$base"
    }
    session_json "$session_id" > "$work/session.json"
    timeout 120 "$bin/client-api-flow" "$work/session.json" > "$work/flow.json" 2> "$work/flow.err" ||
        { cat "$work/flow.err" "$work/emulator.err" >&2; echo "client-api-flow failed" >&2; exit 1; }
    cat "$work/flow.err"
    head -c 120 "$work/flow.json"; echo "…"
    if grep -qE "$session_id|4111 ?1111 ?1111 ?1111" "$work/flow.err"; then echo "the session id or the card number was printed" >&2; exit 1; fi

    echo "--- the emulator decrypts the sealed body with its private key and checks it (merchant-side oracle)"
    {
        echo '{"cmd":"requests"}' >&"$to_emulator"
        read -r -t 20 -u "$from_emulator" log
        printf '%s\n' "$log" > "$work/requests.json"
    }
    python3 - "$base" "$work/flow.json" "$work/requests.json" "$customer_id" <<'PY'
import json, sys, urllib.request
base, flow, requests, customer = sys.argv[1:]
assert base.startswith("http://127.0.0.1:"), base            # loopback only
prefix = f"/client/v1/{customer}/"
paths = [f"{r['method']} {r['path']}" for r in json.load(open(requests))["requests"]]
expected = [f"GET {prefix}crypto/publickey", f"GET {prefix}products", f"POST {prefix}services/getIINdetails",
            f"GET {prefix}products/1"]
if paths != expected:
    sys.exit(f"the example called {paths}, not {expected}")
sealed = json.load(open(flow))
body = json.dumps({"encryptedCustomerInput": sealed["encryptedCustomerInput"], "expectedProductId": 1}).encode()
request = urllib.request.Request(base + "/merchant/payments", data=body, headers={"Content-Type": "application/json"})
try:
    verdict = json.load(urllib.request.urlopen(request, timeout=30))
except urllib.error.HTTPError as error:
    sys.exit("the emulator refused the sealed body: " + error.read().decode())
if verdict != {"ok": True, "paymentProductId": 1, "fields": ["cardNumber", "cardholderName", "expiryDate", "cvv"]}:
    sys.exit(f"unexpected verdict {verdict}")
print(f"calls: {', '.join(p.replace(prefix, '') for p in paths)}")
print(f"decrypted by the emulator: product {verdict['paymentProductId']}, fields {', '.join(verdict['fields'])}, "
      "session and nonce checked")
PY

    echo "--- client-api-flow stops at the first refused call (a session the platform does not know)"
    session_json other-session-0000000000000000 > "$work/other.json"
    if timeout 120 "$bin/client-api-flow" "$work/other.json" > /dev/null 2> "$work/other.err"; then
        echo "a foreign session was accepted" >&2; exit 1
    fi
    tail -1 "$work/other.err"
    # Bash runs one coprocess at a time: this emulator ends before the next example starts its own.
    exec {to_emulator}>&-
    for _ in $(seq 50); do kill -0 "$emulator_pid" 2>/dev/null || break; sleep 0.1; done
    kill "$emulator_pid" 2>/dev/null || true
    wait "$emulator_pid" 2>/dev/null || true
    emulator_pid=""
fi
echo "--- wallet-payment: decrypt an Apple Pay token and pay with its card in process (server test emulator, 127.0.0.1 only)"
wallets=${CSEKIT_SHARED_VECTORS:-../../shared/vectors}/wallets
if [[ ! -f $wallets/gala/token.json ]]; then
    # The same rule as the test suites: third-party vectors are never copied into the repository.
    echo "SKIPPED wallet-payment: needs $wallets (the public Apple Pay vectors)"
else
    coproc SERVER {
        exec /usr/bin/python3 -u ../Tests/Emulators/server_api_emulator.py --platform worldline \
            --secret-api-key example-wl-secret 2> "$work/server.err"
    }
    server_pid=$SERVER_PID
    exec {to_server}>&"${SERVER[1]}" {from_server}<&"${SERVER[0]}"
    read -r -t 30 -u "$from_server" ready || { cat "$work/server.err" >&2; echo "the server emulator did not start" >&2; exit 1; }
    [[ $ready =~ ^PORT\ ([0-9]+)$ ]] || { echo "the server emulator said '$ready', not PORT <n>" >&2; exit 1; }
    printf 'example-wl-secret' > "$work/wl-secret"
    # The gala vector's token at its signing time (index.json: clock_unix_ms 1630522986000).
    timeout 60 "$bin/wallet-payment" "$wallets/gala/token.json" "$wallets/gala/certificate.pem" "$wallets/gala/private_key.pem" \
        1630522986000 "http://127.0.0.1:${BASH_REMATCH[1]}" "$work/wl-secret" > "$work/wallet.out" 2> "$work/wallet.err" ||
        { cat "$work/wallet.err" "$work/server.err" >&2; echo "wallet-payment failed" >&2; exit 1; }
    cat "$work/wallet.out"
    grep -q '^payment .* PENDING_CAPTURE$' "$work/wallet.out" || { echo "no payment was created" >&2; exit 1; }
    grep -qx 'card WalletCard(apple-pay, accountNumber: 535375\*\*\*\*\*\*1169, cryptogram: <redacted>)' "$work/wallet.out" ||
        { echo "the card was not masked as expected" >&2; exit 1; }
    if grep -qE '5353756319181169|AMwBRjPWDnAgAA7Rls7mAoABFA==' "$work/wallet.out" "$work/wallet.err"; then
        echo "the DPAN or the cryptogram was printed" >&2; exit 1
    fi
    # What reached the platform: product 302 and the five decryptedPaymentData members, from the card.
    echo '{"cmd":"requests"}' >&"$to_server"
    read -r -t 20 -u "$from_server" log
    python3 - "$log" <<'PY'
import base64, json, sys
sent = [json.loads(base64.b64decode(r["bodyBase64"])) for r in json.loads(sys.argv[1])["requests"] if r["path"] == "/v2/1234/payments"]
assert len(sent) == 1, sent
mobile = sent[0]["mobilePaymentMethodSpecificInput"]
assert mobile["paymentProductId"] == 302, mobile
assert mobile["decryptedPaymentData"] == {"dpan": "5353756319181169", "expiryDate": "0924",
                                          "cryptogram": "AMwBRjPWDnAgAA7Rls7mAoABFA=="}, "unexpected decryptedPaymentData"
print("sent: product 302, decryptedPaymentData dpan, expiryDate 0924, cryptogram (from the decryptor's WalletCard)")
PY
    exec {to_server}>&-
    for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
fi
echo "examples: all ran as expected"
