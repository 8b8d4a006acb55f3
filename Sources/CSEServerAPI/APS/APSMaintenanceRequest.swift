public import CSECore
public import CSEValidation

/// A maintenance operation on an authorised APS order: CAPTURE, REFUND or VOID_AUTHORIZATION,
/// sent to `FortAPI/paymentApi` and signed like the payment (research notes, lifecycle §3.2: the
/// APS PHP SDK's `PaymentCaptureModel`, `PaymentRefundModel`, `PaymentVoidAuthorizationModel` and
/// the .NET SDK's `CaptureRequestCommand`, `RefundRequestCommand`, `VoidRequestCommand`).
public struct APSMaintenanceRequest: Sendable, CustomStringConvertible {
    /// `command`.
    public struct Command: Hashable, Sendable, CustomStringConvertible {
        /// The value sent.
        public let name: String
        /// The status of a successful answer (`04`, `06`, `08`), PayFort "Transaction Response Codes".
        let successStatus: String
        /// The status of a failed answer (`05`, `07`, `09`).
        let failureStatus: String

        private init(_ name: String, _ success: String, _ failure: String) {
            self.name = name
            successStatus = success
            failureStatus = failure
        }
        /// Collect all or part of the authorised amount (success `04000`, failure `05`).
        public static let capture = Command("CAPTURE", "04", "05")
        /// Give back all or part of the captured amount (success `06000`, failure `07`).
        public static let refund = Command("REFUND", "06", "07")
        /// Release the authorisation before anything is captured (success `08000`, failure `09`).
        public static let voidAuthorization = Command("VOID_AUTHORIZATION", "08", "09")
        /// The value sent.
        public var description: String { name }
    }

    /// The operation.
    public let command: Command
    /// `merchant_reference` of the order (of its PURCHASE or AUTHORIZATION).
    public let merchantReference: String
    /// The amount in minor units of ``currency`` (APS takes minor units: 500 AED is 50000);
    /// `nil` for a void.
    public let amount: Int64?
    /// The currency; `nil` for a void.
    public let currency: Currency?
    /// `fort_id`, APS's id of the order, when given.
    public let fortID: String?
    /// `maintenance_reference`, which tells several refunds of one order apart, when given.
    public let maintenanceReference: String?
    /// The parameters, without `access_code`, `merchant_identifier` and `signature`.
    let parameters: [(String, JSONValue)]

    /// A CAPTURE of `amount` (all or part of what is authorised and not yet captured).
    /// - Parameters:
    ///   - amount: Minor units of `currency` (ISO 4217 exponent), 1…9,999,999,999.
    ///   - fortID: APS's id of the order (`fort_id`), when known.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` naming the parameter (see ``refund(merchantReference:amount:currency:maintenanceReference:fortID:language:)``).
    public static func capture(
        merchantReference: String, amount: Int64, currency: Currency, fortID: String? = nil, language: String = "en"
    ) throws(CSEError) -> Self {
        try Self(.capture, merchantReference, amount: amount, currency: currency, maintenanceReference: nil, fortID: fortID, language)
    }

    /// A REFUND of `amount` (all or part of what is captured and not yet refunded).
    /// - Parameters:
    ///   - amount: Minor units of `currency` (ISO 4217 exponent), 1…9,999,999,999.
    ///   - maintenanceReference: A reference of this refund, distinct for each partial refund of
    ///     the order (`maintenance_reference`, 1–40 of `[A-Za-z0-9-_.]`).
    ///   - fortID: APS's id of the order (`fort_id`), when known.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` naming the parameter: a reference that
    ///   is not 1–40 of `[A-Za-z0-9-_.]`, a `fort_id` that is not 1–40 digits, an amount outside
    ///   1…9,999,999,999, a currency without minor units, a language other than `en`/`ar`.
    public static func refund(
        merchantReference: String, amount: Int64, currency: Currency, maintenanceReference: String? = nil, fortID: String? = nil,
        language: String = "en"
    ) throws(CSEError) -> Self {
        try Self(
            .refund, merchantReference, amount: amount, currency: currency, maintenanceReference: maintenanceReference, fortID: fortID,
            language)
    }

    /// A VOID_AUTHORIZATION: releases the whole authorisation, while nothing is captured.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` naming the parameter.
    public static func voidAuthorization(
        merchantReference: String, fortID: String? = nil, language: String = "en"
    ) throws(CSEError)
        -> Self
    {
        try Self(.voidAuthorization, merchantReference, amount: nil, currency: nil, maintenanceReference: nil, fortID: fortID, language)
    }

    private init(
        _ command: Command, _ merchantReference: String, amount: Int64?, currency: Currency?, maintenanceReference: String?,
        fortID: String?, _ language: String
    ) throws(CSEError) {
        func refuse(_ parameter: String, _ reason: String) -> CSEError {
            CSEError(.serverAPIInvalidArgument, reason, context: ["argument": parameter])
        }
        try APSPaymentRequest.checkReference(merchantReference)
        var parameters: [(String, JSONValue)] = [("command", .string(command.name)), ("merchant_reference", .string(merchantReference))]
        if let amount, let currency {
            guard (1...9_999_999_999).contains(amount) else { throw refuse("amount", "the amount is minor units, 1 to 10 digits") }
            guard currency.minorUnits != nil else { throw refuse("currency", "the currency has no minor unit in ISO 4217") }
            parameters += [("amount", .string(String(amount))), ("currency", .string(currency.code))]
        }
        guard ["en", "ar"].contains(language) else { throw refuse("language", "the language is en or ar") }
        parameters.append(("language", .string(language)))
        if let maintenanceReference {
            guard (1...40).contains(maintenanceReference.utf8.count),
                maintenanceReference.utf8.allSatisfy({ ServerIdentifier.isIdentifierByte($0) })
            else { throw refuse("maintenance_reference", "the maintenance reference is 1 to 40 letters, digits, '-', '_' or '.'") }
            parameters.append(("maintenance_reference", .string(maintenanceReference)))
        }
        if let fortID {
            guard (1...40).contains(fortID.utf8.count), fortID.utf8.allSatisfy({ $0.isASCIIDigit }) else {
                throw refuse("fort_id", "the fort_id is 1 to 40 digits")
            }
            parameters.append(("fort_id", .string(fortID)))
        }
        self.command = command
        self.merchantReference = merchantReference
        self.amount = amount
        self.currency = currency
        self.fortID = fortID
        self.maintenanceReference = maintenanceReference
        self.parameters = parameters
    }

    /// Command, references and amount.
    public var description: String {
        var text = "APSMaintenanceRequest(\(command.name) merchant_reference: \(merchantReference)"
        if let amount, let currency { text += ", amount: \(amount) \(currency.code)" }
        if let maintenanceReference { text += ", maintenance_reference: \(maintenanceReference)" }
        if let fortID { text += ", fort_id: \(fortID)" }
        return text + ")"
    }
}
