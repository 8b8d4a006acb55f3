import CSECore
import CSEGateways

/// `cse aps verify` (formerly `cse verify`): checks the APS signature of a response on standard input, and optionally that
/// it echoes a request.
struct VerifyCommand: CLICommand {
    /// The command's description.
    static let spec = CommandSpec(
        name: "aps verify",
        abstract: "Verify the Amazon Payment Services signature of a response on standard input.",
        discussion: """
            Reads the response parameters, including 'signature', as one JSON object and checks the
            signature with the SHA response phrase. With --request, also checks that every request
            parameter comes back unchanged (card_number may come back masked). Prints
            {"valid","signatureValid","missingParameters","changedParameters"} and exits 0 when
            valid, 1 when not. The phrase is read from a file, never from the command line.
            """,
        options: Options.self)

    /// The options of `cse aps verify`.
    struct Options: CommandOptions {
        let phraseFile: OptionKey<String>
        let algorithm: OptionKey<SignatureAlgorithmArgument?>
        let request: OptionKey<String?>

        init(_ declare: inout OptionDeclarations) {
            phraseFile = declare.required("phrase-file", "FILE", help: "The SHA response phrase.")
            algorithm = PhraseFile.algorithmKey(&declare)
            request = declare.value("request", "FILE", help: "The request parameters (JSON) the response must echo.")
        }
    }

    let phrasePath: String
    let algorithm: APSSignatureAlgorithm
    let requestPath: String?

    /// Validates the arguments.
    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        phrasePath = arguments[\.phraseFile]
        algorithm = arguments[\.algorithm]?.algorithm ?? .sha256
        requestPath = arguments[\.request]
    }

    /// Verifies standard input.
    func run() throws(CSEError) -> Int32 {
        let phrase = try PhraseFile.read(phrasePath)
        let response = try PhraseFile.object(try Files.readStandardInput(limit: 1 << 20))
        let request = try requestPath.map { (path) throws(CSEError) in try PhraseFile.object(try Files.read(path)) } ?? JSONObject()
        let result = try APSSignature.verifyResponse(
            request: request, response: response, responsePhrase: phrase,
            algorithm: algorithm)
        let report = JSONValue.object(
            JSONObject([
                ("valid", .bool(result.isValid)), ("signatureValid", .bool(result.signatureValid)),
                ("missingParameters", .array(result.missingParameters.map(JSONValue.string))),
                ("changedParameters", .array(result.changedParameters.map(JSONValue.string))),
            ]))
        StandardStreams.write(report.serializedBytes + [0x0A], to: 1)
        return result.isValid ? ExitCode.success : ExitCode.failure
    }
}
