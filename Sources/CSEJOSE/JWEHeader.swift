package import CSECore

/// The JOSE protected header of a JWE (RFC 7516 §4).
public struct JWEHeader: Hashable, Sendable {
    /// `alg` (RFC 7516 §4.1.1).
    public let algorithm: JWEKeyAlgorithm
    /// `enc` (RFC 7516 §4.1.2).
    public let encryption: JWEContentEncryption
    /// `kid` (RFC 7516 §4.1.6), if present.
    public let keyID: String?
    /// The whole header object as received, in member order (for `typ`, `cty` and the like).
    package let object: JSONObject

    /// Creates the header this library writes.
    package init(algorithm: JWEKeyAlgorithm, encryption: JWEContentEncryption, keyID: String?) {
        self.algorithm = algorithm
        self.encryption = encryption
        self.keyID = keyID
        var object = JSONObject()
        object["alg"] = .string(algorithm.name)
        object["enc"] = .string(encryption.name)
        if let keyID { object["kid"] = .string(keyID) }
        self.object = object
    }

    /// The exact JSON this library writes: `{"alg":"…","enc":"…","kid":"…"}` in that order, no
    /// whitespace, `kid` escaped per RFC 8259 (the Worldline wire format, without the Swift SDK's
    /// unescaped interpolation). Written with the package's one object writer,
    /// `JSONObjectWriter`, once per ``JWEEncryptor`` (which keeps the base64url of it).
    package var jsonBytes: [UInt8] {
        var out = JSONObjectWriter()
        out.string("alg", algorithm.name)
        out.string("enc", encryption.name)
        if let keyID { out.string("kid", keyID) }
        return out.finish()
    }

    /// Parses and checks a received protected header.
    ///
    /// The header must be a JSON object (RFC 7516 §5.2 step 4) with string `alg` and `enc` on the
    /// allow-lists. `zip` and any `crit` are refused (RFC 7516 §4.1.3, §4.1.13): this
    /// implementation understands no critical extensions.
    /// - Throws: ``CSEError/Code/jweMalformed``, ``CSEError/Code/jweUnsupportedAlgorithm``,
    ///   ``CSEError/Code/jweUnsupportedEncryption`` or ``CSEError/Code/jweUnsupportedHeader``.
    package init(json bytes: some Collection<UInt8>) throws(CSEError) {
        let value: JSONValue
        do throws(CSEError) {
            value = try JSONValue.parse(bytes, limits: JSONLimits(maxBytes: JWELimits.maxProtectedHeaderBytes, maxDepth: 8))
        } catch {
            throw CSEError(.jweMalformed, "protected header is not valid JSON", underlying: error)
        }
        guard case .object(let object) = value else { throw CSEError(.jweMalformed, "protected header is not a JSON object") }
        guard case .string(let alg)? = object["alg"] else { throw CSEError(.jweMalformed, "protected header has no string alg") }
        guard case .string(let enc)? = object["enc"] else { throw CSEError(.jweMalformed, "protected header has no string enc") }
        if object["zip"] != nil { throw CSEError(.jweUnsupportedHeader, "compressed JWE (zip) is not supported") }
        if object["crit"] != nil { throw CSEError(.jweUnsupportedHeader, "no crit header extension is understood") }
        let kid: String?
        switch object["kid"] {
        case nil: kid = nil
        case .string(let s)?: kid = s
        default: throw CSEError(.jweMalformed, "kid is not a string")
        }
        self.algorithm = try JWEKeyAlgorithm(name: alg)
        self.encryption = try JWEContentEncryption(name: enc)
        self.keyID = kid
        self.object = object
    }
}
