import CSECore
import CSECrypto
import Foundation
import Testing
import TestSupport

@testable import CSEWallets

@Suite(
    "Apple Pay: the token's shape, the merchant pair and the payment data are read strictly",
    .enabled(if: MintedApplePay.isAvailable, "needs /usr/bin/python3 with python3-cryptography and python3-asn1crypto"))
struct ApplePayTokenShapeTests {
    let minted: MintedApplePay

    init() throws { minted = try #require(MintedApplePay.shared, "the minter failed") }

    /// The minted EC token with `change` applied to its JSON object.
    func variant(_ change: (inout [String: Any], inout [String: Any]) -> Void) throws -> [UInt8] {
        var object = try minted.token("ec").tokenObject
        var header = try #require(object["header"] as? [String: Any])
        change(&object, &header)
        if object["header"] is [String: Any] { object["header"] = header }
        return Array(try JSONSerialization.data(withJSONObject: object))
    }

    @Test("Every malformed member is wallet.malformed, before any signature work")
    func malformedMembers() throws {
        let variants: [(String, (inout [String: Any], inout [String: Any]) -> Void)] = [
            ("transactionId not hex", { _, header in header["transactionId"] = "xyz" }),
            ("transactionId empty", { _, header in header["transactionId"] = "" }),
            ("applicationData not a string", { _, header in header["applicationData"] = 7 }),
            ("applicationData odd hex", { _, header in header["applicationData"] = "abc" }),
            ("publicKeyHash 31 bytes", { _, header in header["publicKeyHash"] = Base64.encode([UInt8](repeating: 1, count: 31)) }),
            ("data shorter than a tag", { object, _ in object["data"] = Base64.encode([UInt8](repeating: 1, count: 15)) }),
            ("data not base64", { object, _ in object["data"] = "a*b=" }),
            ("signature not CMS", { object, _ in object["signature"] = Base64.encode([UInt8](repeating: 0x30, count: 40)) }),
            ("header not an object", { object, _ in object["header"] = "h" }),
            ("version not a string", { object, _ in object["version"] = 1 }),
            ("unknown header member", { _, header in header["extra"] = "x" }),
            ("wrappedKey in an EC_v1 header", { _, header in header["wrappedKey"] = "AAAA" }),
        ]
        let decryptor = try minted.decryptor(at: minted.token("ec").signingTime)
        for (name, change) in variants {
            let token = try variant(change)
            let outcome = code { try decryptor.decrypt(token) }
            #expect(outcome == .walletMalformed, "\(name): \(String(describing: outcome))")
        }
        // A document past the 64 KiB limit.
        let large = Array(("{\"pad\":\"" + String(repeating: "a", count: 70_000) + "\"}").utf8)
        #expect(code { try decryptor.verify(large) } == .walletMalformed)
    }

    /// The plain token is read in place (``JSONPlainObject``) and every other spelling by the full
    /// JSON parser: both must give the same token, and the plain reading must refuse what the
    /// parser refuses (issue #37).
    @Test("One token in any JSON spelling decrypts alike; a plain-looking token with a duplicate or trailing data is malformed")
    func spellings() throws {
        let minted = try minted.token("ec")
        let object = minted.tokenObject
        let text = try Self.plainJSON(object)
        let spellings: [(String, [UInt8])] = [
            ("plain", Array(text.utf8)),
            ("escaped slashes", Array(try JSONSerialization.data(withJSONObject: object))),
            ("pretty-printed, sorted", Array(try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]))),
            ("a PKPaymentToken", Array(try JSONSerialization.data(withJSONObject: ["paymentData": object, "transactionIdentifier": "x"]))),
            ("Apple Pay JS", Array(("{\"token\":{\"paymentData\":" + text + "}}").utf8)),
            ("tabs after commas", Array(text.replacingOccurrences(of: ",", with: ",\t").utf8)),
        ]
        #expect(spellings[1].1 != spellings[0].1, "the token's base64 has a '/' to escape")
        // The plain reading takes the plain spellings and leaves the others to the parser.
        for (name, token) in spellings {
            let read = token.withUnsafeBytes { ApplePayToken.plain($0, accepting: [.ecV1, .rsaV1]) }
            #expect((read != nil) == (name == "plain" || name == "tabs after commas"), "\(name)")
        }
        for (name, token) in spellings {
            let payment = try self.minted.decryptor(at: minted.signingTime).decrypt(token)
            #expect(String(decoding: payment.decryptedJSON.unsafeCopyToArray(), as: UTF8.self) == minted.plaintext, "\(name)")
        }
        let malformed: [(String, String)] = [
            ("a second version member", String(text.dropLast()) + #","version":"EC_v1"}"#),
            (
                "a second transactionId",
                text.replacingOccurrences(of: #""transactionId":"#, with: #""transactionId":"00","transactionId":"#)
            ),
            ("trailing data", text + "x"),
            ("a second document", text + text),
            ("unterminated", String(text.dropLast())),
        ]
        for (name, token) in malformed {
            #expect(Array(token.utf8).withUnsafeBytes { ApplePayToken.plain($0, accepting: [.ecV1]) } == nil, "\(name)")
            #expect(code { try self.minted.decryptor(at: minted.signingTime).decrypt(Array(token.utf8)) } == .walletMalformed, "\(name)")
        }
    }

    /// `object` written without any escape or whitespace (members sorted), as Apple and the wallet
    /// SDKs write a token: its strings are base64 and hex, which need none.
    static func plainJSON(_ object: [String: Any]) throws -> String {
        try "{"
            + object.keys.sorted().map { key in
                let value = try #require(object[key])
                if let nested = value as? [String: Any] { return "\"\(key)\":" + (try plainJSON(nested)) }
                let text = try #require(value as? String)
                #expect(!text.contains("\"") && !text.contains("\\"))
                return "\"\(key)\":\"\(text)\""
            }.joined(separator: ",") + "}"
    }

    @Test("Trusted roots and merchant certificates that do not parse are wallet.malformed")
    func certificates() throws {
        #expect(code { try ApplePayTrustedRoot(pemRepresentation: "nope") } == .walletMalformed)
        let key = try #require(minted.merchants["main"]?.key)
        #expect(code { try ApplePayTrustedRoot(pemRepresentation: key) } == .walletMalformed)
        #expect(code { try X509Certificate(der: [0x30, 0x03, 0x02, 0x01, 0x01]) } == .walletMalformed)
        let root = try X509Certificate(pem: minted.root)
        #expect(code { try X509Certificate(der: root.der + [0]) } == .walletMalformed, "trailing bytes")
        // An RSA certificate with another RSA key.
        let rsa = try #require(minted.merchants["rsa"])
        let otherRSA = try RSAPrivateKey.generate(bits: 2048).pemRepresentation
        #expect(code { try ApplePayMerchantIdentity(certificatePEM: rsa.certificate, privateKeyPEM: otherRSA) } == .walletNoMatchingKey)
        #expect(try ApplePayMerchantIdentity(certificatePEM: rsa.certificate, privateKeyPEM: rsa.key).opens(.rsaV1))
    }

    @Test("The merchant identifier extension is DER: a UTF8String or IA5String of 64 hex digits, nothing else")
    func merchantIdentifierExtension() {
        let hex = Array(String(repeating: "0A", count: 32).utf8)
        #expect((try? ApplePayMerchantIdentity.merchantIdentifierHash([0x0C, 64] + hex)) == [UInt8](repeating: 0x0A, count: 32))
        #expect((try? ApplePayMerchantIdentity.merchantIdentifierHash([0x16, 64] + hex)) != nil)
        for bad in [[0x04, 64] + hex, [0x0C, 63] + hex.dropLast(), [0x0C, 64] + hex.dropLast() + [0x5A], Array(hex)] {
            #expect(code { try ApplePayMerchantIdentity.merchantIdentifierHash(bad) } == .walletMalformed)
        }
    }

    @Test("Decrypted payment data: 3DSecure and EMV members, masked descriptions, one error for a bad payload")
    func paymentData() throws {
        let emv = """
            {"applicationPrimaryAccountNumber":"6200000000000005","applicationExpirationDate":"301231","currencyCode":"156",\
            "transactionAmount":500,"cardholderName":"A B","paymentDataType":"EMV",\
            "paymentData":{"emvData":"ZW12ZGF0YQ==","encryptedPINData":"0011"}}
            """
        let data = try ApplePayPaymentData(json: SecureBytes(Array(emv.utf8)))
        #expect(data.paymentDataType == .emv && data.emvData == "ZW12ZGF0YQ==" && data.encryptedPINData == "0011")
        #expect(data.cardholderName == "A B" && data.deviceManufacturerIdentifier == nil && data.onlinePaymentCryptogram == nil)
        #expect(!"\(data)".contains("6200000000000005") && !"\(data)".contains("ZW12ZGF0YQ=="))
        for bad in ["plaintext", "{}", "[1]", "{\"applicationPrimaryAccountNumber\":1}"] {
            #expect(code { try ApplePayPaymentData(json: SecureBytes(Array(bad.utf8))) } == .walletDecryptionFailed)
        }
    }

    @Test("Signing windows: negative bounds count as zero, huge ones do not overflow")
    func windows() {
        let window = ApplePaySigningWindow(pastSeconds: -5, futureSeconds: -1)
        #expect(window.pastSeconds == 0 && window.futureSeconds == 0)
        #expect(window.contains(signingTime: 1000, now: 1000) && !window.contains(signingTime: 999, now: 1000))
        let huge = ApplePaySigningWindow(pastSeconds: .max, futureSeconds: .max)
        #expect(huge.contains(signingTime: .min, now: -1) && huge.contains(signingTime: .max, now: 1))
        #expect(huge.contains(signingTime: -Int64.max, now: 0) && !huge.contains(signingTime: .min, now: 0))
        #expect(huge.acceptanceEnd(signingTime: 1) == .max && window.acceptanceEnd(signingTime: 1) == 1)
        #expect(ApplePaySigningWindow.default.acceptanceEnd(signingTime: 1_000) == 301_000)
    }
}
