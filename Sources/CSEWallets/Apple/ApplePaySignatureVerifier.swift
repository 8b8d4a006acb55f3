internal import CSECore
internal import COpenSSL
internal import CCSEShims
internal import Glibc

/// Owns one OpenSSL `CMS_ContentInfo`, freed in `deinit`.
final class CMSContentInfo {
    let pointer: OpaquePointer

    /// Reads a CMS `ContentInfo` from BER (`d2i_CMS_ContentInfo`, which takes the indefinite
    /// lengths Apple's signatures use and a DER-only reader refuses). The structure must fill the
    /// whole input: bytes after it are refused, as ``CMSSignedData`` refuses them on the fast path,
    /// so both paths give one verdict (OpenSSL's `d2i_CMS_bio` would ignore them).
    /// - Throws: `wallet.malformed`.
    init(ber: [UInt8]) throws(CSEError) {
        guard ber.count <= Int(Int32.max) else { throw WalletError.malformed("the signature is too large") }
        var trailing = false
        let made = ber.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            guard let info = d2i_CMS_ContentInfo(nil, &cursor, buffer.count) else { return nil }
            guard cursor == buffer.baseAddress.map({ $0 + buffer.count }) else {
                CMS_ContentInfo_free(info)
                trailing = true
                return nil
            }
            return info
        }
        guard let made else {
            ERR_clear_error()
            throw WalletError.malformed(trailing ? "bytes follow the CMS structure" : "the signature is not a CMS structure")
        }
        pointer = made
    }

    deinit { CMS_ContentInfo_free(pointer) }
}

/// Owns one OpenSSL `X509_STORE` holding the one trusted root, freed in `deinit`.
final class X509TrustStore {
    let pointer: OpaquePointer

    init(root: X509Certificate) throws(CSEError) {
        guard let store = X509_STORE_new() else { throw WalletError.backend() }
        pointer = store
        guard X509_STORE_add_cert(store, root.pointer) == 1 else { throw WalletError.backend() }
    }

    deinit { X509_STORE_free(pointer) }
}

/// Owns one OpenSSL `X509_STORE_CTX`, freed in `deinit`.
final class X509StoreContext {
    let pointer: OpaquePointer

    init() throws(CSEError) {
        guard let context = X509_STORE_CTX_new() else { throw WalletError.backend() }
        pointer = context
    }

    deinit { X509_STORE_CTX_free(pointer) }
}

/// The checks Apple requires of a payment token's signature before anything is decrypted
/// (Apple, "Payment token format reference", "Verify the signature", steps a-d):
///
/// 1. the CMS `SignedData` is read from BER, and its content is detached;
/// 2. the leaf and the intermediate are the certificates that carry the marker extensions
///    1.2.840.113635.100.6.29 and 1.2.840.113635.100.6.2.14, wherever they sit in the set;
/// 3. there is exactly one signer, and it is the leaf;
/// 4. the signed attributes hold exactly one `signingTime`;
/// 5. leaf → intermediate → pinned root is a valid chain at the signing time (every certificate
///    within its validity then);
/// 6. the signature verifies over the signed attributes, whose `messageDigest` is the SHA-256 of
///    the exact signed content.
enum ApplePaySignatureVerifier {
    /// The marker extension of Apple's payment-token signing leaf.
    static let leafMarker = "1.2.840.113635.100.6.29"
    /// The marker extension of Apple Application Integration CA - G3.
    static let intermediateMarker = "1.2.840.113635.100.6.2.14"

