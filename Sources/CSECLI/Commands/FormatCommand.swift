import CSECore
import CSEValidation

/// `cse format`: a value on stdin → the value laid out with a mask.
struct FormatCommand: CLICommand {
    /// The command's description.
    static let spec = CommandSpec(
        name: "format",
        abstract: "Lay out a value read from standard input with a mask.",
        discussion: """
            Masks use the Client SDK syntax: text inside {{…}} is placeholders (9 digit, a lower-case
            letter, A upper-case letter, * any character), text outside is literal. The value is all
            of standard input without one trailing line break; the output is the formatted value and
            a line break. By default a completed group gets no trailing separator
            ("4111111111111111" → "4111 1111 1111 1111"); --as-typed gives the SDK's formatString
            result, which appends the next separator after a completed group, as a text field does
            while the user types.
            """,
        options: Options.self)

    /// The options of `cse format`.
    struct Options: CommandOptions {
        let mask: OptionKey<String>
        let asTyped: OptionKey<Bool>

        init(_ declare: inout OptionDeclarations) {
            mask = declare.required("mask", "MASK", help: "The mask, for example '{{9999}} {{9999}} {{9999}} {{9999}}'.")
            asTyped = declare.flag("as-typed", help: "Append the separator after a completed group (the SDK's formatString).")
        }
    }

    let mask: Mask
    let asTyped: Bool

    /// Validates the arguments.
    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        mask = try MaskOption.parse(arguments[\.mask])
        asTyped = arguments[\.asTyped]
    }

    /// Formats standard input.
    func run() throws(CSEError) -> Int32 {
        let value = try StandardInputValue.read()
        StandardStreams.out((asTyped ? mask.format(value) : mask.formatForDisplay(value)) + "\n")
        return ExitCode.success
    }
}
