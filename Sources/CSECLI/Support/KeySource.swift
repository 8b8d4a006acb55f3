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
    /// A file that holds a private key gets the permission warning of
    /// ``Files/readSecret(_:kind:limit:)``.
    static func load(_ spec: String) throws(CSEError) -> RSAKeyMaterial {
        let material = try RSAKeyMaterial(contents: try read(spec))
        if material.privateKey != nil && !spec.hasPrefix("env:") { Files.warnIfAccessibleByOthers(spec, kind: "private key file") }
        return material
    }

    /// The raw bytes named by `spec`; a file holding a secret (`secretKind`) gets the permission
    /// warning of ``Files/readSecret(_:kind:limit:)``.
    static func read(_ spec: String, secretKind: String? = nil) throws(CSEError) -> [UInt8] {
        if !spec.hasPrefix("env:"), let secretKind { return try Files.readSecret(spec, kind: secretKind) }
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
