import CSECore
import Foundation
import Testing
import TestSupport

/// Issue #36, "Proof": the process dies with SIGKILL at each step of a payment, a capture and a
/// refund, on each platform, against the loopback emulators: (a) after the intent is on disk and
/// before the request leaves (`CSE_TEST_KILL_AT=after-intent`), (b) while the emulator holds the
/// request it has processed (its `hold` fault: the test waits until the emulator reports the
/// request held, then kills), (c) after the answer arrived and before its outcome was recorded
/// (`CSE_TEST_KILL_AT=before-outcome`). Then `cse journal settle` settles the entry with the
/// platform's lookup, and the emulator's own record of the requests it processed is compared with
/// the journal: each processed operation is `succeeded` with its ids, none was processed twice
/// (settling sends no money-moving request), and an intent that never left is `notSent`.
@Suite("cse journal settle after SIGKILL at each step of a payment, capture and refund, per platform")
struct JournalCrashTests {
    /// Where the process dies.
    enum KillPoint: String, CaseIterable {
        case afterIntent = "after-intent"
        case held
        case beforeOutcome = "before-outcome"

        /// Whether the platform processed the request.
        var processed: Bool { self != .afterIntent }
    }

    /// One money-moving call of a platform: its command line, and how the emulator's request log
    /// and the journal name it.
    struct Operation {
        /// `cse` arguments (without the common options and `--journal`).
        let arguments: [String]
        /// Standard input.
        let input: String
        /// The path prefix of its request (the hold fault's path).
        let path: String
        /// Whether a logged request is this operation, carrying its data (so processed by the emulator).
        let isRequest: @Sendable (LoopbackEmulator.RecordedRequest) -> Bool
        /// Whether a `cse journal list` line is this operation's entry.
        let isEntry: @Sendable (JSONValue) -> Bool
        /// The platform id members its settled entry must name.
        let ids: [String]
        /// Requests the command sends on the same path before this one (APS reads the order's
        /// status before a capture or refund), which the hold lets through.
        var before = 0
    }

    /// A platform's emulator, common options and operations.
    struct Platform {
        let name: String
        let server: LoopbackEmulator
        let common: [String]
        /// Prepares and returns the operation of `kind` number `index` (an authorisation first
        /// for a capture; an authorisation and its capture for a refund).
        let operation: (_ kind: String, _ index: Int, _ journal: String) throws -> Operation
    }

    static func body(_ request: LoopbackEmulator.RecordedRequest) -> JSONValue? { try? JSONValue.parse(request.body) }

    /// Runs `cse` with the journal; a setup step must succeed.
    static func setup(_ arguments: [String], _ common: [String], journal: String, input: String = "") throws -> JSONValue {
        let result = try CommandRunner.run(arguments + common + ["--journal", journal], input: input)
        try #require(result.status == 0, "\(arguments): \(result.err)")
        return try JSONValue.parse(Array(result.stdout))
    }

