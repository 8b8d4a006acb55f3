public import CSECore

extension CSEError.Code {
    /// The DER input ended before a tag, length or value was complete.
    public static let derTruncated = Self("der.truncated")
    /// Bytes follow the end of a complete DER value (at the top level or inside a container).
    public static let derTrailingBytes = Self("der.trailingBytes")
    /// A length was not in its shortest form (X.690 §10.1): long form below 128, or a leading zero octet.
    public static let derNonMinimalLength = Self("der.nonMinimalLength")
    /// The indefinite length form (0x80), which DER forbids (X.690 §10.1).
    public static let derIndefiniteLength = Self("der.indefiniteLength")
    /// A length field longer than four octets, or a value too large for CSEKit's limits.
    public static let derLengthTooLarge = Self("der.lengthTooLarge")
    /// A tag other than the one the structure requires at this position.
    public static let derUnexpectedTag = Self("der.unexpectedTag")
    /// A high-tag-number identifier (tag number ≥ 31), which no supported structure uses.
    public static let derUnsupportedTag = Self("der.unsupportedTag")
    /// An INTEGER with redundant leading octets (X.690 §8.3.2) or with no content octets.
    public static let derNonMinimalInteger = Self("der.nonMinimalInteger")
    /// A negative INTEGER where the structure requires a non-negative one.
    public static let derNegativeInteger = Self("der.negativeInteger")
    /// A NULL with content octets (X.690 §8.8).
    public static let derBadNull = Self("der.badNull")
    /// A BIT STRING that is empty or has unused bits where whole octets are required.
    public static let derBadBitString = Self("der.badBitString")
    /// Constructed values nested deeper than the reader allows.
    public static let derTooDeep = Self("der.tooDeep")
}
