public import CSECore

extension CSEError.Code {
    /// A credentials document is not a flat JSON object of strings, or lacks a member, or a
    /// member is empty or malformed. The context names the member, never its value.
    public static let serverAPICredentials = Self("serverAPI.credentials")
    /// The platform answered HTTP 401 or 403: the credentials (API key, password, signature) were
    /// refused. The context names the platform, the status and the platform's error id or cause.
    public static let serverAPIAuthenticationFailed = Self("serverAPI.authenticationFailed")
    /// The platform answered a status outside 2xx with a body that is not its documented error
    /// shape. The context gives the status.
    public static let serverAPIUnexpectedStatus = Self("serverAPI.unexpectedStatus")
    /// A 2xx response body is not the documented JSON shape (for example a missing payment id or
    /// token). The context names the missing or malformed member.
    public static let serverAPIInvalidResponse = Self("serverAPI.invalidResponse")
    /// A request argument is malformed (an empty token, an amount out of range, a currency that is
    /// not three letters, an id with characters a path cannot carry). The context names it.
    public static let serverAPIInvalidArgument = Self("serverAPI.invalidArgument")
    /// A notification body (a webhook or a transaction feedback) is larger than the verifiers
    /// read (``NotificationLimits/maximumBodyByteCount``); nothing of it was read. The context
    /// gives the limit.
    public static let serverAPINotificationTooLarge = Self("serverAPI.notificationTooLarge")

    /// Worldline answered with its error body (`errorId`, `errors[]`); the context gives the
    /// status, the `errorId` and the first error's `id`, `code` and `propertyName`.
    public static let worldlineAPIError = Self("worldline.apiError")
    /// Worldline refused the payment: HTTP 402, a `paymentResult` in an error body, or a 2xx
    /// answer whose payment's `statusCategory` is `UNSUCCESSFUL` (`REJECTED`, `CANCELLED`, …). The
    /// context gives the payment id and its status (and category when sent).
    public static let worldlinePaymentRejected = Self("worldline.paymentRejected")
    /// Worldline created the payment but does not know its result yet: a `statusCategory` (or,
    /// without one, a `status`) the Direct API does not document, or `statusCode` 52 or 92
    /// ("result not determined"). The cause of an unknown outcome; the context gives the payment
    /// id, status, category and code. Poll GetPayment until it moves.
    public static let worldlinePaymentUndetermined = Self("worldline.paymentUndetermined")
    /// Worldline answered 409 `DUPLICATE_REQUEST_IN_PROGRESS` (or `errorCode` 1409) to a call that
    /// moves no money: the first request with the same idempotence key is still running. Send
    /// it again later with the same key; the platform then replays the first answer.
    public static let worldlineRequestInProgress = Self("worldline.requestInProgress")
    /// A webhook lacks the `X-GCS-Signature` or `X-GCS-KeyId` header, or carries one twice.
    public static let worldlineWebhookHeader = Self("worldline.webhook.header")
    /// A webhook names a key id for which no secret is configured.
    public static let worldlineWebhookUnknownKey = Self("worldline.webhook.unknownKey")
    /// A webhook's `X-GCS-Signature` is not base64 of the HMAC-SHA256 of the body under the
    /// secret of its key id; nothing in it may be trusted.
    public static let worldlineWebhookSignature = Self("worldline.webhook.signature")
    /// A correctly signed webhook body is not a Worldline event (a JSON object with `id` and
    /// `type`, and `payment`/`refund` objects of the documented shape); the context names the
    /// member, never its value.
    public static let worldlineWebhookMalformed = Self("worldline.webhook.malformed")

    /// The APS response `signature` is missing or does not match the response parameters under the
    /// SHA response phrase. No field of such a response is trusted; the token is never returned.
    public static let apsResponseSignature = Self("aps.sdkToken.responseSignature")
    /// The signed APS response does not echo the request (`service_command`, `access_code`,
    /// `merchant_identifier`, `language`, `device_id`); the context names the parameters.
    public static let apsResponseMismatch = Self("aps.sdkToken.responseMismatch")
    /// The signed APS response is successful but carries no usable `sdk_token`, or its `status`
    /// and `response_code` disagree.
    public static let apsResponseMalformed = Self("aps.sdkToken.responseMalformed")
    /// An APS failure whose message code is not in the documented table.
    public static let apsUndocumentedMessage = Self("aps.message.undocumented")

    /// The error of a documented APS message code `NNN` (the last three digits of
    /// `response_code`): `aps.message.NNN`, for example `apsMessage("008")` (Signature mismatch),
    /// `apsMessage("068")` (SDK service is inactive). The documented codes and their texts are the
    /// table `Vectors/gateways/aps-response-codes.json` (``APSResponseCode/messageDescription``).
    public static func apsMessage(_ message: String) -> Self { Self("aps.message." + message) }

    /// Mastercard Gateway `error.cause` `INVALID_REQUEST`: the request is malformed or fails
    /// validation (the context gives `field`, `validationType` and the explanation).
    public static let mastercardInvalidRequest = Self("mastercard.invalidRequest")
    /// Mastercard Gateway `error.cause` `REQUEST_REJECTED`.
    public static let mastercardRequestRejected = Self("mastercard.requestRejected")
    /// Mastercard Gateway `error.cause` `SERVER_BUSY` (may be retried after some minutes).
    public static let mastercardServerBusy = Self("mastercard.serverBusy")
    /// Mastercard Gateway `error.cause` `SERVER_FAILED` (may be retried after some minutes).
    public static let mastercardServerFailed = Self("mastercard.serverFailed")
    /// Mastercard Gateway `result: ERROR` with an undocumented or missing `error.cause`.
    public static let mastercardError = Self("mastercard.error")
    /// An update-session body fails the `mastercard-update-session.json` checks; the context
    /// lists the paths (never the values).
    public static let mastercardInvalidUpdate = Self("mastercard.invalidUpdate")
    /// A webhook notification lacks `X-Notification-Secret`, carries it (or `X-Notification-Id`,
    /// `X-Notification-Attempt`) more than once or as a comma-joined list, or has a malformed
    /// `X-Notification-Attempt`; the context names the header.
    public static let mastercardWebhookHeader = Self("mastercard.webhook.header")
    /// A webhook notification's `X-Notification-Secret` is not the configured notification
    /// secret; nothing in it may be trusted.
    public static let mastercardWebhookSecret = Self("mastercard.webhook.secret")
    /// An authenticated webhook notification's body is not the RETRIEVE TRANSACTION JSON it
    /// carries; the context names the member, never its value.
    public static let mastercardWebhookMalformed = Self("mastercard.webhook.malformed")

    /// Paysafe answered with its error body (`error.code`, `error.message`, `fieldErrors`); the
    /// context gives the status, the Paysafe code and the fields named.
    public static let paysafeAPIError = Self("paysafe.apiError")
    /// The Paysafe single-use-token API key is empty (Paysafe 9167) or not base64 of
    /// `username:password` (9013); the context gives the Paysafe code.
    public static let paysafeAPIKey = Self("paysafe.apiKey")
    /// A webhook's `Signature` is not base64 of the HMAC-SHA256 of the body under the webhook
    /// key; nothing in it may be trusted.
    public static let paysafeWebhookSignature = Self("paysafe.webhook.signature")
    /// A correctly signed Paysafe webhook body is not a JSON object.
    public static let paysafeWebhookMalformed = Self("paysafe.webhook.malformed")
}
