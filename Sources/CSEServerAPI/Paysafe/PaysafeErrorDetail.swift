import CSECore

/// The `error` member of a Paysafe error body (`{"error":{"code","message","fieldErrors":[{"field"}]}}`),
/// read strictly; the code is an integer or a string on the wire.
struct PaysafeErrorDetail {
    /// `error.code`, as text.
    let code: String?
    /// `error.message`.
    let message: String?
    /// The `field` of every `error.fieldErrors[]` entry that names one.
    let fields: [String]

    /// Reads `body.error`, or returns `nil` when the body has none.
    /// - Throws: ``CSEError/Code/serverAPIInvalidResponse`` naming the member of the wrong type.
    init?(_ body: JSONObject) throws(CSEError) {
        let reader = ServerResponseReader(platform: "paysafe")
        guard let error = try reader.optionalObject(body, "error") else { return nil }
        let members = reader.under("error")
        code = try members.identifier(error, "code")
        message = try members.optionalString(error, "message")
        var fields: [String] = []
        for (index, entry) in (try members.optionalArray(error, "fieldErrors") ?? []).enumerated() {
            let name = "fieldErrors[\(index)]"
            if let field = try members.under(name).optionalString(try members.object(entry, member: name), "field") { fields.append(field) }
        }
        self.fields = fields
    }
}
