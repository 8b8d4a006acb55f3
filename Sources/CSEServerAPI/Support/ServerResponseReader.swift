import CSECore

/// Reads the members of merchant-server response bodies strictly (issue #23, point 5), as the
/// Client API's reader does: `null` counts as absent, a member of the wrong JSON type is
/// ``CSEError/Code/serverAPIInvalidResponse`` naming the platform and the member's path, never
/// its value; unknown members are ignored.
///
/// Lenient only where a platform is polymorphic on the wire: ids and error codes written as
/// integers or strings (``JSONMemberReader/identifier(_:_:)``), APS parameters and card digits
/// written as strings or numbers (``JSONMemberReader/optionalScalarText(_:_:)``).
struct ServerResponseReader: JSONMemberReader {
    /// The platform, for example `worldline`.
    let platform: String
    /// The path of the object read, ending in `.` (empty at the top of the body).
    var prefix = ""

    /// ``CSEError/Code/serverAPIInvalidResponse`` with the platform and the member's path.
    func malformed(_ reason: String, member: String) -> CSEError {
        CSEError(.serverAPIInvalidResponse, reason, context: ["platform": platform, "member": prefix + member])
    }

    /// A reader naming the members under the object member `key`.
    func under(_ key: String) -> ServerResponseReader {
        ServerResponseReader(platform: platform, prefix: prefix + key + ".")
    }

    /// The object member `key`, empty when it is absent or `null` (so its members read as
    /// absent), and a reader naming the members under it.
    /// - Throws: ``CSEError/Code/serverAPIInvalidResponse`` when the member is not an object.
    func child(_ object: JSONObject, _ key: String) throws(CSEError) -> (JSONObject, ServerResponseReader) {
        (try optionalObject(object, key) ?? JSONObject(), under(key))
    }

    /// A required object member.
    /// - Throws: ``CSEError/Code/serverAPIInvalidResponse`` when it is missing or not an object.
    func requiredObject(_ object: JSONObject, _ key: String) throws(CSEError) -> JSONObject {
        guard let inner = try optionalObject(object, key) else { throw malformed("\(key) is missing", member: key) }
        return inner
    }
}
