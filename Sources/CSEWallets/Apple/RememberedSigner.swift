internal import CSECore
internal import CSECrypto

/// What the fast check of an Apple Pay signature needs of a verified chain's leaf, remembered with
/// the chain in ``VerifiedChainCache``: the `IssuerAndSerialNumber` a `SignerInfo` names it by,
/// and its P-256 key, imported once.
struct RememberedSigner: Sendable {
    /// The contents of the leaf's `IssuerAndSerialNumber` (RFC 5652 §10.2.4): the exact encodings
    /// of its `issuer` and `serialNumber`, as its DER carries them.
    let issuerAndSerial: [UInt8]
    /// The leaf's public key.
    let key: P256PublicKey

    /// The signer of `leaf`, or `nil` when its key is not P-256 or its DER cannot be read (then
    /// every token is checked with OpenSSL).
    init?(leaf: X509Certificate) {
        guard let key = try? P256PublicKey(subjectPublicKeyInfo: leaf.subjectPublicKeyInfo),
            let identity = try? Self.issuerAndSerial(certificate: leaf.der)
        else { return nil }
        self.issuerAndSerial = identity
        self.key = key
    }

    /// `issuer ‖ serialNumber` of a DER certificate (RFC 5280 §4.1: `tbsCertificate` is
    /// `[0] version OPTIONAL, serialNumber, signature, issuer, …`).
    /// - Throws: `wallet.malformed` for another structure.
    static func issuerAndSerial(certificate der: [UInt8]) throws(CSEError) -> [UInt8] {
        var reader = try BERReader(der)
        let certificate = try reader.next(tag: 0x30)
        var certificateFields = try reader.children(of: certificate)
        let tbs = try certificateFields.next(tag: 0x30)
        var fields = try certificateFields.children(of: tbs)
        if fields.peekTag == 0xA0 { _ = try fields.next() }
        let serial = try fields.next(tag: 0x02)
        _ = try fields.next(tag: 0x30)
        let issuer = try fields.next(tag: 0x30)
        return Array(issuer.encoded) + Array(serial.encoded)
    }
}
