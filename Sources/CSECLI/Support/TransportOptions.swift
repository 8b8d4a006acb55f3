import CSEHTTP

/// `--ca-file PEM` and `--timeout SECONDS`: how every command that makes a network call (`cse
/// session …`, `cse seal --session`, the merchant-server commands) configures its transport.
struct TransportOptions: Sendable {
    /// The two keys, in the order the commands list them.
    struct Keys: Sendable {
        /// `--ca-file PEM`.
        let caFile: OptionKey<String?>
        /// `--timeout SECONDS`.
        let timeout: OptionKey<TimeoutArgument?>

        /// Declares the two options.
        init(_ declare: inout OptionDeclarations) {
            caFile = declare.value(
                "ca-file", "PEM", help: "Trust these CA certificates instead of the system store (TLS is always verified).")
            timeout = declare.value(
                "timeout", "SECONDS", as: TimeoutArgument.self,
                help: "The deadline of each call, retries included (default 30; each attempt at most 10).")
        }
    }

    let caFile: String?
    let timeout: Int?

    /// Reads the options; `--timeout` is 1 to 600 seconds.
    init(arguments: ParsedArguments<Keys>) throws(UsageError) {
        caFile = arguments[\.caFile]
        timeout = arguments[\.timeout]?.value
    }

    /// `configuration` with the CA file as its trust and the timeout as its deadline (each
    /// attempt at most 10 s of it).
    func applied(to configuration: HTTPClientConfiguration) -> HTTPClientConfiguration {
        var configuration = configuration
        if let caFile { configuration.trust = .caFile(caFile) }
        if let timeout {
            configuration.deadline = .seconds(timeout)
            configuration.requestTimeout = .seconds(min(timeout, 10))
        }
        return configuration
    }
}
