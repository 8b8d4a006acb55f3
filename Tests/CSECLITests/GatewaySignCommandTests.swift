import CSECore
import CSECrypto
import CSEGateways
import Foundation
import Testing
import TestSupport

@Suite("cse sign and cse verify: APS signatures with the phrase read from a file, never argv")
struct GatewaySignCommandTests {
    static let directory: String = {
        let dir = try! CommandRunner.temporaryDirectory()
        try! "MySecretKey123\n".write(toFile: dir + "/request.phrase", atomically: true, encoding: .utf8)
        try! "ResponsePhrase!\r\n".write(toFile: dir + "/response.phrase", atomically: true, encoding: .utf8)
        try! "\n".write(toFile: dir + "/empty.phrase", atomically: true, encoding: .utf8)
        CommandRunner.ownerOnly(dir + "/request.phrase", dir + "/response.phrase", dir + "/empty.phrase")
        return dir
    }()
    static var requestPhrase: String { directory + "/request.phrase" }
    static var responsePhrase: String { directory + "/response.phrase" }

    static let docParameters =
        #"{"command":"PURCHASE","access_code":"SILgpo7pWbmzuURp2qri","merchant_identifier":"MxvOupuG","merchant_reference":"ORD-12345-2024","amount":"2000","currency":"AED","language":"en","customer_email":"customer@example.com"}"#
    static let docString =
        "MySecretKey123access_code=SILgpo7pWbmzuURp2qriamount=2000command=PURCHASEcurrency=AEDcustomer_email=customer@example.comlanguage=enmerchant_identifier=MxvOupuGmerchant_reference=ORD-12345-2024MySecretKey123"

    @Test(
        "sign prints the hex digest of phrase + sorted name=value pairs + phrase, for each algorithm",
        arguments: [
            ([String](), "sha256"), (["--algorithm", "sha512"], "sha512"), (["--algorithm=sha1"], "sha1"),
        ])
    func sign(extra: [String], algorithm: String) throws {
        let result = try CommandRunner.run(["aps", "sign", "--phrase-file", Self.requestPhrase] + extra, input: Self.docParameters)
        #expect(result.status == 0 && result.err.isEmpty, "\(result.err)")
        let digest: DigestAlgorithm = algorithm == "sha256" ? .sha256 : algorithm == "sha512" ? .sha512 : .sha1
        let expected = Hex.encode(try digest.hash(Array(Self.docString.utf8)))
        #expect(result.out == expected + "\n", "\(algorithm)")
    }

    @Test("verify accepts a correctly signed response and rejects a tampered one")
    func verify() throws {
        var response = try JSONValue.parse(
            #"{"command":"PURCHASE","merchant_reference":"ORD-12345-2024","amount":"2000","currency":"AED","language":"en","response_code":"14000","status":"14","fort_id":"149295435400084008"}"#
        ).objectValue!
        let signed = try CommandRunner.run(
            ["aps", "sign", "--phrase-file", Self.responsePhrase], stdin: JSONValue.object(response).serializedBytes)
        response["signature"] = .string(String(signed.out.dropLast()))
        let ok = try CommandRunner.run(
            ["aps", "verify", "--phrase-file", Self.responsePhrase], stdin: JSONValue.object(response).serializedBytes)
        #expect(ok.status == 0 && ok.out == #"{"valid":true,"signatureValid":true,"missingParameters":[],"changedParameters":[]}"# + "\n")
        response["amount"] = .string("2001")
        let tampered = try CommandRunner.run(
            ["aps", "verify", "--phrase-file", Self.responsePhrase], stdin: JSONValue.object(response).serializedBytes)
        #expect(tampered.status == 1 && tampered.out.hasPrefix(#"{"valid":false,"signatureValid":false"#))
        response["amount"] = .string("2000")
        let wrongPhrase = try CommandRunner.run(
            ["aps", "verify", "--phrase-file", Self.requestPhrase], stdin: JSONValue.object(response).serializedBytes)
        #expect(wrongPhrase.status == 1)
        response["signature"] = nil
        let unsigned = try CommandRunner.run(
            ["aps", "verify", "--phrase-file", Self.responsePhrase], stdin: JSONValue.object(response).serializedBytes)
        #expect(unsigned.status == 1 && unsigned.err.isEmpty)
    }

