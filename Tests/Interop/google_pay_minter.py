#!/usr/bin/python3
"""Mints Google Pay tokens with a private test PKI, for CSEKit's Google Pay tests.

An independent implementation of Google's "Payment data cryptography for merchants" with Python
`cryptography` (Debian python3-cryptography): its own root, intermediate and recipient keys,
ECDSA P-256/SHA-256 over the length-prefixed strings, ECIES-KEM (ECDH, HKDF-SHA-256 with info
"Google", AES-CTR with a zero counter block, HMAC-SHA-256).

Usage: google_pay_minter.py NOW_MS
Prints one JSON array on stdout. Each case:
  name, token (the token document as text), rootKeys (a keys.json document as text),
  privateKeys (PEM texts, tried in order), recipientId, protocols (accepted versions),
  senderId, clockMs, expect ("ok" or a wallet.* code), plaintext (for "ok" cases, the exact
  message text).
Every key is fresh on each run; no case depends on which keys were drawn.
"""
import base64
import json
import os
import struct
import sys

from cryptography.hazmat.primitives import hashes, hmac, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

NOW = int(sys.argv[1])
DAY = 86_400_000
RECIPIENT = "merchant:12345678901234567890"


def b64(data):
    return base64.b64encode(data).decode()


def new_key():
    return ec.generate_private_key(ec.SECP256R1())


def spki(key):
    return key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


def point(key):
    return key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def pem(key, fmt=serialization.PrivateFormat.PKCS8):
    return key.private_bytes(serialization.Encoding.PEM, fmt, serialization.NoEncryption()).decode()


def lv(*parts):
    out = b""
    for part in parts:
        data = part.encode("utf-8")
        out += struct.pack("<I", len(data)) + data
    return out


def sign(key, data):
    return b64(key.sign(data, ec.ECDSA(hashes.SHA256())))


def encrypt(recipient_public, plaintext, protocol, bad_tag=False):
    ephemeral = new_key()
    z = ephemeral.exchange(ec.ECDH(), recipient_public)
    eph = point(ephemeral)
    half = 16 if protocol == "ECv1" else 32
    material = HKDF(algorithm=hashes.SHA256(), length=2 * half, salt=None, info=b"Google").derive(eph + z)
    enc_key, mac_key = material[:half], material[half:]
    encryptor = Cipher(algorithms.AES(enc_key), modes.CTR(b"\x00" * 16)).encryptor()
    ciphertext = encryptor.update(plaintext.encode("utf-8")) + encryptor.finalize()
    mac = hmac.HMAC(mac_key, hashes.SHA256())
    mac.update(ciphertext)
    tag = bytearray(mac.finalize())
    if bad_tag:
        tag[0] ^= 1
    return {"encryptedMessage": b64(ciphertext), "ephemeralPublicKey": b64(eph), "tag": b64(bytes(tag))}


def escaped_json(value):
    """JSON text with every '=', '/' and 's' written as a \\u escape (as Gson writes '=' in
    Google's tokens), member names included: the decoded strings are unchanged."""
    text = json.dumps(value, separators=(",", ":"))
    out = []
    in_string = False
    backslash = False
    for ch in text:
        if in_string and not backslash and ch in "=/s":
            out.append("\\u%04x" % ord(ch))
            continue
        out.append(ch)
        if backslash:
            backslash = False
        elif ch == "\\":
            backslash = True
        elif ch == '"':
            in_string = not in_string
    return "".join(out)


class PKI:
    def __init__(self):
        self.root = new_key()
        self.intermediate = new_key()
        self.recipient = new_key()
        self.other_recipient = new_key()
        self.key_signatures = {}

    def sign_key(self, root, data):
        """The intermediate key's signature, made once per root and signed bytes: Google sends the
        same intermediateSigningKey with every token until it rotates the key, and CSEKit's cache
        of verified intermediate keys is keyed by those bytes (GooglePayWarmCacheTests)."""
        return self.key_signatures.setdefault((id(root), data), sign(root, data))


def message(expiration=NOW + DAY, message_id="AH2Ejtc-minted-message-id"):
    return json.dumps({
        "gatewayMerchantId": "exampleGatewayMerchantId",
        "messageExpiration": str(expiration),
        "messageId": message_id,
        "paymentMethod": "CARD",
        "paymentMethodDetails": {
            "authMethod": "CRYPTOGRAM_3DS", "pan": "4895370012003478", "expirationMonth": 12,
            "expirationYear": 2030, "cryptogram": "AgAAAAAABk4DWZ4C28yUQAAAAAA=", "eciIndicator": "07",
        },
    }, separators=(",", ":"))