    static func worldline() throws -> Platform {
        let server = try ServerCommandTests.emulator("worldline", ["--secret-api-key", ServerCommandTests.worldlineSecret])
        let common = ["--credentials", try ServerCommandTests.worldlineCredentials(), "--endpoint", server.baseURL]
        let card = #"{"encryptedCustomerInput":"a.b.c.d.e"}"#
        func pay(_ reference: String) -> [String] {
            ["worldline", "create-payment", "--amount", "2345", "--currency", "EUR", "--reference", reference, "--skip-authentication"]
        }
        return Platform(name: "worldline", server: server, common: common) { kind, index, journal in
            let reference = "wl-\(kind)-\(index)"
            switch kind {
            case "payment":
                return Operation(
                    arguments: pay(reference), input: card, path: "/v2/1234/payments",
                    isRequest: {
                        $0.method == "POST" && $0.path == "/v2/1234/payments" && body($0)?["encryptedCustomerInput"] != nil
                            && String(decoding: $0.body, as: UTF8.self).contains(reference)
                    },
                    isEntry: { $0["merchantReference"]?.stringValue == reference }, ids: ["paymentId"])
            default:
                let id = try #require(try setup(pay("auth-" + reference), common, journal: journal, input: card)["id"]?.stringValue)
                if kind == "refund" {
                    _ = try setup(["worldline", "capture", id, "--reference", "cap-" + reference], common, journal: journal)
                }
                let action = kind == "refund" ? "refund" : "capture"
                let arguments =
                    kind == "refund"
                    ? ["worldline", "refund", id, "--amount", "2345", "--currency", "EUR", "--reference", reference]
                    : ["worldline", "capture", id, "--reference", reference]
                let path = "/v2/1234/payments/\(id)/\(action)"
                return Operation(
                    arguments: arguments, input: "", path: path,
                    isRequest: { $0.method == "POST" && $0.path == path && String(decoding: $0.body, as: UTF8.self).contains(reference) },
                    isEntry: { $0["merchantReference"]?.stringValue == reference }, ids: ["paymentId", "operationId"])
            }
        }
    }

    static func aps() throws -> Platform {
        let server = try ServerCommandTests.emulator(
            "aps", ["--request-phrase", ServerCommandTests.requestPhrase, "--response-phrase", ServerCommandTests.responsePhrase])
        let common = ["--credentials", try ServerCommandTests.apsCredentials(), "--endpoint", server.baseURL]
        func pay(_ command: String, _ reference: String) -> [String] {
            [
                "aps", command, "--token-name", "Op9Vmp", "--merchant-reference", reference, "--amount", "50000", "--currency", "AED",
                "--customer-email", "payer@example.com",
            ]
        }
        func request(_ command: String, _ reference: String) -> @Sendable (LoopbackEmulator.RecordedRequest) -> Bool {
            { body($0)?["command"]?.stringValue == command && body($0)?["merchant_reference"]?.stringValue == reference }
        }
        return Platform(name: "aps", server: server, common: common) { kind, index, journal in
            let reference = "APS-\(kind)-\(index)"
            switch kind {
            case "payment":
                return Operation(
                    arguments: pay("purchase", reference), input: "", path: "/FortAPI/paymentApi",
                    isRequest: request("PURCHASE", reference),
                    isEntry: { $0["merchantReference"]?.stringValue == reference && $0["operation"]?.stringValue == "purchase" },
                    ids: ["fortId"])
            case "capture":
                // With --fort-id, cse sends the CAPTURE alone (without it, a CHECK_STATUS finds the id first).
                let fortID = try #require(try setup(pay("authorize", reference), common, journal: journal)["fort_id"]?.stringValue)
                return Operation(
                    arguments: [
                        "aps", "capture", "--merchant-reference", reference, "--amount", "20000", "--currency", "AED", "--fort-id", fortID,
                    ], input: "",
                    path: "/FortAPI/paymentApi", isRequest: request("CAPTURE", reference),
                    isEntry: { $0["merchantReference"]?.stringValue == reference && $0["operation"]?.stringValue == "capture" },
                    ids: ["fortId"], before: 1)
            default:
                let fortID = try #require(try setup(pay("authorize", reference), common, journal: journal)["fort_id"]?.stringValue)
                _ = try setup(
                    ["aps", "capture", "--merchant-reference", reference, "--amount", "50000", "--currency", "AED", "--fort-id", fortID],
                    common,
                    journal: journal)
                return Operation(
                    arguments: [
                        "aps", "refund", "--merchant-reference", reference, "--amount", "10000", "--currency", "AED",
                        "--maintenance-reference", "RF-\(index)", "--fort-id", fortID,
                    ], input: "", path: "/FortAPI/paymentApi", isRequest: request("REFUND", reference),
                    isEntry: { $0["merchantReference"]?.stringValue == reference && $0["operation"]?.stringValue == "refund" },
                    ids: ["fortId"], before: 1)
            }
        }
    }

