#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets into Tests/FuzzCorpus/<target>/.

Run from the package root after `swift build --product cse` (JWE seeds are made by the built
`cse encrypt` with the TEST-ONLY demo key) with `openssl` on PATH (key formats):

    python3 Fuzz/Support/make-seeds.py

Seeds are real inputs (the RFC 4648 vectors, the embedded products and gateway tables, the
documents' example requests, keys in every supported format, JWEs for every alg/enc pair) and
edge cases (truncations, wrong sizes, hostile patterns, deep nesting). The files are named
`<label>`; rerunning overwrites them with the same content, except the JWEs and the
keys derived from them, whose randomness differs per run.
"""
import base64
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CORPUS = os.path.join(ROOT, "Tests", "FuzzCorpus")
CSE = os.path.join(ROOT, ".build", "debug", "cse")


def write(target, name, data):
    directory = os.path.join(CORPUS, target)
    os.makedirs(directory, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)


def swift_string(path, name):
    """The text of a multi-line Swift string literal `static let name = \"\"\" … \"\"\"`."""
    text = open(os.path.join(ROOT, path), encoding="utf-8").read()
    match = re.search(r"static let " + name + r' = """\n(.*?)\n\s*"""', text, re.S)
    return "\n".join(line.strip() for line in match.group(1).split("\n")) + "\n"


def openssl(*args, data=None):
    return subprocess.run(["openssl", *args], input=data, capture_output=True, check=True).stdout


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def der_int(der, offset):
    """Reads one DER INTEGER at offset: (value bytes without leading zero, next offset)."""
    assert der[offset] == 0x02
    length = der[offset + 1]
    offset += 2
    if length & 0x80:
        count = length & 0x7F
        length = int.from_bytes(der[offset:offset + count], "big")
        offset += count
    value = der[offset:offset + length]
    return value.lstrip(b"\x00") or b"\x00", offset + length


def pkcs1_components(pkcs1_der):
    """n, e, d, p, q, dp, dq, qi of a PKCS#1 RSAPrivateKey."""
    offset = 2 + (pkcs1_der[1] & 0x7F if pkcs1_der[1] & 0x80 else 0)
    _, offset = der_int(pkcs1_der, offset)  # version
    values = []
    for _ in range(8):
        value, offset = der_int(pkcs1_der, offset)
        values.append(value)
    return values


def base64_seeds():
    vectors = json.load(open(os.path.join(ROOT, "Vectors", "encoding", "base64.json")))
    for i, case in enumerate(vectors["encode"]):
        write("base64", f"rfc-{i}-standard", case["base64"])
        write("base64", f"rfc-{i}-url", case["base64url"])
        write("base64", f"rfc-{i}-raw", bytes.fromhex(case["hex"]))
    for i, case in enumerate(vectors["rejects"]):
        text = case.get("input", case.get("text", "")) if isinstance(case, dict) else case
        write("base64", f"reject-{i}", text)
    edge = ["=", "==", "===", "====", "Zg=", "Zh==", "Zm9=", "Zm 9v", "Zm9v\n", "-_-_", "+/+/", "A", "AB", "ABC",
            "////", "____", "Zg==Zg==", "\x00\x00\x00\x00", "\xff\xfe", "QUJD" * 64]
    for i, text in enumerate(edge):
        write("base64", f"edge-{i}", text.encode("latin-1"))


def key_material():
    public_pem = swift_string("Sources/CSEPayments/Sealing/DemoKeys.swift", "testOnlyPublicKeyPEM")
    private_pem = swift_string("Sources/CSEPayments/Sealing/DemoKeys.swift", "testOnlyPrivateKeyPEM")
    return public_pem, private_pem


def key_seeds(public_pem, private_pem):
    spki = openssl("pkey", "-pubin", "-outform", "DER", data=public_pem.encode())
    pkcs8 = openssl("pkey", "-outform", "DER", data=private_pem.encode())
    pkcs1_private = openssl("rsa", "-traditional", "-outform", "DER", data=private_pem.encode())
    pkcs1_public = openssl("rsa", "-pubin", "-RSAPublicKey_out", "-outform", "DER", data=public_pem.encode())
    rsa_public_pem = openssl("rsa", "-pubin", "-RSAPublicKey_out", data=public_pem.encode())
    rsa_private_pem = openssl("rsa", "-traditional", data=private_pem.encode())
    n, e, d, p, q, dp, dq, qi = pkcs1_components(pkcs1_private)
    public_jwk = {"kty": "RSA", "kid": "k1", "n": b64url(n), "e": b64url(e)}
    private_jwk = dict(public_jwk, d=b64url(d), p=b64url(p), q=b64url(q), dp=b64url(dp), dq=b64url(dq), qi=b64url(qi))
    small = openssl("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024")
    seeds = {
        "spki.pem": public_pem, "pkcs8.pem": private_pem, "spki.der": spki, "pkcs8.der": pkcs8,
        "pkcs1-private.der": pkcs1_private, "pkcs1-public.der": pkcs1_public,
        "rsa-public.pem": rsa_public_pem, "rsa-private.pem": rsa_private_pem,
        "jwk-public.json": json.dumps(public_jwk), "jwk-private.json": json.dumps(private_jwk),
        "client-api-response.json": json.dumps({"keyId": "k1", "publicKey": base64.b64encode(spki).decode()}),
        "rsa-1024-refused.pem": small,
        "empty": b"", "whitespace": b" \n\t\r\n", "brace": b"{", "jwk-no-kty.json": b'{"n":"AQAB","e":"AQAB"}',
        "jwk-wrong-kty.json": b'{"kty":"EC","crv":"P-256","x":"AA","y":"AA"}',
        "jwk-even-modulus.json": json.dumps({"kty": "RSA", "n": b64url(n[:-1] + bytes([n[-1] & 0xFE])), "e": "AQAB"}),
        "jwk-exponent-3.json": json.dumps({"kty": "RSA", "n": b64url(n), "e": "Aw"}),
        "pem-bad-label.pem": public_pem.replace("PUBLIC KEY", "CERTIFICATE"),
        "der-truncated.der": spki[:-7], "der-trailing.der": spki + b"\x00",
        "der-indefinite.der": b"\x30\x80" + spki[4:] + b"\x00\x00",
    }
    for name, data in seeds.items():
        write("keys", name, data)
    return spki


def jwe_seeds(public_pem):
    if not os.path.exists(CSE):
        sys.exit(f"missing {CSE}: run `swift build --product cse` first")
    with tempfile.NamedTemporaryFile("w", suffix=".pem", delete=False) as f:
        f.write(public_pem)
        key_file = f.name
    try:
        payload = b'{"clientSessionId":"s","nonce":"00000000000000000000000000000000","paymentProductId":1,"paymentValues":[]}'
        made = []
        for alg in ["RSA-OAEP", "RSA-OAEP-256"]:
            for enc in ["A256CBC-HS512", "A192CBC-HS384", "A128CBC-HS256", "A256GCM", "A192GCM", "A128GCM"]:
                jwe = subprocess.run([CSE, "encrypt", "--key", key_file, "--kid", "k1", "--alg", alg, "--enc", enc],
                                     input=payload, capture_output=True, check=True).stdout.strip()
                write("jwe", f"{alg}-{enc}", jwe)
                made.append(jwe)
        empty = subprocess.run([CSE, "encrypt", "--key", key_file, "--enc", "A256GCM"], input=b"",
                               capture_output=True).stdout.strip()
        if empty:
            write("jwe", "empty-plaintext", empty)
    finally:
        os.unlink(key_file)
    first = made[0]
    parts = first.split(b".")
    write("jwe", "four-segments", b".".join(parts[:4]))
    write("jwe", "six-segments", first + b".AAAA")
    write("jwe", "empty", b"")
    write("jwe", "dots", b"....")
    write("jwe", "padded-segment", first.replace(b".", b"=.", 1))
    write("jwe", "swapped-tag", b".".join(parts[:4] + [made[1].split(b".")[4]]))
    write("jwe", "alg-none", b".".join([b64url(b'{"alg":"none","enc":"A256GCM"}').encode()] + parts[1:]))
    write("jwe", "dir", b".".join([b64url(b'{"alg":"dir","enc":"A256GCM"}').encode(), b""] + parts[2:]))
    write("jwe", "zip", b".".join([b64url(b'{"alg":"RSA-OAEP","enc":"A256GCM","zip":"DEF"}').encode()] + parts[1:]))
    write("jwe", "crit", b".".join([b64url(b'{"alg":"RSA-OAEP","enc":"A256GCM","crit":["x"],"x":1}').encode()] + parts[1:]))
    write("jwe", "header-array", b".".join([b64url(b'[]').encode()] + parts[1:]))
    for name in ["rfc7516-a1", "rfc7516-a2"]:
        vector = json.load(open(os.path.join(ROOT, "Vectors", "jose", f"{name}.json")))
        compact = next((v for k, v in vector.items() if "compact" in k.lower() and isinstance(v, str)), None)
        if compact:
            write("jwe", name, compact)


def product_seeds():
    for name in ["card", "sepa-direct-debit"]:
        write("product", name, open(os.path.join(ROOT, "Vectors", "products", f"{name}.json"), "rb").read())

    def field(extra):
        return json.dumps({"id": "p1", "fields": [dict({"id": "f"}, **extra)]})

    hostile = {
        "regex-builtin-catastrophic": field({"dataRestrictions": {"validators": {"regularExpression": {"regularExpression": "(a+)+$"}}}}),
        "regex-icu-catastrophic": field({"dataRestrictions": {"validators": {"regularExpression": {"regularExpression": "(a+)+(?=b)c"}}}}),
        "regex-backreference": field({"dataRestrictions": {"validators": {"regularExpression": {"regularExpression": "(a*)*\\1b"}}}}),
        "regex-invalid": field({"dataRestrictions": {"validators": {"regularExpression": {"regularExpression": "(a"}}}}),
        "mask-invalid": field({"displayHints": {"mask": "{{99}"}}),
        "mask-long": field({"displayHints": {"mask": "{{" + "9" * 65540 + "}}"}}),
        "length-inverted": field({"dataRestrictions": {"validators": {"length": {"minLength": 10, "maxLength": 2}}}}),
        "range-strings": field({"dataRestrictions": {"validators": {"range": {"minValue": "1", "maxValue": "x"}}}}),
        "expiry-and-luhn": field({"dataRestrictions": {"isRequired": True, "validators": {"expirationDate": {}, "luhn": {}}}}),
        "fixed-list": field({"dataRestrictions": {"validators": {"fixedList": {"allowedValues": ["a", "b"]}}}}),
        "boleto": field({"dataRestrictions": {"validators": {"boletoBancarioRequiredness": {"fiscalNumberLength": 11}}}}),
        "unknown-validator": field({"dataRestrictions": {"validators": {"somethingNew": {}}}}),
        "duplicate-field": json.dumps({"id": "p", "fields": [{"id": "x"}, {"id": "x"}]}),
        "no-id": json.dumps({"fields": []}),
        "deep": "[" * 70 + "]" * 70,
        "accounts-on-file": json.dumps({"id": "p", "fields": [{"id": "cardNumber", "displayHints": {"mask": "{{9999}} {{9999}}"}}],
                                        "accountsOnFile": [{"id": 1, "paymentProductId": "p", "attributes": [
                                            {"key": "cardNumber", "value": "4111", "status": "READ_ONLY"}],
                                            "displayHints": {"labelTemplate": [{"attributeKey": "cardNumber", "mask": "{{9999}}"}]}}]}),
        "not-object": "42",
        "bom": "\ufeff{}",
    }
    for name, text in hostile.items():
        write("product", name, text)


def mask_seeds():
    masks = ["{{9999}} {{9999}} {{9999}} {{9999}} {{999}}", "{{99}}/{{99}}", "{{9999}} {{999999}} {{99999}}",
             "{{aaaa}}-{{AAAA}}-{{****}}", "+{{99}} ({{999}}) {{999}}-{{9999}}", "é{{9}}👍🏽{{*}}", "{{9}}9{{9}}",
             "no placeholders", "{{99}", "{{}}", "}}", "{{x}}", ""]
    values = ["4111111111111111", "4111 1111 1111 1111", "1235", "12/35", "abcdABCD1234", "٤١١١", "４１１１",
              "e\u0301👍🏽x", "", "9" * 40]
    for i, mask in enumerate(masks):
        for j, value in enumerate(values[:4] if i else values):
            write("mask", f"m{i}-v{j}", mask.encode() + b"\x00" + value.encode() + b"\x00" + bytes([3]))


def validators_seeds():
    # Selectors: 0 IBAN, 1 expiry, 2 cards, 3 amounts, 4 the simple rules.
    cases = [
        (0, "DE89 3704 0044 0532 0130 00", ""), (0, "GB82WEST12345698765432", ""), (0, "GB82WEST12345698765433", ""),
        (0, "NO9386011117947", ""), (0, "LC55HEMM000100010012001200023015", ""), (0, "XX00", ""), (0, "DE00", ""),
        (1, "1235", ""), (1, "0126", ""), (1, "1399", ""), (1, "122026", ""), (1, "\u0661\u0662\u0663\u0665", ""),
        (2, "4111111111111111", ""), (2, "5555 5555 5555 4444", ""), (2, "378282246310005", ""), (2, "6011", ""),
        (3, "12.34", "EUR"), (3, "1234", "JPY"), (3, "1.234", "KWD"), (3, "99999999999999999999", "EUR"), (3, "-1", "USD"),
        (4, "a@b.example", "10"), (4, "12345678909", "x"), (4, "", ""), (4, "true", "false"),
    ]
    for i, (selector, first, second) in enumerate(cases):
        write("validators", f"s{selector}-{i}", bytes([selector]) + first.encode() + b"\x00" + second.encode() + b"\x00\x04\x1a")


def regex_seeds():
    cases = [
        ("^[0-9]{3}[0-9]?$", "123"), ("(?:0[1-9]|1[0-2])[0-9]{2}", "1235"), ("(a+)+$", "a" * 64 + "!"),
        ("(a+)+(?=b)c", "a" * 40), ("(?<=a)b", "ab"), ("\\d{3}", "1234"), ("(a|aa)*b", "a" * 100), ("[", "x"),
        ("\\p{L}+", "h\u00e9llo"), ("(.*a){12}", "a" * 30), ("^$", ""), ("(\\d)\\1", "1122"),
        ("^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}$", "a@b.example"), ("(?i)abc", "ABC"),
        ("\\bword\\b", "a word here"), ("[^\\s]+", "\u00a0x"), ("x{2,1000}", "x" * 999), ("(?:ab)*?c", "ababc"),
    ]
    for i, (pattern, value) in enumerate(cases):
        write("regex", f"r{i}", pattern.encode() + b"\x00" + value.encode())


def iin_seeds():
    sample = "\r\n".join([
        "# test table", "low,high,productId,country,cardType,issuer", "40000000,49999999,1,,Credit,",
        "401757,401757,mada,sa,debit,\"Bank Al-Jazira, Jeddah\"", "40175712,40175712,special,SA,Prepaid,\"Test \"\"Issuer\"\"\"",
        "", "22000000,22049999,3,RU,Debit,", "22000000,22049999,1,RU,,", "51000000,55999999,2,,Credit,\"Some \"\"Quoted\"\" Bank\"",
    ]) + "\n"
    plain = "low,high,productId,country,cardType,issuer\n400000,499999,visa,,Credit,\n401757,401757,mada,SA,Debit,\n" \
            "4017570,40175799,mada2,SA,,\n510000,559999,mc,,,\n222100,272099,mc,,Debit,Bank\n"
    queries = b"\x004017 5712 3456,40175700,401757,4000000,55555555,2221001234,123,abc,4"
    write("iin", "sample-quoted", sample.encode() + queries)
    write("iin", "plain", plain.encode() + queries)
    write("iin", "overlap", b"10000000,19999999,a,,,\n12000000,12999999,b,,,\n12000000,12999999,c,,,\n12345600,12345699,d,,,\x00123456,12345678")
    edge = {
        "bad-low": b"4000000x,49999999,1,,,\n", "high-below-low": b"49999999,40000000,1,,,\n", "five-fields": b"1,2,3,4,5\n",
        "quote-in-field": b"400000,499999,a\"b,,,\n", "long-issuer": b"400000,499999,a,,," + b"x" * 300 + b"\n",
        "empty": b"", "header-only": b"LOW,HIGH,PRODUCTID,COUNTRY,CARDTYPE,ISSUER\n", "no-final-newline": b"400000,499999,a,de,credit,x",
        "bad-country": b"400000,499999,a,D1,,\n", "control-issuer": b"400000,499999,a,,,\x01\n",
    }
    for name, data in edge.items():
        write("iin", name, data)


def gateway_seeds():
    for i, name in enumerate(["aps-sdk-token", "aps-sdk-operation", "paysafe-setup", "paysafe-tokenize", "mastercard-update-session"]):
        write("gateway", f"table-{name}", b"\x00" + open(os.path.join(ROOT, "Vectors", "gateways", f"{name}.json"), "rb").read())
    selectors = {("aps", "SDK_TOKEN"): 1, ("aps", "AUTHORIZATION"): 2, ("aps", "PURCHASE"): 3, ("paysafe", "setup"): 4,
                 ("paysafe", "tokenize"): 5, ("mastercard", "updateSession"): 6}
    examples = json.load(open(os.path.join(ROOT, "Vectors", "gateways", "examples.json")))["examples"]
    for example in examples:
        selector = selectors.get((example["gateway"], example["operation"]), 7)
        body = json.dumps(example["request"]).encode()
        write("gateway", f"example-{example['id']}", bytes([selector]) + body)
        write("gateway", f"sign-{example['id']}", bytes([7]) + body)
    write("gateway", "nested-conflict", b"\x06" + b'{"a.b":"1","a":{"b":"2"}}')
    write("gateway", "array", b"\x01[]")
    write("gateway", "card-like", b"\x03" + b'{"card_number":"4111111111111111","expiry_date":"9912","amount":"x"}')


def cli_seeds():
    card = '{"cardNumber":"4111 1111 1111 1111","expiryDate":"12/35","cvv":"123","cardholderName":"A B"}'
    lines = [card, '{"cardNumber":"4111"}', "oops", "", '{"clientSessionId":"s2",' + card[1:], "[]", '"x"', "{}"]
    body = "\n".join(lines).encode()
    for selector in range(4):
        write("cli-lines", f"mixed-{selector}", bytes([selector, 40]) + body + b"\n")
        write("cli-lines", f"crlf-{selector}", bytes([selector, 8]) + body.replace(b"\n", b"\r\n"))
    write("cli-lines", "iin-numbers", b"\x02\x10" + b'"41111111"\n411111\n"abc"\n\n5555555555554444\r\n')
    write("cli-lines", "no-final-newline", b"\x01\x05" + card.encode())
    write("cli-lines", "only-newlines", b"\x01\x00\n\n\r\n\n")
    write("cli-lines", "lone-cr", b"\x00\x03abc\rdef\n\r")


def rsa_seeds():
    for selector in [0, 1, 2, 4, 5, 6, 8, 0x10, 0x14, 0x0A]:
        hash_len = 32 if selector & 4 else 20
        seed = bytes((i * 7 + selector) & 0xFF for i in range(hash_len))
        for name, message in [("empty", b""), ("short", b"customer input"), ("cek", bytes(range(64))),
                              ("max-sha1-2048", b"\xaa" * 214), ("over-sha1-2048", b"\xbb" * 215)]:
            write("rsa-differential", f"s{selector:02x}-{name}", bytes([selector]) + seed + message)


def main():
    public_pem, private_pem = key_material()
    base64_seeds()
    key_seeds(public_pem, private_pem)
    jwe_seeds(public_pem)
    product_seeds()
    mask_seeds()
    validators_seeds()
    regex_seeds()
    iin_seeds()
    gateway_seeds()
    cli_seeds()
    rsa_seeds()
    for target in sorted(os.listdir(CORPUS)):
        print(f"{target}: {len(os.listdir(os.path.join(CORPUS, target)))} seeds")


if __name__ == "__main__":
    main()
