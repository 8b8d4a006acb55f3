import CSECore
@_spi(CustomTransport) import CSEHTTP
import CSEKit
import Foundation
import TestSupport
import Testing

/// `cse session …` and `cse seal --session` against `client_api_emulator.py` on loopback.
struct CLISessionServer {
    static let sessionID = "9b1f3e5d7c2a4e6f8a0b1c2d3e4f5a6b"
    static let customerID = "cli-cust-7"
    static var available: Bool {
        TestPaths.sharedFile("client-api/PROVENANCE.md") != nil && JWCryptoOracle.isAvailable
    }
    static let reason: Comment = "needs ../shared/vectors/client-api and /usr/bin/python3 with python3-jwcrypto"

    let emulator: LoopbackEmulator
    let directory: String
    let sessionFile: String

    init(tls: TestCA.ServerCertificate? = nil) throws {
        let fixtures = try #require(TestPaths.sharedVectors).appendingPathComponent("client-api").path
        emulator = try LoopbackEmulator(
            script: "client_api_emulator.py",
            arguments: ["--fixtures", fixtures, "--session-id", Self.sessionID, "--customer-id", Self.customerID], tls: tls)
        directory = try CommandRunner.temporaryDirectory()
        sessionFile = directory + "/session.json"
        let base = tls == nil ? emulator.baseURL : emulator.localhostURL
        try sessionJSON(base: base).write(toFile: sessionFile, atomically: true, encoding: .utf8)
        CommandRunner.ownerOnly(sessionFile)
    }

    func sessionJSON(base: String) -> String {
        #"{"clientSessionId":"\#(Self.sessionID)","customerId":"\#(Self.customerID)","clientApiUrl":"\#(base)","assetUrl":"\#(base)/assets","invalidTokens":[]}"#
    }

    func run(_ arguments: [String], _ input: String = "", environment: [String: String]? = nil) throws -> CommandRunner.Result {
        let words = arguments.map { $0 == "@SESSION" ? sessionFile : $0 }
        return try CommandRunner.run(words, stdin: Array(input.utf8), environment: environment)
    }

    /// The emulator's merchant oracle: decrypts with its own key and checks the payload.
    func check(_ jwe: String, productID: Int) async throws -> JSONValue {
        let body = #"{"encryptedCustomerInput":"\#(jwe)","expectedProductId":\#(productID)}"#
        let response = try await HTTPClient().send(
            HTTPRequest(
                method: .post, url: try HTTPURL(emulator.baseURL + "/merchant/payments"), headers: ["Content-Type": "application/json"],
                body: Array(body.utf8)))
        return try JSONValue.parse(response.body)
    }

