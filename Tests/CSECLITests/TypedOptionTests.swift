import CSEValidation
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
            (
                ["aps", "feedback-verify", "--credentials", "c", "--format", "xml"],
                "Error: The value for '--format' must be form, json or query."
            ),
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
            (
                ["mastercard", "pay", "--order", "o", "--transaction", "t", "--amount", "1.50", "--currency", "EUR", "--credentials", "c"],
                "Error: The value for '--amount' must be a non-negative integer."
            ),
            (
                [
                    "aps", "purchase", "--merchant-reference", "r", "--amount", "1", "--currency", "ZZZ", "--customer-email", "e",
                    "--credentials", "c",
                ],
                "Error: The value for '--currency' must be an ISO 4217 currency code (e.g. EUR)."
            ),
            (
                [
                    "worldline", "create-payment", "--skip-authentication", "--amount", "1", "--currency", "EUR", "--credentials", "c",
                    "--idempotence-key", "a b",
                ],
                "Error: The value for '--idempotence-key' must be 1 to 40 printable ASCII characters without spaces."
            ),
            (
                ["worldline", "create-session", "--credentials", "c", "--endpoint", "https://example.com/v2"],
                "Error: The value for '--endpoint' must be an origin scheme://host[:port] (https; http only to loopback)."
            ),
            (
                ["worldline", "create-session", "--credentials", "c", "--endpoint", "http://example.com"],
                "Error: The value for '--endpoint' must be an origin scheme://host[:port] (https; http only to loopback)."
            ),
            (
                ["wallet", "verify", "--now", "2021-09-01"],
                "Error: The value for '--now' must be an ISO-8601 instant such as 2021-09-01T19:03:06Z."
            ),
            (
                ["wallet", "verify", "--signing-window", "-1"],
                "Error: The value for '--signing-window' must be PAST[,FUTURE] in whole seconds, e.g. 300,60."
            ),
            (
                ["wallet", "verify", "--recipient", "merchant:1", "--root-keys", "r", "--protocols", "ECv2,ECv9"],
                "Error: The value for '--protocols' must be a comma-separated list of ECv1, ECv2, ECv2SigningOnly."
            ),
            (
                ["wallet", "verify", "--recipient", ""],
                "Error: The value for '--recipient' must be a recipient id, merchant:ID or gateway:ID."
            ),
            (
                ["mastercard", "pay", "--order", "a/b", "--transaction", "t", "--amount", "1", "--currency", "EUR", "--credentials", "c"],
                "Error: The value for '--order' must be 1 to 40 letters, digits, '-', '_' or '.' (not '.' or '..')."
            ),
            (
                ["aps", "check-status", "--merchant-reference", "order 1", "--credentials", "c"],
                "Error: The value for '--merchant-reference' must be 1 to 40 letters, digits, '-', '_' or '.'."
            ),
            (
                ["paysafe", "lookup", "--merchant-ref", "r\u{7F}", "--credentials", "c"],
                "Error: The value for '--merchant-ref' must be 1 to 255 printable ASCII characters."
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

    @Test("a required typed option reads as its type, a defaulted one as its default when not given")
    func requiredAndDefaulted() throws {
        let base = ["--merchant-reference", "R", "--amount", "50000", "--currency", "AED", "--customer-email", "e", "--credentials", "c"]
        let line = try ArgumentParser.parse(base + ["--token-name", "T"], spec: APSPurchaseCommand.spec)
        let arguments = ParsedArguments<APSPurchaseOptions>(line).group(\.payment)
        #expect(arguments[\.amount].minorUnits == 50000)
        #expect(arguments[\.currency].currency.code == "AED")
        #expect(arguments[\.language] == .en && arguments[\.appleHeaderOrder] == .dotnet)
        let arabic = try ArgumentParser.parse(base + ["--token-name", "T", "--language", "ar"], spec: APSPurchaseCommand.spec)
        #expect(ParsedArguments<APSPurchaseOptions>(arabic).group(\.payment)[\.language] == .ar)
    }

    @Test("a repeated typed option reads every value as its type; the parser checks each")
    func repeatedTyped() throws {
        struct Options: CommandOptions {
            let amounts: OptionKey<[AmountArgument]>
            init(_ declare: inout OptionDeclarations) { amounts = declare.repeated("amount", "MINOR", as: AmountArgument.self, help: "") }
        }
        let spec = CommandSpec(name: "t", abstract: "", options: Options.self)
        let line = try ArgumentParser.parse(["--amount", "1", "--amount", "20"], spec: spec)
        #expect(ParsedArguments<Options>(line)[\.amounts].map(\.minorUnits) == [1, 20])
        #expect(throws: UsageError("The value for '--amount' must be a non-negative integer.")) {
            try ArgumentParser.parse(["--amount", "1", "--amount", "x"], spec: spec)
        }
    }
}

