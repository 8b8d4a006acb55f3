public import CSECore
public import CSECrypto

/// The Amazon Payment Services (PayFort) request and response signature.
///
/// The public rule (APS "Signature Calculation"):
/// 1. take every parameter except `signature` itself;
/// 2. sort them by name, case-sensitively (byte order of the UTF-8 names, so `Z` < `_` < `a`);
/// 3. concatenate them as `name=value` with no separator;
/// 4. put the SHA request phrase (or, for responses, the SHA response phrase) before and after;
/// 5. hash with the account's SHA type and print lowercase hex.
///
/// Values are written as they are sent: strings verbatim, numbers as their JSON text, Booleans as
/// `true`/`false`. A parameter whose value is an object (the Apple Pay `apple_header` and
/// `apple_paymentMethod`) is written `name={k=v, k=v}` with its members in the order sent, as
/// the APS Apple Pay guide prints them. Arrays, `null` and deeper nesting have no documented form
/// and are refused rather than guessed (docs/GATEWAYS.md, "Signatures").
public enum APSSignature {
    /// The string that is hashed, as bytes: phrase, sorted `name=value` pairs, phrase.
    ///
    /// - Warning: The result contains the phrase. Wipe it after use (`sign(_:phrase:algorithm:)`
    ///   does); never log it.
    /// - Parameters:
    ///   - parameters: The request or response parameters (a `signature` member is ignored).
    ///   - phrase: The SHA request or response phrase.
    /// - Returns: The bytes to hash.
    /// - Throws: ``CSEError/Code/apsSignatureEmptyPhrase`` or
    ///   ``CSEError/Code/apsSignatureUnsupportedValue`` (the context names the parameter).
    package static func signingBytes(_ parameters: JSONObject, phrase: String) throws(CSEError) -> [UInt8] {
        try SecureBytes(phrase.utf8).withUnsafeBytes { (bytes) throws(CSEError) in try signingBytes(parameters, phraseBytes: bytes) }
    }

    /// `signingBytes(_:phrase:)` with the phrase as raw UTF-8 bytes (from a wiping buffer): the
    /// one implementation behind the `String` and ``SecureBytes`` entry points.
    static func signingBytes(_ parameters: JSONObject, phraseBytes phrase: UnsafeRawBufferPointer) throws(CSEError) -> [UInt8] {
        guard phrase.count > 0 else { throw CSEError(.apsSignatureEmptyPhrase, "the SHA phrase is empty") }
        let names = parameters.keys.filter { $0 != "signature" }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var out: [UInt8] = []
        out.reserveCapacity(phrase.count * 2 + 32 * names.count)
        out.append(contentsOf: phrase)
        do throws(CSEError) {
            for name in names {
                out.append(contentsOf: name.utf8)
                out.append(UInt8(ascii: "="))
                try appendValue(parameters[name]!, name: name, nested: false, to: &out)
            }
        } catch {
            secureZero(&out)
            throw error
        }
        out.append(contentsOf: phrase)
        return out
    }

    /// Computes the signature of a parameter set, with the phrase held in a wiping buffer; no
    /// copy of the phrase outlives the call.
    ///
    ///     let signature = try APSSignature.sign(Array(#"{"command":"PURCHASE",…}"#.utf8), phrase: phrase)
    /// - Parameters:
    ///   - parameters: The parameters: UTF-8 JSON text of an object, such as the request body
    ///     (a `signature` member is ignored).
    ///   - phrase: The SHA request phrase (or response phrase, to check a response).
    ///   - algorithm: The account's SHA type; SHA-256 by default.
    /// - Returns: The digest in lowercase hex.
    /// - Throws: a `json.*` error for text that is not a JSON object,
    ///   ``CSEError/Code/apsSignatureEmptyPhrase``, ``CSEError/Code/apsSignatureUnsupportedValue``
    ///   (the context names the parameter) or ``CSEError/Code/digestFailure``.
    public static func sign(
        _ parameters: some Collection<UInt8>, phrase: SecureBytes,
        algorithm: APSSignatureAlgorithm = .sha256
    ) throws(CSEError) -> String {
        try sign(try JSONObject.parse(parameters, what: "the APS parameters"), phrase: phrase, algorithm: algorithm)
    }

    /// ``sign(_:phrase:algorithm:)`` of parsed parameters (the clients, the CLI and the tests).
    /// - Parameters:
    ///   - parameters: The parameters (a `signature` member is ignored).
    ///   - phrase: The SHA request phrase (or response phrase, to check a response).
    ///   - algorithm: The account's SHA type; SHA-256 by default.
    /// - Returns: The digest in lowercase hex.
    /// - Throws: Any error of `signingBytes(_:phrase:)`, or ``CSEError/Code/digestFailure``.
    package static func sign(
        _ parameters: JSONObject, phrase: SecureBytes,
        algorithm: APSSignatureAlgorithm = .sha256
    ) throws(CSEError) -> String {
        var bytes = try phrase.withUnsafeBytes { (raw) throws(CSEError) in try signingBytes(parameters, phraseBytes: raw) }
        defer { secureZero(&bytes) }
        return Base16.encode(try algorithm.digest.hash(bytes))
    }

