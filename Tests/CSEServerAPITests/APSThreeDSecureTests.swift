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

    // MARK: - The emulator's 3-D Secure flows

    /// A payer PURCHASE of 500.00 AED with a card enrolled in 3-D Secure (the emulator's `3DS` token).
    static func enrolled(
        _ reference: String, returnURL: String? = "https://merchant.example/aps/return", rememberMe: Bool = false
    )
        throws -> APSPaymentRequest
    {
        try APSPaymentRequest(
            .purchase, merchantReference: reference, amount: 50000, currency: Currency(code: "AED")!, customerEmail: "payer@example.com",
            tokenName: "Tmp3DSToken1", customerIP: "192.0.2.10", returnURL: returnURL, rememberMe: rememberMe)
    }

    /// The payer at the issuer's page: the URL the browser is sent back to, or the page's status.
    static func challenge(_ url: String, _ outcome: String) async throws -> (status: Int, location: String?) {
        let response = try await realClient().send(HTTPRequest(method: .get, url: try HTTPURL(url + "?outcome=" + outcome)))
        return (response.status, response.headers["Location"])
    }

    /// The pending outcome's transaction and redirect URL, or a recorded issue.
    static func pending(
        _ outcome: PaymentOutcome<APSTransaction>, sourceLocation: SourceLocation = #_sourceLocation
    ) -> (APSTransaction, String)? {
        guard case .pending(let transaction, let action, let keys) = outcome, case .redirect(let url, let method, let mac)? = action else {
            Issue.record("not pending with a redirect: \(outcome)", sourceLocation: sourceLocation)
            return nil
        }
        #expect(method == "GET" && mac == nil && url == transaction.threeDSURL, sourceLocation: sourceLocation)
        #expect(keys.merchantReference == transaction.merchantReference, sourceLocation: sourceLocation)
        return (transaction, url)
    }

    @Test("challenge → return → resume: pending with the 3ds_url, the signed return verifies, CHECK_STATUS settles it approved")
    func challengeSucceeds() async throws {
        try await withServerEmulator("aps", ServerEmulatorTests.apsArguments) { server in
            let client = try APSPaymentTests.client(server)
            guard let (held, url) = Self.pending(try await client.pay(try Self.enrolled("ORD-3D1", rememberMe: true))) else { return }
            #expect(held.isPending && held.responseCode.description == "20064" && url.hasPrefix(server.baseURL + "/3ds/"))
            let sent = try #require(try APSSavedCardTests.sent(server).last)
            #expect(sent["return_url"]?.stringValue == "https://merchant.example/aps/return" && sent["remember_me"]?.stringValue == "YES")
            // Abandoned so far: CHECK_STATUS reports it on hold, with where the payer finishes it.
            let before = try await client.checkStatus(merchantReference: "ORD-3D1")
            #expect(before.isPending && before.threeDSURL == url)
            let (status, location) = try await Self.challenge(url, "success")
            let back = try #require(location)
            #expect(status == 302 && back.hasPrefix("https://merchant.example/aps/return?") && back.hasSuffix("&merchant_extra="))
            let returned = try APSPaymentClient.verifyFeedback(
                Array(back.utf8), credentials: try APSPaymentTests.credentials(), merchantReference: "ORD-3D1")
            #expect(returned.isApproved && returned.fortID == held.fortID)
            let saved = try #require(returned.tokenName)
            #expect(saved.count == 32 && saved != "Tmp3DSToken1")
            // The return is display data: the order is settled by CHECK_STATUS (or the feedback).
            let settled = try await client.checkStatus(merchantReference: "ORD-3D1")
            guard
                case .succeeded(let order, _)? = APSPaymentClient.outcome(
                    of: settled, keys: PaymentReconciliation(merchantReference: "ORD-3D1"))
            else {
                Issue.record("not settled")
                return
            }
            #expect(order.responseCode.description == "14000" && order.capturedAmount == 50000)
            let feedback = try APSPaymentClient.verifyFeedback(
                try await APSPaymentTests.feedback(server, "ORD-3D1"), credentials: try APSPaymentTests.credentials())
            #expect(feedback.isApproved && feedback.tokenName == saved)
            // The challenge is over: a second visit does nothing.
            #expect(try await Self.challenge(url, "failure").status == 410)
            Canary.check(held.description + JSONValue.object(held.parameters).serialized + back)
        }
    }

    @Test("failed (030) and unavailable (074) authentication: the signed return and CHECK_STATUS both refuse; abandon stays pending")
    func refusedAndAbandoned() async throws {
        try await withServerEmulator("aps", ServerEmulatorTests.apsArguments) { server in
            let client = try APSPaymentTests.client(server)
            for (reference, outcome, code) in [("ORD-3DF", "failure", "13030"), ("ORD-3DU", "unavailable", "13074")] {
                guard let (_, url) = Self.pending(try await client.pay(try Self.enrolled(reference))) else { return }
                let back = try #require(try await Self.challenge(url, outcome).location)
                let returned = try APSPaymentClient.verifyFeedback(Array(back.utf8), credentials: try APSPaymentTests.credentials())
                #expect(returned.isDeclined && returned.responseCode.description == code && returned.standing == .refused)
                let settled = try await client.checkStatus(merchantReference: reference)
                guard case .refused(_, let error)? = APSPaymentClient.outcome(of: settled, keys: PaymentReconciliation()) else {
                    Issue.record("not refused: \(outcome)")
                    continue
                }
                #expect(error.code == .apsTransactionDeclined && error.context["response_code"] == code)
            }
            guard let (_, url) = Self.pending(try await client.pay(try Self.enrolled("ORD-3DA"))) else { return }
            #expect(try await Self.challenge(url, "abandon").status == 200)
            let held = try await client.checkStatus(merchantReference: "ORD-3DA")
            guard
                case .pending(_, .redirect(let again, "GET", nil)?, _)? = APSPaymentClient.outcome(of: held, keys: PaymentReconciliation())
            else {
                Issue.record("an abandoned challenge is not pending")
                return
            }
            #expect(again == url)
        }
    }

    @Test(
        "an enrolled card without return_url is refused before processing (037); a lost answer is unknown and CHECK_STATUS finds it on hold"
    )
    func missingReturnAndLostAnswer() async throws {
        try await withServerEmulator("aps", ServerEmulatorTests.apsArguments) { server in
            let client = try APSPaymentTests.client(server)
            let missing = await thrown { try await client.pay(try Self.enrolled("ORD-3DM", returnURL: nil)) }
            #expect(missing?.code == .apsMessage("037"))
            try server.enqueue(LoopbackEmulator.Fault.drop.afterRoute().onPath("/FortAPI/paymentApi"))
            guard case .unknown(let keys, _) = try await client.pay(try Self.enrolled("ORD-3DL")) else {
                Issue.record("not unknown")
                return
            }
            #expect(keys.merchantReference == "ORD-3DL")
            let held = try await client.checkStatus(merchantReference: "ORD-3DL")
            #expect(held.isPending && held.threeDSURL?.hasPrefix(server.baseURL + "/3ds/") == true)
        }
    }

    @Test("statuses 19 and 40 are pending without an action; 20 from the platform's own page with a redirect")
    func pendingStatuses() async throws {
        for (mode, code, hasAction) in [("pending", "19065", false), ("review", "40090", false), ("on-hold", "20064", true)] {
            try await withServerEmulator("aps", ServerEmulatorTests.apsArguments + ["--mode", mode]) { server in
                guard
                    case .pending(let transaction, let action, _) = try await APSPaymentTests.client(server).pay(
                        try APSPaymentTests.purchase())
                else {
                    Issue.record("not pending: \(mode)")
                    return
                }
                #expect(transaction.responseCode.description == code && (action != nil) == hasAction, "\(mode)")
            }
        }
    }
}
