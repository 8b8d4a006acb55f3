/// A parsed JSON value (RFC 8259), kept in document order.
///
/// Numbers keep their exact source text, so no precision is lost and the caller decides how to
/// read them (see ``JSONValue/intValue``). Objects keep member order and never contain duplicate
/// names: the parser rejects them, because two JSON implementations may pick different duplicates.
@usableFromInline
package indirect enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its exact source text (for example `"-12.50e3"`).
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, in document order.
    case object(JSONObject)

    /// The string, when this is a string.
    @inlinable
    package var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }

    /// The text of a scalar as a platform signs and echoes it (APS signatures, Paysafe codes,
    /// card digits sent as numbers): a string verbatim, a number as its JSON text, a Boolean as
    /// `true`/`false`; `nil` for arrays, `null` and objects.
    package var scalarText: String? {
        switch self {
        case .string(let s): return s
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        default: return nil
        }
    }
    /// The Boolean, when this is `true` or `false`.
    @inlinable
    package var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    /// The elements, when this is an array.
    @inlinable
    package var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    /// The object, when this is an object.
    @inlinable
    package var objectValue: JSONObject? { if case .object(let o) = self { return o } else { return nil } }
    /// The value as an `Int` when it is a number written as an integer (no fraction or exponent)
    /// that fits in `Int`.
    @inlinable
    package var intValue: Int? {
        guard case .number(let text) = self, !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) else {
            return nil
        }
        return Int(text)
    }
    /// `true` for `null`.
    @inlinable
    package var isNull: Bool { self == .null }

    /// Looks up a member when this is an object.
    @inlinable
    package subscript(key: String) -> JSONValue? { objectValue?[key] }
}

