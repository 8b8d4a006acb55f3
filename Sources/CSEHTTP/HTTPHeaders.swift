package import CSECore

/// Ordered header fields; lookup is case-insensitive (RFC 9110 §5.1).
///
/// Fields keep the order and the name spelling they were added with; repeated names are allowed
/// (RFC 9110 §5.2). Adding never fails: a name that is not a token or a value with CR, LF, NUL,
/// another C0 or C1 control character or a Unicode line or paragraph separator is stored as given
/// and refused with `http.invalidHeader` when the request is sent (`validate()`), so header
/// injection cannot reach the wire.
@_spi(CustomTransport) public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    private var fields: [(name: String, value: String)] = []

    /// No fields.
    public init() {}

    /// The fields in literal order.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { add(name: name, value: value) }
    }

    /// Appends a field, keeping any earlier field of the same name.
    public mutating func add(name: String, value: String) {
        fields.append((name: name, value: value))
    }

    /// Removes every field named `name` (any case), then appends one with `value`.
    package mutating func replace(name: String, value: String) {
        remove(name: name)
        add(name: name, value: value)
    }

    /// Removes every field named `name` (any case).
    package mutating func remove(name: String) {
        fields.removeAll { Self.namesEqual($0.name, name) }
    }

    /// The value of the first field named `name` (any case), or `nil`.
    public subscript(name: String) -> String? {
        fields.first { Self.namesEqual($0.name, name) }?.value
    }

    /// The values of every field named `name` (any case), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesEqual($0.name, name) }.map(\.value)
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The fields in order, as `(name, value)` pairs.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    /// The field names only; values may be secrets (`Authorization`) and are never printed.
    public var description: String {
        "HTTPHeaders(" + fields.map(\.name).joined(separator: ", ") + ")"
    }

    /// Checks every field: the name is an RFC 9110 §5.6.2 token, the value has no control
    /// character other than horizontal tab (RFC 9110 §5.5 forbids CR, LF and NUL; CSEKit refuses
    /// the other C0 controls, DEL, the C1 controls U+0080–U+009F, among them NEL U+0085 and CSI
    /// U+009B, and the line and paragraph separators U+2028 and U+2029, which a peer or a log
    /// reader that decodes the value may take for a line break or a terminal command) and no
    /// leading or trailing whitespace.
    /// - Throws: `http.invalidHeader`, naming the field when its name is a valid token; the value
    ///   is never part of the error.
    package func validate() throws(CSEError) {
        for (index, field) in fields.enumerated() {
            guard Self.isToken(field.name) else {
                throw CSEError(.httpInvalidHeader, "a header name is not an RFC 9110 token", context: ["index": String(index)])
            }
            guard Self.isFieldValue(field.value) else {
                throw CSEError(
                    .httpInvalidHeader, "the value of header \(field.name) holds a control character or surrounding whitespace",
                    context: ["header": field.name])
            }
        }
    }

    /// ASCII case-insensitive name comparison (field names are ASCII tokens).
    static func namesEqual(_ a: String, _ b: String) -> Bool {
        var left = a.utf8.makeIterator(), right = b.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return true
            case (let x?, let y?): if lowercased(x) != lowercased(y) { return false }
            default: return false
            }
        }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (65...90).contains(byte) ? byte | 0x20 : byte
    }

    /// `token = 1*tchar` (RFC 9110 §5.6.2).
    static func isToken(_ text: String) -> Bool {
        !text.utf8.isEmpty && text.utf8.allSatisfy(isTChar)
    }

    static func isTChar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// `field-value = *field-content` with no CTL except HTAB, no C1 control, no U+2028 or
    /// U+2029, and no leading/trailing SP or HTAB.
    static func isFieldValue(_ text: String) -> Bool {
        let scalars = text.unicodeScalars
        if let first = scalars.first, first == " " || first == "\t" { return false }
        if let last = scalars.last, last == " " || last == "\t" { return false }
        return scalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x09: true
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: false
            default: true
            }
        }
    }
}
