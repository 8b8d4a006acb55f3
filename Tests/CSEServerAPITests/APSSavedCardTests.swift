import CSECore
import CSEGateways
@_spi(CustomTransport) import CSEHTTP
import CSEValidation
import Foundation
import Testing
import TestSupport

@testable import CSEServerAPI

/// Saved cards on Amazon Payment Services (issue #35; research notes, lifecycle §3.3 and §6.3):
/// a first payment with `remember_me` saves the card and its verified answer names the permanent
/// `token_name`; UPDATE_TOKEN changes or deactivates it; merchant-initiated payments (`eci`
/// RECURRING) charge it under the agreement the first payment set up. Against the loopback
/// emulator, whose vault and agreements follow its own (Python) rules.
@Suite("APS saved cards: remember_me, UPDATE_TOKEN (V-APS-10), INACTIVE refused, merchant-initiated payments under an agreement")
struct APSSavedCardTests {
    static let aed = Currency(code: "AED")!

    /// A payer PURCHASE with `token` that saves the card and sets up agreement `agreement`.
    static func firstPayment(_ reference: String, token: String = "TmpSdkToken1", agreement: String? = "AG-1") throws -> APSPaymentRequest {
        try APSPaymentRequest(
            .purchase, merchantReference: reference, amount: 50000, currency: aed, customerEmail: "payer@example.com",
            tokenName: token, customerIP: "192.0.2.10", rememberMe: true,
            agreement: try agreement.map { (id: String) throws(CSEError) in try APSAgreement(id: id, mode: .variable) })
    }

    /// A merchant-initiated PURCHASE of 120.00 AED with the saved card.
    static func later(
        _ reference: String, token: String, kind: APSMerchantInitiated = .recurring, agreement: String = "AG-1"
    ) throws -> APSPaymentRequest {
        try .merchantInitiated(
            kind, merchantReference: reference, amount: 12000, currency: aed, customerEmail: "payer@example.com", tokenName: token,
            agreement: try APSAgreement(id: agreement, transactionsCount: kind == .instalment ? 3 : nil))
    }

    static func vault(_ server: LoopbackEmulator, _ token: String) async throws -> JSONValue {
        let url = try HTTPURL(server.baseURL + "/test/aps-token/" + token)
        return try JSONValue.parse(try await realClient().send(HTTPRequest(method: .get, url: url)).body)
    }

    static func sent(_ server: LoopbackEmulator) throws -> [JSONValue] {
        try server.requests().filter { $0.path == "/FortAPI/paymentApi" }.map { try JSONValue.parse(Array($0.body)) }
    }

    @Test("V-APS-10: the UPDATE_TOKEN request (token_status INACTIVE, the documentation's example values) signs as derived")
    func updateTokenVector() throws {
        let credentials = try APSCredentials(
            accessCode: "zx0IPmPy5jp1vAz8Kpg7", merchantIdentifier: "CycHZxVj", requestPhrase: secret("ReqPhrase"),
            responsePhrase: secret("RespPhrase"))
        let client = try APSPaymentClient(
            credentials: credentials, environment: try ServerEnvironment(origin: "http://127.0.0.1:1"), http: try realClient())
        let update = try APSTokenUpdate(merchantReference: "XYZ9239-yu898", tokenName: "Op9Vmp", status: .inactive)
        let signed = try client.connection.signed(update.parameters)
        #expect(signed["signature"]?.stringValue == "c6aed2b8fe6277d1d2dd72c44b71ea174f0542b7b82e0761062e006aeee0a82d")
        #expect(signed["service_command"]?.stringValue == "UPDATE_TOKEN" && signed.count == 8)
        #expect(!update.description.contains("Op9Vmp") && update.description.contains("token_status=INACTIVE"))
    }

