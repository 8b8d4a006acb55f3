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

/// The options every merchant-server command shares: how it picks the platform's environment
/// (see ``Environment``), `--credentials FILE|env:NAME` (a JSON credentials document),
/// `--endpoint URL` (replaces the scheme, host and port of the platform URL; the documented path
/// is kept), `--ca-file PEM` and `--timeout SECONDS`.
struct ServerCallOptions: Sendable {
    /// How a command chooses between the platform's test and production environments.
    enum Environment: Sendable {
        /// `--environment test|production` (APS, Paysafe).
        case choice
        /// `--production` (Worldline: pre-production unless given).
        case productionFlag
        /// No choice: the command's own options say where it goes (Mastercard's `--region`).
        case none
    }

    /// The keys for a command: the environment option first, then credentials, endpoint, CA
    /// file and timeout.
    struct Keys: Sendable {
        /// `--environment test|production` (``Environment/choice``).
        let environment: OptionKey<EnvironmentArgument?>?
        /// `--production` (``Environment/productionFlag``).
        let production: OptionKey<Bool>?
        /// `--credentials FILE|env:NAME`.
        let credentials: OptionKey<String>
        /// `--endpoint URL`.
        let endpoint: OptionKey<OriginArgument?>
        /// `--ca-file` and `--timeout`.
        let transport: TransportOptions.Keys
        /// `--journal FILE` and `--no-journal`, on the commands that move money.
        let journal: JournalOptions.Keys?

        /// Declares the options; `credentialsHelp` names the platform's credentials document;
        /// `journal` adds `--journal` and `--no-journal` (a command that moves money: issue #36).
        init(_ declare: inout OptionDeclarations, credentialsHelp: String, environment: Environment = .none, journal: Bool = false) {
            self.environment =
                environment == .choice
                ? declare.value("environment", "ENV", as: EnvironmentArgument.self, help: "test (default) or production.") : nil
            production =
                environment == .productionFlag
                ? declare.flag("production", help: "Use the production endpoint (default: pre-production).") : nil
            credentials = declare.required("credentials", "FILE", help: credentialsHelp + " (a JSON file, or env:NAME).")
            endpoint = declare.value(
                "endpoint", "URL", as: OriginArgument.self,
                help: "Replace the scheme, host and port of the platform URL (e.g. a test server).")
            transport = TransportOptions.Keys(&declare)
            self.journal = journal ? JournalOptions.Keys(&declare) : nil
        }
    }

    let credentialsSpec: String
    let endpoint: HTTPURL?
    let transport: TransportOptions
    /// `--environment production` or `--production`.
    let isProduction: Bool
    /// `--journal` / `--no-journal`, for a command that moves money.
    let journal: JournalOptions?

    /// Reads the options; the environment follows the keys' ``Environment``.
    init(arguments: ParsedArguments<Keys>) throws(UsageError) {
        credentialsSpec = arguments[\.credentials]
        transport = try TransportOptions(arguments: arguments.group(\.transport))
        endpoint = arguments[\.endpoint]?.url
        journal = arguments.group(\.journal).map(JournalOptions.init(arguments:))
        if arguments.keys.environment != nil {
            isProduction = arguments[\.environment] == .production
        } else {
            isProduction = arguments[\.production]
        }
    }

    /// The credentials document, read from the file or environment variable straight into
    /// wiping buffers; the raw bytes are wiped.
    func credentials() throws(CSEError) -> CredentialsDocument { try Self.credentials(credentialsSpec) }

    /// The credentials document named by `credentialsSpec` (a path, or `env:NAME`).
    static func credentials(_ credentialsSpec: String) throws(CSEError) -> CredentialsDocument {
        if credentialsSpec.hasPrefix("env:") {
            let name = String(credentialsSpec.dropFirst(4))
            guard !name.isEmpty, let value = getenv(name) else {
                throw CSEError(
                    .cliMissingEnvironment, "the environment variable holding the credentials is not set",
                    context: ["variable": name])
            }
            return try CredentialsDocument(bytes: UnsafeRawBufferPointer(start: value, count: strlen(value)))
        }
        var bytes = try Files.readSecret(credentialsSpec, kind: "credentials file", limit: CredentialsDocument.maximumByteCount)
        defer { secureZero(&bytes) }
        return try CredentialsDocument(bytes: bytes)
    }

    /// `--endpoint` when given, else `preset`.
    func environment(_ preset: ServerEnvironment) -> ServerEnvironment { endpoint.map(ServerEnvironment.init(url:)) ?? preset }

    /// The HTTP configuration from `--ca-file` and `--timeout`, with the journal of a command
    /// that moves money.
    var configuration: HTTPClientConfiguration {
        var configuration = transport.applied(to: HTTPClientConfiguration())
        configuration.journal = journal?.journal
        return configuration
    }
}

/// A secret read from a file (`--secret-file`): the file's bytes without one trailing line
/// ending, copied into a wiping buffer; the read buffer is wiped.
enum ServerSecretFile {
    static func read(_ path: String) throws(CSEError) -> SecureBytes {
        var bytes = try Files.readSecret(path, kind: "secret file", limit: 4096)
        defer { secureZero(&bytes) }
        var end = bytes.count
        if end > 0 && bytes[end - 1] == 0x0A { end -= 1 }
        if end > 0 && bytes[end - 1] == 0x0D { end -= 1 }
        guard end > 0 else { throw CSEError(.cliCredentials, "the secret file is empty", context: ["path": path]) }
        return SecureBytes(bytes[..<end])
    }
}
