import CSECore
import CSEValidation

/// `cse iin`: a (partial) card number on stdin → its IIN details as JSON.
struct IINCommand: CLICommand {
    /// The command's description.
    static let spec = CommandSpec(
        name: "iin",
        abstract: "Look up the IIN (BIN) details of a partial card number read from standard input.",
        discussion: """
            Reads 1–19 digits (spaces allowed, one trailing line break ignored) and writes
            {"status":"SUPPORTED|EXISTING_BUT_NOT_ALLOWED|UNKNOWN|NOT_ENOUGH_DIGITS","productId":…,
            "isAllowedInContext":…,"countryCode":…,"cardType":…,"issuer":…,"coBrands":[…]}
            (unknown values are null). The first 8 digits are used when there are at least 8,
            else the first 6; fewer than 6 give NOT_ENOUGH_DIGITS. Without --table the embedded
            card-brand table answers (product ids are brand ids such as visa; no country, card type
            or issuer). Without --allow every product is allowed. Any status exits 0; input that is
            not a card number exits 1. The digits are never echoed.
            With --lines, every input line is a JSON string ("41111111") or bare digits, and every
            output line is the details object or {"line":N,"error":{…}}.
            """,
        options: Options.self)

    /// The options of `cse iin`.
    struct Options: CommandOptions {
        let table: OptionKey<String?>
        let allow: OptionKey<String?>
        let lines: OptionKey<Bool>

        init(_ declare: inout OptionDeclarations) {
            table = declare.value(
                "table", "FILE", help: "An IIN table CSV (low,high,productId,country,cardType,issuer; see docs/IIN-CSV.md).")
            allow = declare.value("allow", "IDS", help: "Comma-separated product ids allowed in this context (default: all).")
            lines = declare.flag("lines", help: "Batch mode: one number per input line, one output line per input line.")
        }
    }

    let tablePath: String?
    let allowed: Set<String>?
    let lines: Bool

    /// Validates the arguments.
    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        tablePath = arguments[\.table]
        allowed = arguments[\.allow].map { Set($0.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }) }
        lines = arguments[\.lines]
    }

    /// Looks up standard input.
    func run() throws(CSEError) -> Int32 {
        let lookup = try IINLookup(tablePath: tablePath, allowed: allowed)
        if lines {
            let failures = try BatchRunner().run { _, line in
                do throws(CSEError) {
                    return .output(OutputJSON.iin(try lookup.details(for: try Self.lineValue(line))))
                } catch {
                    return .failure(error)
                }
            }
            return failures == 0 ? ExitCode.success : ExitCode.failure
        }
        let details = try lookup.details(for: try StandardInputValue.read())
        StandardStreams.write(OutputJSON.iin(details) + [0x0A], to: 1)
        return ExitCode.success
    }

    /// A `--lines` line: a JSON string, or the bare text.
    static func lineValue(_ line: [UInt8]) throws(CSEError) -> String {
        if line.first == UInt8(ascii: "\"") {
            guard let text = try JSONValue.parse(line).stringValue else {
                throw CSEError(.cliNotDigits, "the line must be a JSON string or bare digits")
            }
            return text
        }
        guard let text = String(validating: line, as: UTF8.self) else {
            throw CSEError(.cliNotText, "the line is not UTF-8 text")
        }
        return text
    }
}
