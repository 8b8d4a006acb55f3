import CSECore
import CSEPayments
import CSEValidation
import Foundation
import TestSupport
import Testing

/// Requests with fixed content, shared by the payload and sealing tests.
enum GoldenRequests {
    static let nonceA: [UInt8] = Array(0..<16)
    static let nonceB: [UInt8] = (0..<16).map { 0xFF - UInt8($0) * 0x11 }

    /// WL product 1 with card number, expiry and CVV set masked, tokenize on.
    static func card() throws -> PaymentRequest {
        var request = PaymentRequest(product: try PaymentProduct(json: Fixtures.worldlineCard))
        try request.setValue("4242 4242 4242 4242", forField: "cardNumber")
        try request.setValue("12/35", forField: "expiryDate")
        try request.setValue("123", forField: "cvv")
        request.tokenize = true
        return request
    }
    static let cardSession = "c5a1d3f0e4b24e0f9a1b2c3d4e5f6071"

    /// The built-in card product with a stored American Express card: only the CVV (MUST_WRITE)
    /// and the name are sent. The brand is set, as an account on file's number is obfuscated:
    /// sealing needs it to name the platform product (2).
    static func accountOnFile() throws -> PaymentRequest {
        let account = AccountOnFile(
            id: "aof-7", paymentProductID: "card",
            attributes: [
                AccountOnFileAttribute(key: "cardNumber", value: "************1111", status: .readOnly),
                AccountOnFileAttribute(key: "expiryDate", value: "1230", status: .readOnly),
                AccountOnFileAttribute(key: "cvv", value: nil, status: .mustWrite),
            ])
        var request = try PaymentRequest(product: BuiltinProducts.card, accountOnFile: account)
        request.cardBrand = .americanExpress
        try request.setValue("7373", forField: "cvv")
        try request.setValue(#"Zoë "Z" Ørsted\/ 👍"#, forField: "cardholderName")
        return request
    }
    static let accountSession = "session-aof"

    static func golden(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent("Tests/CSEPaymentsTests/Golden/\(name)")))
    }
}

@Suite("customer-input payload (reference §1.3)")
struct PayloadTests {
    @Test(
        "the payload of a fixed request equals the golden file byte for byte",
        arguments: [
            "card-request.json", "account-on-file-request.json",
        ])
    func golden(name: String) throws {
        let bytes =
            name == "card-request.json"
            ? CustomerInputPayload.bytes(
                for: try GoldenRequests.card(), clientSessionID: GoldenRequests.cardSession,
                nonce: Base16.encode(GoldenRequests.nonceA))
            : CustomerInputPayload.bytes(
                for: try GoldenRequests.accountOnFile(), clientSessionID: GoldenRequests.accountSession,
                nonce: Base16.encode(GoldenRequests.nonceB))
        #expect(bytes == (try GoldenRequests.golden(name)), "case \(name)")
    }

    @Test("keys in the documented order; optional members only when due")
    func shape() throws {
        var request = try GoldenRequests.card()
        request.tokenize = false
        let json = try JSONValue.parse(CustomerInputPayload.bytes(for: request, clientSessionID: "s", nonce: "n"))
        #expect(json.objectValue?.keys == ["clientSessionId", "nonce", "paymentProductId", "paymentValues"])
        let aof = try JSONValue.parse(CustomerInputPayload.bytes(for: try GoldenRequests.accountOnFile(), clientSessionID: "s", nonce: "n"))
        #expect(aof.objectValue?.keys == ["clientSessionId", "nonce", "paymentProductId", "accountOnFileId", "paymentValues"])
    }

