public import CSECore

extension CSEError.Code {
    /// Authenticated decryption failed. It is the one code for every tag, padding and ciphertext-length
    /// failure of `ContentEncryptionAlgorithm.open(ciphertext:key:iv:aad:tag:)` (and of the AES
    /// primitives), so that a caller cannot learn *why* a ciphertext was rejected: there is no
    /// padding or length oracle (RFC 7516 §11.4, §11.5; RFC 7518 §5.2.2.2).
    public static let decryptionFailed = Self("crypto.decryptionFailed")

    /// A symmetric key (CEK, AES key or HMAC key) has a length the algorithm does not accept.
    public static let invalidSymmetricKeyLength = Self("crypto.invalidSymmetricKeyLength")

    /// An initialization vector has a length the algorithm does not accept (RFC 7518 §5.2.2.1:
    /// 128-bit for AES-CBC; §5.3: 96-bit for AES-GCM).
    public static let invalidIVLength = Self("crypto.invalidIVLength")

    /// An authentication tag has a length the API does not accept for *creating or checking a
    /// stand-alone MAC* (for example an HMAC truncated below 128 bits). Authenticated decryption
    /// reports a wrong tag length as ``decryptionFailed`` instead.
    public static let invalidTagLength = Self("crypto.invalidTagLength")

    /// A caller-provided output buffer is too small for the result.
    public static let outputBufferTooSmall = Self("crypto.outputBufferTooSmall")

    /// An input is larger than the symmetric layer processes in one call (OpenSSL's `int` lengths).
    public static let symmetricInputTooLarge = Self("crypto.symmetricInputTooLarge")

    /// OpenSSL could not provide or run a symmetric algorithm (for example a provider without AES).
    /// Not caused by the caller's input.
    public static let symmetricBackendFailure = Self("crypto.symmetricBackendFailure")
}

/// Error factories for the symmetric layer. Reasons never contain key, plaintext or tag bytes.
enum SymmetricError {
    /// The uniform authenticated-decryption failure. Deliberately carries no detail.
    @inline(never)
    static func decryptionFailed() -> CSEError {
        CSEError(.decryptionFailed, "decryption failed")
    }

    @inline(never)
    static func keyLength(_ algorithm: String, expected: String, actual: Int) -> CSEError {
        CSEError(
            .invalidSymmetricKeyLength, "\(algorithm) needs a key of \(expected) bytes",
            context: ["expected": expected, "actual": String(actual)])
    }

    @inline(never)
    static func ivLength(_ algorithm: String, expected: Int, actual: Int) -> CSEError {
        CSEError(
            .invalidIVLength, "\(algorithm) needs an IV of \(expected) bytes",
            context: ["expected": String(expected), "actual": String(actual)])
    }

    @inline(never)
    static func tagLength(_ algorithm: String, expected: String, actual: Int) -> CSEError {
        CSEError(
            .invalidTagLength, "\(algorithm) accepts tags of \(expected) bytes",
            context: ["expected": expected, "actual": String(actual)])
    }

    @inline(never)
    static func outputTooSmall(_ what: String, needed: Int, available: Int) -> CSEError {
        CSEError(
            .outputBufferTooSmall, "the \(what) buffer is too small",
            context: ["needed": String(needed), "available": String(available)])
    }

    @inline(never)
    static func inputTooLarge(_ what: String, limit: Int) -> CSEError {
        CSEError(
            .symmetricInputTooLarge, "the \(what) is larger than the symmetric layer accepts",
            context: ["limit": String(limit)])
    }

    /// An OpenSSL failure; drains this thread's OpenSSL error queue into the context so that a later
    /// operation on the same thread starts clean.
    @inline(never)
    static func backend(_ operation: String) -> CSEError {
        var context = ["operation": operation]
        let first = SymmetricBackend.drainErrors()
        if let first { context["openssl"] = first }
        return CSEError(.symmetricBackendFailure, "OpenSSL failed during \(operation)", context: context)
    }
}