/// A JSON object: names and values in document order, names unique.
@usableFromInline
package struct JSONObject: Hashable, Sendable, Sequence {
    /// The member names, in document order.
    @usableFromInline
    package private(set) var keys: [String]
    /// The member values, parallel to ``keys``.
    @usableFromInline
    package private(set) var values: [JSONValue]

    /// An empty object.
    package init() { keys = []; values = [] }

    /// Creates an object from ordered members. Later duplicates replace earlier ones in place.
    package init(_ members: [(String, JSONValue)]) {
        self.init()
        for (k, v) in members { self[k] = v }
    }

    /// The number of members.
    @inlinable
    package var count: Int { keys.count }

    /// The value of member `key`, or `nil`. Setting appends a new member or replaces in place;
    /// setting `nil` removes it. Names match by their UTF-8 bytes (RFC 8259 §8.3), not by Unicode
    /// canonical equivalence: `"\u212A"` (KELVIN SIGN) is not the member `"K"`.
    @inlinable
    package subscript(key: String) -> JSONValue? {
        get { keys.firstIndex { $0.isByteEqual(to: key) }.map { values[$0] } }
        set {
            if let index = keys.firstIndex(where: { $0.isByteEqual(to: key) }) {
                if let newValue { values[index] = newValue } else { keys.remove(at: index); values.remove(at: index) }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    /// Appends a member whose name the caller has checked is new (the parser's fast path).
    mutating func appendNew(_ key: String, _ value: JSONValue) {
        keys.append(key)
        values.append(value)
    }

    /// Iterates `(name, value)` pairs in document order.
    @inlinable
    package func makeIterator() -> Zip2Sequence<[String], [JSONValue]>.Iterator { zip(keys, values).makeIterator() }
}

/// Limits that bound the work and memory a JSON document can cost.
@usableFromInline
package struct JSONLimits: Hashable, Sendable {
    /// The largest accepted document in bytes.
    package var maxBytes: Int
    /// The deepest accepted nesting of arrays and objects.
    package var maxDepth: Int

    /// Creates limits.
    package init(maxBytes: Int = 1 << 20, maxDepth: Int = 64) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
    }

    /// 1 MiB and depth 64: ample for product definitions, keys and request payloads.
    @usableFromInline
    package static let `default` = JSONLimits()
}

extension CSEError.Code {
    /// The text is not JSON (RFC 8259); the context names the byte offset.
    public static let jsonSyntax = Self("json.syntax")
    /// The document is larger than the entry point reads (1 MiB unless its documentation says
    /// otherwise).
    public static let jsonTooLarge = Self("json.tooLarge")
    /// Arrays and objects nest deeper than the entry point reads (64 levels unless its
    /// documentation says otherwise).
    public static let jsonTooDeep = Self("json.tooDeep")
    /// An object names the same member twice.
    public static let jsonDuplicateKey = Self("json.duplicateKey")
    /// The bytes are not valid UTF-8, or a `\u` escape is a lone surrogate.
    public static let jsonInvalidUnicode = Self("json.invalidUnicode")
    /// A value has the wrong JSON type: for example a document that must be an object is an
    /// array.
    public static let jsonUnexpectedValue = Self("json.unexpectedValue")
}

extension JSONValue {
    /// Parses one JSON document strictly (RFC 8259): no comments, trailing commas, leading zeros,
    /// unescaped control characters, invalid UTF-8, lone surrogate escapes, duplicate member names
    /// or trailing data. Whitespace around the value is allowed.
    /// - Parameters:
    ///   - bytes: The UTF-8 document.
    ///   - limits: Size and depth limits.
    /// - Returns: The value.
    /// - Throws: A `json.*` ``CSEError``; the context gives the byte `offset` (never the text).
    @usableFromInline
    package static func parse(_ bytes: UnsafeRawBufferPointer, limits: JSONLimits = .default) throws(CSEError) -> JSONValue {
        try run(bytes, limits: limits, materialize: true)
    }

    /// Checks that `bytes` is one JSON document `parse` accepts, without building the value: the same grammar, limits and errors (code and
    /// offset), but no arrays, objects or value strings are allocated. For callers that pass a
    /// document on verbatim (`cse encrypt --lines`).
    /// - Parameters:
    ///   - bytes: The UTF-8 document.
    ///   - limits: Size and depth limits.
    /// - Throws: The `json.*` ``CSEError`` that `parse` would throw.
    @usableFromInline
    package static func validate(_ bytes: UnsafeRawBufferPointer, limits: JSONLimits = .default) throws(CSEError) {
        // Most documents (a batch line of card data) are plain: checked without allocating. The
        // full parser runs for the rest, and its verdict and errors decide.
        if bytes.count <= limits.maxBytes, JSONPlainValidator.accepts(bytes, maxDepth: limits.maxDepth) { return }
        _ = try run(bytes, limits: limits, materialize: false)
    }

    /// Checks that `bytes` is one JSON document (RFC 8259) that `parse(_:limits:)`
    /// accepts, without building the value: the same grammar, limits and errors (code and offset).
    /// - Throws: The `json.*` ``CSEError`` that `parse` would throw.
    @inlinable
    package static func validate(_ bytes: some Collection<UInt8>, limits: JSONLimits = .default) throws(CSEError) {
        try withContiguousBytes(of: bytes) { (buffer) throws(CSEError) in try validate(buffer, limits: limits) }
    }

    private static func run(_ bytes: UnsafeRawBufferPointer, limits: JSONLimits, materialize: Bool) throws(CSEError) -> JSONValue {
        guard bytes.count <= limits.maxBytes else {
            throw CSEError(.jsonTooLarge, "JSON document exceeds \(limits.maxBytes) bytes", context: ["limit": String(limits.maxBytes)])
        }
        var parser = JSONParser(bytes: bytes, maxDepth: limits.maxDepth, materialize: materialize)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.syntax("trailing data after the JSON value") }
        return value
    }

    /// Parses one JSON document (RFC 8259) from any byte collection: strict UTF-8, no duplicate
    /// member names, within `limits`.
    /// - Throws: A `json.*` ``CSEError``; the context gives the byte `offset` (never the text).
    @inlinable
    package static func parse(_ bytes: some Collection<UInt8>, limits: JSONLimits = .default) throws(CSEError) -> JSONValue {
        try withContiguousBytes(of: bytes) { (buffer) throws(CSEError) in try parse(buffer, limits: limits) }
    }

    /// Parses a JSON document from a string (RFC 8259 §8.1: JSON text exchanged between systems is
    /// UTF-8, which is what a Swift `String` holds), without copying a native string.
    @inlinable
    package static func parse(_ text: String, limits: JSONLimits = .default) throws(CSEError) -> JSONValue {
        try parse(text.utf8, limits: limits)
    }
}

extension JSONObject {
    /// Parses a JSON document that must be an object: the form of every public entry point that
    /// takes a request or a response as bytes.
    /// - Parameters:
    ///   - bytes: UTF-8 JSON text.
    ///   - what: What the object is, for the error (`"an APS response"`).
    ///   - limits: The parsing limits.
    /// - Throws: A `json.*` error; ``CSEError/Code/jsonUnexpectedValue`` when the document is not
    ///   an object.
    package static func parse(
        _ bytes: some Collection<UInt8>, what: String, limits: JSONLimits = .default
    ) throws(CSEError) -> JSONObject {
        guard case .object(let object) = try JSONValue.parse(bytes, limits: limits) else {
            throw CSEError(.jsonUnexpectedValue, "\(what) must be a JSON object")
        }
        return object
    }
}

private struct JSONParser {
    let bytes: UnsafeRawBufferPointer
    let maxDepth: Int
    /// `false` for `JSONValue.validate(_:limits:)`: every check
    /// runs, but containers, numbers and value strings are not built (member names still are,
    /// for the duplicate check) and the returned value is a placeholder.
    let materialize: Bool
    var index = 0

    init(bytes: UnsafeRawBufferPointer, maxDepth: Int, materialize: Bool = true) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.materialize = materialize
    }

    func syntax(_ reason: String) -> CSEError {
        CSEError(.jsonSyntax, reason, context: ["offset": String(index)])
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(CSEError) -> JSONValue {
        guard index < bytes.count else { throw syntax("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString(keep: materialize))
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw syntax("unexpected character")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(CSEError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw syntax("unexpected end of input") }
        let p = literal.utf8Start
        for i in 0..<count where bytes[index + i] != p[i] { throw syntax("invalid literal") }
        index += count
    }

    mutating func parseObject(depth: Int) throws(CSEError) -> JSONValue {
        guard depth <= maxDepth else {
            throw CSEError(.jsonTooDeep, "JSON nests deeper than \(maxDepth)", context: ["limit": String(maxDepth)])
        }
        index += 1
        var object = JSONObject()
        // Member names seen so far when not materializing (no values to keep).
        var names = MemberNames()
        // Duplicate detection: a linear scan for small objects, a hash set once they grow, so a
        // hostile object with many members costs O(n), not O(n²).
        var seen: Set<String>? = nil
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw syntax("expected a member name") }
            let duplicate: Bool
            let key: String
            if materialize {
                key = try parseString(keep: true)
                if seen != nil {
                    duplicate = !seen!.insert(key).inserted
                } else {
                    duplicate = object.keys.contains(key)
                    if object.keys.count >= 16 { seen = Set(object.keys); seen!.insert(key) }
                }
            } else {
                key = ""
                duplicate = !names.insert(try parseName(), in: bytes)
            }
            if duplicate {
                throw CSEError(.jsonDuplicateKey, "duplicate member name", context: ["offset": String(index)])
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw syntax("expected ':'") }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            if materialize { object.appendNew(key, value) }
            skipWhitespace()
            guard index < bytes.count else { throw syntax("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
            throw syntax("expected ',' or '}'")
        }
    }

    mutating func parseArray(depth: Int) throws(CSEError) -> JSONValue {
        guard depth <= maxDepth else {
            throw CSEError(.jsonTooDeep, "JSON nests deeper than \(maxDepth)", context: ["limit": String(maxDepth)])
        }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipWhitespace()
            let element = try parseValue(depth: depth)
            if materialize { elements.append(element) }
            skipWhitespace()
            guard index < bytes.count else { throw syntax("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            throw syntax("expected ',' or ']'")
        }
    }

    mutating func parseNumber() throws(CSEError) -> String {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw syntax("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count && isDigit(bytes[index]) { throw syntax("leading zeros are not allowed") }
        } else {
            while index < bytes.count && isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw syntax("invalid fraction") }
            while index < bytes.count && isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw syntax("invalid exponent") }
            while index < bytes.count && isDigit(bytes[index]) { index += 1 }
        }
        return materialize ? String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self) : ""
    }

    func isDigit(_ b: UInt8) -> Bool { b.isASCIIDigit }

    /// Reads a member name for validation: a name of ASCII bytes without escapes (the usual case)
    /// comes back as its byte range, not copied; any other name, and any error, goes through
    /// ``parseString(keep:)`` from the same position, so verdicts and error offsets are parse's.
    mutating func parseName() throws(CSEError) -> MemberNames.Name {
        var end = index + 1
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                defer { index = end + 1 }
                return .plain((index + 1)..<end)
            }
            if byte == UInt8(ascii: "\\") || byte >= 0x80 || byte < 0x20 { break }
            end += 1
        }
        return .decoded(try parseString(keep: true))
    }

    /// Reads a string token. With `keep` off the text is checked (escapes, control characters,
    /// UTF-8) exactly as with it on, but an ASCII string without escapes is not copied and `""`
    /// is returned.
    mutating func parseString(keep: Bool = true) throws(CSEError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes. `high` collects the bytes' top bits: an ASCII string needs no
        // UTF-8 validation, which is a generic, unspecialised call (cse encrypt --lines: ≈ 5% of
        // the process in it and its metadata lookups).
        var high: UInt8 = 0
        // Whole words of plain ASCII first (a wallet token's base64 members are kilobytes long).
        if let base = bytes.baseAddress {
            index = ASCIIScan.jsonPlainWordsEnd(base, from: index, count: bytes.count, delete: false)
        }
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if high < 0x80 { return keep ? String(decoding: raw, as: UTF8.self) : "" }
                guard let s = String(validating: raw, as: UTF8.self) else {
                    throw CSEError(.jsonInvalidUnicode, "string is not valid UTF-8", context: ["offset": String(start)])
                }
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw syntax("unescaped control character in string") }
            high |= b
            index += 1
        }
        guard index < bytes.count else { throw syntax("unterminated string") }
        var out = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                index += 1
                guard let s = String(validating: out, as: UTF8.self) else {
                    throw CSEError(.jsonInvalidUnicode, "string is not valid UTF-8", context: ["offset": String(start)])
                }
                return s
            }
            if b < 0x20 { throw syntax("unescaped control character in string") }
            if b != UInt8(ascii: "\\") { out.append(b); index += 1; continue }
            index += 1
            guard index < bytes.count else { throw syntax("unterminated escape") }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw CSEError(.jsonInvalidUnicode, "lone high surrogate escape", context: ["offset": String(index)])
                    }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw CSEError(
                            .jsonInvalidUnicode, "high surrogate not followed by a low surrogate", context: ["offset": String(index)])
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw CSEError(.jsonInvalidUnicode, "lone low surrogate escape", context: ["offset": String(index)])
                }
                out.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(scalar)!)!)
            default:
                throw syntax("invalid escape")
            }
        }
        throw syntax("unterminated string")
    }

    mutating func parseHex4() throws(CSEError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw syntax("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt32
            switch c {
            case 0x30...0x39: digit = UInt32(c - 0x30)
            case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
            case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
            default: throw syntax("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}

/// A validator for plain JSON documents that allocates nothing: the grammar of RFC 8259 with
/// strings of ASCII without escapes, member names unique by their bytes, at most 32 levels and 64
/// member names open at once. It answers `true` only for a document ``JSONParser`` accepts within
/// the depth limit; `false` means "not plain" (an escape, non-ASCII text, a hostile shape) or
/// invalid, and the caller then runs the full parser, whose verdict and errors decide. For plain
/// names, equal bytes is exactly equal names, so the duplicate check agrees with the parser's.
/// (`cse encrypt --lines`: the full validation of a card line cost 1.3 µs, issue #37.)
private struct JSONPlainValidator {
    private let bytes: UnsafeRawBufferPointer
    private let base: UnsafeRawPointer
    private let maxDepth: Int
    private var index = 0
    /// The names of the objects open now, innermost last (start and end offsets).
    private let names: UnsafeMutablePointer<(Int, Int)>
    private var nameCount = 0
    private static let nameCapacity = 64
    private static let depthCapacity = 32

    private init(bytes: UnsafeRawBufferPointer, base: UnsafeRawPointer, maxDepth: Int, names: UnsafeMutablePointer<(Int, Int)>) {
        self.bytes = bytes
        self.base = base
        self.maxDepth = min(maxDepth, Self.depthCapacity)
        self.names = names
    }

    static func accepts(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        return withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: nameCapacity) { names in
            var validator = JSONPlainValidator(bytes: bytes, base: base, maxDepth: maxDepth, names: names.baseAddress!)
            validator.skipWhitespace()
            guard validator.value(depth: 0) else { return false }
            validator.skipWhitespace()
            return validator.index == bytes.count
        }
    }

    private func byte(_ offset: Int) -> UInt8 { base.load(fromByteOffset: offset, as: UInt8.self) }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch byte(index) {
            case 0x20, 0x09, 0x0A, 0x0D: index &+= 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) -> Bool {
        guard index < bytes.count else { return false }
        switch byte(index) {
        case UInt8(ascii: "{"): return object(depth: depth + 1)
        case UInt8(ascii: "["): return array(depth: depth + 1)
        case UInt8(ascii: "\""): return string() != nil
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default: return false
        }
    }

    private mutating func literal(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for i in 0..<count where byte(index + i) != text.utf8Start[i] { return false }
        index += count
        return true
    }

    /// A string of ASCII without escapes or control characters: the range of its text.
    private mutating func string() -> (Int, Int)? {
        let start = index &+ 1
        guard let end = ASCIIScan.jsonPlainStringEnd(base, from: start, count: bytes.count) else { return nil }
        index = end &+ 1
        return (start, end)
    }

    private func isDigit(at offset: Int) -> Bool { offset < bytes.count && byte(offset).isASCIIDigit }

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func number() -> Bool {
        if byte(index) == UInt8(ascii: "-") { index += 1 }
        guard isDigit(at: index) else { return false }
        if byte(index) == UInt8(ascii: "0") {
            index += 1
            if isDigit(at: index) { return false }
        } else {
            while isDigit(at: index) { index += 1 }
        }
        if index < bytes.count, byte(index) == UInt8(ascii: ".") {
            index += 1
            guard isDigit(at: index) else { return false }
            while isDigit(at: index) { index += 1 }
        }
        if index < bytes.count, byte(index) | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, byte(index) == UInt8(ascii: "+") || byte(index) == UInt8(ascii: "-") { index += 1 }
            guard isDigit(at: index) else { return false }
            while isDigit(at: index) { index += 1 }
        }
        return true
    }

    private mutating func array(depth: Int) -> Bool {
        guard depth <= maxDepth else { return false }
        if opensEmpty(closing: UInt8(ascii: "]")) { return true }
        while true {
            skipWhitespace()
            guard value(depth: depth) else { return false }
            if let closed = afterElement(closing: UInt8(ascii: "]")) { return closed }
        }
    }

    /// Steps over a container's opening byte; `true` (and steps over the closing byte too) when
    /// the container is empty.
    private mutating func opensEmpty(closing: UInt8) -> Bool {
        index += 1
        skipWhitespace()
        guard index < bytes.count, byte(index) == closing else { return false }
        index += 1
        return true
    }

    /// After an element or member value: `nil` after a `,` (another follows), `true` after the
    /// closing byte, `false` for anything else.
    private mutating func afterElement(closing: UInt8) -> Bool? {
        skipWhitespace()
        guard index < bytes.count else { return false }
        let b = byte(index)
        index += 1
        return b == UInt8(ascii: ",") ? nil : b == closing
    }

    private mutating func object(depth: Int) -> Bool {
        guard depth <= maxDepth else { return false }
        let firstName = nameCount
        defer { nameCount = firstName }
        if opensEmpty(closing: UInt8(ascii: "}")) { return true }
        while true {
            skipWhitespace()
            guard index < bytes.count, byte(index) == UInt8(ascii: "\""), nameCount < Self.nameCapacity,
                let name = string()
            else { return false }
            let length = name.1 - name.0
            for i in firstName..<nameCount {
                let other = names[i]
                if other.1 - other.0 == length, memoryEqual(other.0, name.0, length) { return false }
            }
            names[nameCount] = name
            nameCount += 1
            skipWhitespace()
            guard index < bytes.count, byte(index) == UInt8(ascii: ":") else { return false }
            index += 1
            skipWhitespace()
            guard value(depth: depth) else { return false }
            if let closed = afterElement(closing: UInt8(ascii: "}")) { return closed }
        }
    }

    private func memoryEqual(_ a: Int, _ b: Int, _ count: Int) -> Bool {
        for i in 0..<count where byte(a + i) != byte(b + i) { return false }
        return true
    }
}

/// The member names of one object in validation mode, for the duplicate check without building a
/// `String` per name. Plain names (ASCII, no escapes) are byte ranges of the input and compare as
/// bytes: ASCII text is canonically equivalent to other ASCII text exactly when the bytes are
/// equal. A decoded name (escapes or non-ASCII) compares as a `String` with every name, because
/// it can be canonically equivalent to an ASCII one (`"\u212A"`, KELVIN SIGN, is `"K"`). Past 16
/// names every name goes into a hash set of `String`s, as in parse mode. (A stack of ranges
/// shared by nested objects, to allocate once per document, measured slower: 20.9 k against
/// 18.8 k instructions per `cse encrypt --lines` line.)
struct MemberNames {
    enum Name {
        case plain(Range<Int>)
        case decoded(String)
    }

    private var plain: [Range<Int>] = []
    private var decoded: [String] = []
    private var hashed: Set<String>? = nil

    /// Adds `name`; `false` when an equal name was already there.
    mutating func insert(_ name: Name, in bytes: UnsafeRawBufferPointer) -> Bool {
        func text(_ range: Range<Int>) -> String { String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        if hashed != nil {
            switch name {
            case .plain(let range): return hashed!.insert(text(range)).inserted
            case .decoded(let string): return hashed!.insert(string).inserted
            }
        }
        if plain.count + decoded.count >= 16 {
            hashed = Set(plain.map(text) + decoded)
            return insert(name, in: bytes)
        }
        switch name {
        case .plain(let range):
            for other in plain where other.count == range.count && bytes[other].elementsEqual(bytes[range]) {
                return false
            }
            if !decoded.isEmpty, decoded.contains(text(range)) { return false }
            plain.append(range)
        case .decoded(let string):
            if decoded.contains(string) || plain.contains(where: { text($0) == string }) { return false }
            decoded.append(string)
        }
        return true
    }
}
