import CSECore

/// Reading members of platform JSON bodies.
enum ServerJSON {
    /// A required string member of a 2xx body.
    static func string(_ object: JSONObject, _ name: String, platform: String) throws(CSEError) -> String {
        guard let value = object[name]?.stringValue, !value.isEmpty else {
            throw missing(name, platform: platform)
        }
        return value
    }

    /// The error for a missing or malformed response member.
    static func missing(_ member: String, platform: String) -> CSEError {
        CSEError(
            .serverAPIInvalidResponse, "the response lacks a member or has the wrong type",
            context: ["platform": platform, "member": member])
    }

}

/// Makes text from a platform response safe for an error or a log line: printable ASCII only, at
/// most `limit` characters, and every digit run of 8 or more digits (spaces and dashes between
/// digits included) starred out, so an echoed card number never reaches a message.
enum SafeText {
    static func of(_ text: String, limit: Int = 160) -> String {
        let scalars = Array(text.unicodeScalars.prefix(limit))
        var out = scalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" }
        var i = 0
        while i < out.count {
            guard out[i].isASCII, out[i].isNumber else { i += 1; continue }
            var j = i
            var digits = 0
            var lastDigit = i
            while j < out.count, out[j].isNumber || out[j] == " " || out[j] == "-" {
                if out[j].isNumber { digits += 1; lastDigit = j }
                j += 1
            }
            if digits >= 8 {
                for k in i...lastDigit where out[k].isNumber { out[k] = "*" }
            }
            i = j
        }
        return String(out)
    }
}