    /// Runs the checks above and returns the signing time in milliseconds since the epoch.
    ///
    /// When the certificates the signature carries are those of a chain verified before, with the
    /// same root, ``ApplePayFastSignatureCheck`` runs the checks without OpenSSL parsing anything;
    /// whatever it does not accept, and every token of a chain not seen yet, goes through OpenSSL
    /// (`CMS_verify` and `X509_verify_cert`), whose refusal is the error thrown.
    /// - Throws: `wallet.malformed`, `wallet.untrustedCertificate` or `wallet.signatureInvalid`.
    /// - Parameter chains: The chains already verified (the process-wide cache by default).
    static func verify(
        signature: [UInt8], content: [UInt8], root: X509Certificate, chains: VerifiedChainCache = .shared
    ) throws(CSEError) -> Int64 {
        var lookup: ChainLookup?
        if let signed = try? CMSSignedData(ber: signature) {
            let key = VerifiedChainCache.key(certificates: signed.certificates, root: root.der)
            let entry = chains.entry(for: key)
            if let entry, let time = ApplePayFastSignatureCheck.accept(signed, content: content, entry: entry) {
                return time * 1000
            }
            lookup = ChainLookup(key: key, entry: entry)
        }
        return try verifyWithOpenSSL(signature: signature, content: content, root: root, chains: chains, lookup: lookup)
    }

    /// A cache lookup already made for a signature's certificates, so that it is counted once.
    private struct ChainLookup {
        /// The key of the certificates as carried and the root.
        let key: [UInt8]
        /// What the lookup found.
        let entry: VerifiedChainCache.Entry?
    }

