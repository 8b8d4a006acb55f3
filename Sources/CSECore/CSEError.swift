/// The one error type of CSEKit.
///
/// Errors are a struct with an open, string-backed ``Code`` rather than an enum, so that new codes
/// can be added in any module without a breaking change (the swift-asn1 / jwt-kit pattern).
/// Two errors are equal when their codes are equal; the ``reason`` is for humans only.
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
    public struct Code: Hashable, Sendable, RawRepresentable, CustomStringConvertible {
        /// The stable string form, for example `jwe.decryptionFailed`.
        public let rawValue: String

        /// Creates a code from its stable string form.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Creates a code from its stable string form. `@inlinable`: every module initializes its
        /// code constants with it, and an opaque call would make each of them a lazily initialized
        /// global (a `swift_once` check on every use) instead of a statically initialized one.
        @inlinable
        package init(_ rawValue: String) { self.rawValue = rawValue }

        /// The stable string form.
        public var description: String { rawValue }
    }

    /// What went wrong, as a stable code.
    public let code: Code
    /// A human-readable explanation. Never contains secrets.
    public let reason: String
    /// Extra, non-secret facts about the failure (for example `line` or `limit`), sorted by key
    /// when printed.
    public let context: [String: String]

    /// Creates an error.
    /// - Parameters:
    ///   - code: The stable code.
    ///   - reason: A human-readable explanation that contains no secret.
    ///   - context: Non-secret facts such as a line number or a broken limit.
    public init(_ code: Code, _ reason: String, context: [String: String] = [:]) {
        self.code = code
        self.reason = reason
        self.context = context
    }

    /// Errors compare by code only.
    public static func == (lhs: CSEError, rhs: CSEError) -> Bool { lhs.code == rhs.code }

    /// Hashes the code only, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `code: reason`, followed by the context in key order.
    public var description: String {
        var text = "\(code.rawValue): \(reason)"
        if !context.isEmpty {
            text += " (" + context.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + ")"
        }
        return text
    }

    /// Same as ``description``; nothing hidden is revealed in debug output either.
    public var debugDescription: String { "CSEError(\(description))" }
}
