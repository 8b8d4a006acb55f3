public import CSECore
import CSECrypto
public import CSEGateways
@_spi(CustomTransport) public import CSEHTTP
import CSEValidation

/// A verified SDK token.
public struct APSSDKToken: Hashable, Sendable, CustomStringConvertible {
    /// The `sdk_token` for the mobile SDK.
    public let token: String
    /// The `response_code` (`22000`).
    public let responseCode: APSResponseCode
    /// The `response_message`, in the request's language.
    public let responseMessage: String?

    /// The response code only (the token is a credential of the device's payment).
    public var description: String { "APSSDKToken(response_code: \(responseCode), sdk_token: \(SecretMasking.redact(token)))" }
}

/// The Amazon Payment Services server call behind the mobile SDK: `SDK_TOKEN` on
/// `FortAPI/paymentApi` ("your server must generate the token").
///
/// The request is signed with the SHA request phrase (``APSSignature``). The response signature is
/// verified with the SHA response phrase **before** any field is read; a response that fails it,
/// or does not echo the request, is an error and its token is never returned.
public struct APSSDKTokenClient: Sendable {
    /// The credentials.
    public let credentials: APSCredentials
    /// Where the calls go: ``ServerEnvironment/apsTest``, ``ServerEnvironment/apsProduction`` or
    /// a test server.
    public let environment: ServerEnvironment
    /// `{origin}/FortAPI/paymentApi`.
    let url: HTTPURL
    let http: HTTPClient

    /// Creates a client.
    /// - Parameters:
    ///   - credentials: The account.
    ///   - environment: ``ServerEnvironment/apsTest``, ``ServerEnvironment/apsProduction`` or a
    ///     test server; `/FortAPI/paymentApi` is appended.
    ///   - configuration: Deadlines, retries, size limit and TLS trust.
    ///   - transport: A transport of your own (tests, a proxy); libcurl when `nil`.
    /// - Throws: ``CSEError/Code/httpInvalidConfiguration`` for a configuration out of range.
    public init(
        credentials: APSCredentials, environment: ServerEnvironment, configuration: HTTPClientConfiguration = HTTPClientConfiguration(),
        transport: (any HTTPTransport)? = nil
    ) throws(CSEError) {
        try self.init(
            credentials: credentials, environment: environment, http: HTTPClient(configuration: configuration, transport: transport))
    }

    /// Creates a client over an existing `HTTPClient`.
    package init(credentials: APSCredentials, environment: ServerEnvironment, http: HTTPClient) throws(CSEError) {
        self.credentials = credentials
        self.environment = environment
        self.url = try APSConnection.url(environment)
        self.http = http
    }

    /// The signed request parameters.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` naming the parameters that fail the
    ///   `aps-sdk-token.json` checks (for example a `device_id` with characters other than letters,
    ///   digits and `-`, or a language other than `en`/`ar`).
    package func requestParameters(deviceID: String, language: String = "en") throws(CSEError) -> JSONObject {
        var parameters = JSONObject([
            ("service_command", .string("SDK_TOKEN")), ("access_code", .string(credentials.accessCode)),
            ("merchant_identifier", .string(credentials.merchantIdentifier)), ("language", .string(language)),
            ("device_id", .string(deviceID)),
        ])
        parameters["signature"] = .string(
            try APSSignature.sign(
                parameters, phrase: credentials.requestPhrase,
                algorithm: credentials.algorithm))
        let result = try APSValidation.validate(.object(parameters), operation: .apsSDKToken)
        guard result.isValid else {
            let fields = result.errors.map(\.field).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            throw CSEError(
                .serverAPIInvalidArgument, "the SDK_TOKEN request fails the APS parameter checks",
                context: ["parameters": fields.joined(separator: ",")])
        }
        return parameters
    }

    /// Requests an SDK token for a device.
    /// - Parameters:
    ///   - deviceID: The id the mobile SDK reports for the device.
    ///   - language: `en` or `ar`.
    /// - Returns: The verified token.
    /// - Throws: ``CSEError/Code/apsResponseSignature`` (unsigned or wrongly signed response),
    ///   ``CSEError/Code/apsResponseMismatch`` (a signed response for another request),
    ///   `aps.message.NNN` for a documented failure (for example `apsMessage("008")`
    ///   when APS refused the request signature), ``CSEError/Code/apsUndocumentedMessage``,
    ///   ``CSEError/Code/apsResponseMalformed``, a transport error, or
    ///   ``CSEError/Code/serverAPIUnexpectedStatus`` / ``CSEError/Code/serverAPIAuthenticationFailed``
    ///   for a non-2xx status.
    public func sdkToken(deviceID: String, language: String = "en") async throws(CSEError) -> APSSDKToken {
        let parameters = try requestParameters(deviceID: deviceID, language: language)
        let response = try await ServerRequest.send(http, .post, url: url, body: .object(parameters))
        guard response.isSuccess else { throw ServerResponse.statusError(response, platform: "aps") }
        return try verify(response: try ServerResponse.object(response, platform: "aps"), request: parameters)
    }

    /// Verifies a response and maps its codes (the trust order of ``sdkToken(deviceID:language:)``).
    package func verify(response: JSONObject, request: JSONObject) throws(CSEError) -> APSSDKToken {
        var sent = request
        sent["signature"] = nil
        let verification = try APSSignature.verifyResponse(
            request: sent, response: response,
            responsePhrase: credentials.responsePhrase,
            algorithm: credentials.algorithm)
        // Nothing in the response is read before its signature is known to be valid.
        guard verification.signatureValid else {
            throw CSEError(.apsResponseSignature, "the response signature is missing or does not match the SHA response phrase")
        }
        let status: APSResponseStatus
        do throws(CSEError) { status = try APSResponseStatus(response: response) } catch {
            throw CSEError(.apsResponseMalformed, "the signed response has no valid response_code")
        }
        guard status.statusMatches else {
            throw CSEError(
                .apsResponseMalformed, "status and response_code disagree",
                context: ["response_code": status.code.description])
        }
        var context = ["response_code": status.code.description, "status": status.code.status]
        if let text = status.code.statusDescription { context["statusDescription"] = text }
        // A response_message of the wrong type is an error; on a refusal, the cause of APS's own error.
        var message: String?
        var messageError: CSEError?
        do { message = try ServerResponseReader(platform: "aps").optionalString(response, "response_message") } catch {
            messageError = error
        }
        if let message {
            context["response_message"] = SafeText(secrets: [credentials.requestPhrase, credentials.responsePhrase]).of(message, limit: 100)
        }
        guard status.code.status == "22", status.code.message == "000" else {
            guard let description = status.code.messageDescription else {
                throw CSEError(
                    .apsUndocumentedMessage, "APS refused the request with an undocumented message code", context: context,
                    underlying: messageError)
            }
            throw CSEError(
                .apsMessage(status.code.message), "APS refused the request: \(description)", context: context, underlying: messageError)
        }
        guard verification.missingParameters.isEmpty, verification.changedParameters.isEmpty else {
            throw CSEError(
                .apsResponseMismatch, "the signed response does not echo the request",
                context: ["parameters": (verification.missingParameters + verification.changedParameters).joined(separator: ",")])
        }
        if let messageError { throw messageError }
        guard let token = response["sdk_token"]?.stringValue, !token.isEmpty, token.utf8.count <= 100,
            token.utf8.allSatisfy({ ServerIdentifier.isIdentifierByte($0) })
        else {
            throw CSEError(.apsResponseMalformed, "the successful response has no usable sdk_token")
        }
        return APSSDKToken(token: token, responseCode: status.code, responseMessage: message)
    }
}
