#!/usr/bin/python3
"""Mints Apple Pay payment tokens (EC_v1, RSA_v1) with a private test PKI, for CSEWallets' tests.

Independent of CSEKit: Python `cryptography` (ECDH, ConcatKDFHash = NIST SP 800-56C single-step
KDF, AES-GCM with a 16-byte nonce, RSA-OAEP, ECDSA, X.509) and `asn1crypto` (the CMS SignedData,
built member by member so that every negative case can be made: tampered signed attributes, a
missing marker OID, the certificates in any order, any signing time).

The PKI mirrors Apple's: a root, an intermediate carrying 1.2.840.113635.100.6.2.14, a signing
leaf carrying 1.2.840.113635.100.6.29, and merchant Payment Processing certificates carrying
1.2.840.113635.100.6.32 (a DER UTF8String of the hex SHA-256 of the merchant identifier).

Protocol: stdin is a JSON list of case specs; stdout is one JSON object:
  {"root": PEM, "foreignRoot": PEM, "merchants": {name: {"certificate", "key", "merchantId"}},
   "cases": [{"name", "token", "signingTime", "plaintext", "z"?, "merchant"}...]}
Spec members (all optional but "name"): version ("EC_v1" | "RSA_v1"), signingTime (Unix seconds),
applicationData (hex), tamper ("data" | "header" | "signature" | "signedAttributes"),
leafMarker (bool), intermediateMarker (bool), swapCertificates (bool), expiredIntermediate (bool),
foreignRoot (bool), wrongPublicKeyHash (bool), leadingZeroZ (bool), merchant ("main" | "zeroHash"),
signerShape ("wrongDigest": a validly signed messageDigest of other content | "wrongDigestAlgorithm":
SHA-384 named as the digest algorithm, everything else SHA-256 | "secondSigner": the SignerInfo twice),
ber (bool: the outer layers in BER's indefinite-length form, as Apple writes them),
signerShape "unsignedAttributes" (a content-type attribute among unsigned attributes),
signedDataEdit ("revocation": a crls field that is no RevocationInfoChoice | "digestAlgorithms": a
digestAlgorithms SET holding an INTEGER | "version": a version INTEGER with a redundant zero octet;
each in the BER form of ber).
"""
import base64
import datetime
import hashlib
import json
import os
import sys

from asn1crypto import algos, cms, core, x509 as asn1x509
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.concatkdf import ConcatKDFHash
from cryptography.x509.oid import NameOID

LEAF_OID = "1.2.840.113635.100.6.29"
INTERMEDIATE_OID = "1.2.840.113635.100.6.2.14"
MERCHANT_OID = "1.2.840.113635.100.6.32"
DEFAULT_SIGNING_TIME = 1748779200  # 2025-06-01T12:00:00Z
NOT_BEFORE = datetime.datetime(2020, 1, 1)
NOT_AFTER = datetime.datetime(2040, 1, 1)