def mint(pki, name, protocol="ECv2", plaintext=None, clock=NOW, expect="ok", root_expiration=NOW + 365 * DAY,
         key_expiration=NOW + 7 * DAY, signed_recipient=RECIPIENT, recipient=RECIPIENT, bad_tag=False,
         sender="Google", encode=None, tweak=None, signed_message_tweak=None, signed_key_tweak=None,
         intermediate_tweak=None, signing_root=None, protocols=None, private_keys=None):
    plaintext = message() if plaintext is None else plaintext
    if protocol == "ECv2SigningOnly":
        signed_message = plaintext
    else:
        inner = encrypt(pki.recipient.public_key(), plaintext, protocol, bad_tag)
        if signed_message_tweak:
            signed_message_tweak(inner)
        signed_message = (encode or (lambda v: json.dumps(v, separators=(",", ":"))))(inner)
    root = signing_root or pki.root
    token = {"protocolVersion": protocol, "signedMessage": signed_message}
    if protocol == "ECv1":
        token["signature"] = sign(root, lv(sender, signed_recipient, protocol, signed_message))
    else:
        signed_key_value = {"keyValue": b64(spki(pki.intermediate)), "keyExpiration": str(key_expiration)}
        if signed_key_tweak:
            signed_key_tweak(signed_key_value)
        signed_key = json.dumps(signed_key_value, separators=(",", ":"))
        intermediate = {"signedKey": signed_key, "signatures": [pki.sign_key(root, lv(sender, protocol, signed_key))]}
        if intermediate_tweak:
            intermediate_tweak(intermediate)
        token["intermediateSigningKey"] = intermediate
        token["signature"] = sign(pki.intermediate, lv(sender, signed_recipient, protocol, signed_message))
    if tweak:
        tweak(token)
    root_entry = {"keyValue": b64(spki(pki.root)), "protocolVersion": protocol}
    if root_expiration is not None:
        root_entry["keyExpiration"] = str(root_expiration)
    return {
        "name": name,
        "token": (encode or json.dumps)(token),
        "rootKeys": json.dumps({"keys": [root_entry]}),
        "privateKeys": private_keys if private_keys is not None else [pem(pki.recipient)],
        "recipientId": recipient,
        "protocols": protocols or [protocol],
        "senderId": sender,
        "clockMs": clock,
        "expect": expect,
        "plaintext": plaintext if expect == "ok" else None,
    }


