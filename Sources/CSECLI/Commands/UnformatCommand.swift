import CSECore
import CSEValidation

/// `cse unformat`: a formatted value on stdin → the characters that fill the mask's placeholders.
struct UnformatCommand: CLICommand {
    /// The command's description.
    static let spec = CommandSpec(
        name: "unformat",
        abstract: "Remove a mask from a value read from standard input.",
        discussion: """
            Keeps only the characters that fill the mask's placeholders, as the Client SDKs'
            unformatString does ("12/35" with {{99}}/{{99}} → "1235"); characters that do not fit
            are dropped and input beyond the mask is cut off. The value is all of standard input
            without one trailing line break; the output is the unformatted value and a line break.
            """,
        options: Options.self)

    /// The options of `cse unformat`.
    struct Options: CommandOptions {
        let mask: OptionKey<String>

        init(_ declare: inout OptionDeclarations) {
            mask = declare.required("mask", "MASK", help: "The mask, for example '{{99}}/{{99}}'.")
        }
    }

    let mask: Mask

    /// Validates the arguments.
    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        mask = try MaskOption.parse(arguments[\.mask])
    }

    /// Unformats standard input.
    func run() throws(CSEError) -> Int32 {
        StandardStreams.out(mask.unformat(try StandardInputValue.read()) + "\n")
        return ExitCode.success
    }
}
