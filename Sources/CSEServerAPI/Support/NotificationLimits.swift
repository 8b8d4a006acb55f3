public import CSECore

/// The bounds of the notification verifiers (Worldline and Paysafe webhooks, Mastercard Gateway
/// webhook notifications, APS transaction feedback).
public enum NotificationLimits {
    /// The largest body a verifier reads: 1 MiB. Platform notifications are a few kilobytes (a
    /// Worldline event, a RETRIEVE TRANSACTION, an APS parameter set); a larger body is refused
    /// before anything is hashed or parsed.
    public static let maximumBodyByteCount = 1 << 20

    /// Refuses a body over ``maximumBodyByteCount``.
    /// - Throws: ``CSEError/Code/serverAPINotificationTooLarge`` with the limit.
    package static func check(_ body: some Collection<UInt8>) throws(CSEError) {
        guard body.count <= maximumBodyByteCount else {
            throw CSEError(
                .serverAPINotificationTooLarge, "the notification body is larger than the verifiers read",
                context: ["limit": String(maximumBodyByteCount)])
        }
    }
}

/// The header fields of a delivery, looked up by name case-insensitively (RFC 9110 §5.1).
struct NotificationHeaders {
    /// A header that is absent, repeated or comma-joined, in the caller's error.
    let problem: (_ name: String, _ problem: String) -> CSEError

    /// The value of the header `name`, which must occur at most once and, when `single`, hold no
    /// comma (a comma-joined list is two values, RFC 9110 §5.3). Leading and trailing spaces and
    /// tabs are not part of a value (RFC 9110 §5.5).
    /// - Returns: The value, or `nil` when the header is absent.
    func value(
        _ name: String, in headers: some Sequence<(name: String, value: String)>, single: Bool
    ) throws(CSEError) -> String? {
        var found: String?
        for (fieldName, fieldValue) in headers where fieldName.lowercased() == name.lowercased() {
            guard found == nil else { throw problem(name, "is repeated") }
            let trimmed = Self.trimmed(fieldValue)
            if single && trimmed.utf8.contains(UInt8(ascii: ",")) { throw problem(name, "is a comma-joined list") }
            found = trimmed
        }
        return found
    }

    /// `value` without leading and trailing spaces and tabs.
    static func trimmed(_ value: String) -> String {
        let bytes = Array(value.utf8)
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
