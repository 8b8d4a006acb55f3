public import CSECore

/// A Worldline webhook event, decoded after its signature verified
/// (``WorldlineWebhook/verifiedEvent(body:headers:secrets:)``): the server SDKs' `WebhooksEvent`
/// (`apiVersion`, `id`, `created`, `merchantId`, `type`, and the `payment` or `refund` it is
/// about; research notes §1.4).
///
/// Only the members that say how the payment stands are decoded; card data the platform may
/// echo in the resource is never read.
public struct WorldlineWebhookEvent: Hashable, Sendable, CustomStringConvertible {
    /// The event's `type`, for example `payment.captured` (Direct "Webhooks" event list; an
    /// event type not listed here keeps its spelling).
    public struct EventType: StableStringValue {
        /// The spelling on the wire.
        public let rawValue: String
        /// An event type from its spelling.
        package init(rawValue: String) { self.rawValue = rawValue }

        /// `payment.created`.
        public static let paymentCreated = Self(rawValue: "payment.created")
        /// `payment.redirected`: the payer was sent to 3-D Secure or a payment page.
        public static let paymentRedirected = Self(rawValue: "payment.redirected")
        /// `payment.authorization_requested`.
        public static let paymentAuthorizationRequested = Self(rawValue: "payment.authorization_requested")
        /// `payment.pending_approval`.
        public static let paymentPendingApproval = Self(rawValue: "payment.pending_approval")
        /// `payment.pending_completion`.
        public static let paymentPendingCompletion = Self(rawValue: "payment.pending_completion")
        /// `payment.pending_capture`: authorised, waiting for a capture.
        public static let paymentPendingCapture = Self(rawValue: "payment.pending_capture")
        /// `payment.capture_requested`.
        public static let paymentCaptureRequested = Self(rawValue: "payment.capture_requested")
        /// `payment.captured`.
        public static let paymentCaptured = Self(rawValue: "payment.captured")
        /// `payment.paid`.
        public static let paymentPaid = Self(rawValue: "payment.paid")
        /// `payment.cancelled`: the authorisation was cancelled.
        public static let paymentCancelled = Self(rawValue: "payment.cancelled")
        /// `payment.rejected`.
        public static let paymentRejected = Self(rawValue: "payment.rejected")
        /// `payment.rejected_capture`: the acquirer refused the capture.
        public static let paymentRejectedCapture = Self(rawValue: "payment.rejected_capture")
        /// `payment.refund_requested`.
        public static let paymentRefundRequested = Self(rawValue: "payment.refund_requested")
        /// `payment.refunded`.
        public static let paymentRefunded = Self(rawValue: "payment.refunded")
        /// `payment.reversed`.
        public static let paymentReversed = Self(rawValue: "payment.reversed")
        /// `payment.chargeback_notification`.
        public static let paymentChargebackNotification = Self(rawValue: "payment.chargeback_notification")
    }

    /// The status of the resource an event carries: a `PaymentResponse` or `RefundResponse`
    /// (`id`, `status`, `statusOutput`, and the amount of its `paymentOutput` or `refundOutput`).
    public struct Resource: Hashable, Sendable {
        /// The payment id (for example `3066019730_0`) or the refund id.
        public let id: String
        /// `status`, for example `CAPTURED`, `REFUNDED`, `CANCELLED`, `REJECTED_CAPTURE`.
        public let status: String?
        /// `statusOutput.statusCategory`, for example `COMPLETED`.
        public let statusCategory: String?
        /// `statusOutput.statusCode`.
        public let statusCode: Int?
        /// `…Output.amountOfMoney.amount`, in minor units.
        public let amount: Int64?
        /// `…Output.amountOfMoney.currencyCode`.
        public let currencyCode: String?
        /// `…Output.references.merchantReference`.
        public let merchantReference: String?

        init(_ object: JSONObject, output: String, reader: ServerResponseReader) throws(CSEError) {
            id = try reader.nonEmptyString(object, "id")
            status = try reader.optionalString(object, "status")
            let (statusOutput, statusReader) = try reader.child(object, "statusOutput")
            statusCategory = try statusReader.optionalString(statusOutput, "statusCategory")
            statusCode = try statusReader.optionalInt(statusOutput, "statusCode")
            let (outputObject, outputReader) = try reader.child(object, output)
            let (money, moneyReader) = try outputReader.child(outputObject, "amountOfMoney")
            amount = try moneyReader.optionalInt64(money, "amount")
            currencyCode = try moneyReader.optionalString(money, "currencyCode")
            let (references, referencesReader) = try outputReader.child(outputObject, "references")
            merchantReference = try referencesReader.optionalString(references, "merchantReference")
        }
    }

    /// The event id (one per delivery; a redelivery repeats it, so it deduplicates).
    public let id: String
    /// `type`.
    public let type: EventType
    /// `created`, as sent (ISO 8601 with offset).
    public let created: String?
    /// `merchantId`.
    public let merchantID: String?
    /// `apiVersion`, for example `v1`.
    public let apiVersion: String?
    /// The payment the event is about (`payment`), when it carries one.
    public let payment: Resource?
    /// The refund the event is about (`refund`), when it carries one.
    public let refund: Resource?

    /// The id of the payment the event is about.
    public var paymentID: String? { payment?.id }

    /// Decodes a verified body.
    /// - Throws: ``CSEError/Code/worldlineWebhookMalformed``, caused by the
    ///   `serverAPI.invalidResponse` that names the member.
    init(verified body: some Collection<UInt8>) throws(CSEError) {
        do throws(CSEError) {
            let object = try JSONObject.parse(body, what: "a Worldline webhook")
            let reader = ServerResponseReader(platform: "worldline")
            id = try reader.nonEmptyString(object, "id")
            type = EventType(rawValue: try reader.nonEmptyString(object, "type"))
            created = try reader.optionalString(object, "created")
            merchantID = try reader.identifier(object, "merchantId")
            apiVersion = try reader.optionalString(object, "apiVersion")
            payment = try reader.optionalObject(object, "payment").map { (inner) throws(CSEError) in
                try Resource(inner, output: "paymentOutput", reader: reader.under("payment"))
            }
            refund = try reader.optionalObject(object, "refund").map { (inner) throws(CSEError) in
                try Resource(inner, output: "refundOutput", reader: reader.under("refund"))
            }
        } catch {
            throw CSEError(
                .worldlineWebhookMalformed, "the signed webhook body is not a Worldline event",
                context: error.context["member"].map { ["member": $0] } ?? [:], underlying: error)
        }
    }

    /// Event id, type, and the payment's id and status.
    public var description: String {
        "WorldlineWebhookEvent(id: \(id), type: \(type), payment: \(payment?.id ?? "-"), status: \(payment?.status ?? refund?.status ?? "-"))"
    }
}
