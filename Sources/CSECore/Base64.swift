/// Strict base64 and base64url (RFC 4648 §4 and §5).
///
/// Encoding is table-driven and writes straight into its output buffer. Decoding is strict: it
/// rejects characters outside the alphabet (including whitespace and the other alphabet's `+/`
/// or `-_`), misplaced or missing padding, impossible lengths, and non-canonical encodings whose
/// unused trailing bits are not zero (RFC 4648 §3.5).
public enum Base64 {
    /// The 64-character alphabet.
    public struct Alphabet: Hashable, Sendable {
        fileprivate let isURL: Bool
        /// `A–Z a–z 0–9 + /` (RFC 4648 §4).
        public static let standard = Alphabet(isURL: false)
        /// `A–Z a–z 0–9 - _`, the URL- and filename-safe alphabet (RFC 4648 §5), used by JOSE.
        public static let url = Alphabet(isURL: true)
    }

    /// How `=` padding is treated when decoding.
    public struct PaddingRule: Hashable, Sendable {
        fileprivate enum Rule { case required, forbidden, optional }
        fileprivate let rule: Rule
        /// Padding must be present so the length is a multiple of 4 (RFC 4648 §3.2).
        public static let required = PaddingRule(rule: .required)
        /// Padding must be absent, as in JOSE base64url (RFC 7515 §2).
        public static let forbidden = PaddingRule(rule: .forbidden)
        /// Either canonical padding or none.
        public static let optional = PaddingRule(rule: .optional)
    }

