public import CSECore
import CSECrypto

/// The 3-D Secure input of a Worldline CreatePayment (`cardPaymentMethodSpecificInput.threeDSecure`,
/// or a wallet's product-specific input such as `paymentProduct320SpecificInput.threeDSecure`;
/// research notes §1.1, `ThreeDSecure` of the Direct API). Never the deprecated top-level
/// `returnUrl` or `skipAuthentication`.
public struct WorldlineThreeDSecure: Hashable, Sendable, CustomStringConvertible {
    /// `threeDSecure.challengeIndicator`: the merchant's preference for a challenge (the Direct
    /// API's documented values).
    public enum ChallengeIndicator: String, Hashable, Sendable, CaseIterable {
        /// `no-preference` (the platform's default).
        case noPreference = "no-preference"
        /// `no-challenge-requested`.
        case noChallengeRequested = "no-challenge-requested"
        /// `challenge-requested`.
        case challengeRequested = "challenge-requested"
        /// `challenge-required` (for example, the first payment of a series).
        case challengeRequired = "challenge-required"
        /// `no-challenge-requested-risk-analysis-performed`.
        case noChallengeRiskAnalysisPerformed = "no-challenge-requested-risk-analysis-performed"
        /// `no-challenge-requested-data-share-only`.
        case noChallengeDataShareOnly = "no-challenge-requested-data-share-only"
        /// `no-challenge-requested-consumer-authentication-performed`.
        case noChallengeConsumerAuthenticationPerformed = "no-challenge-requested-consumer-authentication-performed"
        /// `no-challenge-requested-use-whitelist-exemption`.
        case noChallengeWhitelistExemption = "no-challenge-requested-use-whitelist-exemption"
        /// `challenge-requested-whitelist-prompt-requested`.
        case challengeWhitelistPrompt = "challenge-requested-whitelist-prompt-requested"
        /// `request-scoring-without-connecting-to-acs`.
        case scoringWithoutACS = "request-scoring-without-connecting-to-acs"
    }

    /// `threeDSecure.exemptionRequest`: the PSD2 exemption the merchant asks for.
    public enum ExemptionRequest: String, Hashable, Sendable, CaseIterable {
        /// `none` (named so that it is never mistaken for an absent value).
        case noExemption = "none"
        /// `transaction-risk-analysis`.
        case transactionRiskAnalysis = "transaction-risk-analysis"
        /// `low-value`.
        case lowValue = "low-value"
        /// `whitelist`.
        case whitelist
    }

    /// `threeDSecure.deviceChannel`: where the payer authenticates.
    public enum DeviceChannel: String, Hashable, Sendable, CaseIterable {
        /// `Browser`: a challenge is a redirect (`merchantAction.actionType` `REDIRECT`).
        case browser = "Browser"
        /// `AppBased`: a challenge is run by an EMVCo mobile SDK (`MOBILE_THREEDS_CHALLENGE`).
        case app = "AppBased"
    }

    /// `threeDSecure.redirectionData.returnUrl`: where the payer comes back after a challenge
    /// (an absolute URL; an app's registered `scheme://` is allowed).
    public let returnURL: String?
    /// `threeDSecure.challengeIndicator`.
    public let challengeIndicator: ChallengeIndicator?
    /// `threeDSecure.exemptionRequest`.
    public let exemptionRequest: ExemptionRequest?
    /// `threeDSecure.skipAuthentication`: `true` skips 3-D Secure (only when the merchant account
    /// allows the override; the documented use is a merchant-initiated recurring payment).
    public let skipAuthentication: Bool
    /// `threeDSecure.deviceChannel`.
    public let deviceChannel: DeviceChannel?

