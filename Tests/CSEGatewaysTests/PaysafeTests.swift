import CSECore
import CSEGateways
import CSEValidation
import Testing

@Suite("Paysafe: API key check, error shape and tokenize options with the SDK's numeric codes")
struct PaysafeTests {
    static let key =
        "TWVyY2hhbnRYWVo6Qi10c3QxLTAtNTFlZDM5ZTQtMzEyZDAyMzQ1ZDNmMTIzMTIwODgxZGZmOWJiNDAyMGE4OWU4YWM0NGNkZmRjZWNkNzAyMTUxMTgyZmRjOTUyMjcyNjYxZDI5MGFiMmU1ODQ5ZTMxYmIwM2RlZWRlN2U="

    @Test(
        "an empty key gives 9167 and a malformed one 9013, in the PSError shape",
        arguments: [
            ("", 9167), ("not base64!", 9013), ("dXNlcm5hbWU=", 9013), ("OnBhc3N3b3Jk", 9013), ("dXNlcjo=", 9013),
            ("dXNlcjpwYXNz", nil), ("dXNlcjpwYXNz\n", 9013), ("dXNlcjpwYXN", 9013), ("/w==", 9013), ("dXNlcgpwOnE=", 9013),
        ] as [(String, Int?)])
    func apiKey(key: String, code: Int?) {
        // "dXNlcm5hbWU=" = "username" (no colon), "OnBhc3N3b3Jk" = ":password", "dXNlcjo=" = "user:",
        // "dXNlcjpwYXNz" = "user:pass", "/w==" = 0xFF (not UTF-8), "dXNlcgpwOnE=" has a control character.
        let error = PaysafeValidation.checkAPIKey(key, correlationID: "corr-1")
        #expect(error?.code == code, "\(key)")
        if let error {
            #expect(error.correlationID == "corr-1" && error.displayMessage.contains("\(error.code)"))
            #expect(!error.detailedMessage.isEmpty && (key.isEmpty || !error.description.contains(key)))
        }
        #expect(PaysafeValidation.checkAPIKey(Self.key, correlationID: "c") == nil)
    }

