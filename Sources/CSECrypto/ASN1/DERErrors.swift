public import CSECore

/// The three ways DER input (X.690) can fail, as a caller can act on them. The ``CSEError/reason``
/// names the precise rule that was broken (a non-minimal length, a negative INTEGER, …).
extension CSEError.Code {
    /// The DER input ended before a tag, length or value was complete: more bytes may make it
    /// whole.
    public static let derTruncated = Self("der.truncated")
    /// The bytes are not the DER encoding of the expected structure: a tag other than the one
    /// required, trailing bytes, a length or INTEGER not in its shortest form (X.690 §10.1,
    /// §8.3.2), the indefinite length form, a negative INTEGER where a non-negative one is
    /// required, a NULL with content, a malformed BIT STRING or a high-tag-number identifier.
    public static let derMalformed = Self("der.malformed")
    /// A length field longer than four octets, a value too large for CSEKit's limits, or
    /// constructed values nested deeper than the reader allows.
    public static let derTooLarge = Self("der.tooLarge")
}
