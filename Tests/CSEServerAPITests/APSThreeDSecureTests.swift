import CSECore
import CSEGateways
@_spi(CustomTransport) import CSEHTTP
import CSEValidation
import Foundation
import Testing
import TestSupport

@testable import CSEServerAPI

/// 3-D Secure on Amazon Payment Services (issue #34 §4; research notes, lifecycle §3.1 and §6.3):
/// the return to `return_url` after a challenge verified as a response (V-APS-12: decoded values,
/// empty values left out), and the flows of the loopback emulator's issuer page.
@Suite("APS 3-D Secure: the signed return (V-APS-12) as query, form or JSON; a tampered or replayed return refused")
struct APSThreeDSecureTests {
    /// The account of the documentation's examples, with the response phrase of V-APS-12.
    static func vectorCredentials() throws -> APSCredentials {
        try APSCredentials(
            accessCode: "zx0IPmPy5jp1vAz8Kpg7", merchantIdentifier: "CycHZxVj", requestPhrase: secret("ReqPhrase"),
            responsePhrase: secret("RespPhrase"))
    }

    /// V-APS-12's parameters, in the order of the vector.
    static let vector: [(String, String)] = [
        ("access_code", "zx0IPmPy5jp1vAz8Kpg7"), ("amount", "10000"), ("authorization_code", "P1000000000000372136"),
        ("card_number", "400555******0001"), ("command", "PURCHASE"), ("currency", "AED"), ("customer_email", "payer@example.com"),
        ("eci", "ECOMMERCE"), ("expiry_date", "2105"), ("fort_id", "169996200000000001"), ("language", "en"),
        ("merchant_identifier", "CycHZxVj"), ("merchant_reference", "XYZ9239-yu898"), ("payment_option", "VISA"),
        ("response_code", "14000"), ("response_message", "Success"), ("return_url", "https://merchant.example/aps/return"),
        ("status", "14"), ("token_name", "Op9Vmp"),
    ]
    static let signature = "75a8ccf3200aac1b034f1246c21d5efa33f541604a873397ea499577693f962a"

    /// `application/x-www-form-urlencoded` of `pairs`, every reserved byte escaped.
    static func encoded(_ pairs: [(String, String)]) -> String {
        func escape(_ text: String) -> String {
            text.utf8.map { byte in
                let scalar = Unicode.Scalar(byte)
                return (scalar.properties.isAlphabetic && byte < 0x80) || (0x30...0x39).contains(byte) || "-_.*".utf8.contains(byte)
                    ? String(scalar) : (byte == 0x20 ? "+" : String(format: "%%%02X", byte))
            }.joined()
        }
        return pairs.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    @Test("V-APS-12: the return URL's query (values encoded, two empty parameters) verifies over the decoded, non-empty values")
    func vectorAsQuery() throws {
        let pairs = Self.vector + [("merchant_extra", ""), ("signature", Self.signature), ("3ds_url", "")]
        let url = "https://merchant.example/aps/return?" + Self.encoded(pairs)
        #expect(
            url.contains("return_url=https%3A%2F%2Fmerchant.example%2Faps%2Freturn") && url.contains("customer_email=payer%40example.com"))
        for (input, format) in [
            (url, APSPaymentClient.FeedbackFormat.automatic), (url + "\n", .query), ("?" + Self.encoded(pairs), .automatic),
        ] {
            let transaction = try APSPaymentClient.verifyFeedback(
                Array(input.utf8), format: format, credentials: try Self.vectorCredentials(), merchantReference: "XYZ9239-yu898")
            #expect(transaction.isApproved && transaction.tokenName == "Op9Vmp" && transaction.fortID == "169996200000000001")
            #expect(transaction.parameters["merchant_extra"] == nil && transaction.parameters["signature"] == nil)
        }
    }

    @Test("V-APS-12 posted as a form body, or as JSON with an empty member, verifies the same")
    func vectorAsFormAndJSON() throws {
        let form = Self.encoded(Self.vector + [("signature", Self.signature), ("merchant_extra", "")])
        let viaForm = try APSPaymentClient.verifyFeedback(Array(form.utf8), credentials: try Self.vectorCredentials())
        #expect(viaForm.isApproved && viaForm.tokenName == "Op9Vmp")
        let members = (Self.vector + [("signature", Self.signature), ("merchant_extra", "")]).map { ($0.0, JSONValue.string($0.1)) }
        let json = JSONValue.object(JSONObject(members)).serialized
        let viaJSON = try APSPaymentClient.verifyFeedback(Array(json.utf8), credentials: try Self.vectorCredentials())
        #expect(viaJSON.responseCode.description == "14000")
    }

    @Test("a tampered return (amount, token, encoded value signed as encoded) fails before anything is read; another order's is a replay")
    func tamperedAndReplayed() throws {
        let credentials = try Self.vectorCredentials()
        var changed = Self.vector
        changed[1] = ("amount", "1000000")
        var token = Self.vector
        token[18] = ("token_name", "AttackerToken")
        for pairs in [changed, token] {
            let url = "https://merchant.example/aps/return?" + Self.encoded(pairs + [("signature", Self.signature)])
            #expect(throws: CSEError.self) { try APSPaymentClient.verifyFeedback(Array(url.utf8), credentials: credentials) }
            do { _ = try APSPaymentClient.verifyFeedback(Array(url.utf8), credentials: credentials) } catch {
                #expect(error.code == .apsFeedbackSignature && !error.description.contains("AttackerToken"))
            }
        }
        let url = "https://merchant.example/aps/return?" + Self.encoded(Self.vector + [("signature", Self.signature)])
        do {
            _ = try APSPaymentClient.verifyFeedback(Array(url.utf8), credentials: credentials, merchantReference: "ORD-MINE")
            Issue.record("another order's return was accepted")
        } catch {
            #expect(error.code == .apsFeedbackOtherOrder && error.context["merchantReference"] == "ORD-MINE")
        }
        do {
            _ = try APSPaymentClient.verifyFeedback(
                Array("https://merchant.example/aps/return".utf8), format: .query, credentials: credentials)
            Issue.record("a URL without a query was accepted")
        } catch { #expect(error.code == .apsFeedbackMalformed) }
    }
}
