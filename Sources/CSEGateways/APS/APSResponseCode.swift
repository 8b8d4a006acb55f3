public import CSECore

/// An APS `response_code`: five digits, the first two the transaction status and the last three
/// the message (PayFort "Transaction Response Codes").
///
///     let code = try APSResponseCode("14000")   // status 14 Purchase Success, message 000 Success
public struct APSResponseCode: Hashable, Sendable, CustomStringConvertible {
    /// How a status ends the transaction, in CSEKit's classification (see
    /// `Vectors/gateways/aps-response-codes.json`).
    public struct Outcome: StableStringValue {
        /// The table spelling.
        public let rawValue: String
        /// Creates an outcome from its table spelling.
        package init(rawValue: String) { self.rawValue = rawValue }
        /// The operation succeeded.
        public static let success = Outcome(rawValue: "success")
        /// The operation failed.
        public static let failure = Outcome(rawValue: "failure")
        /// Not final yet: stored, pending, on hold, in review, incomplete or uncertain; check the
        /// status again before fulfilling.
        public static let pending = Outcome(rawValue: "pending")
        /// A status the table does not know; treat as not successful.
        public static let unknown = Outcome(rawValue: "unknown")
    }

    /// The two status digits, for example `14`.
    public let status: String
    /// The three message digits, for example `000`.
    public let message: String

    /// Parses a response code.
    /// - Parameter text: Exactly five ASCII digits.
    /// - Throws: ``CSEError/Code/apsResponseCodeMalformed``.
    public init(_ text: String) throws(CSEError) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 5, utf8.allSatisfy({ $0.isASCIIDigit }) else {
            throw CSEError(.apsResponseCodeMalformed, "an APS response_code is five digits (2 status + 3 message)")
        }
        status = String(decoding: utf8[0..<2], as: UTF8.self)
        message = String(decoding: utf8[2..<5], as: UTF8.self)
    }

    /// The status's meaning, for example `Purchase Success`, or `nil` when unknown.
    public var statusDescription: String? { APSResponseCodeTable.shared.statuses[status]?.description }
    /// The message's meaning, for example `Signature mismatch`, or `nil` when unknown.
    public var messageDescription: String? { APSResponseCodeTable.shared.messages[message] }
    /// The status's outcome.
    public var outcome: Outcome { APSResponseCodeTable.shared.statuses[status]?.outcome ?? .unknown }

    /// The five digits.
    public var description: String { status + message }
}

/// The interpretation of an APS response's `response_code` and `status`.
public struct APSResponseStatus: Hashable, Sendable {
    /// The parsed response code.
    public let code: APSResponseCode
    /// Whether the `status` parameter equals the code's first two digits (a response where they
    /// differ is inconsistent and should not be trusted).
    public let statusMatches: Bool

    /// The outcome, or ``APSResponseCode/Outcome/unknown`` when `status` and `response_code`
    /// disagree.
    public var outcome: APSResponseCode.Outcome { statusMatches ? code.outcome : .unknown }

    /// Reads `response_code` and `status` from a response.
    /// - Parameter response: The response parameters: UTF-8 JSON text of an object.
    /// - Throws: a `json.*` error for text that is not a JSON object, or
    ///   ``CSEError/Code/apsResponseCodeMalformed`` when `response_code` is missing or malformed.
    public init(response: some Collection<UInt8>) throws(CSEError) {
        try self.init(response: try JSONObject.parse(response, what: "an APS response"))
    }

    /// ``init(response:)`` of parsed parameters.
    package init(response: JSONObject) throws(CSEError) {
        guard let text = response["response_code"].flatMap(APSSignature.scalarText) else {
            throw CSEError(.apsResponseCodeMalformed, "the response has no response_code")
        }
        code = try APSResponseCode(text)
        statusMatches = response["status"].flatMap(APSSignature.scalarText) == code.status
    }
}

/// The status and message tables, from the embedded `aps-response-codes.json`.
struct APSResponseCodeTable: Sendable {
    struct Status: Sendable {
        let description: String
        let outcome: APSResponseCode.Outcome
    }

    let statuses: [String: Status]
    let messages: [String: String]

    static let shared: APSResponseCodeTable = {
        // The embedded table is checked by the tests; a malformed copy yields empty tables (every
        // status "unknown"), never a crash.
        guard let json = try? JSONValue.parse(GatewayTables.apsResponseCodesJSON) else {
            return APSResponseCodeTable(statuses: [:], messages: [:])
        }
        var statuses: [String: Status] = [:]
        for row in json["statuses"]?.arrayValue ?? [] {
            guard let code = row["status"]?.stringValue, let text = row["description"]?.stringValue,
                let outcome = row["outcome"]?.stringValue
            else { continue }
            statuses[code] = Status(description: text, outcome: APSResponseCode.Outcome(rawValue: outcome))
        }
        var messages: [String: String] = [:]
        for row in json["messages"]?.arrayValue ?? [] {
            guard let code = row["message"]?.stringValue, let text = row["description"]?.stringValue else { continue }
            messages[code] = text
        }
        return APSResponseCodeTable(statuses: statuses, messages: messages)
    }()
}