    @Test("save the card during the first payment → pay again without the payer → update → INACTIVE → the payment is refused")
    func saveUseUpdateDeactivate() async throws {
        try await withServerEmulator("aps", ServerEmulatorTests.apsArguments) { server in
            let client = try APSPaymentTests.client(server)
            let first = try await client.pay(try Self.firstPayment("ORD-S1")).get()
            // The permanent token comes from the verified answer, not from the request's token.
            let saved = try #require(first.tokenName)
            #expect(first.isApproved && saved != "TmpSdkToken1" && saved.count == 32)
            #expect(try await Self.vault(server, saved)["token_status"]?.stringValue == "ACTIVE")

            let second = try await client.pay(try Self.later("ORD-S2", token: saved)).get()
            #expect(second.isApproved && second.responseCode.description == "14000")
            let sent = try #require(try Self.sent(server).last)
            #expect(sent["eci"]?.stringValue == "RECURRING" && sent["agreement_id"]?.stringValue == "AG-1")
            #expect(sent["recurring_mode"]?.stringValue == "VARIABLE" && sent["token_name"]?.stringValue == saved)
            #expect(sent["return_url"] == nil && sent["remember_me"] == nil && sent["command"]?.stringValue == "PURCHASE")

            let updated = try await client.updateToken(
                try APSTokenUpdate(merchantReference: "TOK-U1", tokenName: saved, expiryDate: "2812", holderName: "Amal Haddad")
            ).get()
            #expect(updated.name == saved && updated.expiryDate == "2812" && updated.holderName == "Amal Haddad")
            #expect(updated.maskedCardNumber == "400555******0001" && updated.brand == "VISA" && updated.cardBIN == "400555")
            #expect(updated.status == .active && updated.responseCode.description == "58000" && updated.creationDate != nil)
            #expect(!updated.description.contains(saved))

            let inactive = try await client.updateToken(
                try APSTokenUpdate(merchantReference: "TOK-U2", tokenName: saved, status: .inactive)
            ).get()
            #expect(inactive.status == .inactive)
            let refused = await thrown { try await client.pay(try Self.later("ORD-S3", token: saved)) }
            #expect(refused?.code == .apsTokenUnknown && refused?.underlying?.code == .apsMessage("044"))
            let payer = await thrown {
                try await client.pay(
                    try APSPaymentRequest(
                        .purchase, merchantReference: "ORD-S4", amount: 100, currency: Self.aed, customerEmail: "payer@example.com",
                        tokenName: saved))
            }
            #expect(payer?.code == .apsTokenUnknown)
            for error in [refused, payer] { #expect(!(error?.description.contains(saved) ?? true)) }
            // Reactivated, it pays again.
            _ = try await client.updateToken(try APSTokenUpdate(merchantReference: "TOK-U3", tokenName: saved, status: .active)).get()
            #expect(try await client.pay(try Self.later("ORD-S5", token: saved, kind: .unscheduled, agreement: "AG-1")).get().isApproved)
        }
    }

    @Test("UPDATE_TOKEN refusals: an unknown token (59044) and a new name in use (59114) have their own codes; a rename moves it")
    func updateRefusals() async throws {
        try await withServerEmulator("aps", ServerEmulatorTests.apsArguments) { server in
            let client = try APSPaymentTests.client(server)
            let one = try #require(try await client.pay(try Self.firstPayment("ORD-R1", agreement: nil)).get().tokenName)
            let two = try #require(try await client.pay(try Self.firstPayment("ORD-R2", agreement: nil)).get().tokenName)
            guard
                case .refused(_, let unknown) = try await client.updateToken(
                    try APSTokenUpdate(merchantReference: "T1", tokenName: "NoSuchToken"))
            else {
                Issue.record("not refused")
                return
            }
            #expect(unknown.code == .apsTokenUnknown && unknown.context["response_code"] == "59044")
            guard
                case .refused(_, let inUse) = try await client.updateToken(
                    try APSTokenUpdate(merchantReference: "T2", tokenName: one, newTokenName: two))
            else {
                Issue.record("not refused")
                return
            }
            #expect(inUse.code == .apsTokenNameInUse && !inUse.description.contains(one) && !inUse.description.contains(two))
            let renamed = try await client.updateToken(
                try APSTokenUpdate(merchantReference: "T3", tokenName: one, newTokenName: "Mine.card-1")
            )
            .get()
            #expect(renamed.name == "Mine.card-1")
            #expect(try await Self.vault(server, "Mine.card-1")["card_number"]?.stringValue == "400555******0001")
        }
    }

    @Test("a lost UPDATE_TOKEN answer is unknown with the reference; the same update again settles it")
    func lostUpdate() async throws {
        try await withServerEmulator("aps", ServerEmulatorTests.apsArguments) { server in
            let client = try APSPaymentTests.client(server)
            let token = try #require(try await client.pay(try Self.firstPayment("ORD-L1", agreement: nil)).get().tokenName)
            let update = try APSTokenUpdate(merchantReference: "TOK-L1", tokenName: token, status: .inactive)
            for fault in [LoopbackEmulator.Fault.drop, .malformedBody, .status(500)] {
                try server.enqueue(fault.afterRoute().onPath("/FortAPI/paymentApi"))
                guard case .unknown(let keys, let error) = try await client.updateToken(update) else {
                    Issue.record("not unknown: \(fault)")
                    continue
                }
                #expect(keys.merchantReference == "TOK-L1" && error.code == .serverOutcomeUnknown)
                #expect(!error.description.contains(token))
            }
            #expect(try await client.updateToken(update).get().status == .inactive)
        }
    }

    @Test("merchant-initiated payments: the emulator refuses an agreement it does not know, a FIXED plan past its count")
    func agreements() async throws {
        try await withServerEmulator("aps", ServerEmulatorTests.apsArguments) { server in
            let client = try APSPaymentTests.client(server)
            let request = try APSPaymentRequest(
                .purchase, merchantReference: "ORD-A1", amount: 50000, currency: Self.aed, customerEmail: "payer@example.com",
                tokenName: "TmpSdkToken2", rememberMe: true, agreement: try APSAgreement(id: "PLAN-3", mode: .fixed, transactionsCount: 2))
            #expect(request.setsUpAgreement && request.savesCard)
            let token = try #require(try await client.pay(request).get().tokenName)
            let unknown = await thrown { try await client.pay(try Self.later("ORD-A2", token: token, agreement: "AG-NONE")) }
            #expect(unknown?.code == .apsMessage("033"))
            for index in 0..<2 {
                #expect(
                    try await client.pay(try Self.later("ORD-A3-\(index)", token: token, kind: .instalment, agreement: "PLAN-3")).get()
                        .isApproved)
            }
            let over = await thrown { try await client.pay(try Self.later("ORD-A4", token: token, kind: .instalment, agreement: "PLAN-3")) }
            #expect(over?.code == .apsMessage("033"))
        }
    }