def name(cn):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def certificate(subject, key, issuer_name, issuer_key, ca, markers=(), not_after=NOT_AFTER, extra=()):
    builder = (
        x509.CertificateBuilder()
        .subject_name(name(subject))
        .issuer_name(issuer_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(NOT_BEFORE)
        .not_valid_after(not_after)
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if ca:
        builder = builder.add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
    for oid in markers:
        builder = builder.add_extension(x509.UnrecognizedExtension(x509.ObjectIdentifier(oid), b"\x05\x00"), critical=False)
    for oid, value in extra:
        builder = builder.add_extension(x509.UnrecognizedExtension(x509.ObjectIdentifier(oid), value), critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


def pem(cert):
    return cert.public_bytes(serialization.Encoding.PEM).decode()


def key_pem(key):
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()


class PKI:
    def __init__(self, label):
        self.root_key = ec.generate_private_key(ec.SECP256R1())
        self.root = certificate(label + " Root", self.root_key, name(label + " Root"), self.root_key, True)
        self.intermediate_key = ec.generate_private_key(ec.SECP256R1())
        self.leaf_key = ec.generate_private_key(ec.SECP256R1())

        # One certificate per set of parameters, so that tokens of one run share their chain as
        # Apple's do (a verifier's cache of verified chains is then warm for all but the first).
        self.issued = {}

    def intermediate(self, marker=True, not_after=NOT_AFTER):
        key = ("intermediate", marker, not_after)
        if key not in self.issued:
            self.issued[key] = certificate("Test Application Integration CA", self.intermediate_key, self.root.subject,
                                           self.root_key, True, [INTERMEDIATE_OID] if marker else [], not_after)
        return self.issued[key]

    def leaf(self, intermediate, marker=True):
        key = ("leaf", intermediate.serial_number, marker)
        if key not in self.issued:
            self.issued[key] = certificate("test-smp-broker-sign", self.leaf_key, intermediate.subject,
                                           self.intermediate_key, False, [LEAF_OID] if marker else [])
        return self.issued[key]


def merchant_certificate(pki, merchant_id, key):
    digest = hashlib.sha256(merchant_id.encode()).hexdigest().upper().encode()
    value = b"\x0c\x40" + digest  # DER UTF8String of 64 hex digits
    return certificate("merchant " + merchant_id, key, pki.root.subject, pki.root_key, False, [],
                       extra=[(MERCHANT_OID, value)])


def spki_der(public_key):
    return public_key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


def signed_data(content, leaf, leaf_key, certificates, signing_time, tamper_attributes, shape=None):
    digested = content + b"other" if shape == "wrongDigest" else content

    def attributes(when):
        return cms.CMSAttributes([
            cms.CMSAttribute({"type": "content_type", "values": ["data"]}),
            cms.CMSAttribute({"type": "signing_time", "values": [cms.Time({"utc_time": when})]}),
            cms.CMSAttribute({"type": "message_digest", "values": [hashlib.sha256(digested).digest()]}),
        ])

    when = datetime.datetime.fromtimestamp(signing_time, datetime.timezone.utc)
    signed = attributes(when)
    signature = leaf_key.sign(signed.dump(), ec.ECDSA(hashes.SHA256()))
    if tamper_attributes:
        signed = attributes(when + datetime.timedelta(seconds=1))
    leaf_asn1 = asn1x509.Certificate.load(leaf.public_bytes(serialization.Encoding.DER))
    signer = cms.SignerInfo({
        "version": "v1",
        "sid": cms.SignerIdentifier({"issuer_and_serial_number": cms.IssuerAndSerialNumber({
            "issuer": leaf_asn1.issuer, "serial_number": leaf_asn1.serial_number})}),
        "digest_algorithm": algos.DigestAlgorithm({"algorithm": "sha384" if shape == "wrongDigestAlgorithm" else "sha256"}),
        "signed_attrs": signed,
        "signature_algorithm": algos.SignedDigestAlgorithm({"algorithm": "sha256_ecdsa"}),
        "signature": signature,
    })
    if shape == "unsignedAttributes":
        signer["unsigned_attrs"] = cms.CMSAttributes([cms.CMSAttribute({"type": "content_type", "values": ["data"]})])
    data = cms.SignedData({
        "version": "v1",
        "digest_algorithms": [algos.DigestAlgorithm({"algorithm": "sha256"})],
        "encap_content_info": {"content_type": "data"},
        "certificates": [
            cms.CertificateChoices({"certificate": asn1x509.Certificate.load(c.public_bytes(serialization.Encoding.DER))})
            for c in certificates],
        "signer_infos": [signer, signer] if shape == "secondSigner" else [signer],
    })
    return cms.ContentInfo({"content_type": "signed_data", "content": data}).dump()


def tlv(data, index):
    """(tag, contents, end) of the DER value at data[index]."""
    length, start = data[index + 1], index + 2
    if length & 0x80:
        count = length & 0x7F
        length, start = int.from_bytes(data[start:start + count], "big"), start + count
    return data[index], data[start:start + length], start + length


def values(contents):
    """The whole encodings of the DER values in contents, with their tags."""
    out, index = [], 0
    while index < len(contents):
        tag, _, end = tlv(contents, index)
        out.append((tag, contents[index:end]))
        index = end
    return out


def indefinite(tag, parts):
    return bytes([tag, 0x80]) + b"".join(parts) + b"\x00\x00"


SIGNED_DATA_EDITS = {
    "revocation": lambda parts: parts[:-1] + [b"\xa1\x03\x02\x01\x00"] + parts[-1:],
    "digestAlgorithms": lambda parts: parts[:1] + [b"\x31\x03\x02\x01\x00"] + parts[2:],
    "version": lambda parts: [b"\x02\x02\x00\x01"] + parts[1:],
}


def outer_ber(der, edit=None):
    """ContentInfo, its [0], the SignedData and the SignedData's SETs in the indefinite form; edit
    names one of SIGNED_DATA_EDITS to apply to the SignedData's fields."""
    _, content_info, _ = tlv(der, 0)
    (_, oid), (_, explicit) = values(content_info)
    _, signed, _ = tlv(tlv(explicit, 0)[1], 0)
    parts = [indefinite(tag, [whole for _, whole in values(tlv(encoded, 0)[1])]) if tag in (0xA0, 0x31) else encoded
             for tag, encoded in values(signed)]
    if edit:
        parts = SIGNED_DATA_EDITS[edit](parts)
    return indefinite(0x30, [oid, indefinite(0xA0, [indefinite(0x30, parts)])])


def flip(data, index=0):
    data = bytearray(data)
    data[index] ^= 0x01
    return bytes(data)


def mint(spec, pki, foreign, merchants):
    version = spec.get("version", "EC_v1")
    merchant = merchants[spec.get("merchant", "main" if version == "EC_v1" else "rsa")]
    signing_time = spec.get("signingTime", DEFAULT_SIGNING_TIME)
    plaintext = json.dumps({
        "applicationPrimaryAccountNumber": "4895370012003478", "applicationExpirationDate": "291231",
        "currencyCode": "978", "transactionAmount": 1234, "deviceManufacturerIdentifier": "040010030273",
        "paymentDataType": "3DSecure",
        "paymentData": {"onlinePaymentCryptogram": "AOTESTCRYPTOGRAMAAAAAAAAAAA=", "eciIndicator": "7"},
    }, separators=(",", ":")).encode()
    result = {"name": spec["name"], "plaintext": plaintext.decode(), "signingTime": signing_time,
              "merchant": spec.get("merchant", "main" if version == "EC_v1" else "rsa")}
    cert, key = merchant["cert"], merchant["key"]
    if version == "EC_v1":
        while True:
            ephemeral = ec.generate_private_key(ec.SECP256R1())
            z = ephemeral.exchange(ec.ECDH(), key.public_key())
            if not spec.get("leadingZeroZ") or z[0] == 0:
                break
        party_v = hashlib.sha256(merchant["id"].encode()).digest()
        other_info = b"\x0did-aes256-GCM" + b"Apple" + party_v
        symmetric = ConcatKDFHash(hashes.SHA256(), 32, other_info).derive(z)
        key_material = spki_der(ephemeral.public_key())
        header_key = ("ephemeralPublicKey", key_material)
        result["z"] = z.hex()
    else:
        symmetric = os.urandom(16)
        key_material = key.public_key().encrypt(
            symmetric, padding.OAEP(mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None))
        header_key = ("wrappedKey", key_material)
    data = AESGCM(symmetric).encrypt(b"\x00" * 16, plaintext, None)
    transaction = os.urandom(32)
    application = bytes.fromhex(spec["applicationData"]) if "applicationData" in spec else b""
    content = key_material + data + transaction + application

    authority = foreign if spec.get("foreignRoot") else pki
    intermediate = authority.intermediate(
        marker=spec.get("intermediateMarker", True),
        not_after=datetime.datetime(2021, 1, 1) if spec.get("expiredIntermediate") else NOT_AFTER)
    leaf = authority.leaf(intermediate, marker=spec.get("leafMarker", True))
    chain = [intermediate, leaf] if spec.get("swapCertificates") else [leaf, intermediate]
    signature = signed_data(content, leaf, authority.leaf_key, chain, signing_time,
                            spec.get("tamper") == "signedAttributes", spec.get("signerShape"))
    if spec.get("ber") or spec.get("signedDataEdit"):
        signature = outer_ber(signature, spec.get("signedDataEdit"))

    tamper = spec.get("tamper")
    if tamper == "data":
        data = flip(data, len(data) // 2)
    elif tamper == "header":
        transaction = flip(transaction)
    elif tamper == "signature":
        # The ECDSA signature is the last TLV of the structure: flip a byte inside r.
        signature = flip(signature, len(signature) - 40)
    key_hash = hashlib.sha256(spki_der(cert.public_key())).digest()
    if spec.get("wrongPublicKeyHash"):
        key_hash = flip(key_hash)
    header = {header_key[0]: base64.b64encode(header_key[1]).decode(),
              "publicKeyHash": base64.b64encode(key_hash).decode(), "transactionId": transaction.hex()}
    if application:
        header["applicationData"] = application.hex()
    result["token"] = {"version": version, "data": base64.b64encode(data).decode(),
                       "signature": base64.b64encode(signature).decode(), "header": header}
    return result


def main():
    specs = json.load(sys.stdin)
    pki, foreign = PKI("Test"), PKI("Foreign")
    merchants = {}
    main_key = ec.generate_private_key(ec.SECP256R1())
    merchants["main"] = {"id": "merchant.com.example.test", "key": main_key}
    # A merchant identifier whose SHA-256 starts with a zero byte (about 1 in 256).
    counter = 0
    while hashlib.sha256(("merchant.com.example.zero%d" % counter).encode()).digest()[0] != 0:
        counter += 1
    merchants["zeroHash"] = {"id": "merchant.com.example.zero%d" % counter, "key": ec.generate_private_key(ec.SECP256R1())}
    merchants["rsa"] = {"id": "merchant.com.example.test", "key": rsa.generate_private_key(65537, 2048)}
    for merchant in merchants.values():
        merchant["cert"] = merchant_certificate(pki, merchant["id"], merchant["key"])
    out = {
        "root": pem(pki.root), "foreignRoot": pem(foreign.root),
        "merchants": {n: {"certificate": pem(m["cert"]), "key": key_pem(m["key"]), "merchantId": m["id"]}
                      for n, m in merchants.items()},
        "cases": [mint(spec, pki, foreign, merchants) for spec in specs],
    }
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
