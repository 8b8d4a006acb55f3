public import CSECore

/// The Mastercard Gateway mobile SDK checks: the update-session payload (`mastercard-update-session.json`)
/// and the authentication recommendation.
package enum MastercardValidation {
    /// Validates an update-session payload. The payload is the nested JSON the gateway API takes
    /// (dotted member names are accepted too), with `apiVersion` as a top-level key.
    /// - Throws: ``CSEError/Code/gatewayInputNotObject`` or a `gatewayMap.*` error when the
    ///   payload cannot be read as one map.
    package static func validateUpdateSession(_ json: JSONValue) throws(CSEError) -> GatewayValidationResult {
        try GatewayTables.spec(for: .mastercardUpdateSession).validate(json: json)
    }

    /// Validates an update-session payload built with ``GatewayMap``.
    package static func validateUpdateSession(_ map: GatewayMap) throws(CSEError) -> GatewayValidationResult {
        try GatewayTables.spec(for: .mastercardUpdateSession).validate(map)
    }
}

/// What the gateway recommends after payer authentication (`response.gatewayRecommendation`,
/// the mobile SDK's `recommendation`).
public struct MastercardRecommendation: Hashable, Sendable, CustomStringConvertible {
    /// What to do next.
    public struct Action: StableStringValue {
        /// The table spelling.
        public let rawValue: String
        /// Creates an action from its table spelling.
        package init(rawValue: String) { self.rawValue = rawValue }
        /// Continue with the payment.
        public static let proceed = Action(rawValue: "proceed")
        /// Do not continue (before API version 70).
        public static let doNotProceed = Action(rawValue: "doNotProceed")
        /// Do not continue; ask the payer for other payment details (API version 70 and later).
        public static let resubmitWithAlternativePaymentDetails = Action(rawValue: "resubmitWithAlternativePaymentDetails")
        /// Do not continue; abandon the order (API version 70 and later).
        public static let abandonOrder = Action(rawValue: "abandonOrder")
        /// A value not defined for the API version: do not continue (fail closed).
        public static let unrecognized = Action(rawValue: "unrecognized")
    }

    /// The value as received.
    public let value: String
    /// What to do.
    public let action: Action

    /// Whether the payment may go ahead. Only ``Action/proceed`` says yes.
    public var proceed: Bool { action == .proceed }

    /// Interprets a recommendation for the API version the session uses. Values outside the
    /// version's set (for example `DO_NOT_PROCEED_ABANDON_ORDER` at version 61, or an unknown
    /// word) are ``Action/unrecognized`` and do not proceed.
    /// - Parameters:
    ///   - value: The gateway's value, for example `PROCEED`.
    ///   - apiVersion: The session's API version.
    public init(_ value: String, apiVersion: Int) {
        self.value = value
        let row = MastercardRecommendationTable.rows.first {
            $0.value == value && apiVersion >= $0.minAPIVersion && apiVersion <= $0.maxAPIVersion
        }
        action = row?.action ?? .unrecognized
    }

    /// `value → action`.
    public var description: String { "\(value) → \(action.rawValue)" }
}

/// The rows of the embedded `mastercard-recommendations.json`.
enum MastercardRecommendationTable {
    struct Row: Sendable {
        let value: String
        let action: MastercardRecommendation.Action
        let minAPIVersion: Int
        let maxAPIVersion: Int
    }

    static let rows: [Row] = {
        // Checked by the tests; a malformed copy gives no rows, so nothing proceeds (fail closed).
        guard let json = try? JSONValue.parse(GatewayTables.mastercardRecommendationsJSON) else { return [] }
        return (json["recommendations"]?.arrayValue ?? []).compactMap { row in
            guard let value = row["value"]?.stringValue, let action = row["action"]?.stringValue,
                let min = row["minApiVersion"]?.intValue
            else { return nil }
            return Row(
                value: value, action: MastercardRecommendation.Action(rawValue: action),
                minAPIVersion: min, maxAPIVersion: row["maxApiVersion"]?.intValue ?? Int.max)
        }
    }()
}