    static func mastercard() throws -> Platform {
        let server = try ServerCommandTests.emulator(
            "mastercard", ["--merchant-id", "TEST_12345", "--api-password", ServerCommandTests.mastercardPassword])
        let (common, _) = try ServerCommandTests.mastercardFilledSession(server)
        func transaction(_ order: String, _ id: String) -> Operation {
            let path = "/api/rest/version/"
            return Operation(
                arguments: [], input: "", path: path,
                isRequest: { $0.method == "PUT" && $0.path.hasSuffix("/order/\(order)/transaction/\(id)") },
                isEntry: { $0["platformIds"]?["orderId"]?.stringValue == order && $0["platformIds"]?["transactionId"]?.stringValue == id },
                ids: ["orderId", "transactionId"])
        }
        return Platform(name: "mastercard", server: server, common: common) { kind, index, journal in
            let order = "mc-\(kind)-\(index)"
            let (_, session) = try ServerCommandTests.mastercardFilledSession(server)
            let pay = [
                "mastercard", kind == "payment" ? "pay" : (kind == "refund" ? "pay" : "authorize"), "--order", order, "--transaction",
                "t-1", "--amount", "2345", "--currency", "EUR", "--session", session,
            ]
            let made = transaction(order, kind == "payment" ? "t-1" : "t-2")
            if kind == "payment" {
                return Operation(
                    arguments: pay, input: "", path: made.path, isRequest: made.isRequest, isEntry: made.isEntry, ids: made.ids)
            }
            _ = try setup(pay, common, journal: journal)
            return Operation(
                arguments: ["mastercard", kind, "--order", order, "--transaction", "t-2", "--amount", "2345", "--currency", "EUR"],
                input: "", path: made.path, isRequest: made.isRequest, isEntry: made.isEntry, ids: made.ids)
        }
    }

