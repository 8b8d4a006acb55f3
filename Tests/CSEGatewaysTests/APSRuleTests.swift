import CSECore
import CSEGateways
import CSEValidation
import Testing

@Suite("APS request rules: cross-field conditions, minor units, formats and secrets")
struct APSRuleTests {
    func check(_ changes: [String: JSONValue?], operation: GatewayOperation = .apsPurchase) throws -> [String] {
        GW.pairs(try APSValidation.validate(GW.apsPurchase(changes), operation: operation))
    }

    @Test("a complete PURCHASE request is valid")
    func valid() throws {
        #expect(try check([:]) == [])
    }

    @Test(
        "the operation chosen must match the command",
        arguments: [(GatewayOperation.apsAuthorization, "PURCHASE"), (.apsPurchase, "AUTHORIZATION")])
    func operationMatchesCommand(operation: GatewayOperation, command: String) throws {
        let result = try APSValidation.validate(GW.apsPurchase(["command": .string(command)]), operation: operation)
        #expect(GW.pairs(result) == ["command:allowedValues"])
        #expect(result.errors[0].parameters["rule"] == .string("operation-\(operation.name.lowercased())"))
    }

    @Test("MADA and MEEZA are PURCHASE-only", arguments: ["MADA", "MEEZA"])
    func madaMeezaPurchaseOnly(option: String) throws {
        let errors = try APSValidation.validate(
            GW.apsPurchase(["command": "AUTHORIZATION", "payment_option": .string(option)]),
            operation: .apsAuthorization
        ).errors
        #expect(errors.map(\.description) == ["command: allowedValues (allowedValues=PURCHASE, rule=mada-meeza-purchase-only)"])
        #expect(try check(["payment_option": .string(option)]) == [])
    }

    @Test("MADA and MEEZA need eci ECOMMERCE; an absent eci is accepted", arguments: ["MADA", "MEEZA"])
    func madaMeezaEcommerceOnly(option: String) throws {
        #expect(try check(["payment_option": .string(option), "eci": "MOTO"]) == ["eci:allowedValues"])
        #expect(try check(["payment_option": .string(option), "eci": "ECOMMERCE"]) == [])
        #expect(try check(["payment_option": "VISA", "eci": "MOTO"]) == [])
    }

    @Test("MADA with VARIABLE or FIXED recurring needs recurring_transactions_count", arguments: ["VARIABLE", "FIXED"])
    func madaRecurringCount(mode: String) throws {
        #expect(try check(["payment_option": "MADA", "recurring_mode": .string(mode)]) == ["recurring_transactions_count:required"])
        #expect(try check(["payment_option": "MADA", "recurring_mode": .string(mode), "recurring_transactions_count": "12"]) == [])
        #expect(try check(["payment_option": "MADA", "recurring_mode": "UNSCHEDULED"]) == [])
        #expect(try check(["payment_option": "VISA", "recurring_mode": .string(mode)]) == [])
        #expect(try check(["recurring_transactions_count": "0"]) == ["recurring_transactions_count:range"])
    }

    // Luhn-valid test numbers: Amex 15, Visa 16, mada 16, Meeza 19.
    static let amex = "378282246310005", visa = "4005550000000001", mada = "4464040000000007", meeza = "5078030000000000005"

    @Test(
        "the card number length fits the payment option: AMEX 15, MEEZA 19, otherwise 16",
        arguments: [
            ("AMEX", amex, [String]()), ("AMEX", visa, ["card_number:length"]),
            ("VISA", visa, []), ("VISA", amex, ["card_number:length"]),
            ("MASTERCARD", amex, ["card_number:length"]), ("MADA", mada, []),
            ("MEEZA", meeza, []), ("MEEZA", visa, ["card_number:length"]),
        ])
    func cardLengthPerOption(option: String, pan: String, expected: [String]) throws {
        #expect(try check(["payment_option": .string(option), "card_number": .string(pan)]) == expected, "\(option)")
    }

