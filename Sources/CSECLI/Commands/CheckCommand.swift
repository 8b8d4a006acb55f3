import CSECore
import CSEValidation

/// `cse check luhn|iban|expiry|email`: one quick check of a value on stdin; the exit code is the verdict.
struct CheckCommand: CLICommand {
    /// The command's description.
    static let spec = CommandSpec(
        name: "check",
        abstract: "Check one value read from standard input; the exit code is the verdict.",
        discussion: """
            Kinds: luhn (ISO/IEC 7812-1 check digit; ASCII digits only), iban (ISO 13616: country
            length, BBAN structure, MOD 97-10; spaces allowed), expiry (MMYY or MMYYYY, from this
            month to 25 years ahead; MM/YY is unmasked first), email (the Client SDK e-mail rule).
            The value is all of standard input without one trailing line break. Exit code 0 when
            valid, 1 when invalid (or on an error, which is printed to stderr). Prints "valid" or
            "invalid: <code>(<parameters>)" unless --quiet; --json prints
            {"check":"…","valid":…,"errors":[{"code":…,…parameters}]} plus "country" for iban and
            "now" for expiry. The value is never echoed.
            """,
        options: Options.self,
        positionals: [.init("KIND", help: "luhn, iban, expiry or email.")])

    /// The options of `cse check`.
    struct Options: CommandOptions {
        let json: OptionKey<Bool>
        let quiet: OptionKey<Bool>
        let now: OptionKey<MonthArgument?>

        init(_ declare: inout OptionDeclarations) {
            json = declare.flag("json", help: "Print the verdict and its details as JSON.")
            quiet = declare.flag("quiet", short: "q", help: "Print nothing; only the exit code tells.")
            now = declare.value(
                "now", "YYYY-MM", as: MonthArgument.self, help: "For expiry: the month treated as now (default: the system clock, UTC).")
            declare.conflict([json], with: quiet)
            declare.need(OptionCondition(positional: 0, "kind", valueSpelling: "expiry") { $0 == "expiry" }, by: [now])
        }
    }

    /// The checks `cse check` knows.
    static let kinds = ["luhn", "iban", "expiry", "email"]

    let kind: String
    let json: Bool
    let quiet: Bool
    let now: CalendarMonth?

    /// Validates the arguments.
    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        kind = arguments.positionals[0]
        guard Self.kinds.contains(kind) else {
            throw UsageError("The value '\(SafeEcho.name(kind))' is invalid for '<kind>'; use \(Self.kinds.joined(separator: ", ")).")
        }
        json = arguments[\.json]
        quiet = arguments[\.quiet]
        now = arguments[\.now]?.month
    }

    /// Checks standard input.
    func run() throws(CSEError) -> Int32 {
        let value = try StandardInputValue.read()
        let context = ValidationContext(currentMonth: now ?? .now())
        var extra: [(String, String)] = []
        let result: ValidationResult
        switch kind {
        case "luhn":
            result = LuhnValidator().validate(value, in: context)
        case "iban":
            result = IBANValidator().validate(value, in: context)
            if let country = IBAN.check(value).country { extra.append(("country", country.code)) }
        case "expiry":
            result = ExpirationDateValidator().validate(Self.unmaskedExpiry(value), in: context)
            extra.append(("now", context.currentMonth.description))
        default:
            result = EmailAddressValidator().validate(value, in: context)
        }
        if json {
            var object = JSONObjectWriter()
            object.string("check", kind)
            object.bool("valid", result.isValid)
            for (key, text) in extra { object.string(key, text) }
            object.array(
                "errors",
                result.failures.map { failure in
                    var item = JSONObjectWriter()
                    item.string("code", failure.code.rawValue)
                    OutputJSON.parameters(failure.parameters, into: &item)
                    return item.finish()
                })
            let out = object.finish() + [0x0A]
            StandardStreams.write(out, to: 1)
        } else if !quiet {
            StandardStreams.out(result.isValid ? "valid\n" : "invalid: \(result.description)\n")
        }
        return result.isValid ? ExitCode.success : ExitCode.failure
    }

    /// `MM/YY` → `MMYY` and `MM/YYYY` → `MMYYYY`; anything else is checked as given.
    static func unmaskedExpiry(_ value: String) -> String {
        let bytes = Array(value.utf8)
        guard bytes.count == 5 || bytes.count == 7, bytes[2] == UInt8(ascii: "/") else { return value }
        var digits = bytes
        digits.remove(at: 2)
        guard digits.allSatisfy({ $0.isASCIIDigit }) else { return value }
        return String(decoding: digits, as: UTF8.self)
    }
}
