import CSECore

/// Worldline's error body, read strictly: `errorId`, `errors[]` (`id`, `errorCode` or the older
/// `code`, `propertyName`, `message`, `retriable`) and, for a refused payment, `paymentResult`.
struct WorldlineErrorBody {
    /// One member of `errors[]`.
    struct Entry {
        /// `id`, for example `DUPLICATE_REQUEST_IN_PROGRESS`.
        let id: String?
        /// `errorCode`, or the older `code`, an integer or a string on the wire, as text.
        let code: String?
        /// `propertyName`.
        let propertyName: String?
        /// `message`.
        let message: String?
        /// `retriable`: the same request may be sent again with a new idempotence key.
        let retriable: Bool?
    }

    /// `errorId`.
    let errorID: String?
    /// `errors[]`, or `nil` when the body has none.
    let errors: [Entry]?
    /// The payment of `paymentResult`, when the platform created one and refused it.
    let paymentResult: WorldlinePayment?

    /// Reads an error body.
    /// - Throws: ``CSEError/Code/serverAPIInvalidResponse`` naming the first member of the wrong
    ///   type (for example `errors[0].retriable`), or a `paymentResult` that is not a payment.
    init(_ body: JSONObject) throws(CSEError) {
        let reader = ServerResponseReader(platform: "worldline")
        errorID = try reader.optionalString(body, "errorId")
        if let array = try reader.optionalArray(body, "errors") {
            var entries: [Entry] = []
            entries.reserveCapacity(array.count)
            for (index, element) in array.enumerated() {
                let name = "errors[\(index)]"
                let object = try reader.object(element, member: name)
                let entry = reader.under(name)
                var code = try entry.identifier(object, "errorCode")
                if code == nil { code = try entry.identifier(object, "code") }
                entries.append(
                    Entry(
                        id: try entry.optionalString(object, "id"), code: code,
                        propertyName: try entry.optionalString(object, "propertyName"),
                        message: try entry.optionalString(object, "message"), retriable: try entry.optionalBool(object, "retriable")))
            }
            errors = entries
        } else {
            errors = nil
        }
        if let result = try reader.optionalObject(body, "paymentResult") {
            paymentResult = try WorldlinePayment(response: result, reader: reader.under("paymentResult"))
        } else {
            paymentResult = nil
        }
    }

    /// Whether the first attempt with this idempotence key is still running (409
    /// `DUPLICATE_REQUEST_IN_PROGRESS`, error code 1409).
    var isRequestInProgress: Bool {
        let first = errors?.first
        return first?.id == "DUPLICATE_REQUEST_IN_PROGRESS" || first?.code == "1409"
    }

    /// Whether every error is `retriable`: "a technical error happened and the same request can
    /// safely be sent again with a new idempotence key", so nothing was processed.
    var isRetriable: Bool {
        guard let errors, !errors.isEmpty else { return false }
        return errors.allSatisfy { $0.retriable == true }
    }
}
