import CSECore
import CSEKit
import Foundation
import Testing
import TestSupport

@testable import CSECLI

/// `cse wallet decrypt` and `cse wallet verify` for Google Pay, on the public vectors
/// (`../shared/vectors/wallets`, see its PROVENANCE.md).
@Suite(
    "cse wallet decrypt and verify on the Google Pay vectors",
    .enabled(if: TestPaths.sharedVectors != nil, "needs ../shared/vectors/wallets"))
struct CLIWalletGooglePayTests {
    static func path(_ name: String) -> String {
        (TestPaths.sharedVectors?.appendingPathComponent("wallets/" + name).path) ?? name
    }
    static func file(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path(name)))) }
    static let moov = [
        "--recipient", "merchant:12345678901234567890", "--merchant-key",
        CommandRunner.ownerOnlyCopy(of: path("moov-google-pay-decryptor/merchant_private_key.pem")),
        "--root-keys", path("moov-google-pay-decryptor/google-test-root-keys.json"), "--now", "2022-02-22T02:37:49Z",
    ]
    static let token = "moov-google-pay-decryptor/ecv2-test-environment.token.json"
    /// The token on one line (the outer JSON re-serialised; the signed strings are unchanged).
    static func compactToken() throws -> String { try JSONValue.parse(try file(token)).serialized }

    @Test("decrypt prints the identifying members and the whole decrypted message, member for member")
    func decrypt() throws {
        let result = try CommandRunner.run(["wallet", "decrypt"] + Self.moov, stdin: Self.file(Self.token))
        #expect(result.status == 0, "\(result.err)")
        let plaintext = String(decoding: try Self.file("moov-google-pay-decryptor/ecv2-test-environment.plaintext.json"), as: UTF8.self)
        #expect(
            result.out
                == "{\"wallet\":\"google-pay\",\"protocolVersion\":\"ECv2\",\"messageId\":"
                + "\"AH2EjtdXWjOxGkyAxyLlyakvWxUcS638Tn37UKPUw2fvpyVOmAZwE0Rs_NzCllF3iluLTIRQesQ8_q8P0KUI87hlBIsi2pkscVlnwKtmUEzIe3l6MRJePlr-IfgWi8wqMh35Rs3MG8H2\","
                + "\"messageExpiration\":\"2022-02-22T03:37:49.135Z\",\"paymentData\":\(plaintext)}\n")
    }

    @Test("The token's JSON as a JSON string and a whole PaymentData response are read too; --wallet google-pay forces the wallet")
    func inputShapes() throws {
        let compact = try Self.compactToken()
        let asString = JSONValue.string(compact).serialized
        let paymentData =
            "{\"apiVersion\":2,\"apiVersionMinor\":0,\"paymentMethodData\":{\"type\":\"CARD\",\"tokenizationData\":"
            + "{\"type\":\"PAYMENT_GATEWAY\",\"token\":\(asString)}}}"
        for input in [asString, paymentData] {
            let result = try CommandRunner.run(["wallet", "decrypt", "--wallet", "google-pay"] + Self.moov, input: input)
            #expect(result.status == 0, "\(result.err)")
            #expect(result.out.hasPrefix("{\"wallet\":\"google-pay\",\"protocolVersion\":\"ECv2\",\"messageId\":\"AH2EjtdXWjOx"))
        }
    }

    @Test("verify needs no key and prints the protocol version and the intermediate key's expiry")
    func verify() throws {
        let arguments = ["wallet", "verify"] + Self.moov.filter { !$0.hasSuffix(".pem") && $0 != "--merchant-key" }
        let result = try CommandRunner.run(arguments, stdin: Self.file(Self.token))
        #expect(result.status == 0, "\(result.err)")
        #expect(
            result.out
                == "{\"wallet\":\"google-pay\",\"valid\":true,\"protocolVersion\":\"ECv2\",\"intermediateKeyExpiration\":\"2022-02-22T22:44:18.115Z\"}\n"
        )
    }

    @Test("A refused token exits 1 with its code and the recipient-id hint, and prints no card data")
    func refused() throws {
        var wrong = Self.moov
        wrong[1] = "merchant:12345"
        let signature = try CommandRunner.run(["wallet", "decrypt"] + wrong, stdin: Self.file(Self.token))
        #expect(signature.status == 1 && signature.out.isEmpty)
        #expect(signature.err.hasPrefix("Error: wallet.signatureInvalid:") && signature.err.contains("recipient id"))
        var late = Self.moov
        late[late.count - 1] = "2022-02-22T12:00:00Z"
        let expired = try CommandRunner.run(["wallet", "decrypt"] + late, stdin: Self.file(Self.token))
        #expect(expired.status == 1 && expired.err.hasPrefix("Error: wallet.messageExpired:"))
        for result in [signature, expired] { #expect(!result.err.contains("4111111111111111") && !result.out.contains("4111111111111111")) }
    }

    @Test("--lines answers every line, in order, with an error object for a refused token")
    func lines() throws {
        let compact = try Self.compactToken()
        let result = try CommandRunner.run(
            ["wallet", "decrypt", "--lines"] + Self.moov, input: compact + "\nnot a token\n" + compact + "\n")
        let lines = result.out.split(separator: "\n")
        #expect(result.status == 1 && lines.count == 3)
        #expect(lines[0].hasPrefix("{\"wallet\":\"google-pay\"") && lines[2].hasPrefix("{\"wallet\":\"google-pay\""))
        #expect(lines[1].hasPrefix("{\"line\":2,\"error\":{\"code\":\"wallet.malformed\""))
    }

    @Test("Usage errors exit 64: missing recipient, root keys or key, a bad protocol list, mixed Apple and Google options")
    func usage() throws {
        let key = CommandRunner.ownerOnlyCopy(of: Self.path("moov-google-pay-decryptor/merchant_private_key.pem"))
        let roots = Self.path("moov-google-pay-decryptor/google-test-root-keys.json")
        let cases: [[String]] = [
            ["wallet", "decrypt", "--wallet", "google-pay", "--merchant-key", key, "--root-keys", roots],
            ["wallet", "decrypt", "--recipient", "merchant:1", "--merchant-key", key],
            ["wallet", "decrypt", "--recipient", "merchant:1", "--root-keys", roots],
            ["wallet", "decrypt", "--recipient", "merchant:1", "--merchant-key", key, "--root-keys", roots, "--protocols", "ECv2,ECv9"],
            ["wallet", "decrypt", "--recipient", "merchant:1", "--merchant-key", key, "--root-keys", roots, "--merchant-cert", key],
            ["wallet", "decrypt", "--wallet", "apple-pay", "--recipient", "merchant:1"],
            ["wallet", "verify", "--recipient", "merchant:1", "--root-keys", roots, "--signing-window", "300"],
            ["wallet", "verify", "--wallet", "samsung-pay"],
        ]
        for arguments in cases {
            let result = try CommandRunner.run(arguments, input: "{}")
            #expect(result.status == 64, "\(arguments): \(result.err)")
        }
    }

    @Test("--protocols ECv1 opens the ECv1 vectors; the default set refuses them as unsupported")
    func protocols() throws {
        let arguments = [
            "wallet", "decrypt", "--recipient", "merchant:12345678901234567890", "--merchant-key",
            CommandRunner.ownerOnlyCopy(of: Self.path("r2d2/private_key.pem")),
            "--root-keys", Self.path("r2d2/google_verification_key_test.json"), "--now", "2017-11-03T12:59:23Z",
        ]
        let refused = try CommandRunner.run(arguments, stdin: Self.file("r2d2/card.json"))
        #expect(refused.status == 1 && refused.err.hasPrefix("Error: wallet.unsupportedVersion:"))
        let opened = try CommandRunner.run(arguments + ["--protocols", "ECv1,ECv2"], stdin: Self.file("r2d2/card.json"))
        #expect(opened.status == 0, "\(opened.err)")
        #expect(opened.out.contains("\"protocolVersion\":\"ECv1\"") && opened.out.contains("\"pan\":\"4111111111111111\""))
    }
}
