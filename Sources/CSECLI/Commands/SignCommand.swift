import CSECore
import CSEGateways

/// Reads an APS SHA phrase from a file: the file's bytes without one trailing line ending
/// (`\n` or `\r\n`), as UTF-8. The phrase never comes from the command line, where other users
/// could read it.
enum PhraseFile {
    static func read(_ path: String) throws(CSEError) -> String {
        var bytes = try Files.readSecret(path, kind: "phrase file", limit: 4096)
        defer { secureZero(&bytes) }
        var end = bytes.count
        if end > 0 && bytes[end - 1] == 0x0A { end -= 1 }
        if end > 0 && bytes[end - 1] == 0x0D { end -= 1 }
        guard end > 0 else { throw CSEError(.apsSignatureEmptyPhrase, "the phrase file is empty", context: ["path": SafeEcho.text(path)]) }
        guard let phrase = String(validating: bytes[..<end], as: UTF8.self) else {
            throw CSEError(.cliNotText, "the phrase file is not UTF-8 text", context: ["path": SafeEcho.text(path)])
        }
        return phrase
    }

    /// The declaration of `--algorithm`, shared by `sign` and `verify`.
    static func algorithmKey(_ declare: inout OptionDeclarations) -> OptionKey<SignatureAlgorithmArgument?> {
        declare.value("algorithm", "ALG", as: SignatureAlgorithmArgument.self, help: "sha256 (default), sha512 or sha1 (APS 'SHA-128').")
    }

    static func object(_ input: [UInt8]) throws(CSEError) -> JSONObject {
        guard case .object(let object) = try JSONValue.parse(input) else {
            throw CSEError(.gatewayInputNotObject, "the parameters must be a JSON object")
        }
        return object
    }
}

/// `cse aps sign` (formerly `cse sign`): the APS signature of the parameters on standard input.
struct SignCommand: CLICommand {
    /// The command's description.
    static let spec = CommandSpec(
        name: "aps sign",
        abstract: "Compute the Amazon Payment Services signature of parameters on standard input.",
        discussion: """
            Reads the request parameters as one JSON object and prints the signature in lowercase
            hex: parameters sorted by name (case-sensitive), written name=value without separators,
            the SHA phrase before and after, hashed. A 'signature' member is ignored. The phrase is
            read from a file (one trailing newline is dropped), never from the command line.
            """,
        options: Options.self)

    /// The options of `cse aps sign`.
    struct Options: CommandOptions {
        let phraseFile: OptionKey<String>
        let algorithm: OptionKey<SignatureAlgorithmArgument?>

        init(_ declare: inout OptionDeclarations) {
            phraseFile = declare.required("phrase-file", "FILE", help: "The SHA request (or response) phrase.")
            algorithm = PhraseFile.algorithmKey(&declare)
        }
    }

    let phrasePath: String
    let algorithm: APSSignatureAlgorithm

    /// Validates the arguments.
    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        phrasePath = arguments[\.phraseFile]
        algorithm = arguments[\.algorithm]?.algorithm ?? .sha256
    }

    /// Signs standard input.
    func run() throws(CSEError) -> Int32 {
        let phrase = try PhraseFile.read(phrasePath)
        let parameters = try PhraseFile.object(try Files.readStandardInput(limit: 1 << 20))
        StandardStreams.out(try APSSignature.sign(parameters, phrase: phrase, algorithm: algorithm) + "\n")
        return ExitCode.success
    }
}
