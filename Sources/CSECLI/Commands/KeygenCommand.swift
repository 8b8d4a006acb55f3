import CSECore
import CSECrypto

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
        options: [
            .value("bits", "N", help: "Modulus size, 2048 (default) to 16384."),
            .value("out", "DIR", required: true, help: "The directory to write into (must exist)."),
            .value("key-id", "ID", help: "The keyId for public-key.json (default: a random UUID)."),
            .flag("force", help: "Overwrite existing files."),
        ])

    let bits: Int
    let directory: String
    let keyId: String?
    let force: Bool

    /// Validates the arguments.
    init(arguments: ParsedArguments) throws(UsageError) {
        bits = try arguments.integer("bits") ?? 2048
        guard (2048...16384).contains(bits) else { throw UsageError("The value for '--bits' must be between 2048 and 16384.") }
        directory = arguments.required("out")
        keyId = arguments["key-id"]
        force = arguments.has("force")
    }

    /// Generates and writes the key pair.
    func run() throws(CSEError) -> Int32 {
        let key = try RSAPrivateKey.generate(bits: bits)
        let id: String
        if let keyId { id = keyId } else { id = try Self.randomUUID() }
        var object = JSONObjectWriter()
        object.string("keyId", id)
        object.string("publicKey", Base64.encode(key.publicKey.derRepresentation))
        let response = object.finish() + [UInt8(ascii: "\n")]
        try Files.write(Array(try key.pemRepresentation.utf8), to: directory + "/private.pem", mode: 0o600, force: force)
        try Files.write(Array(key.publicKey.pemRepresentation.utf8), to: directory + "/public.pem", mode: 0o644, force: force)
        try Files.write(response, to: directory + "/public-key.json", mode: 0o644, force: force)
        StandardStreams.out("wrote \(directory)/private.pem, \(directory)/public.pem, \(directory)/public-key.json (RSA-\(bits), keyId \(id))\n")
        return ExitCode.success
    }

    /// A version-4 UUID from the CSPRNG (RFC 9562 §5.4), lower case.
    static func randomUUID() throws(CSEError) -> String {
        try SecureRandom.uuidV4()
    }
}
