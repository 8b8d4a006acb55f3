@testable import CSECore
import Testing

/// Issue #24, point 9: platform text reaches errors, logs and stderr only after the caller's own
/// secrets, credentials and card numbers are taken out, whatever separates a card number's groups.
@Suite("Platform text: card numbers with any separator, credentials and the caller's secrets are redacted")
struct PlatformTextRedactionTests {
    @Test(
        "a card number is redacted whatever separates its groups: spaces and at most one other character",
        arguments: [
            "4111111111111111", "4111 1111 1111 1111", "4111-1111-1111-1111", "4111.1111.1111.1111", "4111/1111/1111/1111",
            "4111_1111_1111_1111", "4111,1111,1111,1111", "4111:1111:1111:1111", "4111.1111-1111 1111", "3782 822463 10005",
            // Spaces and one other separator: double spaces, a spaced dash, a tab (the client-api fuzz target's find).
            "4111  1111  1111  1111", "4111 - 1111 - 1111 - 1111", "4111\t1111 \t1111   1111", "222 11111111  11 1",
        ])
    func cardNumbers(pan: String) {
        let text = SecretMasking.platformText("value \(pan) is invalid")
        #expect(text == "value <redacted \(pan.count) chars> is invalid", "\(text)")
        #expect(!text.contains("1111") && !text.contains("8224"))
    }

    @Test("short numbers, error codes and words between digits are kept")
    func keptNumbers() {
        #expect(
            SecretMasking.platformText("errorCode 21000020, amount 100.00 EUR, ref 1234567")
                == "errorCode 21000020, amount 100.00 EUR, ref 1234567")
        #expect(SecretMasking.platformText("card 4111 and 1111 1111 111") == "card 4111 and 1111 1111 111")
        // Two punctuation characters between digits end a run: 12 digits in three codes stay.
        #expect(SecretMasking.platformText("codes 1001--1002--1003") == "codes 1001--1002--1003")
    }

    @Test("the token after Basic or Bearer is redacted, in any case")
    func credentials() {
        #expect(
            SecretMasking.platformText("Authorization: Basic bWVyY2hhbnQuVEVTVDE6c2VjcmV0LXBhc3N3b3Jk was refused")
                == "Authorization: Basic <redacted> was refused")
        #expect(SecretMasking.platformText("header bearer abc.DEF-ghi_jkl~=") == "header bearer <redacted>")
        #expect(SecretMasking.platformText("BASIC  dXNlcjpwYXNz") == "BASIC  <redacted>")
        // Not a scheme: part of another word, or nothing after it.
        #expect(SecretMasking.platformText("Basicity rules; basic") == "Basicity rules; basic")
    }

    @Test("the caller's secrets are redacted by value wherever they appear")
    func secretsByValue() {
        let session = Array("5c0ffee0e1a2b3c4d5e6f708192a3b4c".utf8)
        let text = session.withUnsafeBytes { secret in
            SecretMasking.platformText(
                "session 5c0ffee0e1a2b3c4d5e6f708192a3b4c expired (id=5c0ffee0e1a2b3c4d5e6f708192a3b4c)", secrets: [secret])
        }
        #expect(text == "session <redacted> expired (id=<redacted>)")
        #expect(
            SecretMasking.redactingSecrets("errorId 5c0ffee0e1a2b3c4d5e6f708192a3b4c", values: ["5c0ffee0e1a2b3c4d5e6f708192a3b4c"])
                == "errorId <redacted>")
        // Secrets under 6 bytes are not searched: they would match ordinary text.
        #expect(SecretMasking.redactingSecrets("code abc", values: ["abc"]) == "code abc")
    }

    @Test("control, C1, bidi and line-break characters become ?, and the length is bounded")
    func printable() {
        #expect(SecretMasking.platformText("a\u{1B}[31mb\u{9B}c\u{202E}d\u{2028}e") == "a?[31mb?c?d?e")
        #expect(SecretMasking.platformText(String(repeating: "x", count: 200), limit: 10) == "xxxxxxxxxx…")
    }
}