    @Test("quotes, backslashes, control characters and non-ASCII are escaped per RFC 8259 §7")
    func escaping() throws {
        let p = try PaymentProduct(json: Fixtures.product(fields: #"{"id": "name"}, {"id": "empty"}"#))
        var request = PaymentRequest(product: p)
        try request.setValue("a\"b\\c/d\u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}é€😀e\u{301}", forField: "name")
        try request.setValue("", forField: "empty")
        let bytes = CustomerInputPayload.bytes(for: request, clientSessionID: "id\"\n", nonce: "00")
        let expected =
            #"{"clientSessionId":"id\"\n","nonce":"00","paymentProductId":"p1","paymentValues":[{"key":"name","value":"a\"b\\c/d\u0000\u0001\b\t\n\f\r\u001f"#
            + "\u{7F}é€😀e\u{301}\"}]}"
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        #expect(
            try JSONValue.parse(bytes)["paymentValues"]?.arrayValue?.first?["value"]?.stringValue
                == "a\"b\\c/d\u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}é€😀e\u{301}")
    }

    @Test(
        "paymentProductId is a number only for canonical decimal ids",
        arguments: [
            ("1", true), ("302", true), ("0", true), ("01", false), ("-1", false), ("1e3", false), ("card", false),
            ("1234567890123456789", false), ("١٢", false),
        ])
    func productIDForm(id: String, numeric: Bool) {
        #expect(CustomerInputPayload.isCanonicalInteger(id) == numeric, "case \(id)")
    }

    @Test("nonces are 32 lowercase hex characters")
    func nonceHex() {
        #expect(Base16.encode(GoldenRequests.nonceA) == "000102030405060708090a0b0c0d0e0f")
        #expect(Base16.encode(GoldenRequests.nonceB) == "ffeeddccbbaa99887766554433221100")
    }

    @Test("wipe zeroes the payload buffer")
    func wipe() {
        var bytes = Array("4242424242424242".utf8)
        secureZero(&bytes)
        #expect(bytes == [UInt8](repeating: 0, count: 16))
    }
}

@Suite("encodedClientMetaInfo (reference §1.4)")
struct ClientMetaInfoTests {
    @Test("injected fields: fixed member order, standard base64 with padding")
    func injected() throws {
        let info = ClientMetaInfo(
            platformIdentifier: "Linux/6.1.0", deviceType: "x86_64", appIdentifier: "",
            screenSize: "1920x1080",
            addedData: [.init(key: "test", value: "value"), .init(key: "sdkCreator", value: "evil")])
        let json =
            #"{"platformIdentifier":"Linux/6.1.0","sdkIdentifier":"CSEKit/v0.1.0","sdkCreator":"CSEKit","screenSize":"1920x1080","deviceBrand":"UNKNOWN","deviceType":"x86_64","appIdentifier":"UNKNOWN","test":"value"}"#
        #expect(String(decoding: info.jsonBytes, as: UTF8.self) == json)
        #expect(info.encoded == Data(json.utf8).base64EncodedString())
        #expect(try Base64.decode(info.encoded, alphabet: .standard, padding: .required) == Array(json.utf8))
    }

    @Test("Linux defaults come from uname: Linux/<version>, machine, CSEKit identifiers, no screen size")
    func linuxDefaults() throws {
        let info = ClientMetaInfo.current()
        let machine = try run("/usr/bin/uname", "-m")
        let release = try run("/usr/bin/uname", "-r")
        let version = String(release.prefix { $0.isNumber || $0 == "." })
        #expect(info.platformIdentifier == "Linux/\(version)")
        #expect(info.deviceType == machine)
        #expect(info.sdkIdentifier == "CSEKit/v0.1.0" && info.sdkCreator == "CSEKit")
        #expect(info.appIdentifier == "UNKNOWN" && info.deviceBrand == "UNKNOWN" && info.screenSize == nil)
        let object = try JSONValue.parse(try Base64.decode(info.encoded)).objectValue
        #expect(object?.keys == ["platformIdentifier", "sdkIdentifier", "sdkCreator", "deviceBrand", "deviceType", "appIdentifier"])
        #expect(ClientMetaInfo.current(appIdentifier: "com.example.shop").appIdentifier == "com.example.shop")
    }

    func run(_ path: String, _ argument: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [argument]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
