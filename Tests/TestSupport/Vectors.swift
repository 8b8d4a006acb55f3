import CSECore
public import Foundation

/// Locates test data for the test targets without bundle machinery.
public enum TestPaths {
    /// The package root, found from this file's path.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The project's own vectors (`Vectors/`).
    public static let projectVectors: URL = packageRoot.appendingPathComponent("Vectors")

    /// Third-party suites (Wycheproof, the JOSE cookbook, seeded OAEP vectors) live outside the
    /// project in `../shared/vectors`, or wherever `CSEKIT_SHARED_VECTORS` points. `nil` when absent,
    /// in which case tests that need them report a clear skip.
    public static let sharedVectors: URL? = {
        let fm = FileManager.default
        if let env = ProcessInfo.processInfo.environment["CSEKIT_SHARED_VECTORS"], fm.fileExists(atPath: env) {
            return URL(fileURLWithPath: env)
        }
        let candidate = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/vectors")
        return fm.fileExists(atPath: candidate.path) ? candidate : nil
    }()

    /// The bytes of a shared vector file, or `nil` when the shared vectors are not present.
    public static func sharedFile(_ relativePath: String) -> Data? {
        guard let base = sharedVectors else { return nil }
        return try? Data(contentsOf: base.appendingPathComponent(relativePath))
    }

    /// The bytes of a project vector file (always present in a checkout).
    public static func projectFile(_ relativePath: String) throws -> Data {
        try Data(contentsOf: projectVectors.appendingPathComponent(relativePath))
    }
}

/// Hex for test vectors: CSECore's `Base16`, trapping on malformed test data.
public enum Hex {
    /// Decodes lower- or upper-case hex; traps on malformed test data.
    public static func decode(_ hex: String) -> [UInt8] {
        guard let bytes = Base16.decode(hex) else { preconditionFailure("malformed hex in test vector") }
        return bytes
    }

    /// Encodes bytes as lower-case hex.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String { Base16.encode(bytes) }
}
