import CSECore
import CSECrypto
import CSEHTTP
import CSEServerAPI
#if canImport(Glibc)
import Glibc
#endif

extension CSEError.Code {
    /// `--credentials env:NAME` or `--secret-file` names nothing usable.
    static let cliCredentials = Self("cli.credentials")
}

/// The options every merchant-server command shares: `--credentials FILE|env:NAME` (a JSON
/// credentials document), `--endpoint URL` (replaces the scheme, host and port of the platform
/// URL; the documented path is kept), `--ca-file PEM` and `--timeout SECONDS`.
struct ServerCallOptions: Sendable {
    static func options(credentialsHelp: String) -> [CommandSpec.Option] {
        [
            .value("credentials", "FILE", required: true, help: credentialsHelp + " (a JSON file, or env:NAME)."),
            .value("endpoint", "URL", help: "Replace the scheme, host and port of the platform URL (e.g. a test server)."),
            .value("ca-file", "PEM", help: "Trust these CA certificates instead of the system store (TLS is always verified)."),
            .value("timeout", "SECONDS", help: "The deadline of each call, retries included (default 30; each attempt at most 10)."),
        ]
    }

    let credentialsSpec: String
    let endpoint: HTTPURL?
    let caFile: String?
    let timeout: Int?

    init(arguments: ParsedArguments) throws(UsageError) {
        credentialsSpec = arguments.required("credentials")
        caFile = arguments["ca-file"]
        timeout = try arguments.integer("timeout")
        if let timeout, !(1...600).contains(timeout) { throw UsageError("The value for '--timeout' must be 1 to 600 seconds.") }
        if let text = arguments["endpoint"] {
            let parsed: HTTPURL
            do throws(CSEError) { parsed = try HTTPURL(text) } catch {
                throw UsageError("The value for '--endpoint' must be an https URL (http only to loopback): \(error.code.rawValue).")
            }
            guard parsed.path.isEmpty || parsed.path == "/", parsed.query == nil else {
                throw UsageError("'--endpoint' takes an origin (scheme://host[:port]); the documented path is appended.")
            }
            endpoint = parsed
        } else {
            endpoint = nil
        }
    }

    /// The credentials document, read from the file or environment variable straight into
    /// wiping buffers; the raw bytes are wiped.
    func credentials() throws(CSEError) -> CredentialsDocument {
        if credentialsSpec.hasPrefix("env:") {
            let name = String(credentialsSpec.dropFirst(4))
            guard !name.isEmpty, let value = getenv(name) else {
                throw CSEError(
                    .cliMissingEnvironment, "the environment variable holding the credentials is not set",
                    context: ["variable": name])
            }
            return try CredentialsDocument(bytes: UnsafeRawBufferPointer(start: value, count: strlen(value)))
        }
        var bytes = try Files.read(credentialsSpec, limit: CredentialsDocument.maximumByteCount)
        defer { secureZero(&bytes) }
        return try CredentialsDocument(bytes: bytes)
    }

    /// `url` with its origin replaced by `--endpoint`, if given.
    func url(_ url: HTTPURL) -> HTTPURL { endpoint.map { url.replacingOrigin(with: $0) } ?? url }

    /// The transport configured from `--ca-file` and `--timeout`.
    func http() throws(CSEError) -> HTTPClient {
        var configuration = HTTPClientConfiguration()
        if let caFile { configuration.trust = .caFile(caFile) }
        if let timeout {
            configuration.deadline = .seconds(timeout)
            configuration.requestTimeout = .seconds(min(timeout, 10))
        }
        return try HTTPClient(configuration: configuration)
    }
}

/// A secret read from a file (`--secret-file`): the file's bytes without one trailing line
/// ending, copied into a wiping buffer; the read buffer is wiped.
enum ServerSecretFile {
    static func read(_ path: String) throws(CSEError) -> SecureBytes {
        var bytes = try Files.read(path, limit: 4096)
        defer { secureZero(&bytes) }
        var end = bytes.count
        if end > 0 && bytes[end - 1] == 0x0A { end -= 1 }
        if end > 0 && bytes[end - 1] == 0x0D { end -= 1 }
        guard end > 0 else { throw CSEError(.cliCredentials, "the secret file is empty", context: ["path": path]) }
        return SecureBytes(bytes[..<end])
    }

    /// Writes a JSON value and a newline to standard output.
    static func print(_ value: JSONValue) {
        StandardStreams.write(value.serializedBytes + [0x0A], to: 1)
    }
}
