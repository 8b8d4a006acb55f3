import CSECore
import CSECrypto
import CSEPayments
#if canImport(Glibc)
import Glibc
#endif

/// Where `--key` reads a key from: a file path, or `env:NAME` for an environment variable
/// (for CI secrets). Keys never come from the command line itself (see docs/CLI.md).
enum KeySource {
    /// The key material named by `spec`.
    /// - Parameter spec: A path, or `env:NAME`. Use `./env:x` for a file literally named `env:x`.
    /// - Throws: `cli.file`, `cli.missingEnvironment`, or the key-import errors of
    ///   `RSAKeyMaterial(contents:)`. Errors name the path or variable, never the content.
    static func load(_ spec: String) throws(CSEError) -> RSAKeyMaterial {
        try RSAKeyMaterial(contents: try read(spec))
    }

    /// The raw bytes named by `spec`.
    static func read(_ spec: String) throws(CSEError) -> [UInt8] {
        guard spec.hasPrefix("env:") else { return try Files.read(spec) }
        let name = String(spec.dropFirst(4))
        guard !name.isEmpty, let value = getenv(name) else {
            throw CSEError(
                .cliMissingEnvironment, "the environment variable holding the key is not set",
                context: ["variable": SafeEcho.name(name)])
        }
        return Array(String(cString: value).utf8)
    }
}
