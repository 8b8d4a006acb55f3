import CSECore
import CSEGateways
@_spi(CustomTransport) import CSEHTTP
import CSEValidation
import Foundation
import Testing
import TestSupport

@testable import CSEServerAPI

/// APS CAPTURE, REFUND and VOID_AUTHORIZATION (issue #33; research notes, lifecycle §3.2 and §6.3),
/// end to end against the loopback emulator, which keeps each order's authorised, captured and
/// refunded amounts by its own rules and signs its answers with Python's hashlib.
@Suite("APS capture, refund and void: signed, classified by status and message, a lost answer settled by CHECK_STATUS")
struct APSLifecycleTests {
    static let aed = Currency(code: "AED")!

    /// An approved AUTHORIZATION (or PURCHASE) of 500.00 AED under `reference`.
    static func authorize(
        _ client: APSPaymentClient, _ reference: String, command: APSPaymentRequest.Command = .authorization
    )
        async throws -> APSTransaction
    {
        try await client.pay(try APSPaymentTests.purchase(reference, command: command)).get()
    }

    static func ledger(_ server: LoopbackEmulator, _ reference: String) async throws -> JSONValue {
        let url = try HTTPURL(server.baseURL + "/test/aps-ledger/" + reference)
        return try JSONValue.parse(try await realClient().send(HTTPRequest(method: .get, url: url)).body)
    }

    static func commands(_ server: LoopbackEmulator) throws -> [String] {
        try server.requests().filter { $0.path == "/FortAPI/paymentApi" }.map {
            let sent = try JSONValue.parse(Array($0.body))
            return sent["command"]?.stringValue ?? sent["query_command"]?.stringValue ?? "?"
        }
    }

    @Test("the requests sign as V-APS-7, V-APS-8 and V-APS-9 (the documentation's example values, phrase ReqPhrase)")
    func requestVectors() throws {
        let credentials = try APSCredentials(
            accessCode: "zx0IPmPy5jp1vAz8Kpg7", merchantIdentifier: "CycHZxVj", requestPhrase: secret("ReqPhrase"),
            responsePhrase: secret("RespPhrase"))
        let client = try APSPaymentClient(
            credentials: credentials, environment: try ServerEnvironment(origin: "http://127.0.0.1:1"), http: try realClient())
        let fortID = "149295435400084008"
        let cases: [(APSMaintenanceRequest, String)] = [
            (
                try .capture(merchantReference: "XYZ9239-yu898", amount: 10000, currency: Self.aed, fortID: fortID),
                "37daa2e377a1cbe97f8f2ca2e25b44e282d95506214f089aceeb85746487b2e1"
            ),
            (
                try .refund(
                    merchantReference: "XYZ9239-yu898", amount: 10000, currency: Self.aed, maintenanceReference: "RFND-0001", fortID: fortID
                ),
                "7fdc0c65cbd9c9db25c0e4bc48434c744cacfa955de04f4fbfbecd001b36ac1b"
            ),
            (
                try .voidAuthorization(merchantReference: "XYZ9239-yu898", fortID: fortID),
                "878a11ec509393a3446c7ea0cc0566947af068323912718ea11a9980b4a284b8"
            ),
        ]
        for (request, signature) in cases {
            #expect(try client.connection.signed(request.parameters)["signature"]?.stringValue == signature, "\(request)")
        }
    }