def main():
    pki = PKI()
    other_root = new_key()
    cases = [
        mint(pki, "ECv2: a valid token decrypts"),
        mint(pki, "ECv1: a valid token decrypts", protocol="ECv1", root_expiration=None),
        mint(pki, "ECv2SigningOnly: a valid token verifies and returns its signed message",
             protocol="ECv2SigningOnly", plaintext='{"expTimeMillis":"1","note":"caf\u00e9 \u20ac"}'),
        mint(pki, "ECv2: the recipient key is found among several (rotation)",
             private_keys=[pem(pki.other_recipient), pem(pki.recipient, serialization.PrivateFormat.TraditionalOpenSSL)]),
        mint(pki, "escaped characters in signedMessage and the token's member names verify as received",
             encode=escaped_json),
        mint(pki, "a non-ASCII signed message is length-prefixed by its UTF-8 bytes",
             protocol="ECv2SigningOnly", plaintext='{"messageId":"\u00e9\u00e9\u00e9\U0001F600","paymentMethod":"CARD"}'),
        mint(pki, "a wrong recipient id fails the message signature", recipient="merchant:12345", expect="wallet.signatureInvalid"),
        mint(pki, "a foreign root fails the intermediate signature", signing_root=other_root,
             expect="wallet.signatureInvalid"),
        mint(pki, "an expired root key is not used", root_expiration=NOW - 1, expect="wallet.keyExpired"),
        mint(pki, "a root key expiring at the clock's instant is expired", root_expiration=NOW, expect="wallet.keyExpired"),
        mint(pki, "an expired intermediate key is refused", key_expiration=NOW - 1, expect="wallet.keyExpired"),
        mint(pki, "an expired message is refused", plaintext=message(expiration=NOW - 1), expect="wallet.messageExpired"),
        mint(pki, "a message one millisecond before its expiry is accepted", plaintext=message(expiration=NOW + 1)),
        mint(pki, "a bad tag is refused before decryption", bad_tag=True, expect="wallet.decryptionFailed"),
        mint(pki, "a token for another recipient key is refused", private_keys=[pem(pki.other_recipient)],
             expect="wallet.decryptionFailed"),
        mint(pki, "an extra outer member is refused", tweak=lambda t: t.update({"extra": "x"}), expect="wallet.malformed"),
        mint(pki, "a missing outer member is refused", tweak=lambda t: t.pop("intermediateSigningKey"),
             expect="wallet.malformed"),
        mint(pki, "ECv1 with an intermediateSigningKey member is refused", protocol="ECv1", root_expiration=None,
             tweak=lambda t: t.update({"intermediateSigningKey": {"signedKey": "{}", "signatures": []}}),
             expect="wallet.malformed"),
        mint(pki, "an extra member in signedMessage is refused",
             signed_message_tweak=lambda m: m.update({"extra": "x"}), expect="wallet.malformed"),
        mint(pki, "a missing member in signedMessage is refused",
             signed_message_tweak=lambda m: m.pop("tag"), expect="wallet.malformed"),
        mint(pki, "an extra member in intermediateSigningKey is refused",
             intermediate_tweak=lambda k: k.update({"extra": "x"}), expect="wallet.malformed"),
        mint(pki, "an extra member in signedKey is accepted (signed by the root; Tink allows it for extension)",
             signed_key_tweak=lambda k: k.update({"extra": "x"})),
        mint(pki, "a signedKey without keyExpiration is refused",
             signed_key_tweak=lambda k: k.pop("keyExpiration"), expect="wallet.malformed"),
        mint(pki, "a protocol version outside the accepted set is refused", protocol="ECv1", root_expiration=None,
             protocols=["ECv2"], expect="wallet.unsupportedVersion"),
        mint(pki, "the default set does not accept ECv2SigningOnly", protocol="ECv2SigningOnly",
             protocols=["ECv2"], expect="wallet.unsupportedVersion"),
        mint(pki, "a tampered signedMessage fails the signature",
             tweak=lambda t: t.update({"signedMessage": t["signedMessage"].replace('"tag":"', '"tag":"A', 1)}),
             expect="wallet.signatureInvalid"),
        mint(pki, "a signedMessage re-serialised after signing fails the signature",
             tweak=lambda t: t.update({"signedMessage": json.dumps(json.loads(t["signedMessage"]), indent=1)}),
             expect="wallet.signatureInvalid"),
        mint(pki, "pass callbacks sign with the sender id GooglePayPasses", protocol="ECv2SigningOnly",
             plaintext='{"eventType":"save"}', sender="GooglePayPasses"),
        mint(pki, "no configured private key is no matching key", private_keys=[], expect="wallet.noMatchingKey"),
        mint(pki, "an ephemeral point off the curve fails decryption like a bad tag",
             signed_message_tweak=lambda m: m.update({"ephemeralPublicKey": b64(b"\x04" + b"\x01" * 64)}),
             expect="wallet.decryptionFailed"),
        mint(pki, "a 16-byte tag fails decryption", signed_message_tweak=lambda m: m.update({"tag": b64(bytes(16))}),
             expect="wallet.decryptionFailed"),
        mint(pki, "signedMessage members that are not base64 are malformed",
             signed_message_tweak=lambda m: m.update({"tag": "***"}), expect="wallet.malformed"),
        mint(pki, "a messageExpiration that is a JSON number is malformed",
             plaintext='{"messageExpiration":1,"messageId":"x"}', expect="wallet.malformed"),
        mint(pki, "a messageExpiration that is not digits is malformed",
             plaintext='{"messageExpiration":"12a","messageId":"x"}', expect="wallet.malformed"),
        mint(pki, "paymentMethodDetails that is not an object is malformed",
             plaintext='{"paymentMethodDetails":"CARD"}', expect="wallet.malformed"),
        mint(pki, "a pan that is a JSON number is malformed",
             plaintext='{"paymentMethodDetails":{"pan":4111111111111111}}', expect="wallet.malformed"),
        mint(pki, "an expirationMonth that is not an integer is malformed",
             plaintext='{"paymentMethodDetails":{"expirationMonth":"twelve"}}', expect="wallet.malformed"),
        mint(pki, "a message that is JSON but not an object has no typed members", plaintext='["CARD"]'),
        # Issue #32, decision: Google always sends messageExpiration; a payment message without it
        # is refused, signed and decrypted correctly though it is.
        mint(pki, "an ECv2 payment message without messageExpiration is malformed",
             plaintext=json.dumps({k: v for k, v in json.loads(message()).items() if k != "messageExpiration"}),
             expect="wallet.malformed"),
        mint(pki, "an ECv1 payment message without messageExpiration is malformed", protocol="ECv1", root_expiration=None,
             plaintext=json.dumps({k: v for k, v in json.loads(message()).items() if k != "messageExpiration"}),
             expect="wallet.malformed"),
        # Issue #32, point 5: at most 8 signatures of the intermediate key; the genuine one last, so
        # that only the count can refuse the token.
        mint(pki, "eight intermediate signatures, the genuine one last, verify",
             intermediate_tweak=lambda i: i.update({"signatures": [b64(bytes(8))] * 7 + i["signatures"]})),
        mint(pki, "nine intermediate signatures are malformed before any verification",
             intermediate_tweak=lambda i: i.update({"signatures": [b64(bytes(8))] * 8 + i["signatures"]}),
             expect="wallet.malformed"),
    ]
    json.dump(cases, sys.stdout)


if __name__ == "__main__":
    main()
