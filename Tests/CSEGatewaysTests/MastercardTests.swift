import CSECore
import CSEGateways
import Testing

@Suite("Mastercard GatewayMap: dot paths, conflicts and a deterministic JSON round trip")
struct GatewayMapTests {
    @Test("set and read by dot path, as the SDK README builds a card payload")
    func setAndGet() throws {
        var map = GatewayMap()
        try map.set("Joseph", at: "sourceOfFunds.provided.card.nameOnCard")
        try map.set("5506900140100305", at: "sourceOfFunds.provided.card.number")
        try map.set("05", at: "sourceOfFunds.provided.card.expiry.month")
        try map.set("APPLE_PAY", at: "order.walletProvider")
        #expect(map[at: "sourceOfFunds.provided.card.expiry.month"] == "05")
        #expect(map[at: "order"]?.objectValue?.count == 1)
        #expect(map[at: "order.missing"] == nil && map[at: "a..b"] == nil)
        #expect(
            map.leaves.map(\.path) == [
                "order.walletProvider", "sourceOfFunds.provided.card.expiry.month",
                "sourceOfFunds.provided.card.nameOnCard", "sourceOfFunds.provided.card.number",
            ])
        #expect(
            map.serialized
                == #"{"order":{"walletProvider":"APPLE_PAY"},"sourceOfFunds":{"provided":{"card":{"expiry":{"month":"05"},"nameOnCard":"Joseph","number":"5506900140100305"}}}}"#
        )
        #expect(!map.description.contains("5506900140100305"))
        #expect(map.removeValue(at: "order.walletProvider") == "APPLE_PAY" && map[at: "order.walletProvider"] == nil)
    }

    @Test(
        "conflicting paths are rejected: a leaf used as an object, an object replaced by a leaf",
        arguments: [
            ("order.id", "order.id.value"), ("order.id.value", "order.id"), ("order", "order.id"),
        ])
    func conflicts(first: String, second: String) throws {
        var map = GatewayMap()
        try map.set("1", at: first)
        #expect(throws: CSEError(.gatewayMapConflict, "")) { try map.set("2", at: second) }
        #expect(map[at: first] == "1", "the map is unchanged")
    }

    @Test("invalid paths are rejected", arguments: ["", ".", "a.", ".a", "a..b"])
    func invalidPaths(path: String) {
        var map = GatewayMap()
        #expect(throws: CSEError(.gatewayMapInvalidPath, "")) { try map.set("x", at: path) }
    }

    @Test("nested JSON and dotted keys build the same map; the same leaf twice is a conflict")
    func fromJSON() throws {
        let nested = try GatewayMap(json: try GW.json(#"{"order":{"id":"1","amount":"5.00"},"apiVersion":61}"#))
        let dotted = try GatewayMap(json: try GW.json(#"{"apiVersion":61,"order.amount":"5.00","order.id":"1"}"#))
        let mixed = try GatewayMap(json: try GW.json(#"{"order":{"id":"1"},"order.amount":"5.00","apiVersion":61}"#))
        #expect(nested == dotted && dotted == mixed)
        #expect(nested.serializedBytes == dotted.serializedBytes)
        #expect(throws: CSEError(.gatewayMapConflict, "")) {
            try GatewayMap(json: try GW.json(#"{"order":{"id":"1"},"order.id":"2"}"#))
        }
        #expect(throws: CSEError(.gatewayMapConflict, "")) { try GatewayMap(json: try GW.json(#"{"order":"x","order.id":"2"}"#)) }
        #expect(throws: CSEError(.gatewayInputNotObject, "")) { try GatewayMap(json: try GW.json("[1]")) }
    }

    @Test("serialize, parse, serialize gives the same bytes and the same map")
    func roundTrip() throws {
        var map = GatewayMap()
        try map.set(.number("61"), at: "apiVersion")
        try map.set("ü \"quoted\" \\ /", at: "order.description")
        try map.set(.array([.bool(true), .null]), at: "z.list")
        try map.set(.object(JSONObject()), at: "empty")
        let bytes = map.serializedBytes
        let again = try GatewayMap(parsing: bytes)
        #expect(again == map && again.serializedBytes == bytes)
    }
}

@Suite("Mastercard updateSession: order, 3DS2 fields, card fields, Apple Pay, apiVersion ≥ 61")
struct MastercardSessionTests {
    func check(_ text: String) throws -> [String] {
        GW.pairs(try MastercardValidation.validateUpdateSession(try GW.json(text)))
    }

    static let card =
        #""sourceOfFunds":{"provided":{"card":{"number":"5506900140100305","securityCode":"100","expiry":{"month":"05","year":"29"}}}}"#

    @Test("a card payload with 3DS2 fields at API version 61 is valid")
    func valid() throws {
        #expect(
            try check(
                #"{"apiVersion":61,"order":{"id":"ord-1","amount":"12.50","currency":"USD"},"authentication":{"acceptVersions":"3DS2","channel":"PAYER_APP","purpose":"PAYMENT_TRANSACTION"},\#(Self.card)}"#
            ) == [])
    }

    @Test(
        "apiVersion must be an integer of at least 61",
        arguments: [
            ("61", [String]()), ("\"72\"", []), ("60", ["apiVersion:range"]), ("\"61.0\"", ["apiVersion:format"]),
            ("true", ["apiVersion:type"]),
        ])
    func apiVersion(value: String, expected: [String]) throws {
        #expect(try check(#"{"apiVersion":\#(value)}"#) == expected, "\(value)")
    }

    @Test(
        "order.amount's precision must fit order.currency",
        arguments: [
            ("12.50", "USD", [String]()), ("12.505", "USD", ["order.amount:format"]), ("1500", "JPY", []),
            ("1500.5", "JPY", ["order.amount:format"]),
            ("1.125", "JOD", []), ("-1.00", "USD", ["order.amount:format"]), ("1,00", "EUR", ["order.amount:format"]),
            ("5", "usd", ["order.currency:format"]),
        ])
    func amountPrecision(amount: String, currency: String, expected: [String]) throws {
        #expect(
            try check(#"{"apiVersion":61,"order":{"amount":"\#(amount)","currency":"\#(currency)"}}"#) == expected, "\(amount) \(currency)")
    }

    @Test("an amount needs a currency; order.id is 1 to 40 characters")
    func orderFields() throws {
        #expect(try check(#"{"apiVersion":61,"order":{"amount":"1.00"}}"#) == ["order.currency:required"])
        #expect(try check(#"{"apiVersion":61,"order":{"id":"\#(String(repeating: "x", count: 41))"}}"#) == ["order.id:length"])
    }

    @Test("3DS2 authentication fields take the mobile SDK's values and come together")
    func authentication() throws {
        #expect(
            try check(
                #"{"apiVersion":61,"authentication":{"acceptVersions":"3DS1","channel":"PAYER_BROWSER","purpose":"PAYMENT_TRANSACTION"}}"#)
                == ["authentication.acceptVersions:allowedValues", "authentication.channel:allowedValues"])
        #expect(
            try check(#"{"apiVersion":61,"authentication":{"acceptVersions":"3DS2"}}"#)
                == ["authentication.channel:required", "authentication.purpose:required"])
    }

    @Test("card fields use the card validators: Luhn, brand length, brand CVV length, month and year")
    func cardFields() throws {
        #expect(
            try check(
                #"{"apiVersion":61,"sourceOfFunds":{"provided":{"card":{"number":"5506900140100306","securityCode":"1000","expiry":{"month":"13","year":"2029"}}}}}"#
            )
                == [
                    "sourceOfFunds.provided.card.number:luhn", "sourceOfFunds.provided.card.securityCode:length",
                    "sourceOfFunds.provided.card.expiry.month:format", "sourceOfFunds.provided.card.expiry.year:length",
                ])
        #expect(
            try check(
                #"{"apiVersion":61,"sourceOfFunds":{"provided":{"card":{"number":"378282246310005","securityCode":"1234","expiry":{"month":"01","year":"30"}}}}}"#
            ) == [])
        #expect(
            try check(
                #"{"apiVersion":61,"sourceOfFunds":{"provided":{"card":{"number":"378282246310005","securityCode":"123","expiry":{"month":"01","year":"30"}}}}}"#
            )
                == ["sourceOfFunds.provided.card.securityCode:length"])
        #expect(
            try check(#"{"apiVersion":61,"sourceOfFunds":{"provided":{"card":{"number":"5506900140100305"}}}}"#)
                == ["sourceOfFunds.provided.card.expiry.month:required", "sourceOfFunds.provided.card.expiry.year:required"])
    }

    static let token =
        #"{\"version\":\"EC_v1\",\"data\":\"o6XJTbwt\",\"signature\":\"MIAGCSqG\",\"header\":{\"ephemeralPublicKey\":\"MFkw\",\"publicKeyHash\":\"Lthu\",\"transactionId\":\"0da3\"}}"#

    @Test("Apple Pay: a paymentToken needs walletProvider APPLE_PAY and excludes a card number, and vice versa")
    func applePay() throws {
        let path = "sourceOfFunds.provided.card.devicePayment.paymentToken"
        #expect(try check(#"{"apiVersion":61,"order":{"walletProvider":"APPLE_PAY"},"\#(path)":"\#(Self.token)"}"#) == [])
        #expect(try check(#"{"apiVersion":61,"order":{"walletProvider":"APPLE_PAY"}}"#) == ["\(path):required"])
        #expect(try check(#"{"apiVersion":61,"\#(path)":"\#(Self.token)"}"#) == ["order.walletProvider:required"])
        #expect(
            try check(#"{"apiVersion":61,"order":{"walletProvider":"GOOGLE_PAY"},"\#(path)":"\#(Self.token)"}"#) == [
                "order.walletProvider:allowedValues"
            ])
        #expect(try check(#"{"apiVersion":61,"order":{"walletProvider":"APPLE_PAY"},"\#(path)":"{\"data\":\"x\"}"}"#) == ["\(path):format"])
        #expect(
            try check(
                #"{"apiVersion":61,"order":{"walletProvider":"APPLE_PAY"},"\#(path)":"\#(Self.token)","sourceOfFunds.provided.card.number":"5506900140100305","sourceOfFunds.provided.card.expiry":{"month":"01","year":"30"}}"#
            )
                == ["sourceOfFunds.provided.card.number:notAllowed"])
    }

    @Test("no error carries the card number or security code")
    func secrets() throws {
        let result = try MastercardValidation.validateUpdateSession(
            try GW.json(#"{"sourceOfFunds":{"provided":{"card":{"number":"5506900140100306","securityCode":"98765"}}}}"#))
        #expect(!result.description.contains("550690") && !result.description.contains("98765"))
    }
}

@Suite("Mastercard authentication recommendation, including the API 70+ values")
struct MastercardRecommendationTests {
    @Test(
        "values by API version; anything else does not proceed",
        arguments: [
            ("PROCEED", 61, MastercardRecommendation.Action.proceed), ("PROCEED", 72, .proceed),
            ("DO_NOT_PROCEED", 61, .doNotProceed), ("DO_NOT_PROCEED", 70, .unrecognized),
            ("RESUBMIT_WITH_ALTERNATIVE_PAYMENT_DETAILS", 70, .resubmitWithAlternativePaymentDetails),
            ("DO_NOT_PROCEED_ABANDON_ORDER", 78, .abandonOrder), ("DO_NOT_PROCEED_ABANDON_ORDER", 69, .unrecognized),
            ("proceed", 61, .unrecognized), ("", 61, .unrecognized),
        ])
    func recommendation(value: String, apiVersion: Int, action: MastercardRecommendation.Action) {
        let r = MastercardRecommendation(value, apiVersion: apiVersion)
        #expect(r.action == action, "\(value)@\(apiVersion)")
        #expect(r.proceed == (action == .proceed))
    }
}