    @Test(
        "Direct Pay sends card_security_code with token_name; only AMEX takes 4 digits",
        arguments: [
            ("AMEX", "1234", [String]()), ("AMEX", "123", ["card_security_code:length"]),
            ("VISA", "123", []), ("VISA", "1234", ["card_security_code:length"]),
            ("MASTERCARD", "1234", ["card_security_code:length"]), ("MADA", "123", []), ("MEEZA", "1234", ["card_security_code:length"]),
        ])
    func securityCodePerOption(option: String, code: String, expected: [String]) throws {
        #expect(
            try check(["payment_option": .string(option), "token_name": "Op9Vmp", "card_security_code": .string(code)]) == expected,
            "\(option) \(code.count) digits")
        #expect(try check(["payment_option": .string(option), "card_security_code": .string(code)]).contains("token_name:required"))
    }

    @Test("amounts are whole minor units of the currency: 500 AED is 50000, 100 JOD is 100000")
    func minorUnits() throws {
        #expect(try APSValidation.minorUnits(fromMajor: "500", currency: "AED") == 50000)
        #expect(try APSValidation.minorUnits(fromMajor: "100", currency: "JOD") == 100000)
        #expect(try APSValidation.minorUnits(fromMajor: "1500", currency: "JPY") == 1500)
        #expect(throws: CSEError(.amountTooManyDecimals, "")) { try APSValidation.minorUnits(fromMajor: "1.005", currency: "AED") }
        #expect(try check(["amount": "100000", "currency": "JOD"]) == [])
        #expect(try check(["amount": "100.00"]) == ["amount:characters"])
        #expect(try check(["amount": "0100"]) == ["amount:format"])
        #expect(try check(["amount": "12345678901"]) == ["amount:length"])
        #expect(try check(["amount": .number("10000")]) == [])
        #expect(try check(["currency": "XAU"]) == ["amount:format"])
        #expect(try check(["currency": "ZZZ"]) == ["currency:format"])
        #expect(try check(["currency": "aed"]) == ["currency:format"])
    }

    @Test(
        "customer_ip takes IPv4 and IPv6 as the document's examples show",
        arguments: [
            ("192.178.1.10", true), ("2001:0db8:3042:0002:5a55:caff:fef6:bdbf", true), ("::1", true), ("fe80::1", true),
            ("::ffff:192.0.2.1", true), ("256.1.1.1", false), ("192.168.01.1", false), ("1.2.3", false), ("2001:db8::1::2", false),
            ("2001:db8:1:2:3:4:5:6:7", false), ("fe80::1%25en0", false), ("12345::", false),
        ])
    func customerIP(ip: String, valid: Bool) throws {
        #expect(try check(["customer_ip": .string(ip)]).isEmpty == valid, "\(ip)")
    }

    @Test("character classes, lengths and allowed values report the broken limit")
    func limits() throws {
        let errors = try APSValidation.validate(
            GW.apsPurchase([
                "merchant_reference": "ref#1", "language": "fr",
                "customer_name": "Ali O'Neil الشهري",
            ]),
            operation: .apsPurchase
        ).errors
        #expect(
            errors.map(\.description) == [
                "merchant_reference: characters (class=alphanumeric, specials=-._)",
                "language: allowedValues (allowedValues=en,ar)",
            ])
        let long = String(repeating: "a", count: 41)
        #expect(
            try APSValidation.validate(GW.apsPurchase(["merchant_reference": .string(long)]), operation: .apsPurchase)
                .errors.map(\.description) == ["merchant_reference: length (maxLength=40)"])
        #expect(try check(["customer_email": "not-an-email"]) == ["customer_email:format"])
        #expect(try check(["customer_email": "a b@c.com"]) == ["customer_email:characters"])
        #expect(try check(["phone_number": "+962 (79) 721-9966"]) == [])
        #expect(try check(["phone_number": "٠٧٩٧٢١٩٩٦٦"]) == ["phone_number:characters"])
    }

    @Test("missing, empty and unknown parameters; an empty optional counts as absent")
    func presence() throws {
        #expect(try check(["merchant_reference": nil]) == ["merchant_reference:required"])
        #expect(try check(["merchant_reference": ""]) == ["merchant_reference:required"])
        #expect(try check(["payment_option": ""]) == [])
        #expect(try check(["amount": .object(JSONObject([("value", .string("1"))]))]) == ["amount:type"])
        #expect(try check(["return_url": "https://example.com"]) == ["return_url:unknownParameter"])
    }

    @Test("no error carries a card number or security code, whatever is wrong with them")
    func secretsNeverInErrors() throws {
        let pan = "4005550000000002"  // wrong Luhn digit
        let result = try APSValidation.validate(
            GW.apsPurchase([
                "card_number": .string(pan), "card_security_code": "12345",
                "payment_option": "AMEX",
            ]), operation: .apsPurchase)
        // The AMEX security-code rule breaks the same (field, code) as the row's max length: one error.
        #expect(GW.pairs(result) == ["card_number:luhn", "card_security_code:length", "card_number:length", "token_name:required"])
        let text = result.description + result.errors.map { "\($0.parameters)" }.joined()
        #expect(!text.contains(pan) && !text.contains("400555") && !text.contains("12345"))
    }

    @Test("the SDK token request takes only its six parameters")
    func sdkToken() throws {
        let base = try GW.json(
            #"{"service_command":"SDK_TOKEN","access_code":"zx0IPmPy5jp1vAz8Kpg7","merchant_identifier":"CycHZxVj","language":"ar","device_id":"ffffffff-a9fa-0b44-7b27-29e70033c587","signature":"abc"}"#
        )
        #expect(try APSValidation.validate(base, operation: .apsSDKToken).isValid)
        var object = base.objectValue!
        object["service_command"] = .string("SDK-TOKEN")
        object["device_id"] = .string("device@1")
        object["command"] = .string("PURCHASE")
        #expect(
            GW.pairs(try APSValidation.validate(.object(object), operation: .apsSDKToken)) == [
                "service_command:characters", "service_command:allowedValues", "device_id:characters", "command:unknownParameter",
            ])
    }
}
