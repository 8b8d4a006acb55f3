internal import CSECore

/// The strict field reads of Google Pay documents: exact member sets, strings where Google writes
/// strings, strict base64 and millisecond timestamps. Every failure is a `wallet.malformed` that
/// names the member and never quotes a value.
enum GooglePayFields {
    /// The largest token or root-key document accepted, in bytes (a real token is about 2 KiB;
    /// Google's keys.json under 1 KiB).
    static let maximumDocumentByteCount = 64 * 1024
    /// The deepest nesting of a token document (a token nests three levels).
    static let maximumDepth = 8

    static let limits = JSONLimits(maxBytes: maximumDocumentByteCount, maxDepth: maximumDepth)

    static func malformed(_ reason: String) -> CSEError {
        CSEError(.walletMalformed, "Google Pay: \(reason)")
    }

    /// Parses `bytes` as one JSON object within ``limits``.
    static func object(_ bytes: some Collection<UInt8>, what: String) throws(CSEError) -> JSONObject {
        let value: JSONValue
        do { value = try JSONValue.parse(bytes, limits: limits) } catch {
            throw CSEError(.walletMalformed, "Google Pay: the \(what) is not JSON (\(error.code.rawValue))", context: error.context)
        }
        guard let object = value.objectValue else { throw malformed("the \(what) is not a JSON object") }
        return object
    }

    /// Requires the object's member names to be exactly `names` (in any order).
    static func requireMembers(_ object: JSONObject, _ names: [String], in what: String) throws(CSEError) {
        for name in names where object[name] == nil { throw malformed("the \(what) has no \(name) member") }
        guard object.count == names.count else {
            throw malformed("the \(what) has members other than \(names.joined(separator: ", "))")
        }
    }

    /// A string member.
    static func string(_ object: JSONObject, _ name: String, in what: String) throws(CSEError) -> String {
        guard let string = object[name]?.stringValue else { throw malformed("\(what).\(name) is not a string") }
        return string
    }

    /// Strict standard base64 with padding (RFC 4648 §4), as Google writes every binary member.
    static func base64(_ text: String, member: String) throws(CSEError) -> [UInt8] {
        do { return try Base64.decode(text, alphabet: .standard, padding: .required) } catch {
            throw malformed("\(member) is not base64 (\(error.code.rawValue))")
        }
    }

    /// Milliseconds since the Unix epoch, written as a string of 1 to 18 decimal digits.
    static func milliseconds(_ text: String, member: String) throws(CSEError) -> Int64 {
        let utf8 = text.utf8
        guard (1...18).contains(utf8.count), utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int64(text) else {
            throw malformed("\(member) is not a decimal count of milliseconds")
        }
        return value
    }
}