    /// Every check with OpenSSL; `lookup` is the cache lookup made for the fast check, if any.
    private static func verifyWithOpenSSL(
        signature: [UInt8], content: [UInt8], root: X509Certificate, chains: VerifiedChainCache, lookup: ChainLookup?
    ) throws(CSEError) -> Int64 {
        let cms = try CMSContentInfo(ber: signature)
        guard let type = CMS_get0_type(cms.pointer), OBJ_obj2nid(type) == NID_pkcs7_signed else {
            throw WalletError.malformed("the signature is not a CMS SignedData")
        }
        guard CMS_is_detached(cms.pointer) == 1 else {
            throw WalletError.malformed("the signature carries its content instead of detaching it")
        }

        // 2. The leaf and the intermediate, by their marker extensions.
        guard let rawCertificates = CMS_get1_certs(cms.pointer) else {
            throw WalletError.untrustedCertificate("the signature carries no certificates")
        }
        let certificates = X509CertificateStack(taking: rawCertificates).certificates
        let leaves = certificates.filter { $0.hasExtension(leafMarker) }
        let intermediates = certificates.filter { $0.hasExtension(intermediateMarker) }
        guard leaves.count == 1, let leaf = leaves.first else {
            throw WalletError.untrustedCertificate("not exactly one certificate carries the leaf marker OID \(leafMarker)")
        }
        guard intermediates.count == 1, let intermediate = intermediates.first, !intermediate.isSame(as: leaf) else {
            throw WalletError.untrustedCertificate(
                "not exactly one other certificate carries the intermediate marker OID \(intermediateMarker)")
        }

        // 3. One signer, the leaf.
        guard let signerInfos = CMS_get0_SignerInfos(cms.pointer),
            CCSEShims_sk_CMS_SignerInfo_num(UnsafeRawPointer(signerInfos)) == 1,
            let signer = CCSEShims_sk_CMS_SignerInfo_value(UnsafeRawPointer(signerInfos), 0).map(OpaquePointer.init)
        else { throw WalletError.signatureInvalid("the signature does not have exactly one signer") }
        guard CMS_SignerInfo_cert_cmp(signer, leaf.pointer) == 0 else {
            throw WalletError.signatureInvalid("the signer is not the leaf certificate")
        }

        // 4. The signing time.
        let signingTime = try signingTimeSeconds(signer)

        // 5. The chain, at the signing time: verified once per distinct chain (the same bytes
        //    are the same signatures), its validity checked for every token.
        let key = lookup?.key ?? VerifiedChainCache.key(certificates: certificates.map { $0.der[...] }, root: root.der)
        if let validity = lookup.map({ $0.entry?.validity }) ?? chains.entry(for: key)?.validity {
            guard validity.contains(signingTime) else {
                throw WalletError.untrustedCertificate("a certificate is not valid at the signing time")
            }
        } else {
            try verifyChain(leaf: leaf, intermediate: intermediate, root: root, at: signingTime)
            if let validity = VerifiedChainCache.validity(of: [leaf, intermediate, root]) {
                let entry = VerifiedChainCache.Entry(validity: validity, signer: RememberedSigner(leaf: leaf))
                chains.store(entry, for: key, now: signingTime)
            }
        }

        // 6. The signature over the exact content (CMS_NOINTERN: the signer is looked up among
        //    the leaf alone; the chain was checked above).
        let signers = try X509CertificateStack([leaf])
        let verified = content.withUnsafeBytes { buffer -> Bool in
            guard buffer.count <= Int(Int32.max),
                let bio = BIO_new_mem_buf(buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count))
            else { return false }
            defer { BIO_free(bio) }
            let flags = UInt32(CMS_BINARY | CMS_NOINTERN | CMS_NO_SIGNER_CERT_VERIFY)
            return CMS_verify(cms.pointer, signers.pointer, nil, bio, nil, flags) == 1
        }
        guard verified else { throw WalletError.signatureInvalid("the CMS signature does not match the signed content") }
        return signingTime * 1000
    }

    /// The one `signingTime` signed attribute (RFC 5652 §11.3), in seconds since the epoch.
    private static func signingTimeSeconds(_ signer: OpaquePointer) throws(CSEError) -> Int64 {
        let index = CMS_signed_get_attr_by_NID(signer, NID_pkcs9_signingTime, -1)
        guard index >= 0, CMS_signed_get_attr_by_NID(signer, NID_pkcs9_signingTime, index) < 0,
            let attribute = CMS_signed_get_attr(signer, index), X509_ATTRIBUTE_count(attribute) == 1
        else { throw WalletError.malformed("the signature does not carry exactly one signing time") }
        let raw =
            X509_ATTRIBUTE_get0_data(attribute, 0, V_ASN1_UTCTIME, nil)
            ?? X509_ATTRIBUTE_get0_data(attribute, 0, V_ASN1_GENERALIZEDTIME, nil)
        guard let raw, let seconds = unixSeconds(of: raw.assumingMemoryBound(to: ASN1_TIME.self)) else {
            throw WalletError.malformed("the signing time is not a valid time")
        }
        return seconds
    }

    /// Builds and checks leaf → intermediate → root with OpenSSL at `time` (seconds).
    private static func verifyChain(
        leaf: X509Certificate, intermediate: X509Certificate, root: X509Certificate, at time: Int64
    ) throws(CSEError) {
        let store = try X509TrustStore(root: root)
        let context = try X509StoreContext()
        let untrusted = try X509CertificateStack([intermediate])
        guard X509_STORE_CTX_init(context.pointer, store.pointer, leaf.pointer, untrusted.pointer) == 1,
            let parameters = X509_STORE_CTX_get0_param(context.pointer)
        else { throw WalletError.backend() }
        X509_VERIFY_PARAM_set_time(parameters, time_t(time))
        // The context points into the store and the stack: keep them alive until it is done.
        let chainVerified = withExtendedLifetime((store, untrusted, leaf)) { X509_verify_cert(context.pointer) == 1 }
        guard chainVerified else {
            let code = X509_STORE_CTX_get_error(context.pointer)
            let reason =
                code == X509_V_ERR_CERT_HAS_EXPIRED || code == X509_V_ERR_CERT_NOT_YET_VALID
                ? "a certificate is not valid at the signing time" : "the chain does not end at the trusted root"
            throw WalletError.untrustedCertificate(reason)
        }
        // The chain is exactly leaf, the marked intermediate, the root.
        defer { withExtendedLifetime((store, untrusted)) {} }
        guard let chain = X509_STORE_CTX_get0_chain(context.pointer),
            CCSEShims_sk_X509_num(UnsafeRawPointer(chain)) == 3,
            let middle = CCSEShims_sk_X509_value(UnsafeRawPointer(chain), 1),
            X509_cmp(OpaquePointer(middle), intermediate.pointer) == 0
        else { throw WalletError.untrustedCertificate("the chain is not leaf, intermediate, root") }
    }
}
