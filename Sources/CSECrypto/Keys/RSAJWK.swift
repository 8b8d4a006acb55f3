internal import CSECore
internal import CCSEShims

/// JSON Web Keys for RSA (RFC 7517 §4, RFC 7518 §6.3): reading the members strictly and writing the
/// public form.
enum RSAJWK {
    /// The public members, decoded.
    struct PublicMembers {
        var modulus: [UInt8]
        var exponent: [UInt8]
    }

    /// The private members, decoded into arrays that ``wipe()`` zeroes.
    struct PrivateMembers {
        var modulus: [UInt8]
        var publicExponent: [UInt8]
        var privateExponent: [UInt8]
        var prime1: [UInt8]
        var prime2: [UInt8]
        var exponent1: [UInt8]
        var exponent2: [UInt8]
        var coefficient: [UInt8]

        var components: RSAKeyStructures.PrivateComponents {
            .init(
                modulus: modulus[...], publicExponent: publicExponent[...], privateExponent: privateExponent[...],
                prime1: prime1[...], prime2: prime2[...], exponent1: exponent1[...], exponent2: exponent2[...],
                coefficient: coefficient[...])
        }

        mutating func wipe() {
            secureZero(&modulus)
            secureZero(&publicExponent)
            secureZero(&privateExponent)
            secureZero(&prime1)
            secureZero(&prime2)
            secureZero(&exponent1)
            secureZero(&exponent2)
            secureZero(&coefficient)
        }
    }

    /// Parses JWK JSON text.
    /// - Throws: `jwk.malformed` when the text is not one JSON value (the context names the JSON code).
    static func parse(_ json: some Collection<UInt8>) throws(CSEError) -> JSONValue {
        do {
            return try JSONValue.parse(json, limits: JSONLimits(maxBytes: 64 * 1024, maxDepth: 8))
        } catch {
            throw CSEError(.jwkMalformed, "the JWK is not valid JSON", underlying: error)
        }
    }

    /// What an imported RSA key will do: wrap a content key (public) or unwrap one (private).
    enum Role {
        case wrap, unwrap

        /// The `key_ops` values (RFC 7517 §4.3) that allow the role.
        var operations: [String] { self == .wrap ? ["encrypt", "wrapKey"] : ["decrypt", "unwrapKey"] }
    }

    /// The `alg` values (RFC 7517 §4.4, RFC 7518 §4.1) a key may declare: the key-wrapping
    /// algorithms of CSEKit's JWE allow-list.
    static let wrappingAlgorithms = ["RSA-OAEP", "RSA-OAEP-256"]

    /// Refuses a key that declares another purpose (issue #24, point 18): `use` other than `enc`
    /// (RFC 7517 §4.2, case-sensitive), `key_ops` without an operation of `role` (§4.3), or an
    /// `alg` outside ``wrappingAlgorithms`` (§4.4). Absent members declare nothing.
    /// - Throws: `jwk.wrongPurpose` naming the member, or `jwk.malformed` for a member of the
    ///   wrong JSON type.
    private static func checkPurpose(_ object: JSONObject, role: Role) throws(CSEError) {
        if let use = object["use"] {
            guard let value = use.stringValue else { throw wrongType("use") }
            guard value == "enc" else {
                throw CSEError(
                    .jwkWrongPurpose, "the JWK's use is not enc: it is not an encryption key (RFC 7517 §4.2)",
                    context: ["member": "use", "use": SecretMasking.echoName(value, limit: 16)])
            }
        }
        if let ops = object["key_ops"] {
            guard let array = ops.arrayValue else { throw wrongType("key_ops") }
            var values: [String] = []
            for element in array {
                guard let value = element.stringValue else { throw wrongType("key_ops") }
                values.append(value)
            }
            guard values.contains(where: role.operations.contains) else {
                throw CSEError(
                    .jwkWrongPurpose,
                    "the JWK's key_ops allow neither \(role.operations.joined(separator: " nor ")) (RFC 7517 §4.3)",
                    context: ["member": "key_ops"])
            }
        }
        if let alg = object["alg"] {
            guard let value = alg.stringValue else { throw wrongType("alg") }
            guard wrappingAlgorithms.contains(value) else {
                throw CSEError(
                    .jwkWrongPurpose, "the JWK's alg is not RSA-OAEP or RSA-OAEP-256 (RFC 7517 §4.4)",
                    context: ["member": "alg", "alg": SecretMasking.echoName(value, limit: 16)])
            }
        }
    }

