/// The one error type of CSEKit.
///
/// Errors are a struct with a string-backed ``Code`` rather than an enum, so that new codes can be
/// added in any module without a breaking change (the swift-asn1 / jwt-kit pattern). The set of
/// codes is closed to callers: every code is a static constant declared by the module that throws
/// it, and callers compare codes, they do not make them. Two errors are equal when their codes are
/// equal; the ``reason`` is for humans only, and the ``underlying`` error says what failed below.
///
/// - Important: A ``reason`` or ``context`` value never contains a card number, CVV, key material,
///   a signing phrase or plaintext. Code that builds one passes such values through
///   ``SecretMasking`` first, or leaves them out.
public struct CSEError: Error, Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// A stable, machine-readable error code such as `base64.invalidCharacter`.
    ///
    /// Codes are `domain.name` strings. Their spelling is part of the public contract: the CLI
    /// prints them, and callers may switch on them. Each module declares its codes as static
    /// constants in an extension of this type.
    public struct Code: StableStringValue {
        /// The stable string form, for example `jwe.decryptionFailed`.
        public let rawValue: String

        /// Creates a code from its stable string form. `package`: the set of codes is the
        /// library's, declared once each as a static constant.
        package init(rawValue: String) { self.rawValue = rawValue }

        /// Creates a code from its stable string form. `@inlinable`: every module initializes its
        /// code constants with it, and an opaque call would make each of them a lazily initialized
        /// global (a `swift_once` check on every use) instead of a statically initialized one.
        @inlinable
        package init(_ rawValue: String) { self.rawValue = rawValue }
    }

    /// What went wrong, as a stable code.
    public let code: Code
    /// A human-readable explanation. Never contains secrets.
    public let reason: String
    /// Extra, non-secret facts about the failure (for example `line` or `limit`), sorted by key
    /// when printed.
    public let context: [String: String]
    /// The error of the lower layer that caused this one, for example the `json.tooDeep` behind a
    /// `jwe.malformed` header; `nil` when this error is where the failure was found.
    public var underlying: CSEError? { storage?.underlying }
    private let storage: Storage?

    /// Creates an error.
    /// - Parameters:
    ///   - code: The stable code.
    ///   - reason: A human-readable explanation that contains no secret.
    ///   - context: Non-secret facts such as a line number or a broken limit.
    ///   - underlying: The lower layer's error that caused this one, if any.
    public init(_ code: Code, _ reason: String, context: [String: String] = [:], underlying: CSEError? = nil) {
        self.init(code, reason, context: context, underlying: underlying, detail: nil)
    }

    /// Creates an error that also carries a typed, non-secret detail of the module that throws it,
    /// for example the platform's decoded error body; that module offers a typed accessor for it.
    package init(
        _ code: Code, _ reason: String, context: [String: String] = [:], underlying: CSEError? = nil, detail: (any Sendable)?
    ) {
        self.code = code
        self.reason = reason
        self.context = context
        self.storage = underlying == nil && detail == nil ? nil : Storage(underlying: underlying, detail: detail)
    }

    /// The typed detail, when it is a `T`.
    package func detail<T>(as type: T.Type) -> T? { storage?.detail as? T }

    /// The indirection that lets an error hold the error below it, and a module's typed detail.
    private final class Storage: Sendable {
        let underlying: CSEError?
        let detail: (any Sendable)?
        init(underlying: CSEError?, detail: (any Sendable)?) {
            self.underlying = underlying
            self.detail = detail
        }
    }

    /// Errors compare by code only.
    public static func == (lhs: CSEError, rhs: CSEError) -> Bool { lhs.code == rhs.code }

    /// Hashes the code only, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `code: reason`, followed by the context in key order, then `; caused by ` and the
    /// underlying error's description when there is one.
    public var description: String {
        var text = "\(code.rawValue): \(reason)"
        if !context.isEmpty {
            text += " (" + context.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + ")"
        }
        if let underlying { text += "; caused by " + underlying.description }
        return text
    }

    /// Same as ``description``; nothing hidden is revealed in debug output either.
    public var debugDescription: String { "CSEError(\(description))" }
}
