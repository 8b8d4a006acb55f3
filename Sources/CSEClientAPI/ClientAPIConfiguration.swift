public import CSECore
public import CSEHTTP
public import CSEPayments

/// The Client API calls, for per-endpoint settings such as the API version.
public struct ClientAPIEndpoint: StableStringValue {
    /// The path after `{version}/{customerId}/`, with `{id}` for a product id.
    public let rawValue: String
    /// Creates an endpoint from its path template.
    package init(rawValue: String) { self.rawValue = rawValue }

    /// `GET crypto/publickey`.
    public static let publicKey = Self(rawValue: "crypto/publickey")
    /// `GET products`.
    public static let products = Self(rawValue: "products")
    /// `GET products/{id}`.
    public static let product = Self(rawValue: "products/{id}")
    /// `GET products/{id}/networks`.
    public static let networks = Self(rawValue: "products/{id}/networks")
    /// `POST services/getIINdetails`.
    public static let iinDetails = Self(rawValue: "services/getIINdetails")
    /// `POST services/dccrate`.
    public static let currencyConversion = Self(rawValue: "services/dccrate")
    /// `POST services/surchargecalculation` (lower case, as WL-Swift, WL-Android and the server API).
    public static let surchargeCalculation = Self(rawValue: "services/surchargecalculation")

}

/// How a ``ClientAPISession`` talks to the platform.
public struct ClientAPIConfiguration: Sendable {
    /// Timeouts, deadline, size limit, retries, TLS trust and the diagnostics callback
    /// (CSEHTTP; see docs/CLIENT-API.md "Transport").
    public var http: HTTPClientConfiguration
    /// How long and how many product, network and IIN answers are kept.
    public var cachePolicy: CachePolicy
    /// The product rules (unsupported products, the wallet predicate).
    public var productRules: ProductRules
    /// The device description sent as `X-GCS-ClientMetaInfo` and returned as
    /// `encodedClientMetaInfo` by ``ClientAPISession/encrypt(_:)``.
    public var clientMetaInfo: ClientMetaInfo
    /// The API version of each endpoint; `v1` when absent. The SDKs disagree on `dccrate`
    /// (v2 in WL-JS, v1 in WL-Swift 4 and WL-Android 5); the default is `v1`.
    public var apiVersions: [ClientAPIEndpoint: String]
    /// Sealing options for ``ClientAPISession/encrypt(_:)`` other than the meta info (validation
    /// month, nonce source). The meta info always comes from ``clientMetaInfo``.
    public var sealing: SealingOptions

    /// The defaults: CSEHTTP's defaults, a 30-minute, 100-entry cache, the SDKs' product rules
    /// with no wallet, this machine's meta info, `v1` everywhere.
    public init(
        http: HTTPClientConfiguration = HTTPClientConfiguration(), cachePolicy: CachePolicy = .default,
        productRules: ProductRules = .default, clientMetaInfo: ClientMetaInfo = .current(),
        apiVersions: [ClientAPIEndpoint: String] = [:], sealing: SealingOptions = SealingOptions()
    ) {
        self.http = http
        self.cachePolicy = cachePolicy
        self.productRules = productRules
        self.clientMetaInfo = clientMetaInfo
        self.apiVersions = apiVersions
        self.sealing = sealing
    }

    /// The version of `endpoint`.
    /// - Throws: ``CSEError/Code/clientAPIInvalidArgument`` for anything but `v1` … `v9`.
    func version(of endpoint: ClientAPIEndpoint) throws(CSEError) -> String {
        let version = apiVersions[endpoint] ?? "v1"
        let utf8 = Array(version.utf8)
        guard utf8.count == 2, utf8[0] == UInt8(ascii: "v"), utf8[1] &- 0x31 < 9 else {
            throw CSEError(.clientAPIInvalidArgument, "an API version is v1 to v9", context: ["endpoint": endpoint.rawValue])
        }
        return version
    }
}