    private static func wrongType(_ member: String) -> CSEError {
        CSEError(.jwkMalformed, "the JWK member has the wrong JSON type", context: ["member": member])
    }

    /// Checks `kty` and rejects multi-prime keys; returns the object.
    private static func rsaObject(_ jwk: JSONValue) throws(CSEError) -> JSONObject {
        guard let object = jwk.objectValue else { throw CSEError(.jwkMalformed, "a JWK must be a JSON object") }
        guard let kty = object["kty"] else { throw CSEError(.jwkMalformed, "the JWK has no kty member") }
        guard let type = kty.stringValue else { throw CSEError(.jwkMalformed, "the JWK kty member is not a string") }
        guard type == "RSA" else {
            throw CSEError(.keyUnsupportedType, "the JWK is not an RSA key", context: ["kty": SecretMasking.echoName(type, limit: 16)])
        }
        if object["oth"] != nil {
            throw CSEError(.keyUnsupportedType, "multi-prime RSA keys (oth) are not supported")
        }
        return object
    }

    /// Decodes a Base64urlUInt member (RFC 7518 §2, §6.3).
    /// - Parameter minimal: reject a leading zero octet (required for `n` and `e` by §6.3.1.1);
    ///   otherwise leading zeros are stripped.
    private static func unsignedMember(_ object: JSONObject, _ name: String, minimal: Bool) throws(CSEError) -> [UInt8] {
        guard let value = object[name] else {
            throw CSEError(.jwkMalformed, "the RSA JWK has no \(name) member", context: ["member": name])
        }
        guard let text = value.stringValue else {
            throw CSEError(.jwkMalformed, "the RSA JWK member is not a string", context: ["member": name])
        }
        var bytes: [UInt8]
        do {
            bytes = try Base64URL.decode(text)
        } catch {
            throw CSEError(
                .jwkMalformed, "the RSA JWK member is not base64url",
                context: ["member": name, "base64": error.code.rawValue])
        }
        guard !bytes.isEmpty else {
            throw CSEError(.jwkMalformed, "the RSA JWK member is empty", context: ["member": name])
        }
        if bytes[0] == 0 && bytes.count > 1 {
            guard !minimal else {
                throw CSEError(
                    .jwkMalformed, "the RSA JWK member has a leading zero octet (RFC 7518 §6.3.1)",
                    context: ["member": name])
            }
            let stripped = Array(bytes.drop { $0 == 0 })
            secureZero(&bytes)
            bytes = stripped
        }
        return bytes
    }

    /// `n` and `e` of an RSA JWK.
    static func publicMembers(_ jwk: JSONValue) throws(CSEError) -> PublicMembers {
        let object = try rsaObject(jwk)
        try checkPurpose(object, role: .wrap)
        return PublicMembers(
            modulus: try unsignedMember(object, "n", minimal: true),
            exponent: try unsignedMember(object, "e", minimal: true))
    }

    /// All members of an RSA private JWK. RFC 7518 §6.3.2 makes `p`, `q`, `dp`, `dq`, `qi`
    /// optional but all-or-nothing; CSEKit requires them.
    static func privateMembers(_ jwk: JSONValue) throws(CSEError) -> PrivateMembers {
        let object = try rsaObject(jwk)
        try checkPurpose(object, role: .unwrap)
        guard object["d"] != nil else {
            throw CSEError(.jwkMalformed, "the RSA JWK is a public key (no d member)", context: ["member": "d"])
        }
        return PrivateMembers(
            modulus: try unsignedMember(object, "n", minimal: true),
            publicExponent: try unsignedMember(object, "e", minimal: true),
            privateExponent: try unsignedMember(object, "d", minimal: false),
            prime1: try unsignedMember(object, "p", minimal: false),
            prime2: try unsignedMember(object, "q", minimal: false),
            exponent1: try unsignedMember(object, "dp", minimal: false),
            exponent2: try unsignedMember(object, "dq", minimal: false),
            coefficient: try unsignedMember(object, "qi", minimal: false))
    }

    /// `{"kty":"RSA","kid":…,"n":…,"e":…}`.
    static func publicJWK(modulus: [UInt8], exponent: [UInt8], keyID: String?) -> String {
        var members: [(String, JSONValue)] = [("kty", .string("RSA"))]
        if let keyID { members.append(("kid", .string(keyID))) }
        members.append(("n", .string(Base64URL.encode(modulus))))
        members.append(("e", .string(Base64URL.encode(exponent))))
        return JSONValue.object(JSONObject(members)).serialized
    }
}
