import Foundation
import TestSupport
import Testing

/// The Worldline SDKs' own response fixtures, read from `../shared/vectors/client-api/` (never
/// copied into the project). Tests that need them are disabled, with this reason, when absent.
enum ClientAPIFixtures {
    static let skipReason: Comment = "needs the third-party fixtures in ../shared/vectors/client-api (absent)"

    /// Whether the fixtures are present.
    static let available: Bool = TestPaths.sharedFile("client-api/PROVENANCE.md") != nil

    /// The bytes of `client-api/<path>`.
    static func bytes(_ path: String) throws -> [UInt8] {
        guard let data = TestPaths.sharedFile("client-api/\(path)") else {
            throw FixtureMissing(path: path)
        }
        return Array(data)
    }

    struct FixtureMissing: Error { let path: String }
}
