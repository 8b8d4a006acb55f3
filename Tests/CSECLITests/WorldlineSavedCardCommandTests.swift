import CSECore
@_spi(CustomTransport) import CSEHTTP
import Testing
import TestSupport

/// Issue #35, Worldline, through `cse`: `create-payment --tokenize|--token|--merchant-initiated`
/// and `cse worldline token create|get|delete` against the loopback emulator's token vault; exit
/// 0 done, 1 refused with a stable code, 75 unknown with what settles it, 64 usage (nothing sent);
/// no card number, CVV, token or secret on stderr.
@Suite("cse worldline saved cards: tokenize, token create/get/delete, pay with a token, merchant-initiated series")
struct WorldlineSavedCardCommandTests {
    /// A running emulator and the common options.
    struct Fixture {
        let server: LoopbackEmulator
        let common: [String]

        init() throws {
            server = try ServerCommandTests.emulator("worldline", ["--secret-api-key", ServerCommandTests.worldlineSecret])
            common = ["--credentials", try ServerCommandTests.worldlineCredentials(), "--endpoint", server.baseURL]
        }

        /// Runs `cse worldline <arguments>` with the common options and `input`; checks the canaries
        /// and that no token in `tokens` reaches stderr.
        func run(_ arguments: [String], input: String = "", tokens: [String] = []) throws -> CommandRunner.Result {
            let result = try CommandRunner.run(["worldline"] + arguments + common, input: input)
            ServerCommandTests.checkCanaries(result)
            for token in tokens { #expect(!result.err.contains(token), "a token reached stderr") }
            return result
        }

        /// The emulator's vault counts.
        func vault() async throws -> JSONValue {
            let answer = try await HTTPClient().send(
                HTTPRequest(method: .get, url: try HTTPURL(server.baseURL + "/test/worldline-tokens")))
            return try JSONValue.parse(answer.body)
        }
    }

    /// The output of `cse seal` for `card` at the emulator (see ``WorldlineSavedCardTests``'s JWE).
    static func sealed(_ card: String) -> String {
        let json = #"{"cardNumber":"\#(card)","expiryDate":"1230"}"#
        let jwe =
            "eyJhbGciOiJSU0EtT0FFUC0yNTYiLCJlbmMiOiJBMjU2R0NNIn0.a2V5.aXY."
            + Base64.encode(Array(json.utf8), alphabet: .url, padding: false) + ".dGFn"
        return #"{"encryptedCustomerInput":"\#(jwe)"}"#
    }

    static func json(_ result: CommandRunner.Result) throws -> JSONValue { try JSONValue.parse(Array(result.stdout)) }

    static let pay = ["create-payment", "--amount", "1000", "--currency", "EUR"]

    @Test("first payment saves the card → second payment uses it → token get → delete → a payment with it exits 1")
    func saveUseDelete() async throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        let first = try fixture.run(
            Self.pay + ["--tokenize", "--skip-authentication", "--reference", "o-1"], input: Self.sealed("4012888888881881"))
        #expect(first.status == 0, "\(first.err)")
        let creation = try Self.json(first)["creationOutput"]
        #expect(creation?["tokenizationSucceeded"] == .bool(true) && creation?["isNewToken"] == .bool(true))
        let token = try #require(creation?["token"]?.stringValue)

        let second = try fixture.run(
            Self.pay + ["--token", token, "--return-url", "https://shop.example/3ds"], input: "", tokens: [token])
        #expect(second.status == 0, "\(second.err)")
        #expect(try Self.json(second)["cardNumber"]?.stringValue == "401288******1881")

        let read = try fixture.run(["token", "get", token], tokens: [token])
        #expect(read.status == 0, "\(read.err)")
        let saved = try Self.json(read)
        #expect(saved["token"]?.stringValue == token && saved["cardNumber"]?.stringValue == "401288******1881")
        #expect(saved["brand"]?.stringValue == "visa" && saved["expiryDate"]?.stringValue == "1230")