    @Test("the request is checked before anything is sent: reference, amount, currency, fort_id, maintenance reference, language")
    func requestChecks() {
        let bad: [(String, () throws(CSEError) -> APSMaintenanceRequest)] = [
            ("merchant_reference", { () throws(CSEError) in try .capture(merchantReference: "a b", amount: 1, currency: Self.aed) }),
            ("amount", { () throws(CSEError) in try .capture(merchantReference: "R", amount: 0, currency: Self.aed) }),
            ("amount", { () throws(CSEError) in try .refund(merchantReference: "R", amount: 10_000_000_000, currency: Self.aed) }),
            ("fort_id", { () throws(CSEError) in try .voidAuthorization(merchantReference: "R", fortID: "12a") }),
            (
                "maintenance_reference",
                { () throws(CSEError) in try .refund(merchantReference: "R", amount: 1, currency: Self.aed, maintenanceReference: "x y") }
            ),
            ("language", { () throws(CSEError) in try .voidAuthorization(merchantReference: "R", language: "fr") }),
        ]
        for (argument, make) in bad {
            #expect(throws: CSEError.self, "\(argument)") { try make() }
            do { _ = try make() } catch { #expect(error.code == .serverAPIInvalidArgument && error.context["argument"] == argument) }
        }
    }

    @Test("authorise → partial capture → full capture of the rest; then two partial refunds; CHECK_STATUS reports the amounts")
    func captureAndRefunds() async throws {
        try await withServerEmulator("aps", ServerEmulatorTests.apsArguments) { server in
            let client = try APSPaymentTests.client(server)
            let authorized = try await Self.authorize(client, "ORD-L1")
            let first = try await client.perform(
                try .capture(merchantReference: "ORD-L1", amount: 20000, currency: Self.aed, fortID: authorized.fortID)
            ).get()
            #expect(first.responseCode.description == "04000" && first.fortID == authorized.fortID)
            let rest = try await client.perform(try .capture(merchantReference: "ORD-L1", amount: 30000, currency: Self.aed)).get()
            #expect(rest.responseCode.description == "04000" && rest.parameters["amount"]?.stringValue == "30000")
            for (index, amount) in [10000, 15000].enumerated() {
                let refund = try await client.perform(
                    try .refund(merchantReference: "ORD-L1", amount: Int64(amount), currency: Self.aed, maintenanceReference: "RF-\(index)")
                ).get()
                #expect(
                    refund.responseCode.description == "06000" && refund.parameters["maintenance_reference"]?.stringValue == "RF-\(index)")
            }
            let status = try await client.checkStatus(merchantReference: "ORD-L1")
            #expect(status.authorizedAmount == 50000 && status.capturedAmount == 50000 && status.refundedAmount == 25000)
            #expect(status.responseCode.description == "06000")
            let ledger = try await Self.ledger(server, "ORD-L1")
            #expect(ledger["operations"]?.arrayValue?.map { $0["response_code"]?.stringValue } == ["04000", "04000", "06000", "06000"])
            Canary.check(first.description + JSONValue.object(status.parameters).serialized)
        }
    }

    @Test("the notification feedback of a capture (04000) verifies as succeeded, of a failed one (05042) as refused; a change fails")
    func maintenanceFeedback() async throws {
        try await withServerEmulator("aps", ServerEmulatorTests.apsArguments) { server in
            let client = try APSPaymentTests.client(server)
            _ = try await Self.authorize(client, "ORD-FB")
            _ = try await client.perform(try .capture(merchantReference: "ORD-FB", amount: 100, currency: Self.aed)).get()
            _ = try await client.perform(try .capture(merchantReference: "ORD-FB", amount: 50000, currency: Self.aed))
            for (operation, code, standing) in [(0, "04000", APSTransaction.Standing.succeeded), (1, "05042", .refused)] {
                for json in [false, true] {
                    let url = try HTTPURL(
                        server.baseURL + "/test/aps-feedback/ORD-FB?operation=\(operation)" + (json ? "&format=json" : ""))
                    let body = try await realClient().send(HTTPRequest(method: .get, url: url)).body
                    let feedback = try APSPaymentClient.verifyFeedback(body, credentials: try APSPaymentTests.credentials())
                    #expect(feedback.responseCode.description == code && feedback.standing == standing && feedback.command == "CAPTURE")
                    let changed = String(decoding: body, as: UTF8.self).replacingOccurrences(of: "ORD-FB", with: "ORD-FC")
                    let error = await thrown {
                        try APSPaymentClient.verifyFeedback(Array(changed.utf8), credentials: try APSPaymentTests.credentials())
                    }
                    #expect(error?.code == .apsFeedbackSignature)
                }
            }
        }
    }

