import CSECore
import CSECrypto
package import CSEJOSE
import CSEPayments

/// `cse encrypt`: plaintext on stdin → one compact JWE line on stdout.
struct EncryptCommand: CLICommand {
    /// The command's description.
    static let spec = CommandSpec(
        name: "encrypt",
        abstract: "Encrypt standard input into a JWE compact serialization.",
        discussion: """
            Reads the plaintext (usually the customer-input JSON) on standard input and writes one
            compact JWE line. The key file may be PEM, DER, a JWK or the Client API public-key
            response {"keyId","publicKey"}; its keyId/kid becomes the JWE kid unless --kid is given.
            With --lines, every input line is a JSON value encrypted verbatim, and every output line
            is {"jwe":"…"} or {"line":N,"error":{…}}.
            """,
        options: Options.self)

    /// The options of `cse encrypt`.
    struct Options: CommandOptions {
        let key: OptionKey<String>
        let kid: OptionKey<String?>
        let alg: OptionKey<String?>
        let enc: OptionKey<String?>
        let lines: OptionKey<Bool>
        let demo: OptionKey<Bool>

        init(_ declare: inout OptionDeclarations) {
            key = declare.required("key", "FILE", help: "The recipient's RSA public key, or a private key (file, or env:NAME).")
            kid = declare.value("kid", "ID", help: "The kid header value (default: the key file's keyId or kid).")
            alg = declare.value("alg", "ALG", help: "RSA-OAEP (default) or RSA-OAEP-256.")
            enc = declare.value(
                "enc", "ENC", help: "A256CBC-HS512 (default), A192CBC-HS384, A128CBC-HS256, A256GCM, A192GCM or A128GCM.")
            lines = declare.flag("lines", help: "Batch mode: one JSON value per input line, one output line per input line.")
            demo = declare.flag("demo", help: "Allow the bundled TEST-ONLY demo key (refused otherwise: its private key is public).")
        }
    }

    let keyPath: String
    let kid: String?
    let algorithm: JWEKeyAlgorithm
    let encryption: JWEContentEncryption
    let lines: Bool
    let allowDemoKey: Bool

    /// Validates the arguments.
    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        keyPath = arguments[\.key]
        kid = arguments[\.kid]
        lines = arguments[\.lines]
        allowDemoKey = arguments[\.demo]
        do throws(CSEError) {
            algorithm = try arguments[\.alg].map { (name) throws(CSEError) in try JWEKeyAlgorithm(name: name) } ?? .rsaOAEP
            encryption = try arguments[\.enc].map { (name) throws(CSEError) in try JWEContentEncryption(name: name) } ?? .a256cbcHS512
        } catch {
            throw UsageError("\(error.reason); see 'cse encrypt --help' for the allowed values.")
        }
    }

    /// Encrypts standard input.
    func run() throws(CSEError) -> Int32 {
        let material = try KeySource.load(keyPath)
        if !allowDemoKey, try RefusedKeys.isRefused(material.publicKey) {
            throw CSEError(.paymentsDemoKeyRefused, "refusing the bundled TEST-ONLY demo key; pass --demo to use it deliberately")
        }
        let encryptor = try JWEEncryptor(
            publicKey: material.publicKey, keyID: kid ?? material.keyID, algorithm: algorithm, encryption: encryption)
        if lines {
            let failures = try BatchRunner().run { _, line in EncryptLines.process(line, with: encryptor) }
            return failures == 0 ? ExitCode.success : ExitCode.failure
        }
        let plaintext = try Files.readStandardInput(limit: JWELimits.default.maxPlaintextBytes, keepingTrailingLineBreak: true)
        StandardStreams.out(try encryptor.encrypt(plaintext) + "\n")
        return ExitCode.success
    }
}

/// The work of one `cse encrypt --lines` line: the line must be JSON; its output is
/// `{"jwe":"…"}`. `cse-bench`'s `encrypt-lines` rows run this through ``BatchRunner`` too.
package enum EncryptLines {
    /// Checks that `line` is one JSON value and encrypts it verbatim.
    package static func process(_ line: [UInt8], with encryptor: JWEEncryptor) -> BatchRunner.LineResult {
        do throws(CSEError) {
            try JSONValue.validate(line)
            // The JWE goes straight into the line's buffer, sized once for it.
            var out = JSONObjectWriter(reservingCapacity: 16 + 2 * line.count + 1024)
            try withContiguousBytes(of: line) { (plaintext) throws(CSEError) in
                try out.string("jwe") { (bytes) throws(CSEError) in try encryptor.encrypt(plaintext, appendingTo: &bytes) }
            }
            return .output(out.finish())
        } catch {
            return .failure(error)
        }
    }
}
