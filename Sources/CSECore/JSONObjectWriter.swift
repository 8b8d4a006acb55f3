/// Writes one JSON object (RFC 8259 §4) member by member, in the order given, as UTF-8 bytes: the
/// package's one way to print a flat JSON object without building a ``JSONValue`` first. Names and
/// string values are escaped with `JSONWriter`; nothing is spliced by hand.
///
///     var object = JSONObjectWriter()
///     object.int("line", 3)
///     object.string("code", error.code.rawValue)
///     let bytes = object.finish()   // {"line":3,"code":"…"}
package struct JSONObjectWriter {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]
    private var isEmpty = true

    /// Starts an empty object.
    package init() {}

    /// Starts an empty object with room for `capacity` bytes, so a writer that knows its size
    /// (a batch line) grows its buffer once.
    package init(reservingCapacity capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    private mutating func name(_ name: String) {
        if !isEmpty { bytes.append(UInt8(ascii: ",")) }
        isEmpty = false
        JSONWriter.appendString(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    /// `"name":"value"`, escaped.
    package mutating func string(_ name: String, _ value: String) {
        self.name(name)
        JSONWriter.appendString(value, to: &bytes)
    }

    /// `"name":"value"`, where `body` appends the value's UTF-8 bytes straight to the output (a
    /// JWE compact serialization, written without a `String` in between). The appended bytes are
    /// then checked like any string value: when one needs an escape (never for base64url text)
    /// they are taken back and written escaped, so nothing unescaped is ever spliced.
    /// - Throws: What `body` throws; the object is then as before the call.
    package mutating func string<Failure: Error>(
        _ name: String, appending body: (inout [UInt8]) throws(Failure) -> Void
    ) throws(Failure) {
        let before = bytes.count, wasEmpty = isEmpty
        self.name(name)
        bytes.append(UInt8(ascii: "\""))
        let start = bytes.count
        do { try body(&bytes) } catch {
            bytes.removeSubrange(before...)
            isEmpty = wasEmpty
            throw error
        }
        if JSONWriter.needsEscaping(bytes[start...]) {
            let value = String(decoding: bytes[start...], as: UTF8.self)
            bytes.removeSubrange((start - 1)...)
            JSONWriter.appendString(value, to: &bytes)
        } else {
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// `"name":value` for an integer.
    package mutating func int(_ name: String, _ value: Int) {
        self.name(name)
        bytes.append(contentsOf: String(value).utf8)
    }

    /// `"name":true` or `"name":false`.
    package mutating func bool(_ name: String, _ value: Bool) {
        self.name(name)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// `"name":null`.
    package mutating func null(_ name: String) {
        self.name(name)
        bytes.append(contentsOf: "null".utf8)
    }

    /// `"name":<value>` for any ``JSONValue``.
    package mutating func value(_ name: String, _ value: JSONValue) {
        self.name(name)
        JSONWriter.append(value, to: &bytes)
    }

    /// `"name":<json>` where `json` is one complete, already serialized JSON value (for example
    /// another writer's ``finish()``). The caller vouches that it is well formed.
    package mutating func serialized(_ name: String, _ json: [UInt8]) {
        self.name(name)
        bytes.append(contentsOf: json)
    }

    /// `"name":[<json>,…]` from complete, already serialized elements (other writers' ``finish()``).
    package mutating func array(_ name: String, _ elements: [[UInt8]]) {
        serialized(name, Self.array(elements))
    }

    /// `[<json>,…]` from complete, already serialized elements: an array value for ``serialized(_:_:)``.
    package static func array(_ elements: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: element)
        }
        bytes.append(UInt8(ascii: "]"))
        return bytes
    }

    /// `"name":["…",…]`, each string escaped.
    package mutating func strings(_ name: String, _ values: [String]) {
        self.name(name)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// `"name":"value"`, or `"name":null` when `value` is `nil`.
    package mutating func optionalString(_ name: String, _ value: String?) {
        if let value { string(name, value) } else { null(name) }
    }

    /// Closes the object and returns its bytes.
    package consuming func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
