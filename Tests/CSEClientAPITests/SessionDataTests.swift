import CSEClientAPI
import CSECore
import Foundation
import Testing

@Suite("SessionData: the CreateSession response, parsed strictly")
struct SessionDataTests {
    static let valid = #"""
        {"clientSessionId":"68a4b0b183a34016b4b694b97938f75b","customerId":"cust-123",
         "clientApiUrl":"https://payment.preprod.example.com","assetUrl":"https://assets.example.com/",
         "invalidTokens":["tok-1"],"extra":1}
        """#

    @Test("all four members and the invalid tokens are read; the base is normalised to /client")
    func parsesValid() throws {
        let session = try SessionData(json: Array(Self.valid.utf8))
        #expect(session.clientSessionID == "68a4b0b183a34016b4b694b97938f75b")
        #expect(session.customerID == "cust-123")
        #expect(session.clientAPIURL == "https://payment.preprod.example.com/client")
        #expect(session.assetURL == "https://assets.example.com/")
        #expect(session.invalidTokens == ["tok-1"])
    }

    @Test("json is the CreateSession JSON a client reads, in the platform's member names and order, unknown members dropped")
    func jsonText() throws {
        let session = try SessionData(json: Array(Self.valid.utf8))
        #expect(
            String(decoding: session.json, as: UTF8.self)
                == #"{"clientSessionId":"68a4b0b183a34016b4b694b97938f75b","customerId":"cust-123","clientApiUrl":"https://payment.preprod.example.com/client","assetUrl":"https://assets.example.com/","invalidTokens":["tok-1"]}"#
        )
        #expect(try SessionData(json: session.json) == session)
    }

    @Test(
        "clientApiUrl path: empty, / , /client and /client/ are accepted",
        arguments: [
            "https://api.example.com", "https://api.example.com/", "https://api.example.com/client",
            "https://api.example.com/client/", "HTTPS://api.example.com:8443/client",
        ])
    func acceptsClientPaths(url: String) throws {
        let session = try SessionData(clientSessionID: "s", customerID: "c", clientAPIURL: url, assetURL: "https://a.example")
        #expect(session.clientAPIURL.hasSuffix("/client"))
        #expect(session.clientAPIURL.hasPrefix("https://api.example.com"))
    }

    @Test(
        "clientApiUrl with any other path, a query, a fragment, user info or another scheme is refused",
        arguments: [
            "https://api.example.com/v1/payments", "https://api.example.com/client/v1", "https://api.example.com?test=value",
            "https://api.example.com/client#x", "https://user@api.example.com/client", "ftp://api.example.com",
            "api.example.com/client", "https:///client", "https://api.example.com/cl ient", "",
        ])
    func refusesOtherURLs(url: String) {
        #expect(throws: CSEError(.clientAPIInvalidSession, "")) {
            try SessionData(clientSessionID: "s", customerID: "c", clientAPIURL: url, assetURL: "https://a.example")
        }
    }

    @Test(
        "each required member is required, and must be a non-empty string",
        arguments: [
            "clientSessionId", "customerId", "clientApiUrl", "assetUrl",
        ])
    func requiresMembers(member: String) throws {
        var object = try JSONValue.parse(Self.valid).objectValue!
        object[member] = nil
        let missing = Self.error { try SessionData(jsonValue: .object(object)) }
        #expect(missing?.code == .clientAPIInvalidSession)
        #expect(missing?.context["member"] == member)
        object[member] = .string("")
        #expect(Self.error { try SessionData(jsonValue: .object(object)) }?.code == .clientAPIInvalidSession)
        object[member] = .number("1")
        #expect(Self.error { try SessionData(jsonValue: .object(object)) }?.context["member"] == member)
    }

    @Test("not JSON, not an object, a bad invalidTokens")
    func refusesShapes() {
        #expect(Self.error { try SessionData(json: Array("{".utf8)) }?.underlying?.code == .jsonSyntax)
        #expect(Self.error { try SessionData(json: Array("[]".utf8)) }?.code == .clientAPIInvalidSession)
        let badTokens = Self.valid.replacingOccurrences(of: #"["tok-1"]"#, with: "[1]")
        #expect(Self.error { try SessionData(json: Array(badTokens.utf8)) }?.context["member"] == "invalidTokens")
    }

    @Test("a session id with a control character or a space is refused (it goes into a header)")
    func refusesHeaderBreakingIDs() {
        for id in ["abc\r\nX: y", "a b", "\u{7F}"] {
            #expect(throws: CSEError(.clientAPIInvalidSession, "")) {
                try SessionData(clientSessionID: id, customerID: "c", clientAPIURL: "https://x.example", assetURL: "https://a.example")
            }
        }
    }

    @Test("a customer id of '.' or '..' is refused: it is the path segment after the API version", arguments: [".", ".."])
    func refusesDotSegmentCustomerIDs(id: String) {
        #expect(throws: CSEError(.clientAPIInvalidSession, "")) {
            try SessionData(clientSessionID: "s", customerID: id, clientAPIURL: "https://x.example", assetURL: "https://a.example")
        }
        let json = #"{"clientSessionId":"s","customerId":"\#(id)","clientApiUrl":"https://x.example","assetUrl":"https://a.example"}"#
        #expect(Self.error { try SessionData(json: Array(json.utf8)) }?.context["member"] == "customerId")
    }

    @Test("description, debugDescription and the mirror never show the session id in full")
    func masksTheSessionID() throws {
        let session = try SessionData(json: Array(Self.valid.utf8))
        for text in [
            session.description, session.debugDescription, String(describing: session), String(reflecting: session),
            "\(Mirror(reflecting: session).children.map { "\($0.value)" })",
        ] {
            #expect(!text.contains("68a4b0b183a34016b4b694b97938f75b"))
            #expect(!text.contains("b4b694b97938"))
        }
        #expect(session.maskedClientSessionID == "68a4…(32 chars)")
        let short = try SessionData(
            clientSessionID: "abcd1234", customerID: "c", clientAPIURL: "https://x.example",
            assetURL: "https://a.example")
        #expect(!short.maskedClientSessionID.contains("abcd"))
    }

    @Test("jsonValue writes the platform member names and round-trips")
    func roundTrips() throws {
        let session = try SessionData(json: Array(Self.valid.utf8))
        #expect(session.jsonValue.objectValue?.keys == ["clientSessionId", "customerId", "clientApiUrl", "assetUrl", "invalidTokens"])
        #expect(try SessionData(jsonValue: session.jsonValue) == session)
    }

    static func error(_ body: () throws -> SessionData) -> CSEError? {
        do { _ = try body(); return nil } catch { return error as? CSEError }
    }
}

@Suite("PaymentContext: amount, currency, country, recurring, installments")
struct PaymentContextTests {
    @Test("the product query is written as WL-JS writes it, amount 0 included")
    func query() throws {
        let context = try PaymentContext(amount: 0, currencyCode: "EUR", countryCode: "NL", isRecurring: true)
        #expect(
            context.queryItems.map { "\($0.name)=\($0.value)" } == ["countryCode=NL", "currencyCode=EUR", "amount=0", "isRecurring=true"])
        let installments = try PaymentContext(amount: 5, currencyCode: "EUR", countryCode: "NL", isInstallments: true)
        #expect(installments.queryItems.last.map { "\($0.name)=\($0.value)" } == "isInstallments=true")
    }

    @Test("as a cache key, contexts that differ in any member stay apart and equal ones hash equally")
    func hashing() throws {
        let contexts = [
            try PaymentContext(amount: 1000, currencyCode: "EUR", countryCode: "NL"),
            try PaymentContext(amount: 1001, currencyCode: "EUR", countryCode: "NL"),
            try PaymentContext(amount: 1000, currencyCode: "EUS", countryCode: "NL"),
            try PaymentContext(amount: 1000, currencyCode: "EUR", countryCode: "NM"),
            try PaymentContext(amount: 1000, currencyCode: "EUR", countryCode: "NL", isRecurring: true),
            try PaymentContext(amount: 1000, currencyCode: "EUR", countryCode: "NL", isInstallments: true),
            // The letters move between the two codes: the packed word must still tell them apart.
            try PaymentContext(amount: 1000, currencyCode: "NLE", countryCode: "UR"),
        ]
        var seen: [PaymentContext: Int] = [:]
        for (index, context) in contexts.enumerated() { seen[context] = index }
        #expect(seen.count == contexts.count)
        for (index, context) in contexts.enumerated() {
            let copy = try PaymentContext(
                amountOfMoney: AmountOfMoney(amount: context.amountOfMoney.amount, currencyCode: context.amountOfMoney.currencyCode),
                countryCode: context.countryCode, isRecurring: context.isRecurring, isInstallments: context.isInstallments)
            #expect(copy.hashValue == context.hashValue)
            #expect(seen[copy] == index)
        }
    }

    @Test("the IIN paymentContext uses JSON numbers and Booleans")
    func json() throws {
        let context = try PaymentContext(amount: 1000, currencyCode: "EUR", countryCode: "NL")
        #expect(
            context.jsonValue.serialized
                == #"{"amountOfMoney":{"amount":1000,"currencyCode":"EUR"},"countryCode":"NL","isRecurring":false,"isInstallments":false}"#)
    }

    @Test(
        "out-of-range values are refused with the member named",
        arguments: [
            (Int64(-1), "EUR", "NL", "amount"), (Int64(1_000_000_000_000), "EUR", "NL", "amount"),
            (Int64(1), "eur", "NL", "currencyCode"), (Int64(1), "EURO", "NL", "currencyCode"),
            (Int64(1), "EUR", "nl", "countryCode"), (Int64(1), "EUR", "NLD", "countryCode"),
        ])
    func refuses(amount: Int64, currency: String, country: String, member: String) {
        do {
            _ = try PaymentContext(amount: amount, currencyCode: currency, countryCode: country)
            Issue.record("accepted")
        } catch {
            #expect(error.code == .clientAPIInvalidContext)
            #expect(error.context["member"] == member)
        }
    }
}
