import CSECore
import CSECrypto
import CSEJOSE
import CSEPayments

/// `cse decrypt`: a compact JWE on stdin → the plaintext on stdout.
struct DecryptCommand: CLICommand {
    /// The command's description.
    static let spec = CommandSpec(
        name: "decrypt",
        abstract: "Decrypt a JWE compact serialization read from standard input.",
        discussion: """
            For the service that holds the private key. Writes the plaintext bytes exactly. Every
            key, tag and padding failure reports the same jwe.decryptionFailed error.
            With --lines, every input line is a compact JWE and every output line is
            {"plaintext":"…"} (the plaintext as a JSON string) or {"line":N,"error":{…}}.
            """,
        options: Options.self)

    /// The options of `cse decrypt`.
    struct Options: CommandOptions {
        let key: OptionKey<String>
        let kid: OptionKey<String?>
        let lines: OptionKey<Bool>

        init(_ declare: inout OptionDeclarations) {
            key = declare.required("key", "FILE", help: "The RSA private key, PEM, DER or JWK (file, or env:NAME).")
            kid = declare.value("kid", "ID", help: "Refuse JWEs whose kid differs.")
            lines = declare.flag("lines", help: "Batch mode: one compact JWE per input line, one output line per input line.")
        }
    }

    let keyPath: String
    let kid: String?
    let lines: Bool

    /// Validates the arguments.
    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        keyPath = arguments[\.key]
        kid = arguments[\.kid]
        lines = arguments[\.lines]
    }

    /// Decrypts standard input.
    func run() throws(CSEError) -> Int32 {
        let material = try KeySource.load(keyPath)
        guard let privateKey = material.privateKey else {
            throw CSEError(.keyUnsupportedType, "decryption needs a private key; the key file holds only a public key")
        }
        let decryptor = try JWEDecryptor(privateKey: privateKey, expectedKeyID: kid)
        if lines {
            let failures = try BatchRunner().run { _, line in
                do throws(CSEError) {
                    let plaintext = try line.withCSEBytes { (bytes) throws(CSEError) in try decryptor.decrypt(bytes).plaintext }
                    guard let text = plaintext.withUnsafeBytes({ String(validating: $0, as: UTF8.self) }) else {
                        throw CSEError(.cliNotText, "the plaintext is not UTF-8 text")
                    }
                    var out = JSONObjectWriter()
                    out.string("plaintext", text)
                    return .output(out.finish())
                } catch {
                    return .failure(error)
                }
            }
            return failures == 0 ? ExitCode.success : ExitCode.failure
        }
        let input = Files.trimmingTrailingWhitespace(try Files.readStandardInput(limit: JWELimits.default.maxCompactBytes + 2))
        let result = try Array(input).withCSEBytes { (bytes) throws(CSEError) in try decryptor.decrypt(bytes) }
        StandardStreams.write(result.plaintext.unsafeCopyToArray(), to: 1)
        return ExitCode.success
    }
}

extension CSEError.Code {
    /// A decrypted plaintext is not UTF-8 and cannot be printed as a JSON string.
    static let cliNotText = Self("cli.notText")
}
