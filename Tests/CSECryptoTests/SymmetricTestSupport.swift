import CSECore
import CSECrypto
import Foundation
import Testing
import TestSupport

/// Shared helpers for the symmetric-crypto tests.
enum SymmetricTestSupport {
    /// Runs `body` and returns the `CSEError` it threw, or `nil` when it returned normally.
    /// Any other error type is recorded as an issue.
    static func error<R>(_ body: () throws -> R) -> CSEError? {
        do {
            _ = try body()
            return nil
        } catch let error as CSEError {
            return error
        } catch {
            Issue.record("unexpected error type: \(error)")
            return nil
        }
    }

    /// A secure key from hex.
    static func key(_ hex: String) -> SecureBytes { SecureBytes(Hex.decode(hex)) }

    /// The bytes of a secure buffer, for comparing with expected test data.
    static func bytes(_ secure: SecureBytes) -> [UInt8] { secure.unsafeCopyToArray() }

    /// `bytes` with bit `bit` (0 = most significant bit of byte 0) inverted.
    static func flipping(_ bytes: [UInt8], bit: Int) -> [UInt8] {
        var copy = bytes
        copy[bit / 8] ^= 0x80 >> UInt8(bit % 8)
        return copy
    }
}

/// The parts of a Wycheproof v1 file the symmetric tests read (schemas `ind_cpa_test_schema.json`,
/// `aead_test_schema.json`, `mac_test_schema.json`).
struct WycheproofFile<Group: Decodable>: Decodable {
    let algorithm: String
    let numberOfTests: Int
    let testGroups: [Group]

    /// The decoded file from `../shared/vectors/wycheproof/testvectors_v1/`.
    static func load(_ name: String) throws -> Self {
        let data = try #require(TestPaths.sharedFile(WycheproofFile.directory + name), "missing \(name)")
        return try JSONDecoder().decode(Self.self, from: data)
    }

    static var directory: String { "wycheproof/testvectors_v1/" }

    /// Whether the shared file is present (tests are disabled with a reason otherwise).
    static func isPresent(_ name: String) -> Bool { TestPaths.sharedFile(directory + name) != nil }
}

/// A Wycheproof verdict.
enum WycheproofResult: String, Decodable {
    case valid, invalid, acceptable
}
