import CSECore
import CSEHTTP

/// Checks for identifiers that go into paths and headers (merchant ids, key ids, access codes).
enum ServerIdentifier {
    /// - Parameter isPathSegment: The value becomes a path segment: `.` and `..` are refused
    ///   (RFC 3986 §5.2.4; see `HTTPURL.appending(pathSegments:)`).
    static func check(_ value: String, member: String, limit: Int = 64, isPathSegment: Bool = false) throws(CSEError) {
        guard !value.isEmpty else {
            throw CSEError(.serverAPICredentials, "a credentials member is empty", context: ["member": member])
        }
        if isPathSegment && HTTPURL.isUnsafePathSegment(value) {
            throw CSEError(
                .serverAPICredentials, "an identifier that goes into a URL path cannot be '.' or '..'", context: ["member": member])
        }
        guard value.utf8.count <= limit, value.utf8.allSatisfy({ isIdentifierByte($0) }) else {
            throw CSEError(
                .serverAPICredentials, "an identifier may hold only letters, digits, '-', '_' and '.' (at most \(limit))",
                context: ["member": member])
        }
    }

    static func isIdentifierByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            return true
        default: return false
        }
    }
}