    private static let standardDigits: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlDigits: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static func decodeTable(_ digits: [UInt8]) -> [UInt8] {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, digit) in digits.enumerated() { table[Int(digit)] = UInt8(value) }
        return table
    }
    private static let standardTable = decodeTable(standardDigits)
    private static let urlTable = decodeTable(urlDigits)

    /// The length of the encoding of `count` bytes.
    /// - Parameters:
    ///   - count: The number of input bytes.
    ///   - padding: Whether `=` padding is written.
    public static func encodedLength(of count: Int, padding: Bool) -> Int {
        padding ? (count + 2) / 3 * 4 : (count * 4 + 2) / 3
    }

    /// Appends the encoding of `bytes` to `output` without intermediate copies.
    /// - Parameters:
    ///   - bytes: The data to encode.
    ///   - output: The buffer to append ASCII bytes to.
    ///   - alphabet: ``Alphabet/standard`` or ``Alphabet/url``.
    ///   - padding: Whether to write `=` padding.
    public static func encode(
        _ bytes: UnsafeRawBufferPointer, appendingTo output: inout [UInt8], alphabet: Alphabet = .standard,
        padding: Bool = true
    ) {
        let outCount = encodedLength(of: bytes.count, padding: padding)
        guard outCount > 0 else { return }
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: outCount))
        let digits = alphabet.isURL ? urlDigits : standardDigits
        digits.withUnsafeBufferPointer { d in
            output.withUnsafeMutableBufferPointer { out in
                var o = start
                var i = 0
                let n = bytes.count
                while i + 3 <= n {
                    let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
                    out[o] = d[Int(v >> 18)]
                    out[o + 1] = d[Int(v >> 12 & 63)]
                    out[o + 2] = d[Int(v >> 6 & 63)]
                    out[o + 3] = d[Int(v & 63)]
                    o += 4
                    i += 3
                }
                let rest = n - i
                if rest == 1 {
                    let v = UInt32(bytes[i]) << 16
                    out[o] = d[Int(v >> 18)]
                    out[o + 1] = d[Int(v >> 12 & 63)]
                    if padding { out[o + 2] = 61; out[o + 3] = 61 }
                } else if rest == 2 {
                    let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
                    out[o] = d[Int(v >> 18)]
                    out[o + 1] = d[Int(v >> 12 & 63)]
                    out[o + 2] = d[Int(v >> 6 & 63)]
                    if padding { out[o + 3] = 61 }
                }
            }
        }
    }

    /// Encodes `bytes` as a string.
    /// - Parameters:
    ///   - bytes: The data to encode.
    ///   - alphabet: ``Alphabet/standard`` (default) or ``Alphabet/url``.
    ///   - padding: Whether to write `=` padding (default `true`).
    /// - Returns: The ASCII encoding.
    public static func encode(_ bytes: some Sequence<UInt8>, alphabet: Alphabet = .standard, padding: Bool = true) -> String {
        var output: [UInt8] = []
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            output.reserveCapacity(encodedLength(of: buffer.count, padding: padding))
            encode(UnsafeRawBufferPointer(buffer), appendingTo: &output, alphabet: alphabet, padding: padding)
        }
        if done == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { encode($0, appendingTo: &output, alphabet: alphabet, padding: padding) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes ASCII base64 text strictly.
    /// - Parameters:
    ///   - text: The encoded bytes.
    ///   - alphabet: Which alphabet the text must use.
    ///   - padding: Whether `=` padding is required, forbidden or optional.
    /// - Returns: The decoded bytes.
    /// - Throws: ``CSEError/Code/base64InvalidCharacter``, ``CSEError/Code/base64InvalidPadding``,
    ///   ``CSEError/Code/base64InvalidLength`` or ``CSEError/Code/base64NonCanonical``.
    public static func decode(
        _ text: UnsafeRawBufferPointer, alphabet: Alphabet = .standard, padding: PaddingRule = .required
    ) throws(CSEError) -> [UInt8] {
        let table = alphabet.isURL ? urlTable : standardTable
        var n = text.count
        var padCount = 0
        while n > 0 && text[n - 1] == 61 && padCount < 3 { n -= 1; padCount += 1 }
        let rest = n % 4
        var shapeError: CSEError?
        if padCount > 0 {
            if padding.rule == .forbidden {
                shapeError = CSEError(.base64InvalidPadding, "padding '=' is not allowed here")
            } else if padCount > 2 || (n + padCount) % 4 != 0 || padCount != 4 - rest {
                shapeError = CSEError(.base64InvalidPadding, "padding does not complete a 4-character group")
            }
        } else if padding.rule == .required && n % 4 != 0 {
            shapeError = CSEError(.base64InvalidPadding, "missing '=' padding")
        }
        if shapeError == nil && rest == 1 {
            shapeError = CSEError(.base64InvalidLength, "a length of 4k+1 characters is impossible")
        }
        if let shapeError {
            // Report a foreign character first: it is the more specific diagnosis.
            try rejectForeignCharacter(text, upTo: n, table: table)
            throw shapeError
        }
        let outCount = n / 4 * 3 + (rest == 0 ? 0 : rest - 1)
        var failure: CSEError?
        let result = [UInt8](unsafeUninitializedCapacity: outCount) { out, initialized in
            table.withUnsafeBufferPointer { t in
                var i = 0
                var o = 0
                var bad: UInt8 = 0
                while i + 4 <= n {
                    let a = t[Int(text[i])], b = t[Int(text[i + 1])], c = t[Int(text[i + 2])], d = t[Int(text[i + 3])]
                    bad |= a | b | c | d
                    let v = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    out[o] = UInt8(truncatingIfNeeded: v >> 16)
                    out[o + 1] = UInt8(truncatingIfNeeded: v >> 8)
                    out[o + 2] = UInt8(truncatingIfNeeded: v)
                    o += 3
                    i += 4
                }
                if rest >= 2 {
                    let a = t[Int(text[i])], b = t[Int(text[i + 1])]
                    let c = rest == 3 ? t[Int(text[i + 2])] : 0
                    bad |= a | b | c
                    if bad & 0x80 == 0 {
                        out[o] = a << 2 | b >> 4
                        if rest == 3 {
                            out[o + 1] = b << 4 | c >> 2
                            if c & 0x3 != 0 { failure = CSEError(.base64NonCanonical, "non-zero unused trailing bits") }
                        } else if b & 0xF != 0 {
                            failure = CSEError(.base64NonCanonical, "non-zero unused trailing bits")
                        }
                    }
                }
                if bad & 0x80 != 0 {
                    do throws(CSEError) { try rejectForeignCharacter(text, upTo: n, table: table) } catch { failure = error }
                }
            }
            initialized = outCount
        }
        if let failure { throw failure }
        return result
    }

    /// Throws for the first byte before `end` that is not in the alphabet: `=` is misplaced padding,
    /// anything else a foreign character.
    private static func rejectForeignCharacter(
        _ text: UnsafeRawBufferPointer, upTo end: Int, table: [UInt8]
    ) throws(CSEError) {
        for i in 0..<end where table[Int(text[i])] == 0xFF {
            if text[i] == 61 { throw CSEError(.base64InvalidPadding, "'=' padding inside the data") }
            throw CSEError(.base64InvalidCharacter, "character outside the base64 alphabet")
        }
    }

    /// Decodes base64 text strictly (see ``decode(_:alphabet:padding:)-(UnsafeRawBufferPointer,_,_)``).
    public static func decode(
        _ text: some StringProtocol, alphabet: Alphabet = .standard, padding: PaddingRule = .required
    ) throws(CSEError) -> [UInt8] {
        var string = String(text)
        let result: Result<[UInt8], CSEError> = string.withUTF8 { utf8 in
            do throws(CSEError) {
                return .success(try decode(UnsafeRawBufferPointer(utf8), alphabet: alphabet, padding: padding))
            } catch { return .failure(error) }
        }
        return try result.get()
    }
}

/// JOSE base64url: the URL-safe alphabet with all trailing `=` omitted (RFC 7515 §2, RFC 4648 §5).
public enum Base64URL {
    /// Encodes without padding.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Base64.encode(bytes, alphabet: .url, padding: false)
    }

    /// Decodes strictly; padding is forbidden.
    /// - Throws: the ``Base64`` decoding errors.
    public static func decode(_ text: some StringProtocol) throws(CSEError) -> [UInt8] {
        try Base64.decode(text, alphabet: .url, padding: .forbidden)
    }
}

extension CSEError.Code {
    /// A character outside the base64 alphabet (whitespace included).
    public static let base64InvalidCharacter = Self("base64.invalidCharacter")
    /// Padding is missing, forbidden, or in the wrong place.
    public static let base64InvalidPadding = Self("base64.invalidPadding")
    /// The length cannot be a base64 encoding (4k+1 characters).
    public static let base64InvalidLength = Self("base64.invalidLength")
    /// The unused bits of the last character are not zero (RFC 4648 §3.5).
    public static let base64NonCanonical = Self("base64.nonCanonical")
}