    func stop() {
        emulator.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

@Suite(
    "cse session and cse seal --session against the Client API emulator",
    .enabled(if: CLISessionServer.available, CLISessionServer.reason), .serialized)
struct CLISessionCommandTests {
    static let context = ["--country", "NL", "--currency", "EUR", "--amount", "1000"]

    @Test("publickey, products, product, networks: JSON with the platform's member names, exit 0")
    func reads() throws {
        let server = try CLISessionServer()
        defer { server.stop() }
        let key = try server.run(["session", "publickey", "--session", "@SESSION"])
        #expect(key.status == 0, "\(key.err)")
        #expect(try JSONValue.parse(key.out).objectValue?.keys == ["keyId", "publicKey"])
        let products = try server.run(["session", "products", "--session", "@SESSION"] + Self.context)
        #expect(products.status == 0, "\(products.err)")
        let list = try JSONValue.parse(products.out)["paymentProducts"]?.arrayValue ?? []
        #expect(list.count == 29)
        #expect(!list.contains { $0["id"] == .number("117") || $0["id"] == .number("302") })
        let product = try server.run(["session", "product", "1", "--session", "@SESSION", "--recurring"] + Self.context)
        #expect(product.status == 0, "\(product.err)")
        let productJSON = try JSONValue.parse(product.out)
        #expect(productJSON["id"] == .number("1"))
        #expect(productJSON["fields"]?.arrayValue?.compactMap { $0["id"]?.stringValue }.contains("cardNumber") == true)
        let networks = try server.run(["session", "networks", "1", "--session", "@SESSION"] + Self.context)
        #expect(networks.out == #"{"networks":["CB","Eurocard","VISA"]}"# + "\n")
        let logged = try server.emulator.requests()
        #expect(
            logged.map(\.path) == [
                "/client/v1/cli-cust-7/crypto/publickey", "/client/v1/cli-cust-7/products",
                "/client/v1/cli-cust-7/products/1", "/client/v1/cli-cust-7/products/1/networks",
            ])
        #expect(logged[2].query == "countryCode=NL&currencyCode=EUR&amount=1000&isRecurring=true")
    }

    @Test("iin, dcc and surcharge read the card number from standard input; it never reaches stderr or the arguments")
    func cardServices() throws {
        let server = try CLISessionServer()
        defer { server.stop() }
        let iin = try server.run(["session", "iin", "--session", "@SESSION"] + Self.context, "4111 1111 1111 1111\n")
        #expect(iin.status == 0, "\(iin.err)")
        #expect(try JSONValue.parse(iin.out)["status"] == .string("SUPPORTED"))
        let short = try server.run(["session", "iin", "--session", "@SESSION"], "4111\n")
        #expect(short.out == #"{"status":"NOT_ENOUGH_DIGITS"}"# + "\n")
        let unknown = try server.run(["session", "iin", "--session", "@SESSION"], "999999\n")
        #expect(try JSONValue.parse(unknown.out)["status"] == .string("UNKNOWN"))
        let dcc = try server.run(
            ["session", "dcc", "--session", "@SESSION", "--currency", "EUR", "--amount", "1000", "--product", "1"],
            CLIFixtures.canaryPAN)
        #expect(dcc.status == 0, "\(dcc.err)")
        #expect(try JSONValue.parse(dcc.out)["dccSessionId"] == .string("5cd02469177743fb8a0b2c78937ee25f"))
        let surcharge = try server.run(
            ["session", "surcharge", "--session", "@SESSION", "--currency", "EUR", "--amount", "1000"],
            CLIFixtures.canaryPAN)
        #expect(surcharge.status == 0, "\(surcharge.err)")
        #expect(try JSONValue.parse(surcharge.out)["surcharges"]?.arrayValue?.count == 1)
        let bad = try server.run(
            ["session", "surcharge", "--session", "@SESSION", "--currency", "EUR", "--amount", "1000"],
            CLIFixtures.canaryPAN + "x")
        #expect(bad.status == 1)
        #expect(bad.err.hasPrefix("Error: clientAPI.invalidCardNumber"))
        for result in [iin, dcc, surcharge, bad] {
            #expect(!result.err.contains(CLIFixtures.canaryPAN) && !result.err.contains(CLISessionServer.sessionID))
        }
    }

    @Test("seal --session --product 1 (and --lines): key and product fetched once; the emulator decrypts and checks each payload")
    func sealWithSession() async throws {
        let server = try CLISessionServer()
        defer { server.stop() }
        let card = #"{"cardNumber":"4111 1111 1111 1111","expiryDate":"12/2030","cvv":"123","cardholderName":"Ada Lovelace"}"#
        let one = try server.run(["seal", "--session", "@SESSION", "--product", "1", "--now", CLIFixtures.now] + Self.context, card)
        #expect(one.status == 0, "\(one.err)")
        let sealed = try JSONValue.parse(one.out)
        #expect(try await server.check(try #require(sealed["encryptedCustomerInput"]?.stringValue), productID: 1)["ok"] == .bool(true))
        try server.emulator.reset()
        let batch = try server.run(
            ["seal", "--session", "@SESSION", "--product", "1", "--lines", "--now", CLIFixtures.now] + Self.context,
            card + "\n" + card + "\n" + #"{"cardNumber":"4111 1111 1111 1112"}"# + "\n")
        let lines = CLIFixtures.lines(batch.out)
        #expect(lines.count == 3)
        #expect(batch.status == 1)  // the third line does not validate
        #expect(
            try server.emulator.requests().map(\.path) == ["/client/v1/cli-cust-7/crypto/publickey", "/client/v1/cli-cust-7/products/1"])
        for line in lines.prefix(2) {
            let jwe = try #require(try JSONValue.parse(line)["encryptedCustomerInput"]?.stringValue)
            #expect(try await server.check(jwe, productID: 1)["ok"] == .bool(true))
        }
        #expect(try JSONValue.parse(lines[2])["valid"] == .bool(false))
    }

    @Test(
        "seal --session: the session's sealer validates; an invalid request is refused with its issues, or sealed with --allow-invalid and a warning"
    )
    func sealWithSessionValidates() async throws {
        let server = try CLISessionServer()
        defer { server.stop() }
        let short = #"{"cardNumber":"4111"}"#
        let refused = try server.run(["seal", "--session", "@SESSION", "--product", "1", "--now", CLIFixtures.now] + Self.context, short)
        #expect(refused.status == 1)
        #expect(try JSONValue.parse(refused.out)["valid"] == .bool(false))
        #expect(
            refused.err.hasPrefix(
                "Error: payments.invalidRequest: the payment request does not validate; it was not sealed (fields=cardNumber,"))
        let sealed = try server.run(
            ["seal", "--session", "@SESSION", "--product", "1", "--now", CLIFixtures.now, "--allow-invalid"] + Self.context, short)
        #expect(sealed.status == 0, "\(sealed.err)")
        #expect(sealed.err.hasPrefix("warning: sealing a request that does not validate (fields=cardNumber,"))
        #expect(try JSONValue.parse(sealed.out)["encryptedCustomerInput"]?.stringValue != nil)
    }

