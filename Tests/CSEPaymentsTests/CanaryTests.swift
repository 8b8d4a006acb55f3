import CSECore
import CSECrypto
import CSEJOSE
@_spi(Testing) import CSEPayments
import CSEValidation
import Foundation
import TestSupport
import Testing

/// Canary values pushed through every failure path of the module: no error reason, context,
/// `description`, `debugDescription` or reflection may contain them (masked forms are allowed).
@Suite("canaries: no card number, CVV or key in any error or description")
struct CanaryTests {
    static let pan = "4532015112830366"  // Luhn-valid Visa-range canary
    static let panSpaced = "4532 0151 1283 0366"
    static let badPAN = "4532015112830367"  // same canary, wrong check digit
    static let cvv = "4827"  // 4 digits: wrong length for Visa
    static let demoKeyBody: [String] = {
        DemoKeys.testOnlyPrivateKeyPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init)
            + DemoKeys.testOnlyPublicKeyPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init)
    }()

    static func forbidden(_ rendered: String) -> [String] {
        // Memory addresses (`0x00007f…`) in reflected output are not secrets, but a short decimal
        // canary such as the CVV can occur inside one by chance; drop them before scanning.
        let text = rendered.replacingOccurrences(of: "0x[0-9a-fA-F]+", with: "0x…", options: .regularExpression)
        var hits: [String] = []
        for canary in [pan, panSpaced, badPAN, String(badPAN.dropFirst(6)), cvv] where text.contains(canary) { hits.append(canary) }
        for line in demoKeyBody where line.count >= 16 && text.contains(String(line.prefix(16))) { hits.append("key material") }
        return hits
    }

    /// Every rendering of a value a log line could use.
    static func renderings(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        var out = [String(describing: value), String(reflecting: value), dumped]
        if let error = value as? CSEError {
            out += [error.reason, error.description, error.debugDescription, error.context.description]
        }
        return out
    }

    func check(_ label: String, _ value: Any?) {
        guard let value else { Issue.record("path \(label) produced no error"); return }
        for text in Self.renderings(value) {
            let hits = Self.forbidden(text)
            #expect(hits.isEmpty, "path \(label) leaks \(hits)")
        }
    }

    func canaryRequest(product: PaymentProduct = BuiltinProducts.card) throws -> PaymentRequest {
        var request = PaymentRequest(product: product)
        try request.setValue(Self.panSpaced, forField: "cardNumber")
        try request.setValue("12/30", forField: "expiryDate")
        try request.setValue(Self.cvv, forField: "cvv")
        try request.setValue("Canary Holder", forField: "cardholderName")
        return request
    }

    @Test("request paths: unknown and read-only fields, validation errors, descriptions")
    func requestPaths() throws {
        var request = try canaryRequest()
        check("unknown field", caught { () throws(CSEError) in try request.setValue(Self.pan, forField: "pan") })
        let account = AccountOnFile(
            id: "a", paymentProductID: "card",
            attributes: [
                AccountOnFileAttribute(key: "cardNumber", value: Self.pan, status: .readOnly)
            ])
        var withAccount = try PaymentRequest(product: BuiltinProducts.card, accountOnFile: account)
        check("read-only field", caught { () throws(CSEError) in try withAccount.setValue(Self.pan, forField: "cardNumber") })
        check(
            "account of another product",
            caught { () throws(CSEError) in
                try request.setAccountOnFile(
                    AccountOnFile(
                        id: "b", paymentProductID: "x",
                        attributes: [
                            AccountOnFileAttribute(key: "cardNumber", value: Self.pan, status: .readOnly)
                        ]))
            })
        try request.setValue(Self.badPAN, forField: "cardNumber")
        let errors = request.validate(in: fixedContext())
        #expect(codes(errors) == ["cardNumber:luhn", "cvv:length"])
        try request.setValue(Self.pan, forField: "cardNumber")
        let cvvErrors = request.validate(in: fixedContext())
        #expect(codes(cvvErrors) == ["cvv:length"])
        for error in errors + cvvErrors { check("validation error \(error.field)", error) }
        check("request", request)
        check("request with account", withAccount)
        check("product", BuiltinProducts.card)
    }

    @Test("sealing paths: invalid request, demo key, bad session id, bad nonce, oversized payload")
    func sealingPaths() throws {
        var request = try canaryRequest()
        check("invalid request", caught { () throws(CSEError) in try demoSealer().seal(request, clientSessionID: "s") })
        check(
            "demo key refused",
            caught { () throws(CSEError) in
                try PaymentRequestSealer.seal(request, publicKey: DemoKeys.testOnlyPublicKey, keyID: "k", clientSessionID: "s")
            })
        try request.setValue("482", forField: "cvv")
        check("bad session id", caught { () throws(CSEError) in try demoSealer().seal(request, clientSessionID: "") })
        check(
            "bad nonce",
            caught { () throws(CSEError) in
                try demoSealer(nonce: .unsafeFixed(Array(Self.pan.utf8) + [0x30])).seal(request, clientSessionID: "s")
            })
        let big = try PaymentProduct(json: #"{"id": "big", "fields": [{"id": "cardNumber"}, {"id": "blob"}]}"#)
        var oversized = PaymentRequest(product: big)
        try oversized.setValue(Self.pan, forField: "cardNumber")
        try oversized.setValue(String(repeating: Self.pan, count: 40_000), forField: "blob")
        check("payload too large", caught { () throws(CSEError) in try demoSealer().seal(oversized, clientSessionID: "s") })
        let sealed = try demoSealer().seal(request, clientSessionID: "s")
        #expect(Self.forbidden(sealed.description).isEmpty)
        #expect(Self.forbidden(sealed.encryptedCustomerInput).isEmpty)
    }

    @Test("load paths: canaries inside broken product JSON and key responses")
    func loadPaths() {
        let products = [
            #"{"id": 1, "fields": [{"id": "cardNumber", "displayHints": {"mask": "{{4532015112830366X}}"}}]}"#,
            #"{"id": 1, "fields": [{"id": "cardNumber", "dataRestrictions": {"validators": {"regularExpression": {"regularExpression": "(4532015112830366"}}}}]}"#,
            #"{"id": 1, "fields": [{"id": "cardNumber", "dataRestrictions": {"validators": {"length": {"minLength": "4532015112830366"}}}}]}"#,
            #"{"id": 1, "accountsOnFile": [{"id": 1, "attributes": [{"key": "cardNumber", "value": 4532015112830366}]}]}"#,
            #"{"id": 1, "accountsOnFile": [{"id": 1, "attributes": [{"key": "cardNumber", "value": "4532015112830366"}], "displayHints": {"labelTemplate": [{"attributeKey": "cardNumber", "mask": "{{4827"}]}}]}"#,
            #"{"id": "4532015112830366", "fields": [{"id": "x"}, {"id": "x"}], "cvv": "4827"}"#.replacingOccurrences(
                of: "4532015112830366", with: "p"),
            #"{"id": 1, "fields": [{"id": "cvv", "type": 4827}]}"#,
            "{\"id\": 1, \"fields\": [\"4532015112830366\"]}",
        ]
        for (index, json) in products.enumerated() {
            check("product \(index)", caught { () throws(CSEError) in try PaymentProduct(json: json) })
        }
        let keyBody = String(Self.demoKeyBody[0])
        let responses = [
            #"{"keyId": "k", "publicKey": "\#(keyBody)\#(Self.pan)"}"#,
            #"{"keyId": "k", "publicKey": "\#(Self.pan)="}"#,
            #"{"keyId": "k", "publicKey": "\#(Self.demoKeyBody.joined())"}"#,
        ]
        for (index, json) in responses.enumerated() {
            check(
                "key response \(index)",
                caught { () throws(CSEError) in
                    try PaymentRequestSealer(publicKeyResponse: PublicKeyResponse(json: Array(json.utf8)))
                })
        }
    }
}
