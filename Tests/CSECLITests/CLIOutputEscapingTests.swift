import Foundation
import Testing
import TestSupport

/// Issue #24, point 15: what `cse` prints on stdout is JSON in which no value taken from a
/// product, a platform or an IIN table carries a raw C1 control or a bidirectional override.
@Suite("cse stdout: C1 and bidi controls from a product are escaped, and the JSON reads back")
struct CLIOutputEscapingTests {
    @Test("an issuer name with U+202E, U+009B and U+2028 from an IIN table is printed as \\u202e, \\u009b and \\u2028")
    func iinIssuer() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let table = directory + "/iin.csv"
        let issuer = "Bank\u{202E}kcaB\u{9B}31m\u{2028}"
        try "low,high,productId,country,cardType,issuer\n41111100,41111199,1,NL,CREDIT,\(issuer)\n"
            .write(toFile: table, atomically: true, encoding: .utf8)
        let result = try CommandRunner.run(["iin", "--table", table], input: "4111111111\n")
        #expect(result.status == 0, "\(result.err)")
        // No raw C1, bidi or line-separator byte sequence on stdout.
        let raw: [[UInt8]] = [[0xC2, 0x9B], [0xE2, 0x80, 0xAE], [0xE2, 0x80, 0xA8]]
        for sequence in raw {
            #expect(!result.stdout.indices.contains { result.stdout[$0...].starts(with: sequence) }, "\(sequence) raw on stdout")
        }
        #expect(result.out.contains(#""issuer":"Bank\u202ekcaB\u009b31m\u2028""#), "\(result.out)")
        // Foundation's parser reads the same issuer back.
        let line = try #require(result.out.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["issuer"] as? String == issuer)
    }
}