/// Issue #23, point 4: exclusive and dependent options are declared in the command spec, and the
/// parser checks them.
@Suite("Option rules: exclusive and dependent options declared in the spec")
struct OptionRuleTests {
    @Test("cse seal declares that --key, --kid, --session-id and --demo conflict with --session, and that the context needs it")
    func sealRules() throws {
        let rules = SealCommand.spec.rules
        #expect(!rules.isEmpty)
        let line = try ArgumentParser.parse(["--product", "builtin:card", "--demo"], spec: SealCommand.spec)
        #expect(rules.allSatisfy { $0.violation(in: line) == nil })
        for (arguments, message) in [
            (["--key", "k", "--session", "s"], "--key cannot be combined with --session (the platform gives the key and the session id)."),
            (["--demo", "--session", "s"], "--demo cannot be combined with --session."),
            (["--amount", "5"], "--amount needs --session."),
            (["--recurring"], "--recurring needs --session."),
            ([], "Give one of --key, --demo or --session."),
            (["--session", "s", "--country", "NL"], "--country needs --currency."),
            (
                ["--session", "s", "--product", "builtin:sepa"],
                "--product builtin:… cannot be combined with --session (with --session, --product is a platform product id or builtin:card)."
            ),
        ] {
            #expect(throws: UsageError(message)) {
                try ArgumentParser.parse(["--product", "builtin:card"] + arguments, spec: SealCommand.spec)
            }
        }
    }
}

/// Issue #31, point 4: every cross-option rule is declared and checked by the parser, with one
/// phrasing per kind of rule (conflict, need, one of), also when a rule names a value.
@Suite("Option rules: one phrasing per kind, checked by the parser for every command")
struct OptionRulePhrasingTests {
    @Test(
        "each kind of rule has one phrasing, whichever command declares it",
        arguments: [
            // conflict
            (["check", "luhn", "--json", "--quiet"], "--json cannot be combined with --quiet."),
            (
                ["paysafe", "wallet-token", "--wallet", "google-pay", "--decrypted", "--credentials", "c"],
                "--decrypted cannot be combined with --wallet google-pay (Paysafe's Customer Vault has no decrypted Google Pay token)."
            ),
            (
                ["wallet", "decrypt", "--wallet", "apple-pay", "--recipient", "merchant:1"],
                "--recipient cannot be combined with --wallet apple-pay."
            ),
            (
                ["wallet", "verify", "--recipient", "merchant:1", "--root-keys", "r", "--signing-window", "300"],
                "--signing-window cannot be combined with --recipient."
            ),
            // need
            (["validate", "--gateway", "aps"], "--gateway needs --operation."),
            (["validate", "--product", "builtin:card", "--operation", "PURCHASE"], "--operation needs --gateway."),
            (
                [
                    "mastercard", "pay", "--order", "o", "--transaction", "t", "--amount", "1", "--currency", "EUR", "--credentials", "c",
                    "--session", "s", "--decrypted",
                ],
                "--decrypted needs --wallet."
            ),
            (
                [
                    "worldline", "create-payment", "--skip-authentication", "--amount", "1", "--currency", "EUR", "--credentials", "c",
                    "--wallet", "apple-pay",
                ],
                "--wallet needs --decrypted or --session."
            ),
            (
                [
                    "worldline", "create-payment", "--skip-authentication", "--amount", "1", "--currency", "EUR", "--credentials", "c",
                    "--wallet", "google-pay",
                    "--decrypted",
                ],
                "--wallet google-pay needs --return-url (3-D Secure)."
            ),
            (
                ["paysafe", "pay", "--amount", "1", "--currency", "EUR", "--merchant-ref", "r", "--credentials", "c", "--token", "t"],
                "--token needs --account."
            ),
            (["session", "iin", "--session", "s", "--amount", "5"], "--amount needs --country."),
            (
                ["wallet", "decrypt", "--wallet", "google-pay", "--merchant-key", "k", "--root-keys", "r"],
                "--wallet google-pay needs --recipient."
            ),
            (["check", "luhn", "--now", "2026-05"], "--now needs <kind> expiry."),
            (["seal", "--product", "302", "--session", "s"], "--product ID with --session needs --country."),
            (["wallet", "decrypt"], "--wallet apple-pay (the default) needs --merchant-cert."),
            (
                ["validate", "--gateway", "paysafe", "--operation", "setup", "--partner-shared-key"],
                "--partner-shared-key needs --operation tokenize."
            ),
            // one of
            (["validate"], "Give one of --product or --gateway."),
            (
                [
                    "aps", "purchase", "--merchant-reference", "r", "--amount", "1", "--currency", "AED", "--customer-email", "e",
                    "--credentials", "c",
                ],
                "Give one of --token-name or --wallet."
            ),
            (
                [
                    "mastercard", "pay", "--order", "o", "--transaction", "t", "--amount", "1", "--currency", "EUR", "--credentials", "c",
                    "--session", "s", "--wallet", "apple-pay",
                ],
                "--wallet cannot be combined with --session."
            ),
        ])
    func phrasing(arguments: [String], message: String) throws {
        let result = try CommandRunner.run(arguments, input: "{}")
        #expect(result.status == 64 && result.err.hasPrefix("Error: " + message + "\n"), "\(result.err)")
    }

    @Test("a rule holds when the line meets it: the same commands run past the parser")
    func rulesHold() throws {
        for (spec, arguments) in [
            (
                MastercardPayCommand.spec,
                [
                    "--order", "o", "--transaction", "t", "--amount", "1", "--currency", "EUR", "--credentials", "c", "--wallet",
                    "apple-pay", "--decrypted",
                ]
            ),
            (
                PaysafePayCommand.spec,
                ["--amount", "1", "--currency", "EUR", "--merchant-ref", "r", "--credentials", "c", "--token", "t", "--account", "a"]
            ),
            (ValidateCommand.spec, ["--gateway", "aps", "--operation", "PURCHASE"]),
        ] {
            let line = try ArgumentParser.parse(arguments, spec: spec)
            #expect(spec.rules.allSatisfy { $0.violation(in: line) == nil }, "cse \(spec.name)")
        }
    }
}
