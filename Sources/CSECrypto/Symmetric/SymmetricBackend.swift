internal import CSECore
internal import COpenSSL

/// One OpenSSL algorithm object (an `EVP_CIPHER`), fetched once per process. (Digests come from
/// ``DigestAlgorithm``, which fetches its `EVP_MD`s once in the same way.)
///
/// Explicit fetching avoids OpenSSL 3's implicit fetch on every call (perf-notes.md: SHA-1 of 24
/// bytes costs ≈ 900 ns with `EVP_sha1()` and ≈ 330 ns with a fetched digest). The objects are
/// immutable and documented as shareable between threads, so the holder is `@unchecked Sendable`.
/// They live for the whole process (global `let`s), so there is no `deinit`.
final class FetchedAlgorithm: @unchecked Sendable {
    /// The fetched object, or `nil` when the loaded providers do not offer it.
    let pointer: OpaquePointer?
    /// The OpenSSL name it was fetched by, for error messages.
    let name: String

    init(name: String, fetch: (String) -> OpaquePointer?) {
        self.name = name
        self.pointer = fetch(name)
        if pointer == nil { ERR_clear_error() }
    }

    /// The object, or a ``CSEError/Code/symmetricBackendFailure`` when it could not be fetched.
    @inline(__always)
    func get() throws(CSEError) -> OpaquePointer {
        guard let pointer else { throw SymmetricError.backend("fetch \(name)") }
        return pointer
    }
}

/// The AES ciphers CSEKit uses, each fetched once (lazily, thread-safely, by Swift's global
/// initialisation).
enum SymmetricBackend {
    static let aes128CBC = FetchedAlgorithm(name: "AES-128-CBC") { EVP_CIPHER_fetch(nil, $0, nil) }
    static let aes192CBC = FetchedAlgorithm(name: "AES-192-CBC") { EVP_CIPHER_fetch(nil, $0, nil) }
    static let aes256CBC = FetchedAlgorithm(name: "AES-256-CBC") { EVP_CIPHER_fetch(nil, $0, nil) }
    static let aes128GCM = FetchedAlgorithm(name: "AES-128-GCM") { EVP_CIPHER_fetch(nil, $0, nil) }
    static let aes192GCM = FetchedAlgorithm(name: "AES-192-GCM") { EVP_CIPHER_fetch(nil, $0, nil) }
    static let aes256GCM = FetchedAlgorithm(name: "AES-256-GCM") { EVP_CIPHER_fetch(nil, $0, nil) }

    /// Empties this thread's OpenSSL error queue and returns the first entry as text (OpenSSL's
    /// library/reason string, which never contains data).
    static func drainErrors() -> String? {
        let first = ERR_get_error()
        ERR_clear_error()
        guard first != 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(first, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The largest input (plaintext, ciphertext, AAD or MAC message part) one call accepts. OpenSSL's
    /// cipher update takes an `int` length and CBC adds up to a block; 2 GiB − 1 KiB leaves room.
    static let maximumInputByteCount = Int(Int32.max) - 1024
}

/// Builds a byte array of up to `capacity` bytes in place, with typed throws (the standard library's
/// array initialisers only rethrow untyped errors). `body` returns how many bytes it initialised.
@inline(__always)
func makeByteArray(
    capacity: Int, _ body: (UnsafeMutableRawBufferPointer) throws(CSEError) -> Int
) throws(CSEError) -> [UInt8] {
    var failure: CSEError?
    let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initializedCount in
        do throws(CSEError) {
            initializedCount = try body(UnsafeMutableRawBufferPointer(buffer))
        } catch {
            failure = error
            initializedCount = 0
        }
    }
    if let failure { throw failure }
    return bytes
}
