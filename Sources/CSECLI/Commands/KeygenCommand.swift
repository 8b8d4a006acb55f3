import CSECore
import CSECrypto
#if canImport(Glibc)
import Glibc
#endif

/// `cse keygen`: writes a test RSA key pair.
struct KeygenCommand: CLICommand {
    /// The command's description.
    static let spec = CommandSpec(
        name: "keygen",
        abstract: "Generate an RSA key pair for testing (PEM files).",
        discussion: """
            Writes DIR/private.pem (PKCS#8, mode 0600), DIR/public.pem (SubjectPublicKeyInfo) and
            DIR/public-key.json (the Client API response form {"keyId","publicKey"}). Existing
            files are never overwritten unless --force is given. Keys come from OpenSSL's CSPRNG.
            """,
        options: Options.self)

    /// The options of `cse keygen`.
    struct Options: CommandOptions {
        let bits: OptionKey<KeyBitsArgument?>
        let out: OptionKey<String>
        let keyID: OptionKey<String?>
        let force: OptionKey<Bool>

        init(_ declare: inout OptionDeclarations) {
            bits = declare.value("bits", "N", as: KeyBitsArgument.self, help: "Modulus size, 2048 (default) to 16384.")
            out = declare.required("out", "DIR", help: "The directory to write into (must exist).")
            keyID = declare.value("key-id", "ID", help: "The keyId for public-key.json (default: a random UUID).")
            force = declare.flag("force", help: "Overwrite existing files.")
        }
    }

    let bits: Int
    let directory: String
    let keyID: String?
    let force: Bool

    /// Validates the arguments.
    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        bits = arguments[\.bits]?.value ?? 2048
        directory = arguments[\.out]
        keyID = arguments[\.keyID]
        force = arguments[\.force]
    }

    /// The files written, in order, with their modes.
    static let files: [(name: String, mode: mode_t)] = [("private.pem", 0o600), ("public.pem", 0o644), ("public-key.json", 0o644)]

    /// Generates and writes the key pair. Every target is checked before the key is generated
    /// (none may exist unless `--force`, and none may be anything but a regular file), and each
    /// file is written whole by ``Files/writeAtomically(_:to:mode:replacing:)`` or not at all.
    func run() throws(CSEError) -> Int32 {
        let paths = Self.files.map { directory + "/" + $0.name }
        try Files.checkDirectory(directory)
        for path in paths { try Files.checkTarget(path, replacing: force) }
        let key = try RSAPrivateKey.generate(bits: bits)
        let id: String
        if let keyID { id = keyID } else { id = try Self.randomUUID() }
        var object = JSONObjectWriter()
        object.string("keyId", id)
        object.string("publicKey", Base64.encode(key.publicKey.derRepresentation))
        let response = object.finish() + [UInt8(ascii: "\n")]
        var privatePEM = Array(try key.pemRepresentation.utf8)
        defer { secureZero(&privatePEM) }
        let contents = [privatePEM, Array(key.publicKey.pemRepresentation.utf8), response]
        for (index, path) in paths.enumerated() {
            try Files.writeAtomically(contents[index], to: path, mode: Self.files[index].mode, replacing: force)
        }
        let shown = SafeEcho.text(directory)
        StandardStreams.out(
            "wrote \(Self.files.map { shown + "/" + $0.name }.joined(separator: ", ")) (RSA-\(bits), keyId \(SafeEcho.text(id, limit: 64)))\n"
        )
        return ExitCode.success
    }

    /// A version-4 UUID from the CSPRNG (RFC 9562 §5.4), lower case.
    static func randomUUID() throws(CSEError) -> String {
        try SecureRandom.uuidV4()
    }
}