    @Test("verify --request checks that every request parameter is echoed")
    func verifyEcho() throws {
        let requestPath = Self.directory + "/request.json"
        try Self.docParameters.write(toFile: requestPath, atomically: true, encoding: .utf8)
        var response = try JSONValue.parse(
            #"{"command":"PURCHASE","merchant_reference":"ORD-12345-2024","amount":"2000","currency":"AED","language":"en","customer_email":"customer@example.com","response_code":"14000","status":"14"}"#
        ).objectValue!
        let signed = try CommandRunner.run(
            ["aps", "sign", "--phrase-file", Self.responsePhrase], stdin: JSONValue.object(response).serializedBytes)
        response["signature"] = .string(String(signed.out.dropLast()))
        let result = try CommandRunner.run(
            ["aps", "verify", "--phrase-file", Self.responsePhrase, "--request", requestPath],
            stdin: JSONValue.object(response).serializedBytes)
        #expect(result.status == 1)
        #expect(
            result.out
                == #"{"valid":false,"signatureValid":true,"missingParameters":["access_code","merchant_identifier"],"changedParameters":[]}"#
                + "\n")
    }

    @Test(
        "the phrase never comes from argv; bad files, input and algorithms fail cleanly",
        arguments: [
            (["aps", "sign", "--phrase", "MySecretKey123"], "{}", 64, "Error: Unknown option '--phrase'."),
            (["aps", "sign", "MySecretKey123"], "{}", 64, "Error: Missing expected argument '--phrase-file <file>'."),
            (["aps", "sign", "--phrase-file", "/nonexistent/phrase"], "{}", 1, "Error: cli.file: cannot open file"),
            (["aps", "sign", "--phrase-file", "@EMPTY"], "{}", 1, "Error: aps.signature.emptyPhrase"),
            (
                ["aps", "sign", "--phrase-file", "@REQ", "--algorithm", "md5"], "{}", 64,
                "Error: The value for '--algorithm' must be sha256, sha512 or sha1"
            ),
            (["aps", "sign", "--phrase-file", "@REQ"], "[1]", 1, "Error: gateway.inputNotObject"),
            (["aps", "sign", "--phrase-file", "@REQ"], #"{"items":[1,2]}"#, 1, "Error: aps.signature.unsupportedValue"),
            (["aps", "verify", "--phrase-file", "@REQ"], "not json", 1, "Error: json.syntax"),
        ] as [([String], String, Int32, String)])
    func failures(arguments: [String], input: String, status: Int32, prefix: String) throws {
        let args = arguments.map { $0 == "@EMPTY" ? Self.directory + "/empty.phrase" : $0 == "@REQ" ? Self.requestPhrase : $0 }
        let result = try CommandRunner.run(args, input: input)
        #expect(result.status == status && result.err.hasPrefix(prefix), "\(arguments): \(result.err)")
        #expect(result.out.isEmpty && !result.err.contains("MySecretKey123"))
    }

    @Test("help lists validate at the top level and sign and verify under aps")
    func help() throws {
        let result = try CommandRunner.run(["--help"])
        #expect(result.out.contains("\n  validate "))
        let aps = try CommandRunner.run(["aps", "--help"])
        for name in ["sign", "verify"] { #expect(aps.out.contains("\n  \(name) "), "\(name)") }
        let sign = try CommandRunner.run(["help", "aps", "sign"])
        #expect(sign.status == 0 && sign.out.contains("--phrase-file <file>"))
    }

    @Test("the former names 'cse sign' and 'cse verify' still work, warn on stderr, and are listed nowhere")
    func deprecatedNames() throws {
        let current = try CommandRunner.run(["aps", "sign", "--phrase-file", Self.requestPhrase], input: #"{"a":"1"}"#)
        let former = try CommandRunner.run(["sign", "--phrase-file", Self.requestPhrase], input: #"{"a":"1"}"#)
        #expect(current.status == 0 && former.status == 0 && former.out == current.out && !current.out.isEmpty)
        #expect(former.err.hasPrefix("warning: 'cse sign' is deprecated; use 'cse aps sign'.\n") && !current.err.contains("deprecated"))
        let verify = try CommandRunner.run(["verify", "--phrase-file", Self.responsePhrase], input: "not json")
        #expect(
            verify.status == 1 && verify.err.hasPrefix("warning: 'cse verify' is deprecated; use 'cse aps verify'.\nError: json.syntax"))
        let help = try CommandRunner.run(["help", "verify"])
        #expect(help.status == 0 && help.out.contains("USAGE: cse aps verify") && help.err.contains("deprecated"))
        let root = try CommandRunner.run(["--help"])
        #expect(!root.out.contains("\n  sign ") && !root.out.contains("\n  verify "))
        let manual = try CommandRunner.run(["--generate-manual"])
        #expect(!manual.out.contains(".It Nm Cm sign") && !manual.out.contains(".It Nm Cm verify"))
        let bash = try CommandRunner.run(["--generate-completion-script", "bash"])
        #expect(!bash.out.contains("_cse_sign") && !bash.out.contains("_cse_verify") && bash.out.contains("_cse_aps_sign"))
    }
}