    /// Creates the input.
    /// - Throws: ``CSEError/Code/serverAPIInvalidArgument`` for a return URL that is not an
    ///   absolute URL (`scheme://…`) of printable ASCII and at most 512 characters.
    public init(
        returnURL: String? = nil, challengeIndicator: ChallengeIndicator? = nil, exemptionRequest: ExemptionRequest? = nil,
        skipAuthentication: Bool = false, deviceChannel: DeviceChannel? = nil
    ) throws(CSEError) {
        if let returnURL { try Self.checkReturnURL(returnURL) }
        self.returnURL = returnURL
        self.challengeIndicator = challengeIndicator
        self.exemptionRequest = exemptionRequest
        self.skipAuthentication = skipAuthentication
        self.deviceChannel = deviceChannel
    }

    /// A return URL: absolute (`https://…`, or an app's `scheme://…`), printable ASCII, at most
    /// 512 characters.
    static func checkReturnURL(_ returnURL: String) throws(CSEError) {
        guard returnURL.utf8.count <= 512, returnURL.contains("://"),
            returnURL.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else {
            throw CSEError(
                .serverAPIInvalidArgument, "a 3-D Secure return URL is an absolute URL of at most 512 printable characters",
                context: ["argument": "returnUrl"])
        }
    }

    /// `{"redirectionData": {"returnUrl"}, "challengeIndicator", "exemptionRequest",
    /// "skipAuthentication", "deviceChannel"}`, the members given.
    package var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let returnURL { members.append(("redirectionData", .object(JSONObject([("returnUrl", .string(returnURL))])))) }
        if let challengeIndicator { members.append(("challengeIndicator", .string(challengeIndicator.rawValue))) }
        if let exemptionRequest { members.append(("exemptionRequest", .string(exemptionRequest.rawValue))) }
        if skipAuthentication { members.append(("skipAuthentication", .bool(true))) }
        if let deviceChannel { members.append(("deviceChannel", .string(deviceChannel.rawValue))) }
        return .object(JSONObject(members))
    }

    /// The choices; the return URL only as present or absent.
    public var description: String {
        "WorldlineThreeDSecure(returnURL: \(returnURL == nil ? "none" : "set"), challengeIndicator: "
            + "\(challengeIndicator?.rawValue ?? "-"), skipAuthentication: \(skipAuthentication))"
    }
}

/// The 3-D Secure result of a card payment
/// (`paymentOutput.cardPaymentMethodSpecificOutput.threeDSecureResults`; research notes §1.1):
/// what was authenticated and who carries the liability. The CAVV is not kept (it is an
/// authentication value, not something the merchant acts on).
public struct WorldlineThreeDSecureResults: Hashable, Sendable {
    /// `version`, for example `2.2.0`.
    public let version: String?
    /// `flow`, for example `frictionless` or `challenge`.
    public let flow: String?
    /// `authenticationStatus`, for example `Y` (authenticated) or `N`.
    public let authenticationStatus: String?
    /// `eci`, for example `05`.
    public let eci: String?
    /// `liability`, for example `issuer` or `merchant`.
    public let liability: String?
    /// `appliedExemption`, when an exemption applied.
    public let appliedExemption: String?

    /// Reads `threeDSecureResults`, or `nil` when the object is empty.
    init?(_ object: JSONObject, _ reader: ServerResponseReader) throws(CSEError) {
        version = try reader.optionalScalarText(object, "version")
        flow = try reader.optionalString(object, "flow")
        authenticationStatus = try reader.optionalString(object, "authenticationStatus")
        eci = try reader.optionalScalarText(object, "eci")
        liability = try reader.optionalString(object, "liability")
        appliedExemption = try reader.optionalString(object, "appliedExemption")
        if version == nil, flow == nil, authenticationStatus == nil, eci == nil, liability == nil, appliedExemption == nil {
            return nil
        }
    }

    /// `{"version","flow","authenticationStatus","eci","liability","exemption"}`, the members present.
    package var json: JSONValue {
        var members: [(String, JSONValue)] = []
        for (name, value) in [
            ("version", version), ("flow", flow), ("authenticationStatus", authenticationStatus), ("eci", eci),
            ("liability", liability), ("exemption", appliedExemption),
        ] {
            if let value { members.append((name, .string(value))) }
        }
        return .object(JSONObject(members))
    }
}

