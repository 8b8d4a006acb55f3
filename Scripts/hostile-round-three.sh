#!/usr/bin/env bash
# Reruns, from the shell, the hostile cases of issue #24 (hardening round three) that need no
# platform: each line runs `cse` the way the attack did and checks the outcome the fix promises
# (docs/SECURITY.md). The regex CPU and memory cases (points 1-3) have their own script,
# Benchmarks/regex-hostile.sh; the cases that need a platform answer (points 5, 8, 9, 10, 16) run
# against the loopback emulators in the test suites.
#
#   Scripts/hostile-round-three.sh [path/to/cse]     (default: the debug build)
set -euo pipefail
cd "$(dirname "$0")/.."
cse=${1:-.build/debug/cse}
[[ -x $cse ]] || { echo "no cse at $cse (swift build first)" >&2; exit 64; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

# check NAME EXPECTED-REGEX ACTUAL
check() {
    if [[ $3 =~ $2 ]]; then
        echo "ok    $1"
    else
        echo "FAIL  $1: expected /$2/, got: ${3:0:300}"
        failed=1
    fi
}

# Point 4: a dot segment as a Mastercard session id never reaches a URL.
printf '{"merchantId":"TEST1","apiPassword":"pw-123456"}' > "$work/mc.json"; chmod 600 "$work/mc.json"
out=$("$cse" mastercard session get .. --region eu --credentials "$work/mc.json" --endpoint http://127.0.0.1:1 2>&1 || true)
check "4: session id '..' refused" "serverAPI.invalidArgument" "$out"

# Point 6: a key id too long for the header we can read back is refused at key import.
"$cse" keygen --out "$work" --key-id "$(head -c 8100 /dev/zero | tr '\0' k)" > /dev/null 2>&1
out=$(echo '{"a":"b"}' | "$cse" encrypt --key "$work/public-key.json" 2>&1 || true)
check "6: 8,100-byte kid refused" "jwe.keyIdTooLong" "$out"

# Point 11: a Visa card whose BIN is also mada's seals (the first co-brand with a platform id).
out=$(printf '{"cardNumber":"4407 9500 0000 0007","expiryDate":"12/30","cvv":"123","cardholderName":"J Doe"}' |
    "$cse" seal --product builtin:card --demo --session-id s-1 2>&1 || true)
check "11: co-badged mada/Visa card seals" '^\{"encryptedCustomerInput":"eyJ' "$out"

# Point 14: a C1 control or a line separator in the client session id never becomes a header.
for bytes in '\xc2\x85' '\xc2\x9b' '\xe2\x80\xa8'; do
    printf '{"clientSessionId":"9b1f3e5d7c2a4e6f8a0b1c2d%be4f5a6b","customerId":"cx","clientApiUrl":"http://127.0.0.1:1","assetUrl":"http://127.0.0.1:1/assets"}' \
        "$bytes" > "$work/session.json"
    chmod 600 "$work/session.json"
    out=$("$cse" session publickey --session "$work/session.json" 2>&1 || true)
    check "14: session id with $bytes refused before sending" "http.invalidHeader" "$out"
done

# Point 15: C1 and bidi controls from an IIN table are escaped on stdout.
printf 'low,high,productId,country,cardType,issuer\n41111100,41111199,1,NL,CREDIT,Bank\xe2\x80\xaeEvil\xc2\x9b31m\n' > "$work/iin.csv"
out=$(echo 4111111111 | "$cse" iin --table "$work/iin.csv")
check "15: U+202E and U+009B escaped" '"issuer":"Bank\\u202eEvil\\u009b31m"' "$out"
if printf '%s' "$out" | grep -q $'\xc2\x9b\|\xe2\x80\xae'; then echo "FAIL  15: a raw control byte on stdout"; failed=1; fi

# Point 17: a secret file others can read is used, with a warning naming its mode.
echo c2VjcmV0LWtleQ== > "$work/secret"; chmod 644 "$work/secret"
out=$(printf 'x\n' | "$cse" worldline sign --secret-file "$work/secret" 2>&1 >/dev/null)
check "17: world-readable secret file warned" "is accessible by others \(mode 0644\)" "$out"
chmod 600 "$work/secret"
out=$(printf 'x\n' | "$cse" worldline sign --secret-file "$work/secret" 2>&1 >/dev/null)
check "17: owner-only secret file silent" "^$" "$out"

# Point 18: a JWK declared for signing is not an encryption key.
python3 - "$work/public.pem" > "$work/sig.jwk" <<'PY'
import base64, subprocess, sys
# The modulus of the public key keygen wrote, as openssl prints it.
text = subprocess.run(["openssl", "rsa", "-pubin", "-in", sys.argv[1], "-noout", "-modulus"], capture_output=True, text=True).stdout
n = bytes.fromhex(text.strip().split("=", 1)[1])
b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
print('{"kty":"RSA","use":"sig","n":"%s","e":"AQAB"}' % b64(n))
PY
out=$(echo '{"a":"b"}' | "$cse" encrypt --key "$work/sig.jwk" 2>&1 || true)
check "18: use=sig JWK refused" "jwk.wrongPurpose" "$out"
sed 's/"use":"sig"/"use":"enc"/' "$work/sig.jwk" > "$work/enc.jwk"
out=$(echo '{"a":"b"}' | "$cse" encrypt --key "$work/enc.jwk" 2>&1 || true)
check "18: use=enc JWK accepted" '^eyJ' "$out"

if [[ $failed -ne 0 ]]; then echo "hostile round three: FAILED" >&2; exit 1; fi
echo "hostile round three: every case held"
