import CSECore
@_spi(CustomTransport) import CSEHTTP

/// Shared handling of request and response bodies for the platform clients.
enum ServerResponse {
    /// Compact JSON bytes of a value.
    static func body(_ value: JSONValue) -> [UInt8] { value.serializedBytes }

    /// The JSON object of a 2xx body.
    /// - Throws: ``CSEError/Code/serverAPIInvalidResponse`` when the body is not a JSON object.
    static func object(_ response: HTTPResponse, platform: String) throws(CSEError) -> JSONObject {
        guard let value = try? JSONValue.parse(response.body), case .object(let object) = value else {
            throw CSEError(
                .serverAPIInvalidResponse, "the response body is not a JSON object",
                context: ["platform": platform, "status": String(response.status)])
        }
        return object
    }

    /// The JSON object of an error body, or `nil` when it is not one.
    static func errorObject(_ response: HTTPResponse) -> JSONObject? {
        guard let value = try? JSONValue.parse(response.body), case .object(let object) = value else { return nil }
        return object
    }

    /// The error for a non-2xx status whose body is not the platform's error shape, or for 401/403.
    /// - Parameters:
    ///   - details: The platform's error detail read from the body, for the context.
    ///   - cause: Why the body is not the platform's error shape, when it is JSON (a member of the
    ///     wrong type: ``CSEError/Code/serverAPIInvalidResponse`` naming it); the status is kept.
    static func statusError(
        _ response: HTTPResponse, platform: String, details: [String: String] = [:], cause: CSEError? = nil
    ) -> CSEError {
        var context = details
        context["platform"] = platform
        context["status"] = String(response.status)
        if response.status == 401 || response.status == 403 {
            return CSEError(.serverAPIAuthenticationFailed, "the platform refused the credentials", context: context, underlying: cause)
        }
        return CSEError(.serverAPIUnexpectedStatus, "the platform answered an error status", context: context, underlying: cause)
    }
}