        let delete = try fixture.run(["token", "delete", token], tokens: [token])
        #expect(delete.status == 0, "\(delete.err)")
        #expect(try Self.json(delete)["deleted"] == .bool(true))
        let refused = try fixture.run(Self.pay + ["--token", token, "--skip-authentication"], tokens: [token])
        #expect(refused.status == 1 && refused.err.hasPrefix("Error: server.unknownPayment"), "\(refused.err)")
        let gone = try fixture.run(["token", "get", token], tokens: [token])
        #expect(gone.status == 1 && gone.err.hasPrefix("Error: server.unknownPayment"), "\(gone.err)")
        #expect(try await fixture.vault()["deleted"] == .number("1"))
    }

    @Test("token create: new (isNewToken true), the same card again (exit 0, the existing token, the output says so)")
    func tokenCreateNewAndExisting() throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        let created = try fixture.run(["token", "create"], input: Self.sealed("5555555555554444"))
        #expect(created.status == 0, "\(created.err)")
        let first = try Self.json(created)
        let token = try #require(first["token"]?.stringValue)
        #expect(first["isNewToken"] == .bool(true) && first["cardNumber"]?.stringValue == "555555******4444" && first["note"] == nil)
        let again = try fixture.run(["token", "create"], input: Self.sealed("5555555555554444"), tokens: [token])
        #expect(again.status == 0, "\(again.err)")
        let second = try Self.json(again)
        #expect(second["token"]?.stringValue == token && second["isNewToken"] == .bool(false))
        #expect(second["note"]?.stringValue?.contains("already saved") == true)
    }

    @Test("token create reads sealed card data only: plain card JSON or text is refused before anything is sent, not echoed")
    func tokenCreatePlainCard() throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        for input in [#"{"cardNumber":"4012888888881881","expiryDate":"1230","cvv":"123"}"#, "4012888888881881"] {
            let result = try fixture.run(["token", "create"], input: input)
            #expect(result.status == 1 && result.err.hasPrefix("Error: serverAPI.invalidArgument"), "\(result.err)")
            #expect(!result.err.contains("4012888888881881") && !result.err.contains("123\""))
        }
        #expect(try fixture.server.requests().isEmpty)
    }

    @Test("token create: a card the vault refuses exits 1 (worldline.apiError), without the card number")
    func tokenCreateRefused() throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        let result = try fixture.run(["token", "create"], input: Self.sealed("4111111111111112"))
        #expect(result.status == 1 && result.err.hasPrefix("Error: worldline.apiError"), "\(result.err)")
        #expect(!result.err.contains("4111111111111112") && result.stdout.isEmpty)
    }

    @Test("token create whose answer is lost: 75 naming how to settle; running it again settles it with the same token")
    func tokenCreateLost() async throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        try fixture.server.enqueue(.drop.afterRoute().onPath("/v2/1234/tokens"))
        let lost = try fixture.run(["token", "create"], input: Self.sealed("4012888888881881"))
        #expect(lost.status == 75 && lost.err.contains("server.outcomeUnknown"), "\(lost.err)")
        #expect(lost.err.contains("same sealed card") && lost.stdout.isEmpty)
        let settled = try fixture.run(["token", "create"], input: Self.sealed("4012888888881881"))
        #expect(settled.status == 0, "\(settled.err)")
        #expect(try Self.json(settled)["isNewToken"] == .bool(false))
        #expect(try await fixture.vault()["tokens"] == .number("1"))
    }

    @Test("merchant-initiated: the first payment (--tokenize) says it set up the series; later ones with --token need no return URL")
    func merchantInitiated() throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        let first = try fixture.run(
            Self.pay + ["--tokenize", "--merchant-initiated", "recurring", "--skip-authentication"], input: Self.sealed("4012888888881881"))
        #expect(first.status == 0, "\(first.err)")
        let output = try Self.json(first)
        #expect(output["cardOnFile"]?["type"] == .string("recurring") && output["cardOnFile"]?["sequence"] == .string("first"))
        let token = try #require(output["creationOutput"]?["token"]?.stringValue)
        for kind in ["recurring", "unscheduled", "instalment"] {
            let later = try fixture.run(
                Self.pay + ["--token", token, "--merchant-initiated", kind, "--initial-transaction", "sch-1"], tokens: [token])
            #expect(later.status == 0, "\(later.err)")
            let json = try Self.json(later)
            #expect(json["cardOnFile"]?["sequence"] == .string("subsequent") && json["cardOnFile"]?["type"] == .string(kind))
        }
    }

    @Test(
        "usage errors exit 64 and send nothing",
        arguments: [
            [],  // a card payment the payer makes needs --return-url or --skip-authentication
            ["--tokenize", "--token", "t-1", "--skip-authentication"],
            ["--merchant-initiated", "recurring", "--skip-authentication"],
            ["--merchant-initiated", "recurring", "--token", "t-1", "--return-url", "https://shop.example/r"],
            ["--merchant-initiated", "unscheduled", "--token", "t-1", "--challenge-indicator", "challenge-required"],
            ["--initial-transaction", "x", "--token", "t-1", "--skip-authentication"],
            ["--return-url", "https://shop.example/r", "--challenge-indicator", "always"],
            ["--return-url", "https://shop.example/r", "--exemption-request", "high-value"],
            ["--return-url", "https://shop.example/r", "--device-channel", "desktop"],
            ["--skip-authentication", "--challenge-indicator", "challenge-required"],
            ["--wallet", "apple-pay", "--decrypted", "--return-url", "https://shop.example/r"],
            ["--wallet", "google-pay", "--decrypted", "--return-url", "https://shop.example/r", "--token", "t-1"],
            ["--token", "t-1", "--merchant-initiated", "recurring", "--agreement", "AGR-1"],  // Worldline has no agreement id
        ])
    func usage(arguments: [String]) throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        let result = try fixture.run(Self.pay + arguments, input: Self.sealed("4012888888881881"))
        #expect(result.status == 64, "\(arguments): \(result.err)")
        #expect(try fixture.server.requests().isEmpty)
    }

    @Test("canary: a platform error that echoes the card number and the token never puts them on stderr")
    func canary() throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        let token = "7e1a9999-0c5b-4d2e-9f3a-canarytoken1"
        let echo =
            #"{"errorId":"e","errors":[{"id":"INVALID_VALUE","errorCode":"21000130","message":"token "#
            + token + #" card 4012 8888 8888 1881 cvv 123 refused"}]}"#
        for arguments in [["token", "get", token], ["token", "delete", token], Self.pay + ["--token", token, "--skip-authentication"]] {
            try fixture.server.enqueue(.json(400, echo))
            let result = try fixture.run(arguments, tokens: [token])
            #expect(result.status == 1 && result.err.hasPrefix("Error: worldline.apiError"), "\(result.err)")
            #expect(!result.err.contains("4012 8888 8888 1881") && !result.err.contains("4012888888881881"))
        }
        // CreateToken knows no token yet: only the card number is checked there.
        try fixture.server.enqueue(.json(400, echo))
        let created = try fixture.run(["token", "create"], input: Self.sealed("4012888888881881"))
        #expect(created.status == 1 && !created.err.contains("4012 8888 8888 1881"), "\(created.err)")
    }

    @Test("token get|delete: a token a path cannot carry is refused before anything is sent")
    func badTokenID() throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        for command in ["get", "delete"] {
            let result = try fixture.run(["token", command, "../payments"])
            #expect(result.status == 1 && result.err.hasPrefix("Error: serverAPI.invalidArgument"), "\(result.err)")
        }
        #expect(try fixture.server.requests().isEmpty)
    }
}