    @Test("seal --session --product builtin:card uses the platform key and the brand's platform product id (Amex → 2)")
    func sealBuiltin() async throws {
        let server = try CLISessionServer()
        defer { server.stop() }
        let card = #"{"cardNumber":"3782 822463 10005","expiryDate":"12/35","cvv":"1234","cardholderName":"Ada Lovelace"}"#
        let result = try server.run(["seal", "--session", "@SESSION", "--product", "builtin:card", "--now", CLIFixtures.now], card)
        #expect(result.status == 0, "\(result.err)")
        let jwe = try #require(try JSONValue.parse(result.out)["encryptedCustomerInput"]?.stringValue)
        let verdict = try await server.check(jwe, productID: 2)
        #expect(verdict["ok"] == .bool(true), "\(verdict.serialized)")
    }

    @Test("errors: a platform 404 and an unsupported product exit 1 with the typed code; bad usage exits 64; env:NAME and --timeout work")
    func errors() throws {
        let server = try CLISessionServer()
        defer { server.stop() }
        let missing = try server.run(["session", "product", "999", "--session", "@SESSION"] + Self.context)
        #expect(missing.status == 1)
        #expect(missing.err.hasPrefix("Error: clientAPI.httpStatus:"))
        #expect(missing.err.contains("id=UNKNOWN_PRODUCT_ID"))
        let maestro = try server.run(["session", "product", "117", "--session", "@SESSION"] + Self.context)
        #expect(maestro.err.hasPrefix("Error: clientAPI.productUnavailable:"))
        #expect(try server.run(["session", "products", "--session", "@SESSION"]).status == 64)
        #expect(try server.run(["session", "iin", "--session", "@SESSION", "--country", "NL"], "411111").status == 64)
        #expect(try server.run(["seal", "--session", "@SESSION", "--product", "1", "--key", "k"] + Self.context).status == 64)
        #expect(try server.run(["seal", "--product", "builtin:card", "--demo", "--session-id", "s", "--country", "NL"]).status == 64)
        let env = try server.run(
            ["session", "publickey", "--session", "env:CSE_TEST_SESSION"],
            environment: ["CSE_TEST_SESSION": server.sessionJSON(base: server.emulator.baseURL)])
        #expect(env.status == 0, "\(env.err)")
        try server.emulator.enqueue(.delay(milliseconds: 3000).onPath("/client/v1/cli-cust-7/crypto/publickey").times(3))
        let slow = try server.run(["session", "publickey", "--session", "@SESSION", "--timeout", "1"])
        #expect(slow.status == 1)
        #expect(slow.err.hasPrefix("Error: http.timeout"))
        let badSession = try server.run(["session", "publickey", "--session", CLIFixtures.missingFile])
        #expect(badSession.status == 1)
        for result in [missing, maestro, slow] { #expect(!result.err.contains(CLISessionServer.sessionID)) }
    }

    @Test("--ca-file: the test CA verifies the emulator's certificate; the system store does not")
    func caFile() throws {
        let ca = try TestCA()
        defer { ca.remove() }
        let server = try CLISessionServer(tls: try ca.issueServerCertificate())
        defer { server.stop() }
        let good = try server.run(["session", "publickey", "--session", "@SESSION", "--ca-file", ca.certificatePath])
        #expect(good.status == 0, "\(good.err)")
        let bad = try server.run(["session", "publickey", "--session", "@SESSION"])
        #expect(bad.status == 1)
        #expect(bad.err.hasPrefix("Error: http.tls"))
    }
}