    @Test("setup takes an apiKey and a LIVE or TEST environment; errors carry 9167 and 9013")
    func setup() throws {
        func run(_ text: String) throws -> GatewayValidationResult { try PaysafeValidation.validateSetup(try GW.json(text)) }
        #expect(try run(#"{"apiKey":"\#(Self.key)","environment":"LIVE"}"#).isValid)
        let empty = try run(#"{"apiKey":"","environment":"PROD"}"#)
        #expect(GW.pairs(empty) == ["apiKey:required", "environment:allowedValues"])
        #expect(empty.errors.map(\.gatewayCode) == [9167, nil])
        let malformed = try run(#"{"apiKey":"user:pass","environment":"TEST"}"#)
        #expect(GW.pairs(malformed) == ["apiKey:format"] && malformed.errors[0].gatewayCode == 9013)
        #expect(!malformed.description.contains("user:pass"))
        #expect(GW.pairs(try run(#"{"apiKey":42,"environment":"TEST"}"#)) == ["apiKey:type"])
        #expect(GW.pairs(try run(#"{"apiKey":"\#(Self.key)","environment":"TEST","extra":1}"#)) == ["extra:unknownParameter"])
    }

    static let base = #"{"amount":1000,"currencyCode":"USD","transactionType":"PAYMENT","merchantRefNum":"ref-1"}"#

    func tokenize(_ changes: [String: JSONValue?], partner: Bool = false) throws -> GatewayValidationResult {
        var object = try GW.json(Self.base).objectValue!
        for (key, value) in changes { object[key] = value ?? nil }
        return try PaysafeValidation.validateTokenize(.object(object), partnerSharedKey: partner)
    }

    @Test(
        "amount is 1…999999999 minor units (9054); 0 only with 3DS2",
        arguments: [
            ("1", true), ("999999999", true), ("1000000000", false), ("-1", false), ("10.5", false), ("1e3", false),
            ("99999999999999999999", false),
        ])
    func amount(amount: String, valid: Bool) throws {
        let result = try tokenize(["amount": .number(amount)])
        #expect(result.isValid == valid, "\(amount): \(result)")
        #expect(result.errors.allSatisfy { $0.gatewayCode == 9054 }, "\(amount)")
    }

    @Test("amount 0 needs threeDS.useThreeDSecureVersion2 = true (9054 otherwise); a string amount is a type error")
    func zeroAmount() throws {
        let without = try tokenize(["amount": .number("0")])
        #expect(GW.pairs(without) == ["threeDS.useThreeDSecureVersion2:required"] && without.errors[0].gatewayCode == 9054)
        let with3DS = try tokenize(["amount": .number("0"), "threeDS": .object(JSONObject([("useThreeDSecureVersion2", .bool(true))]))])
        #expect(with3DS.isValid, "\(with3DS)")
        let off = try tokenize(["amount": .number("0"), "threeDS": .object(JSONObject([("useThreeDSecureVersion2", .bool(false))]))])
        #expect(GW.pairs(off) == ["threeDS.useThreeDSecureVersion2:allowedValues"])
        #expect(GW.pairs(try tokenize(["amount": "1000"])) == ["amount:type"])
    }

    @Test("currencyCode (9055), transactionType, merchantRefNum and countryCode")
    func fields() throws {
        #expect(try tokenize(["currencyCode": "usd"]).errors.map(\.gatewayCode) == [9055])
        #expect(GW.pairs(try tokenize(["transactionType": "REFUND"])) == ["transactionType:allowedValues"])
        for type in [
            "STANDALONE_CREDIT", "ORIGINAL_CREDIT", "VERIFICATION", "payment", "standaloneCredit", "originalCredit", "verification",
        ] {
            #expect(try tokenize(["transactionType": .string(type)]).isValid, "\(type)")
        }
        #expect(GW.pairs(try tokenize(["merchantRefNum": nil])) == ["merchantRefNum:required"])
        #expect(GW.pairs(try tokenize(["merchantRefNum": .string(String(repeating: "r", count: 256))])) == ["merchantRefNum:length"])
        #expect(try tokenize(["countryCode": "CA"]).isValid)
        #expect(GW.pairs(try tokenize(["countryCode": "UK"])) == ["countryCode:format"])
    }

    @Test("accountId is required for a partner using a shared key (9101), digits otherwise")
    func accountID() throws {
        let missing = try tokenize([:], partner: true)
        #expect(GW.pairs(missing) == ["accountId:required"] && missing.errors[0].gatewayCode == 9101)
        #expect(try tokenize(["accountId": "1001234567"], partner: true).isValid)
        #expect(try tokenize(["accountId": "acct-1"]).errors.map(\.gatewayCode) == [9101])
        #expect(try tokenize(["accountId": "100123456789012"]).isValid, "the SDK checks digits only, not a length")
    }

    @Test("billing details need country (ISO 3166 alpha-2) and zip when given; profile and descriptor carry their codes")
    func details() throws {
        let billing = try GW.json(#"{"country":"CA","zip":"M5H 2N2","state":"ON","city":"Toronto","street":"100 Queen Street West"}"#)
        #expect(try tokenize(["billingDetails": billing]).isValid)
        let partial = try GW.json(#"{"city":"Toronto"}"#)
        #expect(GW.pairs(try tokenize(["billingDetails": partial])) == ["billingDetails.country:required", "billingDetails.zip:required"])
        let badCountry = try GW.json(#"{"country":"CAN","zip":"M5H"}"#)
        #expect(GW.pairs(try tokenize(["billingDetails": badCountry])) == ["billingDetails.country:format"])
        let profile = try GW.json(#"{"firstName":"","email":"john@"}"#)
        #expect(try tokenize(["profile": profile]).errors.map(\.gatewayCode) == [9119])
        let descriptor = try GW.json(#"{"dynamicDescriptor":"ABCDEFGHIJKLMNOPQRSTU","phone":"+1 (555) 01234"}"#)
        #expect(try tokenize(["merchantDescriptor": descriptor]).errors.map(\.gatewayCode) == [9098, 9099])
        let sdkLimits = try GW.json(#"{"dynamicDescriptor":"ABCDEFGHIJKLMNOPQRST","phone":"+1 (555) 0123"}"#)
        #expect(try tokenize(["merchantDescriptor": sdkLimits]).isValid, "20 and 13 characters, any characters, as the SDK checks them")
    }

    @Test("Paysafe errors: one per distinct code, in the document's shape, with a v4 UUID correlation id")
    func errorShape() throws {
        let result = try tokenize(["amount": .number("-5"), "currencyCode": "XXXX", "merchantRefNum": nil])
        let id = try PaysafeError.newCorrelationID()
        let errors = PaysafeValidation.paysafeErrors(of: result, correlationID: id)
        #expect(errors.map(\.code) == [9054, 9055])
        #expect(errors.allSatisfy { $0.correlationID == id && $0.displayMessage.contains(String($0.code)) })
        let parts = id.split(separator: "-")
        #expect(parts.map(\.count) == [8, 4, 4, 4, 12] && parts[2].first == "4")
        #expect(try PaysafeError.newCorrelationID() != id)
    }
}