    static func paysafe() throws -> Platform {
        let (server, common) = try ServerCommandTests.paysafeEmulator()
        func pay(_ reference: String, authorizeOnly: Bool) -> [String] {
            ["paysafe", "pay", "--amount", "1000", "--currency", "EUR", "--merchant-ref", reference, "--payment-handle", "SCp7iW4xTkmN3Bq"]
                + (authorizeOnly ? ["--authorize-only"] : [])
        }
        func request(_ path: String, _ reference: String) -> @Sendable (LoopbackEmulator.RecordedRequest) -> Bool {
            { $0.method == "POST" && $0.path == path && body($0)?["merchantRefNum"]?.stringValue == reference }
        }
        return Platform(name: "paysafe", server: server, common: common) { kind, index, journal in
            let reference = "ps-\(kind)-\(index)"
            let isEntry: @Sendable (JSONValue) -> Bool = { $0["merchantReference"]?.stringValue == reference }
            switch kind {
            case "payment":
                let path = "/paymenthub/v1/payments"
                return Operation(
                    arguments: pay(reference, authorizeOnly: false), input: "", path: path, isRequest: request(path, reference),
                    isEntry: isEntry, ids: ["paymentId"])
            case "capture":
                let id = try #require(try setup(pay("a-" + reference, authorizeOnly: true), common, journal: journal)["id"]?.stringValue)
                let path = "/paymenthub/v1/payments/\(id)/settlements"
                return Operation(
                    arguments: ["paysafe", "settle", id, "--amount", "1000", "--merchant-ref", reference], input: "", path: path,
                    isRequest: request(path, reference), isEntry: isEntry, ids: ["id"])
            default:
                let id = try #require(try setup(pay("a-" + reference, authorizeOnly: true), common, journal: journal)["id"]?.stringValue)
                let settlement = try #require(
                    try setup(["paysafe", "settle", id, "--amount", "1000", "--merchant-ref", "s-" + reference], common, journal: journal)[
                        "id"]?.stringValue)
                let path = "/paymenthub/v1/settlements/\(settlement)/refunds"
                return Operation(
                    arguments: ["paysafe", "refund", settlement, "--amount", "1000", "--merchant-ref", reference], input: "", path: path,
                    isRequest: request(path, reference), isEntry: isEntry, ids: ["id"])
            }
        }
    }

    /// Runs `cse` and ends it with SIGKILL while the emulator holds its processed request.
    static func killWhileHeld(_ arguments: [String], input: String, server: LoopbackEmulator) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandRunner.executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = CommandRunner.stateDirectory
        process.environment = environment
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
        defer { try? server.release() }
        try server.awaitHeld()
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
    }

    /// The journal's entries, through `cse journal list`.
    static func entries(_ journal: String) throws -> [JSONValue] {
        let listed = try CommandRunner.run(["journal", "list", "--journal", journal])
        try #require(listed.status == 0, "\(listed.err)")
        return try listed.out.split(separator: "\n").map { try JSONValue.parse(Array($0.utf8)) }
    }

    @Test(
        "SIGKILL after the intent, while the platform holds the processed request, and before the outcome: settle matches the ledger",
        arguments: ["worldline", "aps", "mastercard", "paysafe"])
    func crashAndSettle(_ name: String) throws {
        let platform: Platform
        switch name {
        case "worldline": platform = try Self.worldline()
        case "aps": platform = try Self.aps()
        case "mastercard": platform = try Self.mastercard()
        default: platform = try Self.paysafe()
        }
        defer { platform.server.stop() }
        var index = 0
        for kind in ["payment", "capture", "refund"] {
            for point in KillPoint.allCases {
                index += 1
                let directory = try CommandRunner.temporaryDirectory()
                chmod(directory, 0o700)
                let journal = directory + "/journal.sqlite"
                let operation = try platform.operation(kind, index, journal)
                let arguments = operation.arguments + platform.common + ["--journal", journal]
                switch point {
                case .held:
                    for _ in 0..<operation.before {
                        try platform.server.enqueue(LoopbackEmulator.Fault.delay(milliseconds: 0).onPath(operation.path))
                    }
                    try platform.server.enqueue(LoopbackEmulator.Fault.hold.onPath(operation.path))
                    try Self.killWhileHeld(arguments, input: operation.input, server: platform.server)
                case .afterIntent, .beforeOutcome:
                    var environment = ProcessInfo.processInfo.environment
                    environment["CSE_TEST_KILL_AT"] = point.rawValue
                    let killed = try CommandRunner.run(arguments, stdin: Array(operation.input.utf8), environment: environment)
                    #expect(killed.status == SIGKILL, "\(name) \(kind) \(point): \(killed.err)")
                }
                let context = "\(name) \(kind) \(point)"
                let before = try Self.entries(journal).filter(operation.isEntry)
                #expect(before.count == 1 && before.first?["state"]?.stringValue == "open", "\(context): \(before)")

                let settled = try CommandRunner.run(
                    ["journal", "settle", "--journal", journal, "--platform", name] + platform.common)
                ServerCommandTests.checkCanaries(settled)
                #expect(settled.status == 0, "\(context): \(settled.err) \(settled.out)")

                let processed = try platform.server.requests().filter(operation.isRequest).count
                #expect(processed == (point.processed ? 1 : 0), "\(context): the platform processed it \(processed) times")
                let after = try Self.entries(journal)
                let entry = after.filter(operation.isEntry)
                #expect(entry.count == 1, "\(context): \(after)")
                #expect(
                    after.allSatisfy { !["open", "pending", "unknown"].contains($0["state"]?.stringValue ?? "") }, "\(context): \(after)")
                if point.processed {
                    #expect(entry.first?["state"]?.stringValue == "succeeded", "\(context): \(entry)")
                    for id in operation.ids {
                        #expect(entry.first?["platformIds"]?[id]?.stringValue?.isEmpty == false, "\(context): no \(id) in \(entry)")
                    }
                } else {
                    #expect(entry.first?["state"]?.stringValue == "notSent", "\(context): \(entry)")
                }
            }
        }
    }
}
