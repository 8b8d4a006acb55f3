import CSEClientAPI
import TestSupport
import CSECore
import CSECrypto
@_spi(CustomTransport) import CSEHTTP
import CSEJOSE
import CSEPayments
import CSEValidation
import Synchronization

/// A canary card number and session id: neither may appear in an error or a description.
let canaryPAN = "4111111111111111"
let canarySessionID = "6f1c2b9a8e7d4c3b2a1f0e9d8c7b6a59"

/// An in-memory ``HTTPTransport``: answers each request with `respond` and records it.
final class InMemoryTransport: HTTPTransport, Sendable {
    private let log = Mutex<[HTTPRequest]>([])
    private let respond: @Sendable (HTTPRequest) throws(CSEError) -> HTTPResponse

    init(_ respond: @escaping @Sendable (HTTPRequest) throws(CSEError) -> HTTPResponse) {
        self.respond = respond
    }

    func perform(_ request: HTTPRequest, timeout: Duration, maxResponseBytes: Int) async throws(CSEError) -> HTTPResponse {
        log.withLock { $0.append(request) }
        return try respond(request)
    }

    var requests: [HTTPRequest] { log.withLock { $0 } }
}

/// A mutable answer table for ``InMemoryTransport``: path suffix → (status, body).
final class Answers: Sendable {
    private let table = Mutex<[String: (Int, String)]>([:])
    func set(_ pathSuffix: String, _ status: Int, _ body: String) { table.withLock { $0[pathSuffix] = (status, body) } }
    func answer(_ request: HTTPRequest) -> HTTPResponse {
        let path = request.url.path
        let match = table.withLock { table in table.first { path.hasSuffix($0.key) }?.value }
        guard let (status, body) = match else { return HTTPResponse(status: 404, headers: [:], body: Array("{}".utf8)) }
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
    }
}

enum SessionFixtures {
    static let metaInfo = ClientMetaInfo(platformIdentifier: "Linux/6.1.0", deviceType: "x86_64", appIdentifier: "tests")

    static func sessionData(url: String = "https://client.example.com") throws(CSEError) -> SessionData {
        try SessionData(clientSessionID: canarySessionID, customerID: "cust-42", clientAPIURL: url, assetURL: "https://assets.example.com")
    }

    static func configuration(cache: CachePolicy = .default, rules: ProductRules = .default) -> ClientAPIConfiguration {
        var configuration = ClientAPIConfiguration(cachePolicy: cache, productRules: rules, clientMetaInfo: metaInfo)
        configuration.sealing = SealingOptions(allowDemoKey: true, currentMonth: CalendarMonth(year: 2026, month: 5))
        configuration.http.maxRetries = 0
        return configuration
    }

    static func context(recurring: Bool = false) throws(CSEError) -> PaymentContext {
        try PaymentContext(amount: 1000, currencyCode: "EUR", countryCode: "NL", isRecurring: recurring)
    }

    /// The demo public key as a Client API response.
    static var demoKeyJSON: String {
        let der = DemoKeys.testOnlyPublicKey.derRepresentation
        return #"{"keyId":"\#(DemoKeys.testOnlyKeyID)","publicKey":"\#(Base64.encode(der))"}"#
    }

    /// A minimal card product 1 with the SDK-shaped fields.
    static let visaProduct = #"""
        {"id":1,"paymentMethod":"card","paymentProductGroup":"Cards","displayHints":{"displayOrder":1,"label":"VISA"},
         "fields":[
          {"id":"cvv","type":"numericstring","dataRestrictions":{"isRequired":true,"validators":{"length":{"minLength":3,"maxLength":4}}},
           "displayHints":{"displayOrder":24,"formElement":{"type":"text"}}},
          {"id":"cardNumber","type":"numericstring","dataRestrictions":{"isRequired":true,"validators":{"luhn":{},"length":{"minLength":12,"maxLength":19}}},
           "displayHints":{"displayOrder":10,"formElement":{"type":"text"}}},
          {"id":"expiryDate","type":"expirydate","dataRestrictions":{"isRequired":true,"validators":{"expirationDate":{},"length":{"minLength":4,"maxLength":4}}},
           "displayHints":{"displayOrder":20,"formElement":{"type":"list"}}}
         ]}
        """#

    static let productList = #"""
        {"paymentProducts":[
          {"id":1,"paymentMethod":"card","displayHints":{"displayOrder":3,"label":"VISA"}},
          {"id":"117","paymentMethod":"card","displayHints":{"displayOrder":1,"label":"Maestro"}},
          {"id":302,"paymentMethod":"mobile","displayHintsList":[{"displayOrder":2,"label":"APPLEPAY"}],
           "paymentProduct302SpecificData":{"networks":["Visa"]}},
          {"id":840,"paymentMethod":"redirect","displayHints":{"displayOrder":4,"label":"PAYPAL"}}
        ]}
        """#
}

/// The error `body` throws, or `nil`.
func caught<T>(_ body: () async throws(CSEError) -> T) async -> CSEError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}
