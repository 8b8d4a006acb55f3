import CSECore
@testable import CSEWallets
import Foundation
import Testing

/// Reading root-key documents in Google's published format.
@Suite("Google Pay root keys: the keys.json document format, read strictly")
struct GooglePayRootKeysTests {
    static let spki = GooglePayRootKeyFetcherTests.generatorSPKI

    static func document(_ entries: String...) -> [UInt8] { Array("{\"keys\":[\(entries.joined(separator: ","))]}".utf8) }
    static func entry(_ version: String, expiration: String? = "2154841200000", key: String = spki) -> String {
        let expiry = expiration.map { ",\"keyExpiration\":\"\($0)\"" } ?? ""
        return "{\"keyValue\":\"\(key)\",\"protocolVersion\":\"\(version)\"\(expiry)}"
    }

    @Test("Google's layout reads, escaped slashes included; unknown versions, and ECv2 keys without keyExpiration, are skipped")
    func reads() throws {
        let escaped = Self.spki.replacingOccurrences(of: "/", with: "\\/")
        let keys = try GooglePayRootKeys(
            document: Self.document(
                Self.entry("ECv1", expiration: nil, key: escaped), Self.entry("ECv2"), Self.entry("ECv2SigningOnly"), Self.entry("ECv3"),
                Self.entry("ECv2", expiration: nil)))
        #expect(keys.count == 3)
        #expect(keys.usableKeys(for: .ecV1, now: 9_000_000_000_000)?.count == 1)
        #expect(keys.usableKeys(for: .ecV2, now: 2_154_841_199_999)?.count == 1)
        #expect(keys.usableKeys(for: .ecV2, now: 2_154_841_200_000) == nil)  // all expired
        let onlyECv2 = try GooglePayRootKeys(document: Self.document(Self.entry("ECv2")))
        #expect(onlyECv2.usableKeys(for: .ecV1, now: 0)?.isEmpty == true)  // none at all
    }

    @Test("Malformed documents are wallet.malformed: not JSON, no keys, bad key, bad or missing expiry, too many keys, too large")
    func refuses() {
        let bad: [[UInt8]] = [
            Array("not json".utf8),
            Array("[]".utf8),
            Array("{\"keys\":{}}".utf8),
            Self.document("\"ECv2\""),
            Self.document(Self.entry("ECv2", expiration: "12x")),
            Self.document(Self.entry("ECv2", expiration: "")),
            Self.document(Self.entry("ECv2", expiration: "1234567890123456789")),
            Self.document("{\"keyValue\":\"\(Self.spki)\",\"protocolVersion\":\"ECv2\",\"keyExpiration\":2154841200000}"),
            Self.document(Self.entry("ECv2", key: "AAAA")),
            Self.document(Self.entry("ECv2", key: "not base64!")),
            Self.document("{\"protocolVersion\":\"ECv2\",\"keyExpiration\":\"1\"}"),
            Self.document("{\"keyValue\":\"\(Self.spki)\",\"keyExpiration\":\"1\"}"),
            Self.document(contentsOf: Array(repeating: Self.entry("ECv2"), count: GooglePayRootKeys.maximumKeyCount + 1)),
            Array("{\"keys\":[],\"pad\":\"\(String(repeating: "a", count: GooglePayRootKeys.maximumDocumentByteCount))\"}".utf8),
        ]
        for (index, document) in bad.enumerated() {
            #expect(throws: CSEError(.walletMalformed, ""), "case \(index)") { try GooglePayRootKeys(document: document) }
        }
    }
}

extension GooglePayRootKeysTests {
    static func document(contentsOf entries: [String]) -> [UInt8] { Array("{\"keys\":[\(entries.joined(separator: ","))]}".utf8) }
}
