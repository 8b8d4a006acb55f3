import CSECore

/// The `error` member of a Mastercard Gateway `result: ERROR` body, read strictly: `cause`,
/// `explanation`, `field` and `validationType`, each a string.
struct MastercardErrorDetail {
    /// `error.cause`, for example `INVALID_REQUEST`.
    let cause: String?
    /// `error.explanation`.
    let explanation: String?
    /// `error.field`.
    let field: String?
    /// `error.validationType`.
    let validationType: String?

    /// Reads `body.error`, or returns `nil` when the body has none.
    /// - Throws: ``CSEError/Code/serverAPIInvalidResponse`` naming the member of the wrong type.
    init?(_ body: JSONObject) throws(CSEError) {
        let reader = ServerResponseReader(platform: "mastercard")
        guard let error = try reader.optionalObject(body, "error") else { return nil }
        let members = reader.under("error")
        cause = try members.optionalString(error, "cause")
        explanation = try members.optionalString(error, "explanation")
        field = try members.optionalString(error, "field")
        validationType = try members.optionalString(error, "validationType")
    }
}
