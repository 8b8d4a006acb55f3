public import CSECore
public import CSEHTTP

/// Where a merchant-server client sends its calls: the platform's origin (scheme, host and
/// port). Each client appends its documented path (`/v2/{merchantId}/…` on Worldline,
/// `/FortAPI/paymentApi` on Amazon Payment Services, `/api/rest/version/{v}/merchant/{id}/…` on
/// the Mastercard Gateway, `/paymenthub/v1/…` and `/cardpayments/v1/…` on Paysafe).
///
/// Every server client takes one, with an ``HTTPClientConfiguration`` for deadlines, limits and
/// TLS trust:
///
///     let client = try WorldlineServerClient(credentials: credentials, environment: .worldlinePreproduction)
///     let tests = try WorldlineServerClient(
///         credentials: credentials, environment: try ServerEnvironment(origin: "http://127.0.0.1:8080"))
public struct ServerEnvironment: Hashable, Sendable, CustomStringConvertible {
    /// `scheme://host[:port]`, with no path.
    public let origin: HTTPURL

    /// An origin of your own: a test server (plain `http` only to loopback) or a platform host
    /// that is not one of the presets.
    /// - Throws: ``CSEError/Code/httpInvalidURL`` for a URL with a path or a query, and the
    ///   ``HTTPURL`` errors (``CSEError/Code/httpInsecureURL`` for `http` to another host).
    public init(origin: String) throws(CSEError) {
        let url = try HTTPURL(origin)
        guard url.path.isEmpty || url.path == "/", url.query == nil else {
            throw CSEError(.httpInvalidURL, "an environment is an origin (scheme://host[:port]); the documented path is appended")
        }
        self.origin = url.originURL
    }

    /// The origin of an already checked URL (the CLI's `--endpoint`); its path and query are dropped.
    package init(url: HTTPURL) { origin = url.originURL }

    private init(host: String) { origin = HTTPURL(httpsHost: host) }

    /// Worldline (Online Payments, Direct) production, `https://payment.direct.worldline-solutions.com`.
    public static let worldlineProduction = ServerEnvironment(host: "payment.direct.worldline-solutions.com")
    /// Worldline pre-production, `https://payment.preprod.direct.worldline-solutions.com`: the
    /// endpoint of the Worldline SDKs' test suites.
    public static let worldlinePreproduction = ServerEnvironment(host: "payment.preprod.direct.worldline-solutions.com")
    /// Amazon Payment Services production, `https://paymentservices.payfort.com`.
    public static let apsProduction = ServerEnvironment(host: "paymentservices.payfort.com")
    /// The Amazon Payment Services sandbox, `https://sbpaymentservices.payfort.com`.
    public static let apsTest = ServerEnvironment(host: "sbpaymentservices.payfort.com")
    /// Paysafe production, `https://api.paysafe.com`.
    public static let paysafeProduction = ServerEnvironment(host: "api.paysafe.com")
    /// The Paysafe test environment, `https://api.test.paysafe.com`.
    public static let paysafeTest = ServerEnvironment(host: "api.test.paysafe.com")
    /// A Mastercard Gateway region, `https://{region}.gateway.mastercard.com`
    /// (``MastercardRegion/mtf`` is the test environment).
    public static func mastercard(_ region: MastercardRegion) -> ServerEnvironment {
        ServerEnvironment(host: region.name + ".gateway.mastercard.com")
    }

    /// The origin.
    public var description: String { origin.absoluteString }
}
