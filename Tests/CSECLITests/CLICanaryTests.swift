import CSECore
import Testing
import TestSupport

/// Every CLI failure path, fed a canary card number and CVV: neither may appear on stderr or in
/// the error objects on stdout. Masked forms (first 6 / last 4) are allowed.
@Suite("cse failure paths never echo a card number or CVV")
struct CLICanaryTests {
    static let pan = CLIFixtures.canaryPAN
    static let cvv = CLIFixtures.canaryCVV
    /// The canary with a wrong check digit, for the paths that need an invalid number.
    static let badPAN = String(pan.dropLast()) + "8"
    /// Digits 7–12 of the canary: never shown, even by a correct mask.
    static let middle = String(Array(pan)[6..<12])

    static let card = #"{"cardNumber":"\#(pan)","expiryDate":"01/20","cvv":"\#(cvv)","cardholderName":"Ada"}"#

    /// (arguments, stdin bytes, description). Every case must fail (exit 1 or 64).
    static let cases: [([String], [UInt8], String)] = {
        let seal = ["seal", "--product", "builtin:card", "--key", "@PUBLICJSON", "--session-id", "s", "--now", "2026-05"]
        let validate = ["validate", "--product", "builtin:card", "--now", "2026-05"]
        let jsonInputs: [(String, String)] = [
            (card, "invalid values"),
            (#"{"cardNumber":"\#(pan)","cvv":"\#(cvv)"#, "truncated JSON"),
            (#"{"cardNumber":\#(pan),"cvv":"\#(cvv)"}"#, "card number as a JSON number"),
            (#"{"cardNumber":"\#(pan)","cvv":\#(cvv)}"#, "CVV as a JSON number"),
            (#"{"\#(pan)":"\#(cvv)"}"#, "card number as a member name"),
            (#"{"\#(cvv)":"\#(pan)"}"#, "CVV as a member name"),
            (#"{"cardNumber":"\#(pan)","cvv":"\#(cvv)","x\#(pan)":"1"}"#, "card number inside an unknown name"),
            (#"{"cardNumber":"\#(pan)","cardNumber":"\#(cvv)"}"#, "duplicate member"),
            (#"{"cardNumber":"\#(pan)\#u{1}","cvv":"\#(cvv)"}"#, "control character in a string"),
            (#"["\#(pan)","\#(cvv)"]"#, "an array"),
            (#""\#(pan) \#(cvv)""#, "a string"),
        ]
        var cases: [([String], [UInt8], String)] = []
        for (input, what) in jsonInputs {
            cases.append((seal, Array(input.utf8), "seal: " + what))
            cases.append((validate, Array(input.utf8), "validate: " + what))
            cases.append((seal + ["--lines"], Array((input + "\n" + input).utf8), "seal --lines: " + what))
            cases.append((validate + ["--lines"], Array((input + "\n" + input).utf8), "validate --lines: " + what))
            cases.append((["encrypt", "--key", "@PUBLIC", "--lines"], Array((input + "x\n").utf8), "encrypt --lines: " + what))
        }
        let invalidUTF8 = Array(#"{"cardNumber":"\#(pan)"#.utf8) + [0xFF] + Array(#"","cvv":"\#(cvv)"}"#.utf8)
        cases += [
            (seal, invalidUTF8, "seal: invalid UTF-8"),
            (validate + ["--lines"], invalidUTF8, "validate --lines: invalid UTF-8"),
            (["seal", "--product", "builtin:card", "--key", "@MISSING", "--session-id", "s"], Array(card.utf8), "seal: missing key file"),
            (["seal", "--product", "@MISSING", "--demo", "--session-id", "s"], Array(card.utf8), "seal: missing product file"),
            (
                ["seal", "--product", "builtin:card", "--key", "@DEMO", "--kid", "k", "--session-id", "s"], Array(card.utf8),
                "seal: demo key refused"
            ),
            (
                ["seal", "--product", "builtin:card", "--key", "@PUBLICJSON", "--now", "2026-05", "--allow-invalid"], Array(card.utf8),
                "seal: no session id"
            ),
            (
                ["seal", "--product", "builtin:card", "--key", "@PUBLIC", "--session-id", "s", "--allow-invalid"], Array(card.utf8),
                "seal: no kid"
            ),
            (["iin"], Array((pan + "x").utf8), "iin: letter"),
            (["iin"], Array((pan + pan).utf8), "iin: too many digits"),
            (["iin", "--lines"], Array(("\(pan)x\n\"\(pan)\n\(pan)\(cvv)\(pan)\n").utf8), "iin --lines"),
            (["iin", "--table", "@MISSING"], Array(pan.utf8), "iin: missing table"),
            (["check", "luhn"], Array(badPAN.utf8), "check luhn"),
            (["check", "luhn", "--json"], Array(badPAN.utf8), "check luhn --json"),
            (["check", "iban", "--json"], Array(pan.utf8), "check iban"),
            (["check", "expiry", "--json"], Array(pan.utf8), "check expiry"),
            (["check", "email", "--json"], Array(pan.utf8), "check email"),
            (["format", "--mask", "{{99}/{{99}}"], Array(pan.utf8), "format: bad mask"),
            (["unformat", "--mask", "{{x}}"], Array(pan.utf8), "unformat: bad mask"),
            (["encrypt", "--key", "@MISSING"], Array(card.utf8), "encrypt: missing key"),
            (["decrypt", "--key", "@PRIVATE"], Array(pan.utf8), "decrypt: a card number instead of a JWE"),
            (["decrypt", "--key", "@PRIVATE", "--lines"], Array("\(pan)\n\(pan).\(cvv).a.b.c\n".utf8), "decrypt --lines"),
            ([pan], [], "a card number as the subcommand"),
            (["-" + pan], [], "a card number as a top-level option"),
            (["help", pan], [], "help for a card number"),
            (["check", pan], Array(pan.utf8), "a card number as the check kind"),
            (["seal", "--" + pan + "=" + cvv], [], "a card number as an option name"),
            (["validate", "--product", "builtin:card", "--" + cvv], Array(card.utf8), "a CVV as an option name"),
        ]
        return cases
    }()

    @Test("no failure path echoes the canary", arguments: cases.indices)
    func canary(index: Int) throws {
        let (arguments, stdin, what) = Self.cases[index]
        let result = try CommandRunner.run(CLIFixtures.resolve(arguments), stdin: stdin)
        #expect(result.status == 1 || result.status == 64, "\(what): status \(result.status)")
        #expect(!result.err.isEmpty || !result.out.isEmpty, "\(what): says something")
        for (stream, text) in [("stderr", result.err), ("stdout", result.out)] {
            #expect(!text.contains(Self.pan), "\(what): \(stream) contains the card number: \(text)")
            #expect(!text.contains(Self.badPAN), "\(what): \(stream) contains the card number: \(text)")
            #expect(!text.contains(Self.middle), "\(what): \(stream) contains the middle digits: \(text)")
            #expect(!text.contains(Self.cvv), "\(what): \(stream) contains the CVV: \(text)")
        }
    }
}
