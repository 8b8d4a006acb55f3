public import CSECore
internal import COpenSSL

extension CSEError.Code {
    /// OpenSSL failed to compute a digest (an allocation or provider failure, never bad input).
    public static let digestFailure = Self("digest.failure")
}

/// A hash function from the SHA family (FIPS 180-4), computed by OpenSSL.
///
/// An open set of values rather than an enum: new algorithms can be added without a breaking
/// change. Each algorithm is fetched from OpenSSL once per process (`EVP_MD_fetch`) and hashed on a
/// per-thread, reused `EVP_MD_CTX`, so a short hash costs about as much as the compression function.
///
///     let digest = try DigestAlgorithm.sha256.hash(Array("abc".utf8))
@usableFromInline
package struct DigestAlgorithm: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline
    enum ID: Int, Sendable {
        case sha1, sha256, sha384, sha512
    }

    @usableFromInline let id: ID

    private init(_ id: ID) { self.id = id }

    /// SHA-1 (FIPS 180-4 §6.1). For OAEP (JOSE `RSA-OAEP`) and for legacy gateway signatures that
    /// a merchant configured (APS "SHA-128"); not collision resistant, so never choose it for new designs.
    @usableFromInline
    package static let sha1 = DigestAlgorithm(.sha1)
    /// SHA-256 (FIPS 180-4 §6.2).
    @usableFromInline
    package static let sha256 = DigestAlgorithm(.sha256)
    /// SHA-384 (FIPS 180-4 §6.5).
    @usableFromInline
    package static let sha384 = DigestAlgorithm(.sha384)
    /// SHA-512 (FIPS 180-4 §6.4).
    @usableFromInline
    package static let sha512 = DigestAlgorithm(.sha512)

    /// The digest length in bytes (`hLen` in RFC 8017).
    package var byteCount: Int {
        switch id {
        case .sha1: 20
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// The input block length in bytes (64 for SHA-1/SHA-256, 128 for SHA-384/SHA-512).
    package var blockByteCount: Int {
        switch id {
        case .sha1, .sha256: 64
        case .sha384, .sha512: 128
        }
    }

    /// The FIPS name, for example `SHA-256`.
    package var name: String {
        switch id {
        case .sha1: "SHA-1"
        case .sha256: "SHA-256"
        case .sha384: "SHA-384"
        case .sha512: "SHA-512"
        }
    }

    /// The FIPS name.
    @usableFromInline
    package var description: String { name }

    /// Hashes `bytes`.
    /// - Parameter bytes: The message.
    /// - Returns: The ``byteCount``-byte digest.
    /// - Throws: ``CSEError/Code/digestFailure`` if OpenSSL fails (allocation or provider failure).
    @usableFromInline
    package func hash(_ bytes: UnsafeRawBufferPointer) throws(CSEError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: byteCount)
        try out.withCSEMutableBytes { (buffer) throws(CSEError) in
            try hash(bytes, UnsafeRawBufferPointer(start: nil, count: 0), into: buffer.baseAddress!)
        }
        return out
    }

    /// Hashes `bytes`.
    /// - Parameter bytes: The message.
    /// - Returns: The ``byteCount``-byte digest.
    /// - Throws: ``CSEError/Code/digestFailure`` if OpenSSL fails.
    @inlinable
    package func hash(_ bytes: some Collection<UInt8>) throws(CSEError) -> [UInt8] {
        // Inlinable, so the caller's collection type is specialized in its module (see
        // `RSAPublicKey.encryptOAEP(_:hash:label:engine:)`).
        try withContiguousBytes(of: bytes) { (buffer) throws(CSEError) in try hash(buffer) }
    }

    /// Hashes the concatenation `first || second` into `out`, which must hold ``byteCount`` bytes.
    ///
    /// This is the hot-path entry point (MGF1 hashes `seed || counter`): no allocation, one reused
    /// context per thread.
    func hash(
        _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer,
        into out: UnsafeMutableRawPointer
    ) throws(CSEError) {
        let scratch = digestScratch.current
        guard let ctx = scratch.context, let md = fetchedDigests[id.rawValue] else {
            throw CSEError(.digestFailure, "OpenSSL could not provide \(name)")
        }
        var length: UInt32 = 0
        let ok =
            EVP_DigestInit_ex2(ctx, md, nil) == 1
            && (first.count == 0 || EVP_DigestUpdate(ctx, first.baseAddress, first.count) == 1)
            && (second.count == 0 || EVP_DigestUpdate(ctx, second.baseAddress, second.count) == 1)
            && EVP_DigestFinal_ex(ctx, out.assumingMemoryBound(to: UInt8.self), &length) == 1
        guard ok, Int(length) == byteCount else {
            ERR_clear_error()
            throw CSEError(.digestFailure, "OpenSSL failed to compute \(name)")
        }
    }

    /// The OpenSSL fetched `EVP_MD`, for other OpenSSL calls (OAEP parameters). `nil` only if the
    /// provider does not offer the algorithm.
    var openSSLDigest: OpaquePointer? { fetchedDigests[id.rawValue] }
}

/// The `EVP_MD`s, fetched once per process and never freed (they live as long as the process).
/// Index: `DigestAlgorithm.ID.rawValue`. Immutable after initialisation, so sharing is safe.
nonisolated(unsafe) private let fetchedDigests: [OpaquePointer?] = [
    EVP_MD_fetch(nil, "SHA1", nil),
    EVP_MD_fetch(nil, "SHA2-256", nil),
    EVP_MD_fetch(nil, "SHA2-384", nil),
    EVP_MD_fetch(nil, "SHA2-512", nil),
]

/// One `EVP_MD_CTX` per thread, reused for every hash on that thread.
private final class DigestScratch {
    let context: OpaquePointer? = EVP_MD_CTX_new()
    deinit { EVP_MD_CTX_free(context) }
}

private let digestScratch = PerThread { DigestScratch() }
