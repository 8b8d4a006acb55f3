internal import CSECore

/// The signed attributes of a `SignerInfo` (RFC 5652 §5.3, §11) in the one shape the fast check
/// of an Apple Pay signature accepts, read without OpenSSL: DER throughout (as §5.3 requires of
/// the bytes the signature covers), only `content-type`, `message-digest`, `signing-time` and
/// `CMSAlgorithmProtection` (RFC 6211, which Apple's signatures carry), each at most once with
/// exactly one value, the first three present, the time in its plain DER form
/// (`YYMMDDHHMMSSZ` or `YYYYMMDDHHMMSSZ`). Anything else is refused, and the caller then checks
/// the signature with OpenSSL instead.
struct CMSSignedAttributes {
    /// id-contentType, 1.2.840.113549.1.9.3 (contents octets).
    static let contentTypeOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x03]
    /// id-messageDigest, 1.2.840.113549.1.9.4.
    static let messageDigestOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x04]
    /// id-signingTime, 1.2.840.113549.1.9.5.
    static let signingTimeOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x05]
    /// id-aa-CMSAlgorithmProtection, 1.2.840.113549.1.9.52.
    static let algorithmProtectionOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x34]
    /// The attribute types read.
    static let knownTypes = [contentTypeOID, messageDigestOID, signingTimeOID, algorithmProtectionOID]

    /// The contents octets of the `content-type` value (an OID).
    let contentType: ArraySlice<UInt8>
    /// The contents octets of the `message-digest` value (an OCTET STRING).
    let messageDigest: ArraySlice<UInt8>
    /// The `signing-time` value, in seconds since the epoch.
    let signingTime: Int64
    /// The `CMSAlgorithmProtection` value's digest and signature algorithms, when present.
    let algorithmProtection: (digest: CMSAlgorithm, signature: CMSAlgorithm)?
    /// What the signature covers (§5.4): the attributes' encoding with the SET OF tag 0x31 in place
    /// of `[0] IMPLICIT`.
    let signedBytes: [UInt8]

    /// Reads `element`, the `[0] IMPLICIT SET OF Attribute` of a `SignerInfo`.
    /// - Throws: `wallet.malformed` for any other shape (see the type).
    init(_ element: BERElement) throws(CSEError) {
        guard element.tag == 0xA0 else { throw WalletError.malformed("the signed attributes have another tag") }
        try Self.requireDER(element, depth: 0)
        var values: [[UInt8]: BERElement] = [:]
        var attributes = BERReader(element.contents, depth: 1)
        while !attributes.isAtEnd {
            let attribute = try attributes.next(tag: 0x30)
            var fields = try attributes.children(of: attribute)
            let type = Array(try fields.next(tag: 0x06).contents)
            let set = try fields.next(tag: 0x31)
            try fields.finish()
            var members = try fields.children(of: set)
            let value = try members.next()
            guard members.isAtEnd, values[type] == nil, Self.knownTypes.contains(type) else {
                throw WalletError.malformed("the signed attributes are not exactly content type, digest and time")
            }
            values[type] = value
        }
        guard let type = values[Self.contentTypeOID], type.tag == 0x06, let digest = values[Self.messageDigestOID],
            digest.tag == 0x04, let time = values[Self.signingTimeOID]
        else { throw WalletError.malformed("the signed attributes are not exactly content type, digest and time") }
        contentType = type.contents
        messageDigest = digest.contents
        signingTime = try Self.seconds(time)
        algorithmProtection = try values[Self.algorithmProtectionOID].map(Self.algorithms)
        signedBytes = [0x31] + element.encoded.dropFirst()
    }

    /// `CMSAlgorithmProtection ::= SEQUENCE { digestAlgorithm, signatureAlgorithm [1] }` (RFC 6211
    /// §2); a MAC algorithm `[2]` instead is refused.
    /// - Throws: `wallet.malformed`.
    private static func algorithms(_ element: BERElement) throws(CSEError) -> (digest: CMSAlgorithm, signature: CMSAlgorithm) {
        var outer = BERReader(element.encoded, depth: 2)
        let sequence = try outer.next(tag: 0x30)
        var fields = try outer.children(of: sequence)
        let digest = try CMSAlgorithm(&fields)
        let signature = try CMSAlgorithm(&fields, tag: 0xA1)
        try fields.finish()
        return (digest, signature)
    }

    /// Requires DER lengths everywhere under `element`, the constructed form only where DER allows
    /// it (SEQUENCE, SET and non-universal tags), and DER's BOOLEAN and NULL contents.
    private static func requireDER(_ element: BERElement, depth: Int) throws(CSEError) {
        guard element.hasDERLength else { throw WalletError.malformed("the signed attributes are not DER") }
        let isUniversal = element.tag & 0xC0 == 0
        if element.isConstructed {
            guard !isUniversal || element.tag == 0x30 || element.tag == 0x31 else {
                throw WalletError.malformed("the signed attributes are not DER")
            }
            var children = try BERReader(element.contents, depth: depth).children(of: element)
            while !children.isAtEnd { try requireDER(try children.next(), depth: depth + 1) }
        } else if element.tag == 0x01 {
            guard element.contents.count == 1, element.contents.first == 0 || element.contents.first == 0xFF else {
                throw WalletError.malformed("the signed attributes are not DER")
            }
        } else if element.tag == 0x05, !element.contents.isEmpty {
            throw WalletError.malformed("the signed attributes are not DER")
        }
    }

    /// A UTCTime `YYMMDDHHMMSSZ` (years 1950-2049, X.509's rule, RFC 5280 §4.1.2.5.1) or a
    /// GeneralizedTime `YYYYMMDDHHMMSSZ`, in seconds since the epoch.
    /// - Throws: `wallet.malformed` for another form or an invalid date or time.
    static func seconds(_ element: BERElement) throws(CSEError) -> Int64 {
        let text = Array(element.contents)
        let yearDigits: Int
        switch (element.tag, text.count) {
        case (0x17, 13): yearDigits = 2
        case (0x18, 15): yearDigits = 4
        default: throw WalletError.malformed("the signing time is not in DER's form")
        }
        guard text.last == UInt8(ascii: "Z"), text.dropLast().allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw WalletError.malformed("the signing time is not in DER's form")
        }
        func number(_ offset: Int, _ count: Int) -> Int {
            text[offset..<(offset + count)].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        var year = number(0, yearDigits)
        if yearDigits == 2 { year += year < 50 ? 2000 : 1900 }
        let month = number(yearDigits, 2), day = number(yearDigits + 2, 2)
        let hour = number(yearDigits + 4, 2), minute = number(yearDigits + 6, 2), second = number(yearDigits + 8, 2)
        guard CivilCalendar.isDate(year: year, month: month, day: day), hour < 24, minute < 60, second < 60
        else { throw WalletError.malformed("the signing time is not a valid time") }
        return CivilCalendar.unixTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }
}
