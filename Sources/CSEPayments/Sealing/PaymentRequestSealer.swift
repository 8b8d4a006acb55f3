public import CSECore
public import CSECrypto
public import CSEJOSE
import CSEValidation

/// Seals payment requests into the `encryptedCustomerInput` a merchant server forwards in
/// CreatePayment, for one recipient key.
///
/// The JWE is compact serialization (RFC 7516 §7.1) with `alg` `RSA-OAEP` and `enc`
/// `A256CBC-HS512` by default (the Worldline wire format, reference §1.2) and `kid` = the
/// Client API `keyId`. The payload is written by `CustomerInputPayload` in a fixed key order.
/// A sealer is immutable and `Sendable`: build it once per key and seal from any thread.
///
///     let sealer = try PaymentRequestSealer(publicKeyResponse: PublicKeyResponse(json: body))
///     let sealed = try sealer.seal(request, clientSessionID: session)
public struct PaymentRequestSealer: Sendable {
    /// The `kid` written into every JWE.
    public let keyID: String
    /// The options every seal uses.
    public let options: SealingOptions
    private let encryptor: JWEEncryptor
    private let encodedClientMetaInfo: String

    /// Creates a sealer for a key.
    /// - Parameters:
    ///   - publicKey: The recipient's RSA public key.
    ///   - keyId: The Client API `keyId`, sent as the JWE `kid`.
    ///   - algorithm: `RSA-OAEP` (default) or `RSA-OAEP-256`.
    ///   - encryption: `A256CBC-HS512` (default) or another allowed `enc`.
    ///   - options: Validation, nonce, clock, demo-key and meta-info options.
    /// - Throws: ``CSEError/Code/paymentsDemoKeyRefused`` for a key whose modulus is on the
    ///   deny-list of published keys (the TEST-ONLY demo key, with any exponent) unless
    ///   `options.allowDemoKey`; `jwe.keyTooSmall` for keys under 2048 bits.
    public init(
        publicKey: RSAPublicKey, keyID: String, algorithm: JWEKeyAlgorithm = .rsaOAEP,
        encryption: JWEContentEncryption = .a256cbcHS512, options: SealingOptions = SealingOptions()
    ) throws(CSEError) {
        if !options.allowDemoKey, try RefusedKeys.isRefused(publicKey) {
            throw CSEError(
                .paymentsDemoKeyRefused,
                "refusing a key whose private key is published (the TEST-ONLY demo key modulus); pass allowDemoKey: true to use it deliberately"
            )
        }
        self.keyID = keyID
        self.options = options
        var encryptor = try JWEEncryptor(publicKey: publicKey, keyID: keyID, algorithm: algorithm, encryption: encryption)
        encryptor.rsaEngine = options.rsaEngine
        self.encryptor = encryptor
        self.encodedClientMetaInfo = options.clientMetaInfo.encoded
    }

    /// Creates a sealer from a Client API public-key response (`{"keyId","publicKey"}`).
    /// - Throws: As ``init(publicKey:keyID:algorithm:encryption:options:)``.
    public init(
        publicKeyResponse: PublicKeyResponse, algorithm: JWEKeyAlgorithm = .rsaOAEP,
        encryption: JWEContentEncryption = .a256cbcHS512, options: SealingOptions = SealingOptions()
    ) throws(CSEError) {
        try self.init(
            publicKey: publicKeyResponse.key, keyID: publicKeyResponse.keyID, algorithm: algorithm,
            encryption: encryption, options: options)
    }

    /// Validates and seals a request: the one place that validates before sealing, and reports
    /// what it found (the `validate` then `encrypt` order of the Worldline client SDKs).
    /// - Parameters:
    ///   - request: The customer input.
    ///   - clientSessionId: The Client API session id, written into the payload.
    /// - Returns: `encryptedCustomerInput` and `encodedClientMetaInfo`, and the
    ///   ``SealedPaymentRequest/validationIssues`` of a request sealed although it does not
    ///   validate (`options.allowInvalidRequest`).
    /// - Throws: ``CSEError/Code/paymentsInvalidRequest`` when the request does not validate
    ///   (unless `options.allowInvalidRequest`), naming fields and codes only, with the issues in
    ///   ``CSEError/validationIssues``; ``CSEError/Code/paymentsInvalidClientSessionID``;
    ///   ``CSEError/Code/paymentsUnknownCardBrand`` for the built-in card product when the card's
    ///   brand has no platform product id (`PlatformProductIDs`);
    ///   ``CSEError/Code/paymentsInvalidNonce``; `crypto.randomFailure`; `jwe.tooLarge`.
    public func seal(_ request: PaymentRequest, clientSessionID: String) throws(CSEError) -> SealedPaymentRequest {
        let issues = request.validate(in: ValidationContext(currentMonth: options.currentMonth ?? .now()))
        if !issues.isEmpty && !options.allowInvalidRequest {
            var fields: [String] = []
            for issue in issues where !fields.contains(issue.field) { fields.append(issue.field) }
            throw CSEError(
                .paymentsInvalidRequest, "the payment request does not validate; it was not sealed",
                context: [
                    "product": request.product.id, "fields": fields.joined(separator: ","),
                    "codes": issues.map { "\($0.field):\($0.code.rawValue)" }.joined(separator: ","),
                ], detail: ValidationIssues(issues))
        }
        try Self.checkSessionID(clientSessionID)
        let productID = try PlatformProductIDs.sealedProductID(for: request)
        let nonceBytes = try options.nonceSource.generate()
        guard nonceBytes.count == 16 else {
            throw CSEError(.paymentsInvalidNonce, "a nonce must be 16 bytes", context: ["bytes": String(nonceBytes.count)])
        }
        var payload = CustomerInputPayload.bytes(
            for: request, clientSessionID: clientSessionID, nonce: Base16.encode(nonceBytes), productID: productID)
        defer { secureZero(&payload) }
        let jwe = try encryptor.encrypt(payload)
        return SealedPaymentRequest(encryptedCustomerInput: jwe, encodedClientMetaInfo: encodedClientMetaInfo, validationIssues: issues)
    }

    /// Builds a sealer and seals one request (see ``seal(_:clientSessionID:)``).
    /// - Throws: The errors of ``init(publicKey:keyID:algorithm:encryption:options:)`` and
    ///   ``seal(_:clientSessionID:)``.
    package static func seal(
        _ request: PaymentRequest, publicKey: RSAPublicKey, keyID: String, clientSessionID: String,
        options: SealingOptions = SealingOptions()
    ) throws(CSEError) -> SealedPaymentRequest {
        try PaymentRequestSealer(publicKey: publicKey, keyID: keyID, options: options)
            .seal(request, clientSessionID: clientSessionID)
    }

    /// A session id is non-empty and has no control characters (it also travels in an HTTP header).
    static func checkSessionID(_ id: String) throws(CSEError) {
        guard !id.isEmpty, !id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw CSEError(.paymentsInvalidClientSessionID, "the client session id is empty or has control characters")
        }
    }
}
