import CSECore
import CSEKit
import Foundation
import Testing
import TestSupport

@testable import CSECLI

/// `cse wallet decrypt` and `cse wallet verify` on the public Apple Pay vectors
/// (`../shared/vectors/wallets`, see its PROVENANCE.md).
@Suite(
    "cse wallet decrypt and verify on the Apple Pay vectors",
    .enabled(if: TestPaths.sharedVectors != nil, "needs ../shared/vectors/wallets"))
struct CLIWalletCommandTests {
    static func path(_ name: String) -> String {
        (TestPaths.sharedVectors?.appendingPathComponent("wallets/" + name).path) ?? name
    }
    static func file(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path(name)))) }
    static let gala = [
        "--merchant-cert", path("gala/certificate.pem"), "--merchant-key", CommandRunner.ownerOnlyCopy(of: path("gala/private_key.pem")),
    ]
    static let rsa = [
        "--merchant-cert", path("apple-pay-js/rsa/apple_pay.pem"), "--merchant-key",
        CommandRunner.ownerOnlyCopy(of: path("apple-pay-js/rsa/private.key")),
    ]

    @Test("decrypt prints the identifying members and the whole decrypted object, member for member")
    func decrypt() throws {
        let result = try CommandRunner.run(
            ["wallet", "decrypt"] + Self.gala + ["--now", "2021-09-01T19:03:06Z"], stdin: Self.file("gala/token.json"))
        #expect(result.status == 0, "\(result.err)")
        let plaintext = String(decoding: try Self.file("gala/token.plaintext.json"), as: UTF8.self)
        #expect(
            result.out
                == "{\"wallet\":\"apple-pay\",\"version\":\"EC_v1\",\"transactionId\":"
                + "\"f7f133694685bab2f44ae3a7b54e2c0d0d39a3bc73fa2e6b14a2baf628d6ce87\",\"signingTime\":\"2021-09-01T19:03:06Z\","
                + "\"paymentData\":\(plaintext)}\n")
    }

    /// Issue #26, the wallet flow: token → `cse wallet decrypt` → `cse worldline create-payment
    /// --wallet apple-pay --decrypted`, against the Worldline emulator, which checks the
    /// signature, product 302 and the five decryptedPaymentData members with its own code.
    @Test("token → wallet decrypt → worldline create-payment --decrypted: product 302 with the DPAN as MMYY data; DPAN masked")
    func decryptThenPay() throws {
        let decrypted = try CommandRunner.run(
            ["wallet", "decrypt"] + Self.gala + ["--now", "2021-09-01T19:03:06Z"], stdin: Self.file("gala/token.json"))
        #expect(decrypted.status == 0, "\(decrypted.err)")
        let server = try ServerCommandTests.emulator("worldline", ["--secret-api-key", ServerCommandTests.worldlineSecret])
        defer { server.stop() }
        let pay = [
            "worldline", "create-payment", "--wallet", "apple-pay", "--decrypted", "--amount", "100", "--currency", "USD",
            "--reference", "order-w", "--credentials", try ServerCommandTests.worldlineCredentials(), "--endpoint", server.baseURL,
        ]
        let paid = try CommandRunner.run(pay, stdin: decrypted.stdout)
        #expect(paid.status == 0, "\(paid.err)")
        let sent = try JSONValue.parse(Array(try #require(server.requests().last).body))
        let data = sent["mobilePaymentMethodSpecificInput"]?["decryptedPaymentData"]
        #expect(sent["mobilePaymentMethodSpecificInput"]?["paymentProductId"]?.intValue == 302)
        let dpan = try #require(data?["dpan"]?.stringValue)
        #expect(data?["expiryDate"]?.stringValue?.count == 4 && data?["cryptogram"]?.stringValue != nil)
        #expect(!paid.out.contains(dpan) && !paid.err.contains(dpan) && paid.out.contains(String(dpan.suffix(4))))
        let cryptogram = try #require(data?["cryptogram"]?.stringValue)
        #expect(!paid.out.contains(cryptogram) && !paid.err.contains(cryptogram))
        let wrongWallet = try CommandRunner.run(
            ["worldline", "create-payment", "--wallet", "google-pay", "--decrypted", "--return-url", "https://shop.example/3ds"]
                + Array(pay[5...]), stdin: decrypted.stdout)
        #expect(wrongWallet.status == 1 && wrongWallet.err.contains("wallet.invalidCard") && !wrongWallet.err.contains(dpan))
        #expect(!wrongWallet.err.contains(cryptogram))
        let usage = try CommandRunner.run(Array(pay.prefix(4)) + Array(pay[5...]), stdin: decrypted.stdout)
        #expect(usage.status == 64 && usage.err.contains("--wallet needs --decrypted or --session."))
    }

    @Test(
        "token → wallet decrypt → mastercard pay --wallet apple-pay --decrypted: the DPAN as device data; nothing of it on stdout or stderr"
    )
    func decryptThenPayMastercard() throws {
        let decrypted = try CommandRunner.run(
            ["wallet", "decrypt"] + Self.gala + ["--now", "2021-09-01T19:03:06Z"], stdin: Self.file("gala/token.json"))
        let server = try ServerCommandTests.emulator(
            "mastercard", ["--merchant-id", "TEST_12345", "--api-password", ServerCommandTests.mastercardPassword])
        defer { server.stop() }
        let credentials = try ServerCommandTests.file(
            #"{"merchantId":"TEST_12345","apiPassword":"\#(ServerCommandTests.mastercardPassword)"}"#)
        let paid = try CommandRunner.run(
            [
                "mastercard", "pay", "--wallet", "apple-pay", "--decrypted", "--order", "o-w", "--transaction", "t1", "--amount", "100",
                "--currency", "USD", "--credentials", credentials, "--endpoint", server.baseURL,
            ], stdin: decrypted.stdout)
        #expect(paid.status == 0, "\(paid.err)")
        let sent = try JSONValue.parse(Array(try #require(server.requests().last).body))
        let dpan = try #require(sent["sourceOfFunds"]?["provided"]?["card"]?["number"]?.stringValue)
        #expect(sent["order"]?["walletProvider"]?.stringValue == "APPLE_PAY")
        #expect(!paid.out.contains(dpan) && !paid.err.contains(dpan))
        let cryptogram = try #require(
            sent["sourceOfFunds"]?["provided"]?["card"]?["devicePayment"]?["onlinePaymentCryptogram"]?.stringValue)
        #expect(!paid.out.contains(cryptogram) && !paid.err.contains(cryptogram), "\(paid.out)")
        let usage = try CommandRunner.run(
            [
                "mastercard", "pay", "--decrypted", "--session", "S1", "--order", "o", "--transaction", "t", "--amount", "1", "--currency",
                "USD",
                "--credentials", credentials,
            ], stdin: decrypted.stdout)
        #expect(usage.status == 64 && usage.err.contains("--decrypted needs --wallet."))
    }

    @Test(
        "paysafe wallet-token --wallet apple-pay: the encrypted token as Paysafe decrypts it, or --decrypted with wallet decrypt's output; neither the DPAN nor the cryptogram is printed"
    )
    func paysafeApplePayToken() throws {
        let server = try ServerCommandTests.emulator("paysafe", ["--api-key", ServerCommandTests.paysafeKey])
        defer { server.stop() }
        let common = [
            "--credentials", try ServerCommandTests.file(#"{"apiKey":"\#(ServerCommandTests.paysafeKey)"}"#), "--endpoint", server.baseURL,
        ]
        // The encrypted PKPaymentToken, forwarded for Paysafe to decrypt.
        let paymentData = try JSONValue.parse(try Self.file("gala/token.json"))
        let pkPaymentToken = JSONValue.object(
            JSONObject([
                ("paymentData", paymentData),
                (
                    "paymentMethod",
                    .object(JSONObject([("displayName", .string("Visa 0492")), ("network", .string("Visa")), ("type", .string("debit"))]))
                ),
                ("transactionIdentifier", .string("F7F133694685BAB2")),
            ]))
        let encrypted = try CommandRunner.run(
            ["paysafe", "wallet-token", "--wallet", "apple-pay"] + common, stdin: pkPaymentToken.serializedBytes)
        #expect(encrypted.status == 0 && encrypted.out.contains("\"paymentToken\""), "\(encrypted.err)")
        let sent = try JSONValue.parse(try #require(server.requests().last).body)
        #expect(sent["applePayPaymentToken"]?["token"]?["paymentData"]?["version"]?.stringValue == "EC_v1")
        // The merchant decrypted it: only decryptedData goes, and nothing of the card is printed.
        let decrypted = try CommandRunner.run(
            ["wallet", "decrypt"] + Self.gala + ["--now", "2021-09-01T19:03:06Z"], stdin: Self.file("gala/token.json"))
        #expect(decrypted.status == 0, "\(decrypted.err)")
        let data = try #require(try JSONValue.parse(Array(decrypted.stdout))["paymentData"])
        let dpan = try #require(data["applicationPrimaryAccountNumber"]?.stringValue)
        let cryptogram = try #require(data["paymentData"]?["onlinePaymentCryptogram"]?.stringValue)
        let token = try CommandRunner.run(
            ["paysafe", "wallet-token", "--wallet", "apple-pay", "--decrypted"] + common, stdin: decrypted.stdout)
        #expect(token.status == 0 && token.out.contains("\"paymentToken\""), "\(token.err)")
        let forwarded = try JSONValue.parse(try #require(server.requests().last).body)
        let sentData = forwarded["applePayPaymentToken"]?["token"]?["paymentData"]
        #expect(sentData?.objectValue?.keys == ["decryptedData"])
        #expect(sentData?["decryptedData"]?["applicationPrimaryAccountNumber"]?.stringValue == dpan)
        for output in [token.out, token.err, encrypted.out, encrypted.err] {
            #expect(!output.contains(dpan) && !output.contains(cryptogram))
        }
    }

    @Test("RSA_v1 from a whole PKPaymentToken, with pairs for rotation")
    func rotationAndRSA() throws {
        let result = try CommandRunner.run(
            ["wallet", "decrypt"] + Self.gala + Self.rsa + ["--now", "2024-01-08T17:54:44Z"],
            stdin: Self.file("apple-pay-js/rsa/token.json"))
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("\"version\":\"RSA_v1\"") && result.out.contains("\"eciIndicator\":\"7\""))
    }

    @Test("verify needs no key; one window past the clock exits 1 with the wallet code, no payment data on stderr")
    func verify() throws {
        let token = try Self.file("gala/token.json")
        let ok = try CommandRunner.run(["wallet", "verify", "--now", "2021-09-01T19:08:06Z"], stdin: token)
        #expect(ok.status == 0)
        #expect(ok.out.hasPrefix("{\"wallet\":\"apple-pay\",\"valid\":true,\"version\":\"EC_v1\","))
        let late = try CommandRunner.run(["wallet", "verify", "--now", "2021-09-01T19:08:06.001Z"], stdin: token)
        #expect(late.status == 1 && late.out.isEmpty)
        #expect(late.err.hasPrefix("Error: wallet.signingTimeOutOfWindow: "))
        let narrow = try CommandRunner.run(
            ["wallet", "verify", "--now", "2021-09-01T19:03:16Z", "--signing-window", "9,0"], stdin: token)
        #expect(narrow.status == 1 && narrow.err.contains("wallet.signingTimeOutOfWindow"))
        let tampered = try CommandRunner.run(
            ["wallet", "decrypt"] + Self.gala + ["--now", "2021-09-01T19:03:06Z"],
            stdin: Self.file("gala/derived-token.data-first-byte-flipped.json"))
        #expect(tampered.status == 1 && tampered.err.hasPrefix("Error: wallet.signatureInvalid: "))
        #expect(!tampered.err.contains("5353756319181169"))
    }

    @Test("--lines answers every line, in order, with an error object for a refused token")
    func lines() throws {
        let token = String(decoding: try Self.file("gala/token.json"), as: UTF8.self).replacingOccurrences(of: "\n", with: "")
        let input = Array((token + "\n{}\n" + token + "\n").utf8)
        let result = try CommandRunner.run(
            ["wallet", "decrypt", "--lines"] + Self.gala + ["--now", "2021-09-01T19:03:06Z"], stdin: input)
        let lines = result.out.split(separator: "\n")
        #expect(result.status == 1 && lines.count == 3)
        #expect(lines[0].hasPrefix("{\"wallet\":\"apple-pay\"") && lines[2].hasPrefix("{\"wallet\":\"apple-pay\""))
        #expect(lines[1].hasPrefix("{\"line\":2,\"error\":{\"code\":\"wallet.malformed\""))
    }

    @Test(
        "Usage errors exit 64: unpaired keys, a bad --now, a bad --signing-window, an unknown --wallet",
        arguments: [
            ["wallet", "decrypt", "--merchant-cert", "a.pem"],
            ["wallet", "decrypt"],
            ["wallet", "verify", "--now", "2021-02-30T00:00:00Z"],
            ["wallet", "verify", "--now", "yesterday"],
            ["wallet", "verify", "--signing-window", "-1"],
            ["wallet", "verify", "--signing-window", "300,x"],
            ["wallet", "verify", "--wallet", "samsung-pay"],
        ])
    func usage(arguments: [String]) throws {
        let result = try CommandRunner.run(arguments, stdin: [])
        #expect(result.status == 64, "\(arguments): \(result.err)")
    }
}

@Suite("cse wallet: the --now and --signing-window grammars")
struct WalletOptionTests {
    @Test("ISO-8601 instants with Z, fractions and offsets; impossible dates refused; formatting round-trips")
    func instants() {
        #expect(WalletOptions.instant("2021-09-01T19:03:06Z") == 1_630_522_986_000)
        #expect(WalletOptions.instant("2021-09-01T19:03:06.5Z") == 1_630_522_986_500)
        #expect(WalletOptions.instant("2021-09-01T21:03:06+02:00") == 1_630_522_986_000)
        #expect(WalletOptions.instant("2021-09-01T18:03:06-01:00") == 1_630_522_986_000)
        for bad in [
            "2021-09-01 19:03:06Z", "2021-09-01T19:03:06", "2021-13-01T00:00:00Z", "2021-02-29T00:00:00Z", "2021-09-01T19:03:06.Z", "",
        ] {
            #expect(WalletOptions.instant(bad) == nil, "\(bad)")
        }
        #expect(WalletOptions.isoString(1_630_522_986_000) == "2021-09-01T19:03:06Z")
        #expect(WalletOptions.isoString(1_630_522_986_007) == "2021-09-01T19:03:06.007Z")
        #expect(WalletOptions.signingWindow("300") == .init(pastSeconds: 300, futureSeconds: 60))
        #expect(WalletOptions.signingWindow("10,0") == .init(pastSeconds: 10, futureSeconds: 0))
        #expect(WalletOptions.signingWindow("1,2,3") == nil && WalletOptions.signingWindow("") == nil)
    }
}
