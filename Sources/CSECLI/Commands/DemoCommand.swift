import CSECore
import CSECrypto
import CSEDemoKeys
import CSEJOSE
import CSEPayments
import CSEValidation

/// `cse demo`: validates, seals and decrypts a sample card and a sample IBAN with embedded
/// defaults only (built-in products, the bundled TEST-ONLY demo key pair), and shows each step.
struct DemoCommand: CLICommand {
    /// The command's description.
    static let spec = CommandSpec(
        name: "demo",
        abstract: "Walk through validate, seal and decrypt with embedded defaults (no setup).",
        discussion: """
            Uses only what is built in: the card and SEPA direct-debit products and the bundled
            TEST-ONLY demo key pair (its private key is published in the source, so anything it
            seals can be read by anyone; 'cse seal' refuses it unless --demo). For a test card
            (4111 1111 1111 1111, expiring three years from now by the system clock) and the SWIFT
            IBAN Registry's example German IBAN it shows the input, the IIN lookup, validation,
            a deliberate typo being caught, the sealed encryptedCustomerInput, the decrypted payload
            and the round-trip check. Card numbers are shown as first 6 / last 4, CVVs not at all.
            Reads nothing. Exit code 0 when every step gave the expected result, 1 otherwise.
            """,
        options: Options.self)

    /// The options of `cse demo`.
    struct Options: CommandOptions {
        let json: OptionKey<Bool>

        init(_ declare: inout OptionDeclarations) {
            json = declare.flag("json", help: "Print the steps as one JSON object instead of text.")
        }
    }

    let json: Bool

    /// Validates the arguments.
    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        json = arguments[\.json]
    }

    /// Runs the demo.
    func run() throws(CSEError) -> Int32 {
        let now = CalendarMonth.now()
        let sealer = try PaymentRequestSealer(
            publicKeyResponse: DemoKeys.testOnlyPublicKeyResponse,
            options: SealingOptions(allowDemoKey: true, currentMonth: now))
        let decryptor = try JWEDecryptor(privateKey: DemoKeys.testOnlyPrivateKey(), expectedKeyID: DemoKeys.testOnlyKeyID)
        let results = Self.scenarios(now: now).map { ($0, $0.run(sealer: sealer, decryptor: decryptor, now: now)) }
        let steps = results.flatMap(\.1)
        let failed = steps.filter { !$0.ok }.count
        if json {
            StandardStreams.write(Self.json(results, now: now, ok: failed == 0) + [0x0A], to: 1)
        } else {
            StandardStreams.out(Self.text(results, now: now, stepCount: steps.count, failed: failed))
        }
        guard failed == 0 else {
            throw CSEError(.cliDemoFailed, "a demo step did not give the expected result", context: ["failedSteps": String(failed)])
        }
        return ExitCode.success
    }

    /// The card and the SEPA scenario.
    static func scenarios(now: CalendarMonth) -> [DemoScenario] {
        let year = (now.year + 3) % 100
        let expiry = (now.month < 10 ? "0" : "") + "\(now.month)/" + (year < 10 ? "0" : "") + "\(year)"
        // The SWIFT IBAN Registry's example for Germany, from the embedded registry.
        let example = IBANCountry.named("DE")?.example ?? "DE89370400440532013000"
        var typoIBAN = Array(example)
        typoIBAN[typoIBAN.count - 1] = typoIBAN[typoIBAN.count - 1] == "1" ? "2" : "1"
        return [
            DemoScenario(
                title: "Card payment (product \"card\", a test card number)",
                product: BuiltinProducts.card,
                values: [
                    ("cardNumber", "4111 1111 1111 1111"), ("expiryDate", expiry), ("cvv", "123"),
                    ("cardholderName", "Demo Cardholder"),
                ],
                typo: ("cardNumber", "4111 1111 1111 1112", .luhn)),
            DemoScenario(
                title: "SEPA direct debit (product \"sepa-direct-debit\", the IBAN Registry example)",
                product: BuiltinProducts.sepaDirectDebit,
                values: [("iban", example), ("accountHolderName", "Demo Account Holder")],
                typo: ("iban", String(typoIBAN), .iban)),
        ]
    }

    /// The readable report: the key warning, the clock, each scenario's numbered steps, the verdict.
    static func text(_ results: [(DemoScenario, [DemoStep])], now: CalendarMonth, stepCount: Int, failed: Int) -> String {
        var out = """
            CSEKit demo: validate, seal and decrypt two payments with embedded defaults only.

            Key    \(DemoKeys.testOnlyKeyID) (RSA-\(DemoKeys.testOnlyPublicKey.bitCount), RSA-OAEP + A256CBC-HS512)
                   TEST-ONLY: its private key is published in CSEKit's source, so anyone can read
                   what it seals. 'cse seal' refuses it unless --demo. Never use it for real data.
            Clock  \(now) (system clock, UTC)

            """
        for (scenario, steps) in results {
            out += "\n\(scenario.title)\n"
            for (index, step) in steps.enumerated() {
                let label = "  \(index + 1) \(step.name)"
                let pad = String(repeating: " ", count: max(1, 16 - label.count))
                let indent = String(repeating: " ", count: 16)
                for (lineIndex, line) in step.text.enumerated() {
                    out += (lineIndex == 0 ? label + pad : indent) + line + "\n"
                }
                if !step.ok { out += indent + "^ FAILED: this step did not give the expected result\n" }
            }
        }
        out += "\n"
        out += failed == 0 ? "All \(stepCount) steps passed.\n" : "\(failed) of \(stepCount) steps FAILED.\n"
        out += """

            Next:  cse validate --product builtin:card < card.json     (field values as a JSON object)
                   cse keygen --out DIR
                   cse seal --product builtin:card --key DIR/public-key.json --session-id ID < card.json
                   See 'cse --help' and docs/CLI.md.

            """
        return out
    }

    /// The report as one JSON object: `ok`, `keyId`, `testOnlyKey`, `now`, and per scenario its steps.
    static func json(_ results: [(DemoScenario, [DemoStep])], now: CalendarMonth, ok: Bool) -> [UInt8] {
        var out = JSONObjectWriter()
        out.bool("ok", ok)
        out.string("keyId", DemoKeys.testOnlyKeyID)
        out.bool("testOnlyKey", true)
        out.string("now", now.description)
        out.array(
            "scenarios",
            results.map { scenario, steps in
                var item = JSONObjectWriter()
                item.string("product", scenario.product.id)
                item.array(
                    "steps",
                    steps.map { step in
                        var entry = JSONObjectWriter()
                        entry.string("step", step.name)
                        entry.bool("ok", step.ok)
                        for (name, value) in step.json { entry.serialized(name, value) }
                        return entry.finish()
                    })
                return item.finish()
            })
        return out.finish()
    }
}
