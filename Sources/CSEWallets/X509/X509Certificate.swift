internal import CSECore
internal import CSECrypto
internal import COpenSSL
internal import CCSEShims

/// Owns one OpenSSL `X509`, freed in `deinit`. Immutable after construction.
final class X509Certificate: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    /// Shares `pointer` (a certificate owned by a CMS structure or a stack) by taking a reference.
    init(retaining pointer: OpaquePointer) {
        X509_up_ref(pointer)
        self.pointer = pointer
    }

    deinit { X509_free(pointer) }

    /// Reads one DER certificate (the whole input).
    /// - Throws: `wallet.malformed`.
    convenience init(der: [UInt8]) throws(CSEError) {
        let made = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            guard let certificate = d2i_X509(nil, &cursor, buffer.count) else { return nil }
            guard cursor == buffer.baseAddress.map({ $0 + buffer.count }) else {
                X509_free(certificate)
                return nil
            }
            return certificate
        }
        guard let made else { throw WalletError.malformed("a certificate is not DER X.509") }
        self.init(taking: made)
    }

    /// Reads one PEM `CERTIFICATE` block (RFC 7468 §5.1).
    /// - Throws: `wallet.malformed`.
    convenience init(pem: String) throws(CSEError) {
        let document: PEMDocument
        do { document = try PEMDocument(parsing: Array(pem.utf8)) } catch {
            throw WalletError.malformed("the certificate is not one PEM block")
        }
        guard document.label == "CERTIFICATE" else { throw WalletError.malformed("expected a CERTIFICATE PEM block") }
        try self.init(der: document.derBytes)
    }

    /// Whether the certificate has an extension with the dotted `oid` (any criticality, any value).
    func hasExtension(_ oid: String) -> Bool { extensionIndex(oid) != nil }

    /// The value (`extnValue` contents) of the extension `oid`, or `nil` when absent.
    func extensionValue(_ oid: String) -> [UInt8]? {
        guard let index = extensionIndex(oid), let ext = X509_get_ext(pointer, index),
            let data = X509_EXTENSION_get_data(ext)
        else { return nil }
        let count = Int(ASN1_STRING_length(data))
        guard count >= 0, let bytes = ASN1_STRING_get0_data(data) else { return nil }
        return Array(UnsafeBufferPointer(start: bytes, count: count))
    }

    private func extensionIndex(_ oid: String) -> Int32? {
        guard let object = OBJ_txt2obj(oid, 1) else {
            ERR_clear_error()
            return nil
        }
        defer { ASN1_OBJECT_free(object) }
        let index = X509_get_ext_by_OBJ(pointer, object, -1)
        return index >= 0 ? index : nil
    }

    /// The DER `SubjectPublicKeyInfo` (RFC 5280 §4.1.2.7).
    var subjectPublicKeyInfo: [UInt8] {
        guard let key = X509_get_X509_PUBKEY(pointer) else { return [] }
        let count = i2d_X509_PUBKEY(key, nil)
        guard count > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: Int(count))
        out.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_X509_PUBKEY(key, &cursor)
        }
        return out
    }

    /// The DER encoding.
    var der: [UInt8] {
        let count = i2d_X509(pointer, nil)
        guard count > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: Int(count))
        out.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_X509(pointer, &cursor)
        }
        return out
    }

    /// Whether the two handles hold the same certificate (`X509_cmp`: the DER encodings).
    func isSame(as other: X509Certificate) -> Bool { X509_cmp(pointer, other.pointer) == 0 }
}

/// Owns one OpenSSL `STACK_OF(X509)` and the references it holds, freed in `deinit`.
final class X509CertificateStack: @unchecked Sendable {
    let pointer: OpaquePointer

    /// A new stack holding a reference to each of `certificates`.
    init(_ certificates: [X509Certificate]) throws(CSEError) {
        guard let stack = CCSEShims_sk_X509_new_null() else { throw WalletError.backend() }
        self.pointer = OpaquePointer(stack)
        for certificate in certificates {
            X509_up_ref(certificate.pointer)
            guard CCSEShims_sk_X509_push(stack, UnsafeMutableRawPointer(certificate.pointer)) > 0 else {
                X509_free(certificate.pointer)
                throw WalletError.backend()
            }
        }
    }

    /// Takes ownership of a stack OpenSSL returned (`CMS_get1_certs`).
    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit { CCSEShims_sk_X509_pop_free(UnsafeMutableRawPointer(pointer)) }

    /// The certificates, each holding its own reference.
    var certificates: [X509Certificate] {
        let raw = UnsafeRawPointer(pointer)
        return (0..<max(0, CCSEShims_sk_X509_num(raw))).compactMap { index in
            CCSEShims_sk_X509_value(raw, index).map { X509Certificate(retaining: OpaquePointer($0)) }
        }
    }
}
