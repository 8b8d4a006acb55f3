import Testing
import TestSupport

@testable import CSECLI

/// Issue #23, point 4: an option is declared once with its type (`ArgumentValue`), the parser
/// checks its value with one message, and the completion scripts offer its values.
@Suite("Typed options: one declaration, one usage message, choices in completion")
struct TypedOptionTests {
    @Test(
        "a value that is not one of the type's is refused with the one message, naming the valid values",
        arguments: [
            (
                ["aps", "check-status", "--merchant-reference", "R", "--credentials", "c", "--environment", "staging"],
                "Error: The value for '--environment' must be test or production."
            ),
            (
                ["aps", "sdk-token", "--device-id", "d", "--credentials", "c", "--language", "fr"],
                "Error: The value for '--language' must be en or ar."
            ),
            (
                ["mastercard", "session", "create", "--credentials", "c", "--region", "xx"],
                "Error: The value for '--region' must be ap, eu, na, in, cn, mtf or ksa."
            ),
            (
                ["mastercard", "session", "create", "--credentials", "c", "--api-version", "38"],
                "Error: The value for '--api-version' must be 39 or later."
            ),
            (
                ["aps", "sign", "--phrase-file", "p", "--algorithm", "md5"],
                "Error: The value for '--algorithm' must be sha256, sha512 or sha1."
            ),
            (["aps", "feedback-verify", "--credentials", "c", "--format", "xml"], "Error: The value for '--format' must be form or json."),
            (
                ["paysafe", "wallet-token", "--wallet", "samsung-pay", "--credentials", "c"],
                "Error: The value for '--wallet' must be apple-pay or google-pay."
            ),
            (
                ["session", "products", "--session", "s", "--country", "NL", "--currency", "EUR", "--amount", "1", "--timeout", "0"],
                "Error: The value for '--timeout' must be 1 to 600 seconds."
            ),
            (
                ["validate", "--product", "builtin:card", "--now", "2026-5"],
                "Error: The value for '--now' must be a month written YYYY-MM, for example 2026-05."
            ),
        ])
    func refusedValue(arguments: [String], message: String) throws {
        let result = try CommandRunner.run(arguments)
        #expect(result.status == 64 && result.err.hasPrefix(message + "\n"), "\(result.err)")
    }

    @Test("--help wins over a refused value, and a missing required option is named before a refused value")
    func order() throws {
        let help = try CommandRunner.run(["aps", "feedback-verify", "--format", "xml", "--help"])
        #expect(help.status == 0 && help.out.hasPrefix("OVERVIEW:"))
        let missing = try CommandRunner.run(["aps", "feedback-verify", "--format", "xml"])
        #expect(missing.status == 64 && missing.err.hasPrefix("Error: Missing expected argument '--credentials <file>'."))
    }

    @Test("the completion scripts offer a typed option's values")
    func completions() throws {
        let bash = try CommandRunner.run(["--generate-completion-script", "bash"]).out
        #expect(bash.contains(#"(--wallet) COMPREPLY=($(compgen -W "apple-pay google-pay" -- "$cur")); return ;;"#))
        #expect(bash.contains(#"(--region) COMPREPLY=($(compgen -W "ap eu na in cn mtf ksa" -- "$cur")); return ;;"#))
        let fish = try CommandRunner.run(["--generate-completion-script", "fish"]).out
        #expect(fish.contains("-l environment -x -a 'test production'"))
        let zsh = try CommandRunner.run(["--generate-completion-script", "zsh"]).out
        #expect(zsh.contains(":alg:(sha256 sha512 sha1)"))
    }

    @Test("a typed option reads back as its type")
    func typedRead() throws {
        let spec = APSFeedbackVerifyCommand.spec
        let line = try ArgumentParser.parse(["--credentials", "c", "--format", "json"], spec: spec)
        let arguments = ParsedArguments<APSFeedbackVerifyCommand.Options>(line)
        #expect(arguments[\.format] == .json)
        let parsed = try ArgumentParser.parse(["--credentials", "c"], spec: spec)
        #expect(ParsedArguments<APSFeedbackVerifyCommand.Options>(parsed)[\.format] == nil)
    }
}

/// Issue #23, point 4: exclusive and dependent options are declared in the command spec, and the
/// parser checks them.
@Suite("Option rules: exclusive and dependent options declared in the spec")
struct OptionRuleTests {
    @Test("cse seal declares that --key, --kid, --session-id and --demo conflict with --session, and that the context needs it")
    func sealRules() throws {
        let rules = SealCommand.spec.rules
        #expect(rules.count == 3)
        let line = try ArgumentParser.parse(["--product", "builtin:card", "--demo"], spec: SealCommand.spec)
        #expect(rules.allSatisfy { $0.violation(in: line) == nil })
        for (arguments, message) in [
            (["--key", "k", "--session", "s"], "--key cannot be combined with --session (the platform gives the key and the session id)."),
            (["--demo", "--session", "s"], "--demo cannot be combined with --session."),
            (["--amount", "5"], "--amount needs --session."),
            (["--recurring"], "--recurring needs --session."),
        ] {
            #expect(throws: UsageError(message)) {
                try ArgumentParser.parse(["--product", "builtin:card"] + arguments, spec: SealCommand.spec)
            }
        }
    }
}