/// What `merchantAction` asks the merchant to do (research notes §1.1): redirect the payer
/// (`REDIRECT`, with `redirectData`) or hand the challenge parameters to an EMVCo mobile SDK
/// (`MOBILE_THREEDS_CHALLENGE`).
public struct WorldlineMerchantAction: Hashable, Sendable, CustomStringConvertible {
    /// `actionType`, for example `REDIRECT`.
    public let actionType: String
    /// `redirectData.redirectURL`: where to send the payer, with GET ("be sure to redirect using
    /// the GET method").
    public let redirectURL: String?
    /// `redirectData.RETURNMAC`: store it with the payment id before redirecting; compare it
    /// (constant time) with the one the payer brings back
    /// (``WorldlineServerClient/checkReturnMAC(received:expected:)``).
    public let returnMAC: String?
    /// `mobileThreeDSecureChallengeParameters`, by the names and with the values the platform gave
    /// them (its members are strings), for the mobile SDK's `challengeParameters`.
    public let mobileChallengeParameters: [String: String]?

    /// Reads `merchantAction`, or `nil` when it names no action type.
    init?(_ object: JSONObject, _ reader: ServerResponseReader) throws(CSEError) {
        guard let type = try reader.optionalString(object, "actionType") else { return nil }
        actionType = type
        let (redirect, redirectReader) = try reader.child(object, "redirectData")
        redirectURL = try redirectReader.optionalString(redirect, "redirectURL")
        returnMAC = try redirectReader.optionalString(redirect, "RETURNMAC")
        if let parameters = try reader.optionalObject(object, "mobileThreeDSecureChallengeParameters") {
            let parametersReader = reader.under("mobileThreeDSecureChallengeParameters")
            var strings: [String: String] = [:]
            for (name, _) in parameters {
                strings[name] = try parametersReader.string(parameters, name)
            }
            mobileChallengeParameters = strings
        } else {
            mobileChallengeParameters = nil
        }
        if type == "REDIRECT", redirectURL == nil {
            throw reader.malformed("a REDIRECT action has no redirectData.redirectURL", member: "redirectData.redirectURL")
        }
        if type == "MOBILE_THREEDS_CHALLENGE", mobileChallengeParameters == nil {
            throw reader.malformed(
                "a MOBILE_THREEDS_CHALLENGE action has no mobileThreeDSecureChallengeParameters",
                member: "mobileThreeDSecureChallengeParameters")
        }
    }

    /// The action type only (the RETURNMAC authenticates the payer's return: it stays out of logs).
    public var description: String { "WorldlineMerchantAction(actionType: \(actionType))" }
}

extension WorldlineServerClient {
    /// Checks the `RETURNMAC` the payer brought back after a 3-D Secure challenge against the one
    /// stored with the payment id before the redirect (research notes §1.1, merchant-backend rule 2),
    /// in constant time. Take the payment id from what was stored, never from the return's query.
    /// - Throws: ``CSEError/Code/worldlineReturnMACMismatch`` when they differ (nothing in the
    ///   return may be trusted; neither value is named).
    public static func checkReturnMAC(received: String, expected: String) throws(CSEError) {
        let matches = SecureBytes(received.utf8) == SecureBytes(expected.utf8)
        guard matches, !expected.isEmpty else {
            throw CSEError(
                .worldlineReturnMACMismatch,
                "the RETURNMAC of the payer's return is not the one stored with the payment: the return is not trusted")
        }
    }
}

extension CSEError.Code {
    /// The `RETURNMAC` a payer's return after a 3-D Secure challenge carries is not the one the
    /// merchant stored with the payment (a tampered, replayed or foreign return): nothing was sent
    /// (research notes §1.1).
    public static let worldlineReturnMACMismatch = Self("worldline.returnMACMismatch")
}
