import CSEClientAPI
import CSECore
import CSECrypto
@_spi(CustomTransport) import CSEHTTP
import CSEPayments
import CSEValidation
import Foundation
import Synchronization
import TestSupport
import Testing

/// Whether the emulator can run: the fixtures and python3-jwcrypto are present.
enum EmulatorAvailability {
    static let available: Bool = ClientAPIFixtures.available && JWCryptoOracle.isAvailable
    static let reason: Comment = "needs ../shared/vectors/client-api and /usr/bin/python3 with python3-jwcrypto"
}

/// Starts `client_api_emulator.py` for one test and stops it afterwards.
struct ClientAPIEmulator {
    static let sessionID = "3f9e2c1d0b8a49f7a6e5d4c3b2a19087"
    static let customerID = "cust-e2e-1"

    let emulator: LoopbackEmulator

    init(tls: TestCA.ServerCertificate? = nil, dccVersion: String = "v1") throws {
        let fixtures = try #require(TestPaths.sharedVectors).appendingPathComponent("client-api").path
        emulator = try LoopbackEmulator(
            script: "client_api_emulator.py",
            arguments: [
                "--fixtures", fixtures, "--session-id", Self.sessionID, "--customer-id", Self.customerID,
                "--dcc-version", dccVersion,
            ],
            tls: tls)
    }

    func sessionData(host: String? = nil) throws -> SessionData {
        try SessionData(
            clientSessionID: Self.sessionID, customerID: Self.customerID,
            clientAPIURL: (host ?? emulator.baseURL) + "/client", assetURL: emulator.baseURL + "/assets")
    }

    func session(
        trust: TLSTrust = .system, requestTimeout: Duration = .seconds(60), maxResponseBytes: Int = 1 << 20,
        events: EventCollector? = nil, dccVersion: String = "v1", host: String? = nil
    ) throws -> ClientAPISession {
        var configuration = ClientAPIConfiguration(clientMetaInfo: SessionFixtures.metaInfo)
        configuration.http.trust = trust
        configuration.http.requestTimeout = requestTimeout
        // Generous: a full parallel `swift test` can starve the cooperative pool (see CSEHTTPTests).
        configuration.http.deadline = .seconds(600)
        configuration.http.maxResponseBytes = maxResponseBytes
        configuration.http.backoffBase = .milliseconds(20)
        configuration.http.maxBackoff = .milliseconds(100)
        if let events { configuration.http.diagnostics = { events.append($0) } }
        configuration.apiVersions[.currencyConversion] = dccVersion
        configuration.sealing = SealingOptions(currentMonth: CalendarMonth(year: 2026, month: 5))
        return try ClientAPISession(sessionData: try sessionData(host: host), configuration: configuration)
    }

    /// The merchant-side oracle: the emulator decrypts with its private key (jwcrypto) and checks.
    func checkPayment(_ sealed: SealedPaymentRequest, expectedProductID: Int) async throws -> JSONValue {
        let client = try HTTPClient()
        let body = #"{"encryptedCustomerInput":"\#(sealed.encryptedCustomerInput)","expectedProductId":\#(expectedProductID)}"#
        let response = try await client.send(
            HTTPRequest(
                method: .post, url: try HTTPURL(emulator.baseURL + "/merchant/payments"),
                headers: ["Content-Type": "application/json"], body: Array(body.utf8)))
        return try JSONValue.parse(response.body)
    }

    func stop() { emulator.stop() }
}

/// Collects diagnostics events.
final class EventCollector: Sendable {
    private let events = Mutex<[HTTPAttemptEvent]>([])
    func append(_ event: HTTPAttemptEvent) { events.withLock { $0.append(event) } }
    var all: [HTTPAttemptEvent] { events.withLock { $0 } }
}

@Suite(
    "Client API end to end against the loopback emulator (real sockets, checked requests)",
    .enabled(if: EmulatorAvailability.available, EmulatorAvailability.reason), .serialized)
