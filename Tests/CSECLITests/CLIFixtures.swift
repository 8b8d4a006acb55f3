import CSECore
import CSEPayments
import Foundation
import Testing
import TestSupport

/// Shared inputs for the CLI end-to-end tests.
enum CLIFixtures {
    /// One key pair written by `cse keygen` (keyId `kid-seal`), for every suite.
    static let keyDirectory: String = {
        let dir = try! CommandRunner.temporaryDirectory()
        let result = try! CommandRunner.run(["keygen", "--bits", "2048", "--out", dir, "--key-id", "kid-seal"])
        precondition(result.status == 0, result.err)
        return dir
    }()
    static var privateKey: String { keyDirectory + "/private.pem" }
    static var publicKey: String { keyDirectory + "/public.pem" }
    static var publicKeyJSON: String { keyDirectory + "/public-key.json" }

    /// The TEST-ONLY demo public key written to a file, to show that `seal` refuses it.
    static let demoPublicKeyFile: String = {
        let path = try! CommandRunner.temporaryDirectory() + "/demo-public.pem"
        try! DemoKeys.testOnlyPublicKeyPEM.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }()

    /// A path that does not exist.
    static let missingFile = "/nonexistent/cse-test/missing-file"

    /// The clock every expiry-dependent test uses.
    static let now = "2026-05"

    /// A valid card input at ``now``, masked as typed.
    static let validCard = #"{"cardNumber":"4111 1111 1111 1111","expiryDate":"12/35","cvv":"123","cardholderName":"Ada Lovelace"}"#

    /// Canary secrets: a Luhn-valid Visa number and a CVV that appear nowhere else in the
    /// project, so finding them in an error proves a leak.
    static let canaryPAN = "4917484589897107"
    static let canaryCVV = "739"
    /// What may appear instead: first 6 / last 4.
    static let canaryMaskedPAN = "491748******7107"

    /// Replaces `@PUBLIC`, `@PUBLICJSON`, `@PRIVATE`, `@DEMO` and `@MISSING` placeholders in arguments.
    static func resolve(_ arguments: [String]) -> [String] {
        arguments.map {
            switch $0 {
            case "@PUBLIC": return publicKey
            case "@PUBLICJSON": return publicKeyJSON
            case "@PRIVATE": return privateKey
            case "@DEMO": return demoPublicKeyFile
            case "@MISSING": return missingFile
            default: return $0
            }
        }
    }

    /// Runs `cse` with placeholders resolved.
    static func run(_ arguments: [String], _ input: String = "") throws -> CommandRunner.Result {
        try CommandRunner.run(resolve(arguments), input: input)
    }

    /// The output lines (without the final newline).
    static func lines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Parses one JSON output line.
    static func json(_ line: some StringProtocol) throws -> JSONValue {
        try JSONValue.parse(String(line))
    }

    /// The `field:code` pairs of a `{"valid":…,"errors":[…]}` object.
    static func errorCodes(_ value: JSONValue) -> [String] {
        (value["errors"]?.arrayValue ?? []).map { "\($0["field"]?.stringValue ?? "-"):\($0["code"]?.stringValue ?? "-")" }
    }
}

extension CommandRunner.Result {
    /// A usage error: nothing on stdout, `Error: …`, `Usage: cse <name>` and the hint on stderr, exit 64.
    func expectUsageError(_ message: String, command: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(status == 64, "status \(status)", sourceLocation: sourceLocation)
        #expect(out.isEmpty, "stdout: \(out)", sourceLocation: sourceLocation)
        #expect(err.hasPrefix("Error: \(message)"), "stderr: \(err)", sourceLocation: sourceLocation)
        #expect(err.contains("\nUsage: cse \(command)"), "stderr: \(err)", sourceLocation: sourceLocation)
        #expect(err.hasSuffix("See 'cse \(command) --help' for more information.\n"), "stderr: \(err)", sourceLocation: sourceLocation)
    }

    /// An operational failure: nothing on stdout, one `Error: <code>: …` line on stderr, exit 1.
    func expectFailure(code: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(status == 1, "status \(status)", sourceLocation: sourceLocation)
        #expect(out.isEmpty, "stdout: \(out)", sourceLocation: sourceLocation)
        #expect(err.hasPrefix("Error: \(code): "), "stderr: \(err)", sourceLocation: sourceLocation)
        #expect(err.hasSuffix("\n") && err.dropLast().contains("\n") == false, "one line: \(err)", sourceLocation: sourceLocation)
    }
}
