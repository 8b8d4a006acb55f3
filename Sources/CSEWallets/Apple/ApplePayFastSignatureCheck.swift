internal import CSECore
internal import CSECrypto

/// The check of an Apple Pay signature whose certificates were verified before (issue #25,
/// "Speed"): the CMS structure read with ``CMSSignedData``, no OpenSSL CMS or X.509 parsing, one
/// SHA-256 and one ECDSA verification with the remembered leaf key.
///
/// It only ever accepts: any token outside the one shape it knows (see ``accept(_:content:entry:)``)
/// or failing any check goes to the OpenSSL path, which then gives today's error code. So a token
/// it accepts is one that path would accept too, and every refusal is the OpenSSL path's.
enum ApplePayFastSignatureCheck {
    /// id-signedData, 1.2.840.113549.1.7.2 (contents octets).
    static let signedDataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    /// id-data, 1.2.840.113549.1.7.1.
    static let dataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
    /// id-sha256, 2.16.840.1.101.3.4.2.1.
    static let sha256OID: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]
    /// ecdsa-with-SHA256, 1.2.840.10045.4.3.2.
    static let ecdsaWithSHA256OID: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]

    /// SHA-256 with its parameters absent or NULL (RFC 5754 §2).
    static func isSHA256(_ algorithm: CMSAlgorithm) -> Bool {
        algorithm.oid.elementsEqual(sha256OID) && (algorithm.parameters.map { $0.elementsEqual([0x05, 0x00]) } ?? true)
    }

    /// ecdsa-with-SHA256 with its parameters absent (RFC 5758 §3.2).
    static func isECDSAWithSHA256(_ algorithm: CMSAlgorithm) -> Bool {
        algorithm.oid.elementsEqual(ecdsaWithSHA256OID) && algorithm.parameters == nil
    }

    /// The signing time in seconds when every check passes, `nil` otherwise: `signedData`
    /// version 1 whose `digestAlgorithms` are all SHA-256, with detached `id-data` content and no
    /// `crls` (fields OpenSSL parses and this reader only skips); exactly one `SignerInfo`,
    /// version 1, without unsigned attributes (OpenSSL checks their rules), naming the remembered
    /// leaf by its exact issuer and serial number; SHA-256 and ecdsa-with-SHA256 (the digest's
    /// parameters absent or NULL, the signature's absent); signed attributes as
    /// ``CMSSignedAttributes`` reads them, with content type `id-data`, the SHA-256 of `content`,
    /// and, when they carry `CMSAlgorithmProtection`, the same two algorithms named there; the
    /// signing time inside the chain's remembered validity; and the signature over the attributes
    /// under the leaf key.
    static func accept(_ signed: CMSSignedData, content: [UInt8], entry: VerifiedChainCache.Entry) -> Int64? {
        guard let leaf = entry.signer, signed.contentType.elementsEqual(signedDataOID),
            signed.version.elementsEqual([1]), !signed.digestAlgorithms.isEmpty, signed.digestAlgorithms.allSatisfy(isSHA256),
            signed.encapsulatedContentType.elementsEqual(dataOID), !signed.hasEncapsulatedContent,
            !signed.hasRevocationInformation, signed.signers.count == 1, let signer = signed.signers.first,
            !signer.hasUnsignedAttributes, signer.version.elementsEqual([1]), signer.signerIdentifier.tag == 0x30,
            signer.signerIdentifier.contents.elementsEqual(leaf.issuerAndSerial),
            isSHA256(signer.digestAlgorithm), isECDSAWithSHA256(signer.signatureAlgorithm),
            let element = signer.signedAttributes, let attributes = try? CMSSignedAttributes(element),
            attributes.contentType.elementsEqual(dataOID), entry.validity.contains(attributes.signingTime),
            attributes.algorithmProtection.map({ isSHA256($0.digest) && isECDSAWithSHA256($0.signature) }) ?? true,
            let digest = try? DigestAlgorithm.sha256.hash(content),
            ConstantTime.equals(digest, attributes.messageDigest),
            leaf.key.isValidECDSASignature(signer.signature, forSHA256Of: attributes.signedBytes)
        else { return nil }
        return attributes.signingTime
    }
}