    /// Checks a signature in constant time (over the digest bytes; hex case is ignored), with the
    /// phrase held in a wiping buffer.
    /// - Parameters:
    ///   - signature: The received signature.
    ///   - parameters: The parameters it covers: UTF-8 JSON text of an object (a `signature`
    ///     member is ignored).
    ///   - phrase: The phrase the sender used.
    ///   - algorithm: The account's SHA type.
    /// - Returns: `true` when the signature matches. A signature that is not hex of the digest's
    ///   length is simply invalid.
    /// - Throws: a `json.*` error for text that is not a JSON object,
    ///   ``CSEError/Code/apsSignatureEmptyPhrase`` or
    ///   ``CSEError/Code/apsSignatureUnsupportedValue``.
    public static func isValid(
        _ signature: String, for parameters: some Collection<UInt8>, phrase: SecureBytes,
        algorithm: APSSignatureAlgorithm = .sha256
    ) throws(CSEError) -> Bool {
        try isValid(
            signature, for: try JSONObject.parse(parameters, what: "the APS parameters"), phrase: phrase,
            algorithm: algorithm)
    }

    /// ``isValid(_:for:phrase:algorithm:)`` of parsed parameters.
    /// - Parameters:
    ///   - signature: The received signature.
    ///   - parameters: The parameters it covers (a `signature` member is ignored).
    ///   - phrase: The phrase the sender used.
    ///   - algorithm: The account's SHA type.
    /// - Returns: `true` when the signature matches. A signature that is not hex of the digest's
    ///   length is simply invalid.
    /// - Throws: Any error of `signingBytes(_:phrase:)` (malformed parameters, empty phrase).
    package static func isValid(
        _ signature: String, for parameters: JSONObject, phrase: SecureBytes,
        algorithm: APSSignatureAlgorithm = .sha256
    ) throws(CSEError) -> Bool {
        var bytes = try phrase.withUnsafeBytes { (raw) throws(CSEError) in try signingBytes(parameters, phraseBytes: raw) }
        defer { secureZero(&bytes) }
        return matches(signature, expected: try algorithm.digest.hash(bytes))
    }

    /// ``sign(_:phrase:algorithm:)`` with the phrase as text (tests and known answers: a `String`
    /// cannot be wiped, so the public API takes ``SecureBytes``).
    package static func sign(
        _ parameters: JSONObject, phrase: String,
        algorithm: APSSignatureAlgorithm = .sha256
    ) throws(CSEError) -> String {
        try sign(parameters, phrase: SecureBytes(phrase.utf8), algorithm: algorithm)
    }

    /// ``isValid(_:for:phrase:algorithm:)`` with the phrase as text (tests and known answers).
    package static func isValid(
        _ signature: String, for parameters: JSONObject, phrase: String,
        algorithm: APSSignatureAlgorithm = .sha256
    ) throws(CSEError) -> Bool {
        try isValid(signature, for: parameters, phrase: SecureBytes(phrase.utf8), algorithm: algorithm)
    }

    /// Whether hex `signature` (either case) equals the digest `expected`, compared in constant time.
    static func matches(_ signature: String, expected: [UInt8]) -> Bool {
        guard let received = Base16.decode(signature), received.count == expected.count else { return false }
        return ConstantTime.equals(received, expected)
    }

    /// The text of a parameter value as it is signed and echoed (``JSONValue/scalarText``).
    package static func scalarText(_ value: JSONValue) -> String? { value.scalarText }

    static func appendValue(_ value: JSONValue, name: String, nested: Bool, to out: inout [UInt8]) throws(CSEError) {
        if let text = scalarText(value) {
            out.append(contentsOf: text.utf8)
            return
        }
        guard !nested, case .object(let object) = value else {
            throw CSEError(
                .apsSignatureUnsupportedValue,
                "APS signatures define no form for arrays, null or objects nested in objects",
                context: ["parameter": SecretMasking.echoIdentifier(name)])
        }
        out.append(UInt8(ascii: "{"))
        for (i, (key, member)) in object.enumerated() {
            if i > 0 { out.append(contentsOf: ", ".utf8) }
            out.append(contentsOf: key.utf8)
            out.append(UInt8(ascii: "="))
            try appendValue(member, name: name + "." + key, nested: true, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }
}