struct ClientAPIEmulatorTests {
    @Test("session → products → product 1 → IIN → encrypt; the emulator decrypts with its own key and checks the payload")
    func endToEnd() async throws {
        let server = try ClientAPIEmulator()
        defer { server.stop() }
        let events = EventCollector()
        let session = try server.session(events: events)
        let context = try PaymentContext(amount: 1000, currencyCode: "EUR", countryCode: "NL")

        let products = try await session.basicPaymentProducts(for: context)
        #expect(products.paymentProducts.count == 29)
        #expect(products.product(id: "117") == nil && products.product(id: "302") == nil)
        let product = try await session.paymentProduct(id: "1", for: context)
        #expect(product.id == "1")
        let iin = try await session.iinDetails(partialCardNumber: "4111 1111 1111", for: context)
        #expect(iin.status == .supported)
        #expect(iin.productID == "1")
        #expect(iin.coBrands.map(\.productID) == ["1", "122"])

        var request = PaymentRequest(product: product)
        try request.setValue(canaryPAN, forField: "cardNumber")
        try request.setValue("12/2030", forField: "expiryDate")
        try request.setValue("123", forField: "cvv")
        try request.setValue("Ada Lovelace", forField: "cardholderName")
        let sealed = try await session.encrypt(request)
        #expect(sealed.encodedClientMetaInfo == SessionFixtures.metaInfo.encoded)

        let verdict = try await server.checkPayment(sealed, expectedProductID: 1)
        #expect(verdict["ok"] == .bool(true), "\(verdict.serialized)")
        #expect(verdict["fields"]?.arrayValue?.compactMap(\.stringValue) == product.fields.map(\.id))
        #expect(Set(product.fields.map(\.id)) == ["cardNumber", "cardholderName", "expiryDate", "cvv"])

        let logged = try server.emulator.requests()
        #expect(
            logged.map { "\($0.method) \($0.path)" } == [
                "GET /client/v1/cust-e2e-1/products", "GET /client/v1/cust-e2e-1/products/1",
                "POST /client/v1/cust-e2e-1/services/getIINdetails", "GET /client/v1/cust-e2e-1/crypto/publickey",
                "POST /merchant/payments",
            ])
        #expect(String(decoding: logged[2].body, as: UTF8.self).contains(#""bin":"41111111""#))
        // Diagnostics: one event per attempt, path only, never the Authorization value.
        #expect(events.all.count == 4)
        #expect(events.all.allSatisfy { !"\($0)".contains(ClientAPIEmulator.sessionID) && !"\($0)".contains("41111111") })
    }

    @Test("the networks, DCC (v1 and v2) and surcharge calls pass the emulator's checks")
    func cardServices() async throws {
        for version in ["v1", "v2"] {
            let server = try ClientAPIEmulator(dccVersion: version)
            defer { server.stop() }
            let session = try server.session(dccVersion: version)
            let context = try PaymentContext(amount: 1000, currencyCode: "EUR", countryCode: "NL", isRecurring: true)
            #expect(try await session.paymentProductNetworks(id: "1", for: context).networks == ["CB", "Eurocard", "VISA"])
            let amount = try AmountOfMoney(amount: 1000, currencyCode: "EUR")
            let quote = try await session.currencyConversionQuote(
                cardSource: .card(number: canaryPAN, paymentProductID: "1"), amount: amount)
            #expect(quote.result == "Allowed")
            let surcharge = try await session.surchargeCalculation(
                cardSource: .card(number: canaryPAN, paymentProductID: nil), amount: amount)
            #expect(surcharge.surcharges.first?.totalAmount.amount == 1366)
            #expect(try server.emulator.requests().last?.path == "/client/v1/cust-e2e-1/services/surchargecalculation")
        }
    }

    @Test("IIN: a 404 with the platform's body is unknown; a missing isAllowedInContext is not allowed")
    func iinStatuses() async throws {
        let server = try ClientAPIEmulator()
        defer { server.stop() }
        let session = try server.session()
        #expect(try await session.iinDetails(partialCardNumber: "999999", for: nil) == .unknown)
        #expect(try await session.iinDetails(partialCardNumber: "3712345", for: nil).status == .existingButNotAllowed)
        #expect(try await session.iinDetails(partialCardNumber: "55555", for: nil) == .notEnoughDigits)
        #expect(try server.emulator.requests().count == 2)
    }

    @Test("a product the emulator does not have is a typed 404 with the decoded ApiError")
    func unknownProduct() async throws {
        let server = try ClientAPIEmulator()
        defer { server.stop() }
        let session = try server.session()
        let error = await caught { () async throws(CSEError) in
            try await session.paymentProduct(id: "999", for: try SessionFixtures.context())
        }
        #expect(error?.code == .clientAPIHTTPStatus)
        #expect(error?.context["status"] == "404")
        #expect(error?.context["id"] == "UNKNOWN_PRODUCT_ID")
        #expect(error?.context["propertyName"] == "productId")
    }

    @Test("faults: 503 then success is retried for a GET and the IIN POST, never for dccrate; each status with an ApiError is typed")
    func retries() async throws {
        let server = try ClientAPIEmulator()
        defer { server.stop() }
        let session = try server.session()
        let context = try SessionFixtures.context()
        try server.emulator.enqueue(.status(503).onPath("/client/v1/cust-e2e-1/products"))
        _ = try await session.basicPaymentProducts(for: context)
        try server.emulator.enqueue(.status(503).onPath("/client/v1/cust-e2e-1/services/getIINdetails"))
        #expect(try await session.iinDetails(partialCardNumber: "411111", for: context).status == .supported)
        #expect(try server.emulator.requests().count == 4)
        try server.emulator.reset()
        try server.emulator.enqueue(.status(503).onPath("/client/v1/cust-e2e-1/services/dccrate"))
        let dcc = await caught { () async throws(CSEError) in
            try await session.currencyConversionQuote(cardSource: .token("t"), amount: try AmountOfMoney(amount: 1, currencyCode: "EUR"))
        }
        #expect(dcc?.code == .clientAPIHTTPStatus)
        #expect(dcc?.context["status"] == "503")
        #expect(try server.emulator.requests().count == 1)
        for status in [400, 401, 403, 404, 409, 500] {
            try server.emulator.enqueue(
                .json(status, #"{"errorId":"e-\#(status)","errors":[{"errorCode":\#(status),"id":"X_\#(status)","retriable":false}]}"#)
                    .onPath("/client/v1/cust-e2e-1/products/2"))
            let error = await caught { () async throws(CSEError) in try await session.paymentProduct(id: "2", for: context) }
            #expect(error?.code == (status == 401 || status == 403 ? .clientAPIUnauthorized : .clientAPIHTTPStatus), "\(status)")
            #expect(error?.context["errorId"] == "e-\(status)", "\(status)")
            #expect(error?.context["errorCode"] == String(status), "\(status)")
        }
    }

    @Test("faults: timeout, dropped connection, truncated, malformed and oversized bodies are typed errors")
    func transportFaults() async throws {
        let server = try ClientAPIEmulator()
        defer { server.stop() }
        let session = try server.session(requestTimeout: .milliseconds(500), maxResponseBytes: 64 * 1024)
        let context = try SessionFixtures.context()
        func networksError(_ fault: LoopbackEmulator.Fault) async throws -> CSEError? {
            session.removeCachedResponses()
            try server.emulator.enqueue(fault.onPath("/client/v1/cust-e2e-1/products/1/networks").times(3))
            let error = await caught { () async throws(CSEError) in try await session.paymentProductNetworks(id: "1", for: context) }
            try server.emulator.reset()
            return error
        }
        #expect(try await networksError(.delay(milliseconds: 2000))?.code == .httpTimeout)
        #expect(try await networksError(.drop).map { [.httpConnectionFailed, .httpTransport].contains($0.code) } == true)
        #expect(try await networksError(.truncatedBody).map { $0.code.rawValue.hasPrefix("http.") } == true)
        #expect(try await networksError(.malformedBody)?.code == .clientAPIMalformedResponse)
        #expect(try await networksError(.oversizedBody(bytes: 200_000, chunked: false))?.code == .httpResponseTooLarge)
        #expect(try await networksError(.oversizedBody(bytes: 200_000, chunked: true))?.code == .httpResponseTooLarge)
    }

    @Test("TLS: a session trusting the test CA works; one trusting another CA fails with http.tls")
    func tls() async throws {
        let ca = try TestCA()
        defer { ca.remove() }
        let other = try TestCA(commonName: "Unrelated CA")
        defer { other.remove() }
        let server = try ClientAPIEmulator(tls: try ca.issueServerCertificate())
        defer { server.stop() }
        let good = try server.session(trust: .caFile(ca.certificatePath), host: server.emulator.localhostURL)
        #expect(try await good.publicKey().keyID.count == 36)
        let bad = try server.session(trust: .caFile(other.certificatePath), host: server.emulator.localhostURL)
        let error = await caught { () async throws(CSEError) in try await bad.publicKey() }
        #expect(error?.code == .httpTLS)
    }
}
