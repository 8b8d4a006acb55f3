internal import CSECore

/// An `AlgorithmIdentifier` (RFC 5280 §4.1.1.2) as read: the OID's contents octets and the whole
/// encoding of the parameters, if any.
struct CMSAlgorithm {
    /// The contents octets of the algorithm OID.
    let oid: ArraySlice<UInt8>
    /// The whole encoding of the parameters; `nil` when absent.
    let parameters: ArraySlice<UInt8>?

    /// Reads `SEQUENCE { algorithm OBJECT IDENTIFIER, parameters ANY OPTIONAL }`, or the same
    /// contents under the implicit `tag`.
    /// - Throws: `wallet.malformed`.
    init(_ reader: inout BERReader, tag: UInt8 = 0x30) throws(CSEError) {
        let sequence = try reader.next(tag: tag)
        var fields = try reader.children(of: sequence)
        oid = try fields.next(tag: 0x06).contents
        parameters = fields.isAtEnd ? nil : try fields.next().encoded
        try fields.finish()
    }
}

/// One `SignerInfo` (RFC 5652 §5.3) as read, its fields slices of the signature's bytes.
struct CMSSignerInfo {
    /// The contents octets of `version`.
    let version: ArraySlice<UInt8>
    /// `sid`: `issuerAndSerialNumber` (a SEQUENCE) or `[0] subjectKeyIdentifier`.
    let signerIdentifier: BERElement
    /// `digestAlgorithm`.
    let digestAlgorithm: CMSAlgorithm
    /// `signedAttrs`, `[0] IMPLICIT SET OF Attribute`, when present.
    let signedAttributes: BERElement?
    /// `signatureAlgorithm`.
    let signatureAlgorithm: CMSAlgorithm
    /// The contents of the primitive `signature` OCTET STRING.
    let signature: ArraySlice<UInt8>
    /// Whether `unsignedAttrs` are present (their contents are not read).
    let hasUnsignedAttributes: Bool

    /// Reads one `SignerInfo`; `unsignedAttrs`, when present, are skipped unread.
    /// - Throws: `wallet.malformed`, also for a constructed `signature`.
    init(_ reader: inout BERReader) throws(CSEError) {
        let sequence = try reader.next(tag: 0x30)
        var fields = try reader.children(of: sequence)
        version = try fields.next(tag: 0x02).contents
        signerIdentifier = try fields.next()
        digestAlgorithm = try CMSAlgorithm(&fields)
        signedAttributes = fields.peekTag == 0xA0 ? try fields.next() : nil
        signatureAlgorithm = try CMSAlgorithm(&fields)
        signature = try fields.next(tag: 0x04).contents
        hasUnsignedAttributes = fields.peekTag == 0xA1
        if hasUnsignedAttributes { _ = try fields.next() }
        try fields.finish()
    }
}

/// The parts of a CMS `ContentInfo` holding a `SignedData` (RFC 5652 §3, §5.1) that Apple's
/// payment-token signature check needs, read with ``BERReader`` and no OpenSSL: the content
/// types, whether the content is detached, the exact encoding of each certificate, and every
/// `SignerInfo`. Nothing is checked here beyond the structure; the verifier checks the values.
/// What is only skipped (`crls`, `unsignedAttrs`) is flagged, so that a check that has to agree
/// with OpenSSL's stricter reading of those fields can refuse them.
struct CMSSignedData {
    /// The contents octets of `ContentInfo.contentType`.
    let contentType: ArraySlice<UInt8>
    /// The contents octets of the `SignedData` version.
    let version: ArraySlice<UInt8>
    /// `digestAlgorithms`, in the order carried.
    let digestAlgorithms: [CMSAlgorithm]
    /// Whether `crls` are present (their contents are not read).
    let hasRevocationInformation: Bool
    /// The contents octets of `encapContentInfo.eContentType`.
    let encapsulatedContentType: ArraySlice<UInt8>
    /// Whether `encapContentInfo` carries its `eContent` (not detached).
    let hasEncapsulatedContent: Bool
    /// The whole encoding of each `certificates` element, in the order carried.
    let certificates: [ArraySlice<UInt8>]
    /// Every `SignerInfo`, in the order carried.
    let signers: [CMSSignerInfo]

    /// Reads a BER `ContentInfo` whose content is a `SignedData`; trailing bytes are refused.
    /// - Throws: `wallet.malformed` for any other structure.
    init(ber: [UInt8]) throws(CSEError) {
        var outer = try BERReader(ber)
        let contentInfo = try outer.next(tag: 0x30)
        try outer.finish()
        var info = try outer.children(of: contentInfo)
        contentType = try info.next(tag: 0x06).contents
        let explicit = try info.next(tag: 0xA0)
        try info.finish()
        var wrapper = try info.children(of: explicit)
        let signedData = try wrapper.next(tag: 0x30)
        try wrapper.finish()

        var fields = try wrapper.children(of: signedData)
        version = try fields.next(tag: 0x02).contents
        let digestSet = try fields.next(tag: 0x31)
        var digests = try fields.children(of: digestSet)
        var digestAlgorithms: [CMSAlgorithm] = []
        while !digests.isAtEnd { digestAlgorithms.append(try CMSAlgorithm(&digests)) }
        self.digestAlgorithms = digestAlgorithms
        let encapsulated = try fields.next(tag: 0x30)
        var encapsulatedFields = try fields.children(of: encapsulated)
        encapsulatedContentType = try encapsulatedFields.next(tag: 0x06).contents
        hasEncapsulatedContent = !encapsulatedFields.isAtEnd
        var certificates: [ArraySlice<UInt8>] = []
        if fields.peekTag == 0xA0 {
            let element = try fields.next()
            var set = try fields.children(of: element)
            while !set.isAtEnd { certificates.append(try set.next(tag: 0x30).encoded) }
        }
        self.certificates = certificates
        hasRevocationInformation = fields.peekTag == 0xA1
        if hasRevocationInformation { _ = try fields.next() }
        let signerElement = try fields.next(tag: 0x31)
        var signerSet = try fields.children(of: signerElement)
        try fields.finish()
        var signers: [CMSSignerInfo] = []
        while !signerSet.isAtEnd { signers.append(try CMSSignerInfo(&signerSet)) }
        self.signers = signers
    }
}