    @Test("authorise → void; a capture after the void is server.operationNotAllowed with APS's 034 as the cause")
    func void() async throws {
        try await withServerEmulator("aps", ServerEmulatorTests.apsArguments) { server in
            let client = try APSPaymentTests.client(server)
            _ = try await Self.authorize(client, "ORD-V1")
            let voided = try await client.perform(try .voidAuthorization(merchantReference: "ORD-V1")).get()
            #expect(voided.responseCode.description == "08000" && voided.parameters["amount"] == nil)
            guard
                case .refused(let failed, let error) = try await client.perform(
                    try .capture(merchantReference: "ORD-V1", amount: 100, currency: Self.aed))
            else {
                Issue.record("a capture after a void is not refused")
                return
            }
            #expect(failed?.responseCode.description == "05034" && error.code == .serverOperationNotAllowed)
            #expect(error.underlying?.code == .apsMessage("034") && error.context["merchantReference"] == "ORD-V1")
            #expect(try Self.commands(server) == ["AUTHORIZATION", "VOID_AUTHORIZATION", "CHECK_STATUS", "CAPTURE"])
        }
    }

    @Test("each refusal has its code: over what is left, not allowed, unknown order; another currency keeps APS's own code")
    func refusals() async throws {
        try await withServerEmulator("aps", ServerEmulatorTests.apsArguments) { server in
            let client = try APSPaymentTests.client(server)
            _ = try await Self.authorize(client, "ORD-R1")
            _ = try await Self.authorize(client, "ORD-P1", command: .purchase)
            let cases: [(APSMaintenanceRequest, String, CSEError.Code)] = [
                (try .capture(merchantReference: "ORD-R1", amount: 50001, currency: Self.aed), "05042", .serverAmountExceedsRemaining),
                (try .refund(merchantReference: "ORD-R1", amount: 100, currency: Self.aed), "07034", .serverOperationNotAllowed),
                (try .capture(merchantReference: "ORD-P1", amount: 100, currency: Self.aed), "05034", .serverOperationNotAllowed),
                (try .refund(merchantReference: "ORD-P1", amount: 50001, currency: Self.aed), "07048", .serverAmountExceedsRemaining),
                (try .capture(merchantReference: "ORD-NONE", amount: 100, currency: Self.aed), "05036", .serverUnknownPayment),
                (try .voidAuthorization(merchantReference: "ORD-NONE"), "09036", .serverUnknownPayment),
                (
                    try .capture(merchantReference: "ORD-R1", amount: 100, currency: Currency(code: "USD")!), "05013",
                    .apsMessage("013")
                ),
            ]
            for (request, code, expected) in cases {
                guard case .refused(let transaction, let error) = try await client.perform(request) else {
                    Issue.record("\(request) is not refused")
                    continue
                }
                #expect(transaction?.responseCode.description == code && error.code == expected, "\(request): \(error)")
                if expected.rawValue.hasPrefix("server.") { #expect(error.context["response_code"] == code) }
            }
            // Nothing was booked by any refusal; a void after a capture is refused too.
            _ = try await client.perform(try .capture(merchantReference: "ORD-R1", amount: 100, currency: Self.aed)).get()
            guard case .refused(_, let error) = try await client.perform(try .voidAuthorization(merchantReference: "ORD-R1")) else {
                Issue.record("a void after a capture is not refused")
                return
            }
            #expect(error.code == .serverOperationNotAllowed)
            let status = try await client.checkStatus(merchantReference: "ORD-R1")
            #expect(status.capturedAmount == 100 && status.refundedAmount == 0)
        }
    }

    @Test("status 00 (nothing processed) is thrown with the shared code; a reused maintenance reference is unknown, never a refusal")
    func notProcessedAndReusedReference() async throws {
        try await withServerEmulator("aps", ServerEmulatorTests.apsArguments) { server in
            let client = try APSPaymentTests.client(server)
            _ = try await Self.authorize(client, "ORD-N1", command: .purchase)
            // Status 00 says APS processed nothing: thrown, with the shared code APS's message maps to.
            try server.enqueue(LoopbackEmulator.Fault.delay(milliseconds: 0).onPath("/FortAPI/paymentApi"))
            try server.enqueue(
                LoopbackEmulator.Fault.json(
                    200,
                    try Self.signedAnswer([
                        "command": "REFUND", "merchant_reference": "ORD-N1", "amount": "100", "currency": "AED", "response_code": "00036",
                    ])
                ).onPath("/FortAPI/paymentApi"))
            let nothing = await thrown {
                try await client.perform(try .refund(merchantReference: "ORD-N1", amount: 100, currency: Self.aed))
            }
            #expect(nothing?.code == .serverUnknownPayment && nothing?.underlying?.code == .apsMessage("036"))
            let refund = try APSMaintenanceRequest.refund(
                merchantReference: "ORD-N1", amount: 100, currency: Self.aed, maintenanceReference: "RF-A")
            _ = try await client.perform(refund).get()
            guard case .unknown(let keys, let error) = try await client.perform(refund) else {
                Issue.record("a reused maintenance reference is not unknown")
                return
            }
            #expect(keys.merchantReference == "ORD-N1" && error.code == .serverOutcomeUnknown)
            #expect(error.underlying?.code == .apsMessage("066") && error.context["maintenanceReference"] == "RF-A")
            #expect(error.context["expectedRefundedAmount"] == "200")
            let ledger = try await Self.ledger(server, "ORD-N1")
            #expect(ledger["refunded"]?.intValue == 100)
        }
    }

    /// A signed answer as the emulator's phrase signs it (for faults that replace the answer).
    static func signedAnswer(_ members: [String: String]) throws -> String {
        var object = JSONObject(members.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) })
        object["status"] = .string(String(members["response_code", default: "00000"].prefix(2)))
        object["signature"] = .string(
            try APSSignature.sign(object, phrase: Canary.responsePhrase))
        return JSONValue.object(object).serialized
    }

    @Test(
        "a lost answer after APS booked the capture or refund is settled by CHECK_STATUS, never by a resend: one capture, one refund",
        arguments: ["cut", "unreadable", "serverError"])
    func lostAnswerSettled(fault: String) async throws {
        try await withServerEmulator("aps", ServerEmulatorTests.apsArguments) { server in
            let client = try APSPaymentTests.client(server)
            _ = try await Self.authorize(client, "ORD-S1")
            let lose: LoopbackEmulator.Fault =
                switch fault {
                case "cut": .drop
                case "unreadable": .malformedBody
                default: .status(500, body: "<html>internal error</html>")
                }
            // The first request of each operation is its CHECK_STATUS; the second loses its answer.
            for request in [
                try APSMaintenanceRequest.capture(merchantReference: "ORD-S1", amount: 50000, currency: Self.aed),
                try APSMaintenanceRequest.refund(
                    merchantReference: "ORD-S1", amount: 500, currency: Self.aed, maintenanceReference: "RF-1"),
            ] {
                try server.enqueue(LoopbackEmulator.Fault.delay(milliseconds: 0).onPath("/FortAPI/paymentApi"))
                try server.enqueue(lose.afterRoute().onPath("/FortAPI/paymentApi"))
                guard case .succeeded(let order, let keys) = try await client.perform(request) else {
                    Issue.record("\(fault): \(request) is not settled")
                    continue
                }
                #expect(keys.merchantReference == "ORD-S1" && order.parameters["query_command"]?.stringValue == "CHECK_STATUS")
            }
            #expect(
                try Self.commands(server) == [
                    "AUTHORIZATION", "CHECK_STATUS", "CAPTURE", "CHECK_STATUS", "CHECK_STATUS", "REFUND", "CHECK_STATUS",
                ])
            let ledger = try await Self.ledger(server, "ORD-S1")
            #expect(ledger["captured"]?.intValue == 50000 && ledger["refunded"]?.intValue == 500)
            #expect(ledger["operations"]?.arrayValue?.count == 2)
        }
    }

    @Test("a lost answer that CHECK_STATUS does not show booked stays unknown, naming the reference and the amount to look for")
    func lostAnswerUnsettled() async throws {
        try await withServerEmulator("aps", ServerEmulatorTests.apsArguments) { server in
            let client = try APSPaymentTests.client(server)
            _ = try await Self.authorize(client, "ORD-U1")
            try server.enqueue(LoopbackEmulator.Fault.delay(milliseconds: 0).onPath("/FortAPI/paymentApi"))
            // The capture is never routed (a 502 before processing), and the settling CHECK_STATUS
            // shows nothing captured: still unknown, since a 502 does not prove it.
            try server.enqueue(LoopbackEmulator.Fault.status(502).onPath("/FortAPI/paymentApi"))
            let request = try APSMaintenanceRequest.capture(merchantReference: "ORD-U1", amount: 1000, currency: Self.aed, fortID: "1")
            guard case .unknown(let keys, let error) = try await client.perform(request) else {
                Issue.record("not unknown")
                return
            }
            #expect(keys == PaymentReconciliation(merchantReference: "ORD-U1", paymentID: "1"))
            #expect(error.code == .serverOutcomeUnknown && error.context["expectedCapturedAmount"] == "1000")
            #expect(error.underlying?.code == .serverAPIUnexpectedStatus)
            // A void whose answer is lost and whose order shows it voided is settled.
            try server.enqueue(LoopbackEmulator.Fault.drop.afterRoute().onPath("/FortAPI/paymentApi"))
            let voided = try await client.perform(try .voidAuthorization(merchantReference: "ORD-U1")).get()
            #expect(voided.responseCode.description == "08000")
        }
    }

    @Test("a signed answer naming another amount or command is server.referenceInUse; a pending 19000 is accepted as pending")
    func otherAnswer() async throws {
        try await withServerEmulator("aps", ServerEmulatorTests.apsArguments) { server in
            let client = try APSPaymentTests.client(server)
            _ = try await Self.authorize(client, "ORD-X1")
            try server.enqueue(LoopbackEmulator.Fault.delay(milliseconds: 0).onPath("/FortAPI/paymentApi"))
            try server.enqueue(
                LoopbackEmulator.Fault.json(
                    200,
                    try Self.signedAnswer([
                        "command": "CAPTURE", "merchant_reference": "ORD-X1", "amount": "999", "currency": "AED", "response_code": "04000",
                    ])
                ).onPath("/FortAPI/paymentApi"))
            let error = await thrown {
                try await client.perform(try .capture(merchantReference: "ORD-X1", amount: 1000, currency: Self.aed))
            }
            #expect(error?.code == .serverReferenceInUse && error?.context["member"] == "amount")
            // 19 (pending) is processed, the outcome later: succeeded, and the answer names the status.
            try server.enqueue(LoopbackEmulator.Fault.delay(milliseconds: 0).onPath("/FortAPI/paymentApi"))
            try server.enqueue(
                LoopbackEmulator.Fault.json(
                    200,
                    try Self.signedAnswer([
                        "command": "CAPTURE", "merchant_reference": "ORD-X1", "amount": "1000", "currency": "AED", "response_code": "19000",
                    ])
                ).onPath("/FortAPI/paymentApi"))
            let pending = try await client.perform(try .capture(merchantReference: "ORD-X1", amount: 1000, currency: Self.aed)).get()
            #expect(pending.responseCode.description == "19000" && pending.isPending)
            let other = try Self.signedAnswer(["command": "REFUND", "merchant_reference": "ORD-X1", "response_code": "08000"])
            try server.enqueue(LoopbackEmulator.Fault.json(200, other).onPath("/FortAPI/paymentApi"))
            let void = await thrown { try await client.perform(try .voidAuthorization(merchantReference: "ORD-X1")) }
            #expect(void?.code == .serverReferenceInUse && void?.context["member"] == "command")
        }
    }
}