    @Test("the requests are checked before anything is sent: agreement terms, the mode each kind allows, instalments' count")
    func requestChecks() throws {
        func argument(_ make: () throws(CSEError) -> Any) -> String? {
            do {
                _ = try make()
                return nil
            } catch { return error.code == .serverAPIInvalidArgument ? error.context["argument"] : "other" }
        }
        let base = { (kind: APSMerchantInitiated, agreement: APSAgreement) throws(CSEError) -> APSPaymentRequest in
            try .merchantInitiated(
                kind, merchantReference: "R", amount: 1, currency: Self.aed, customerEmail: "a@b.c", tokenName: "T", agreement: agreement)
        }
        #expect(argument { () throws(CSEError) in try APSAgreement(id: "a b") } == "agreement_id")
        #expect(argument { () throws(CSEError) in try APSAgreement(id: "A", transactionsCount: 0) } == "recurring_transactions_count")
        #expect(argument { () throws(CSEError) in try APSAgreement(id: "A", expiryDate: "2027-02-29") } == "recurring_expiry_date")
        #expect(argument { () throws(CSEError) in try APSAgreement(id: "A", expiryDate: "2028-02-29") } == nil)
        #expect(
            argument { () throws(CSEError) in try APSAgreement(id: "A", mode: .unscheduled, daysBetweenPayments: 30) }
                == "recurring_days_between_payments")
        #expect(argument { () throws(CSEError) in try base(.unscheduled, try APSAgreement(id: "A", mode: .fixed)) } == "recurring_mode")
        #expect(argument { () throws(CSEError) in try base(.recurring, try APSAgreement(id: "A", mode: .unscheduled)) } == "recurring_mode")
        #expect(argument { () throws(CSEError) in try base(.instalment, try APSAgreement(id: "A")) } == "recurring_transactions_count")
        #expect(
            argument { () throws(CSEError) in try base(.instalment, try APSAgreement(id: "A", mode: .variable, transactionsCount: 2)) }
                == "recurring_mode")
        #expect(
            argument { () throws(CSEError) in try APSTokenUpdate(merchantReference: "R", tokenName: "T", expiryDate: "2813") }
                == "expiry_date")
        #expect(
            argument { () throws(CSEError) in try APSTokenUpdate(merchantReference: "R", tokenName: "T", newTokenName: "a b") }
                == "new_token_name")
        #expect(
            argument { () throws(CSEError) in
                try APSPaymentRequest(
                    .purchase, merchantReference: "R", amount: 1, currency: Self.aed, customerEmail: "a@b.c", tokenName: "T",
                    returnURL: "ftp://x")
            } == "return_url")
        let unscheduled = try base(.unscheduled, try APSAgreement(id: "A"))
        #expect(unscheduled.parameters.contains { $0.0 == "recurring_mode" && $0.1.stringValue == "UNSCHEDULED" })
        #expect(unscheduled.merchantInitiated == .unscheduled && !unscheduled.setsUpAgreement)
    }

    @Test("the journal records each saved-card and 3-D Secure payment: intent first, then succeeded, pending (redirect) or refused")
    func journaled() async throws {
        try await withServerEmulator("aps", ServerEmulatorTests.apsArguments) { server in
            let journal = MemoryJournal()
            var configuration = HTTPClientConfiguration()
            configuration.journal = journal
            configuration.deadline = .seconds(600)
            let client = try APSPaymentClient(
                credentials: try APSPaymentTests.credentials(), environment: try ServerEnvironment(origin: server.baseURL),
                configuration: configuration)
            let token = try #require(try await client.pay(try Self.firstPayment("ORD-J1")).get().tokenName)
            _ = try await client.pay(try Self.later("ORD-J2", token: token))
            _ = try await client.pay(try APSThreeDSecureTests.enrolled("ORD-J3"))
            _ = try await client.updateToken(try APSTokenUpdate(merchantReference: "TOK-J", tokenName: token, status: .inactive))
            _ = await thrown { try await client.pay(try Self.later("ORD-J4", token: token)) }
            let rows = journal.all
            #expect(rows.map(\.intent.merchantReference) == ["ORD-J1", "ORD-J2", "ORD-J3", "ORD-J4"])
            #expect(rows.map(\.intent.operation) == ["purchase", "purchase", "purchase", "purchase"])
            #expect(rows.map { $0.outcome?.state } == [.succeeded, .succeeded, .pending, .refused])
            #expect(rows[3].outcome?.code == "aps.token.unknown")
            #expect(rows[2].outcome?.action == "redirect" && rows.allSatisfy { $0.intent.amount != nil })
            for row in rows { #expect(!"\(row.intent)\(String(describing: row.outcome))".contains(token)) }
        }
    }
}
