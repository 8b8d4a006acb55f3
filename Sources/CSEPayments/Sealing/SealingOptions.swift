public import CSECore
package import CSECrypto
public import CSEValidation

/// Where the 16 nonce bytes of a sealed payload come from.
public struct NonceSource: Sendable {
    let generate: @Sendable () throws(CSEError) -> [UInt8]

    /// OpenSSL's CSPRNG (`SecureRandom.bytes(16)`); the default. It fails closed.
    public static let secureRandom = NonceSource { () throws(CSEError) -> [UInt8] in try SecureRandom.bytes(16) }

    /// Always the same 16 bytes. **Tests only** (golden payloads): a repeated nonce defeats the
    /// payload's replay protection. Any other length makes sealing fail with
    /// ``CSEError/Code/paymentsInvalidNonce``.
    @_spi(Testing) public static func unsafeFixed(_ bytes: [UInt8]) -> NonceSource {
        NonceSource { () throws(CSEError) -> [UInt8] in bytes }
    }

    /// Creates a source from a closure that returns 16 bytes. **Tests only** (a failing source).
    @_spi(Testing) public init(_ generate: @escaping @Sendable () throws(CSEError) -> [UInt8]) {
        self.generate = generate
    }
}

/// How ``PaymentRequestSealer`` seals.
public struct SealingOptions: Sendable {
    /// Seal even when ``PaymentRequest/validate(in:)`` reports errors; the sealed request reports
    /// them (``SealedPaymentRequest/validationIssues``). Default `false`: an invalid request is
    /// refused with ``CSEError/Code/paymentsInvalidRequest``.
    public var allowInvalidRequest: Bool
    /// Accept a key whose modulus is on the deny-list of published keys (the TEST-ONLY demo key of
    /// `cse demo` and the tests). Default `false`.
    public var allowDemoKey: Bool
    /// The month validation treats as now; `nil` (the default) reads the system clock at each seal.
    public var currentMonth: CalendarMonth?
    /// The nonce source; ``NonceSource/secureRandom`` by default.
    public var nonceSource: NonceSource
    /// The device description encoded into ``SealedPaymentRequest/encodedClientMetaInfo``.
    public var clientMetaInfo: ClientMetaInfo
    /// The RSA engine of the JWE key encryption: ``RSAEngine/default`` unless a benchmark or test
    /// forces another one (`cse-bench`'s `seal-card/rsa2048/openSSL`).
    package var rsaEngine: RSAEngine = .default

    /// Creates options.
    public init(
        allowInvalidRequest: Bool = false, allowDemoKey: Bool = false, currentMonth: CalendarMonth? = nil,
        nonceSource: NonceSource = .secureRandom, clientMetaInfo: ClientMetaInfo = .current()
    ) {
        self.allowInvalidRequest = allowInvalidRequest
        self.allowDemoKey = allowDemoKey
        self.currentMonth = currentMonth
        self.nonceSource = nonceSource
        self.clientMetaInfo = clientMetaInfo
    }
}

/// The two values a merchant server forwards: `encryptedCustomerInput` (a JWE compact
/// serialization) and `encodedClientMetaInfo` (standard base64 of the client meta info JSON).
public struct SealedPaymentRequest: Hashable, Sendable, CustomStringConvertible {
    /// The JWE compact serialization of the payload.
    public let encryptedCustomerInput: String
    /// Standard base64 of the ``ClientMetaInfo`` JSON.
    public let encodedClientMetaInfo: String
    /// What ``PaymentRequest/validate(in:)`` reported for the sealed request: empty, unless
    /// ``SealingOptions/allowInvalidRequest`` let an invalid request be sealed anyway.
    public let validationIssues: [FieldIssue]

    /// Creates a sealed request from its parts.
    package init(encryptedCustomerInput: String, encodedClientMetaInfo: String, validationIssues: [FieldIssue] = []) {
        self.encryptedCustomerInput = encryptedCustomerInput
        self.encodedClientMetaInfo = encodedClientMetaInfo
        self.validationIssues = validationIssues
    }

    /// Lengths only.
    public var description: String {
        "SealedPaymentRequest(encryptedCustomerInput: \(encryptedCustomerInput.utf8.count) bytes, "
            + "encodedClientMetaInfo: \(encodedClientMetaInfo.utf8.count) bytes)"
    }
}
