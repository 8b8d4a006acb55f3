internal import CSECore

/// The ASN.1 structures that carry RSA keys, read strictly and written minimally:
///
/// - `SubjectPublicKeyInfo` (RFC 5280 §4.1.2.7) with `rsaEncryption` and NULL parameters
///   (RFC 3279 §2.3.1), wrapping
/// - `RSAPublicKey` (RFC 8017 §A.1.1, "PKCS#1");
/// - `PrivateKeyInfo` / `OneAsymmetricKey` (RFC 5208 §5, RFC 5958 §2, "PKCS#8"), wrapping
/// - `RSAPrivateKey` (RFC 8017 §A.1.2), two-prime version 0 only.
package enum RSAKeyStructures {
    /// DER of OID 1.2.840.113549.1.1.1 (rsaEncryption), without tag and length.
    static let rsaEncryptionOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]

    /// A public key's integers, as big-endian magnitudes without leading zeros.
    struct PublicComponents {
        var modulus: ArraySlice<UInt8>
        var exponent: ArraySlice<UInt8>
    }

    /// A two-prime private key's integers (RFC 8017 §3.2, second representation), big-endian
    /// magnitudes without leading zeros. Slices of the caller's (secret) buffer.
    struct PrivateComponents {
        var modulus: ArraySlice<UInt8>
        var publicExponent: ArraySlice<UInt8>
        var privateExponent: ArraySlice<UInt8>
        var prime1: ArraySlice<UInt8>
        var prime2: ArraySlice<UInt8>
        var exponent1: ArraySlice<UInt8>
        var exponent2: ArraySlice<UInt8>
        var coefficient: ArraySlice<UInt8>

        var publicComponents: PublicComponents { PublicComponents(modulus: modulus, exponent: publicExponent) }
    }

    // MARK: Reading

    /// The kinds of DER key structure ``kind(of:)`` tells apart.
    package enum DERKeyKind: Equatable {
        /// `SubjectPublicKeyInfo` or PKCS#1 `RSAPublicKey`.
        case publicKey
        /// PKCS#8 `PrivateKeyInfo` or PKCS#1 `RSAPrivateKey`.
        case privateKey
    }

    /// Tells a public from a private DER key by the shape of its outer SEQUENCE alone, without
    /// interpreting any value, so the one reader that applies reports the real error:
    /// - first element a SEQUENCE: `SubjectPublicKeyInfo` (its AlgorithmIdentifier);
    /// - an INTEGER then a SEQUENCE: PKCS#8 (version, AlgorithmIdentifier);
    /// - exactly two elements: PKCS#1 `RSAPublicKey` (modulus, exponent);
    /// - more: PKCS#1 `RSAPrivateKey` (version and eight INTEGERs).
    ///
    /// Input whose outer TLVs do not even parse is called public, so the public reader reports
    /// the DER error. (Trying the public reader and then the private one reported the private
    /// reader's `der.unexpectedTag` for every flaw of a public key.)
    package static func kind(of der: ArraySlice<UInt8>) -> DERKeyKind {
        var top = DERReader(der)
        guard var outer = try? top.readConstructed(), outer.peekTag == DERTag.integer else { return .publicKey }
        guard (try? outer.readAny()) != nil else { return .publicKey }
        if outer.peekTag == DERTag.sequence { return .privateKey }
        var elements = 1
        while !outer.isAtEnd, elements <= 2 {
            guard (try? outer.readAny()) != nil else { break }
            elements += 1
        }
        return elements <= 2 && outer.isAtEnd ? .publicKey : .privateKey
    }

    /// Reads a DER public key: a `SubjectPublicKeyInfo` when the outer SEQUENCE starts with a
    /// SEQUENCE, otherwise a PKCS#1 `RSAPublicKey`.
    static func readPublicKey(_ der: ArraySlice<UInt8>) throws(CSEError) -> PublicComponents {
        var top = DERReader(der)
        var outer = try top.readConstructed()
        try top.finish()
        let components: PublicComponents
        if outer.peekTag == DERTag.sequence {
            try readRSAAlgorithmIdentifier(&outer)
            var bits = DERReader(try outer.readOctetAlignedBitString(), depth: outer.depth + 1)
            components = try readPKCS1PublicBody(&bits)
            try bits.finish()
        } else {
            components = try readPKCS1PublicFields(&outer)
        }
        try outer.finish()
        return components
    }

    /// Reads a DER `SubjectPublicKeyInfo` only.
    static func readSubjectPublicKeyInfo(_ der: ArraySlice<UInt8>) throws(CSEError) -> PublicComponents {
        var top = DERReader(der)
        var outer = try top.readConstructed()
        try top.finish()
        try readRSAAlgorithmIdentifier(&outer)
        var bits = DERReader(try outer.readOctetAlignedBitString(), depth: outer.depth + 1)
        let components = try readPKCS1PublicBody(&bits)
        try bits.finish()
        try outer.finish()
        return components
    }

    /// Reads a DER private key: PKCS#8 when the element after the version is a SEQUENCE (the
    /// AlgorithmIdentifier), otherwise a PKCS#1 `RSAPrivateKey`.
    static func readPrivateKey(_ der: ArraySlice<UInt8>) throws(CSEError) -> PrivateComponents {
        var top = DERReader(der)
        var outer = try top.readConstructed()
        try top.finish()
        let version = try outer.readSmallInteger()
        if outer.peekTag == DERTag.sequence {
            guard version == 0 || version == 1 else {
                throw CSEError(.keyMalformed, "unsupported PKCS#8 version", context: ["version": "\(version)"])
            }
            try readRSAAlgorithmIdentifier(&outer)
            var inner = DERReader(try outer.read(tag: DERTag.octetString), depth: outer.depth + 1)
            var sequence = try inner.readConstructed()
            try inner.finish()
            let pkcs1Version = try sequence.readSmallInteger()
            let components = try readPKCS1PrivateFields(&sequence, version: pkcs1Version)
            try sequence.finish()
            // Optional [0] attributes, and in version 1 an optional [1] publicKey: skipped.
            if outer.peekTag == DERTag.contextConstructed0 { _ = try outer.readAny() }
            if version == 1, outer.peekTag == 0x81 { _ = try outer.readAny() }
            try outer.finish()
            return components
        }
        let components = try readPKCS1PrivateFields(&outer, version: version)
        try outer.finish()
        return components
    }

    /// AlgorithmIdentifier { rsaEncryption, NULL }.
    private static func readRSAAlgorithmIdentifier(_ reader: inout DERReader) throws(CSEError) {
        var algorithm = try reader.readConstructed()
        let oid = try algorithm.read(tag: DERTag.objectIdentifier)
        guard oid.elementsEqual(rsaEncryptionOID) else {
            throw CSEError(.keyUnsupportedType, "the key algorithm is not rsaEncryption (1.2.840.113549.1.1.1)")
        }
        guard !algorithm.isAtEnd else {
            throw CSEError(.keyMalformed, "rsaEncryption parameters must be NULL (RFC 3279 §2.3.1), not absent")
        }
        try algorithm.readNull()
        try algorithm.finish()
    }

    /// `RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }`, from its SEQUENCE.
    private static func readPKCS1PublicBody(_ reader: inout DERReader) throws(CSEError) -> PublicComponents {
        var sequence = try reader.readConstructed()
        let components = try readPKCS1PublicFields(&sequence)
        try sequence.finish()
        return components
    }

    private static func readPKCS1PublicFields(_ reader: inout DERReader) throws(CSEError) -> PublicComponents {
        let modulus = try reader.readUnsignedInteger()
        let exponent = try reader.readUnsignedInteger()
        return PublicComponents(modulus: modulus, exponent: exponent)
    }

    /// The fields of `RSAPrivateKey` after its version.
    private static func readPKCS1PrivateFields(_ reader: inout DERReader, version: Int) throws(CSEError) -> PrivateComponents {
        switch version {
        case 0: break
        case 1: throw CSEError(.keyUnsupportedType, "multi-prime RSA keys are not supported")
        default: throw CSEError(.keyMalformed, "unsupported RSAPrivateKey version", context: ["version": "\(version)"])
        }
        return PrivateComponents(
            modulus: try reader.readUnsignedInteger(),
            publicExponent: try reader.readUnsignedInteger(),
            privateExponent: try reader.readUnsignedInteger(),
            prime1: try reader.readUnsignedInteger(),
            prime2: try reader.readUnsignedInteger(),
            exponent1: try reader.readUnsignedInteger(),
            exponent2: try reader.readUnsignedInteger(),
            coefficient: try reader.readUnsignedInteger())
    }

    // MARK: Writing

    /// DER `RSAPublicKey` (PKCS#1).
    static func writePKCS1PublicKey(modulus: [UInt8], exponent: [UInt8]) -> [UInt8] {
        var writer = DERWriter()
        writer.appendConstructed { body in
            body.appendUnsignedInteger(modulus)
            body.appendUnsignedInteger(exponent)
        }
        return writer.bytes
    }

    /// DER `SubjectPublicKeyInfo` with rsaEncryption and NULL parameters.
    static func writeSubjectPublicKeyInfo(modulus: [UInt8], exponent: [UInt8]) -> [UInt8] {
        let pkcs1 = writePKCS1PublicKey(modulus: modulus, exponent: exponent)
        var writer = DERWriter()
        writer.appendConstructed { spki in
            spki.appendConstructed { algorithm in
                algorithm.append(tag: DERTag.objectIdentifier, value: rsaEncryptionOID)
                algorithm.appendNull()
            }
            spki.appendOctetAlignedBitString(pkcs1)
        }
        return writer.bytes
    }

    /// DER `RSAPrivateKey` (PKCS#1, version 0) in a zeroing buffer.
    static func writePKCS1PrivateKey(_ components: PrivateComponents) -> SecureBytes {
        var body = DERWriter(secretCapacity: components.modulus.count * 5 + 64)
        body.appendUnsignedInteger([0])
        for field in [
            components.modulus, components.publicExponent, components.privateExponent,
            components.prime1, components.prime2, components.exponent1, components.exponent2,
            components.coefficient,
        ] {
            body.appendUnsignedInteger(field)
        }
        var outer = DERWriter(secretCapacity: body.bytes.count + 8)
        outer.append(tag: DERTag.sequence, value: body.bytes)
        body.wipe()
        let result = SecureBytes(outer.bytes)
        outer.wipe()
        return result
    }
}
