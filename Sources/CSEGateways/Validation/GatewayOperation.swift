public import CSECore

/// A payment gateway whose request rules CSEKit embeds (docs/GATEWAYS.md).
public enum Gateway: String, CaseIterable, Sendable {
    /// Amazon Payment Services (PayFort): the mobile SDK's flat request parameters.
    case aps
    /// Paysafe: the iOS SDK's setup and tokenize options.
    case paysafe
    /// Mastercard Gateway: the mobile SDK's update-session payload.
    case mastercard
}

/// One operation of one ``Gateway``: the closed set of requests the embedded spec tables cover
/// (`GatewayTables`). Parse a caller's spelling once with ``init(gateway:operation:)``.
public struct GatewayOperation: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The gateway.
    public let gateway: Gateway
    /// The operation as the gateway's document spells it (`PURCHASE`, `tokenize`, …).
    public let name: String

    private init(_ gateway: Gateway, _ name: String) {
        self.gateway = gateway
        self.name = name
    }

    /// APS `SDK_TOKEN` (`aps-sdk-token.json`).
    public static let apsSDKToken = Self(.aps, "SDK_TOKEN")
    /// APS `AUTHORIZATION` (`aps-sdk-operation.json`).
    public static let apsAuthorization = Self(.aps, "AUTHORIZATION")
    /// APS `PURCHASE` (`aps-sdk-operation.json`).
    public static let apsPurchase = Self(.aps, "PURCHASE")
    /// Paysafe `setup`: the API key and environment (`paysafe-setup.json`).
    public static let paysafeSetup = Self(.paysafe, "setup")
    /// Paysafe `tokenize`: the tokenize options (`paysafe-tokenize.json`).
    public static let paysafeTokenize = Self(.paysafe, "tokenize")
    /// Mastercard `updateSession` (`mastercard-update-session.json`).
    public static let mastercardUpdateSession = Self(.mastercard, "updateSession")

    /// Every operation, in the order of the embedded tables (`GatewayTables.embedded`, the one
    /// list).
    public static let allCases: [GatewayOperation] = GatewayTables.embedded.flatMap(\.operations)

    /// Parses a gateway and an operation as a caller spells them (case-sensitive, compared by
    /// bytes).
    /// - Parameters:
    ///   - gateway: `aps`, `paysafe` or `mastercard`.
    ///   - operation: For example `PURCHASE`, `tokenize`, `updateSession`.
    /// - Throws: ``CSEError/Code/gatewayUnknownOperation``; the context echoes both names safely
    ///   and lists what exists under `known` (`aps:SDK_TOKEN,…`).
    public init(gateway: String, operation: String) throws(CSEError) {
        guard
            let found = Self.allCases.first(where: {
                $0.gateway.rawValue.isByteEqual(to: gateway) && $0.name.isByteEqual(to: operation)
            })
        else {
            throw CSEError(
                .gatewayUnknownOperation, "no spec table for this gateway and operation",
                context: [
                    "gateway": SecretMasking.echoIdentifier(gateway), "operation": SecretMasking.echoIdentifier(operation),
                    "known": Self.allCases.map(\.description).joined(separator: ","),
                ])
        }
        self = found
    }

    /// Whether the caller may declare a partner shared API key (Paysafe `tokenize` only).
    package var acceptsPartnerSharedKey: Bool { self == .paysafeTokenize }

    /// `gateway:operation`, for example `aps:PURCHASE`.
    public var description: String { "\(gateway.rawValue):\(name)" }
}
