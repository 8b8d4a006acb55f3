import Foundation

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

/// Hex helpers for vectors.
public enum Hex {
    /// Decodes lower- or upper-case hex; traps on malformed test data.
    public static func decode(_ hex: String) -> [UInt8] {
        let chars = Array(hex.utf8)
        precondition(chars.count % 2 == 0, "odd-length hex in test vector")
        var out = [UInt8]()
        out.reserveCapacity(chars.count / 2)
        func nibble(_ c: UInt8) -> UInt8 {
            switch c {
            case 48...57: return c - 48
            case 97...102: return c - 87
            case 65...70: return c - 55
            default: preconditionFailure("bad hex digit in test vector")
            }
        }
        var i = 0
        while i < chars.count { out.append(nibble(chars[i]) << 4 | nibble(chars[i + 1])); i += 2 }
        return out
    }

    /// Encodes bytes as lower-case hex.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
