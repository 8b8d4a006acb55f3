import CSECore

/// Ordered header fields; lookup is case-insensitive (RFC 9110 §5.1).
///
/// Fields keep the order and the name spelling they were added with; repeated names are allowed
/// (RFC 9110 §5.2). Adding never fails: a name that is not a token or a value with CR, LF, NUL or
/// another control character is stored as given and refused with `http.invalidHeader` when the
/// request is sent (`validate()`), so header injection cannot reach the wire.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
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
    /// the other controls too) and no leading or trailing whitespace.
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

    /// `field-value = *field-content` with no CTL except HTAB and no leading/trailing SP or HTAB.
    static func isFieldValue(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        if let first = bytes.first, first == 0x20 || first == 0x09 { return false }
        if let last = bytes.last, last == 0x20 || last == 0x09 { return false }
        return bytes.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
    }
}
