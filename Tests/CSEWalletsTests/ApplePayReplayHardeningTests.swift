import CSECore
import Foundation
import Testing
import TestSupport

@testable import CSEWallets

/// Issue #32, points 1 and 8: one captured Apple Pay token decrypts once, whatever spelling of its
/// signed content it is presented in, and a signature with bytes after its CMS structure is
/// refused on the cold and the warm path alike.
@Suite(
    "Apple Pay hardening: the replay guard refuses every spelling of a captured token; trailing signature bytes are refused",
    .enabled(if: MintedApplePay.isAvailable, "needs /usr/bin/python3 with python3-cryptography and python3-asn1crypto"))
struct ApplePayReplayHardeningTests {
    let minted: MintedApplePay

    init() throws { minted = try #require(MintedApplePay.shared, "the minter failed") }

    /// The minted token `name` with its header changed by `change` (the signed bytes stay the
    /// same when `change` only respells or moves them).
    func variant(_ name: String, _ change: (inout [String: Any]) -> Void) throws -> [UInt8] {
        var object = try minted.token(name).tokenObject
        var header = try #require(object["header"] as? [String: Any])
        change(&header)
        object["header"] = header
        return Array(try JSONSerialization.data(withJSONObject: object))
    }

    /// `text` with its first `count` hex digits moved to the end of `other` (or back).
    static func hex(_ header: [String: Any], _ key: String) -> String { header[key] as? String ?? "" }

    @Test("Spellings of the same signed content (hex case, another envelope) are one sighting: wallet.replayed")
    func respelledTokenIsReplayed() throws {
        for name in ["ec", "applicationData"] {
            let token = try minted.token(name)
            let decryptor = try minted.decryptor(at: token.signingTime, replayGuard: InMemoryWalletReplayGuard())
            _ = try decryptor.decrypt(token.token)
            let upper = try variant(name) { $0["transactionId"] = Self.hex($0, "transactionId").uppercased() }
            #expect(code { try decryptor.decrypt(upper) } == .walletReplayed, "\(name): upper-case transactionId")
            let mixed = try variant(name) {
                let id = Self.hex($0, "transactionId")
                $0["transactionId"] = id.prefix(10).uppercased() + id.dropFirst(10)
            }
            #expect(code { try decryptor.decrypt(mixed) } == .walletReplayed, "\(name): mixed-case transactionId")
            let wrapped = Array(#"{"paymentData":\#(String(decoding: token.token, as: UTF8.self))}"#.utf8)
            #expect(code { try decryptor.decrypt(wrapped) } == .walletReplayed, "\(name): PKPaymentToken envelope")
            if name == "applicationData" {
                let upperData = try variant(name) { $0["applicationData"] = Self.hex($0, "applicationData").uppercased() }
                #expect(code { try decryptor.decrypt(upperData) } == .walletReplayed, "upper-case applicationData")
            }
        }
    }

    @Test(
        "Bytes moved between transactionId and applicationData, or the id split into both, are wallet.malformed before any signature work")
    func movedBytesAreMalformed() throws {
        let withData = try minted.token("applicationData")
        let decryptor = try minted.decryptor(at: withData.signingTime, replayGuard: InMemoryWalletReplayGuard())
        let intoId = try variant("applicationData") {
            let id = Self.hex($0, "transactionId"), data = Self.hex($0, "applicationData")
            $0["transactionId"] = id + data.prefix(2)
            $0["applicationData"] = String(data.dropFirst(2))
        }
        let intoData = try variant("applicationData") {
            let id = Self.hex($0, "transactionId"), data = Self.hex($0, "applicationData")
            $0["transactionId"] = String(id.dropLast(2))
            $0["applicationData"] = id.suffix(2) + data
        }
        let plain = try minted.token("ec")
        let split = try variant("ec") {
            let id = Self.hex($0, "transactionId")
            $0["transactionId"] = String(id.prefix(32))
            $0["applicationData"] = String(id.dropFirst(32))
        }
        for (name, token) in [("a byte into transactionId", intoId), ("a byte into applicationData", intoData)] {
            #expect(code { try decryptor.decrypt(token) } == .walletMalformed, "\(name)")
            #expect(code { try decryptor.verify(token) } == .walletMalformed, "\(name), verify only")
        }
        let plainDecryptor = try minted.decryptor(at: plain.signingTime, replayGuard: InMemoryWalletReplayGuard())
        #expect(code { try plainDecryptor.decrypt(split) } == .walletMalformed, "the id split into both")
        // The original tokens still decrypt, once each.
        _ = try decryptor.decrypt(withData.token)
        _ = try plainDecryptor.decrypt(plain.token)
    }

    @Test("The transaction id is printed in one canonical form: lower-case hex, whatever case it came in")
    func canonicalTransactionID() throws {
        let token = try minted.token("applicationData")
        let original = try #require(token.tokenObject["header"] as? [String: Any])
        let upper = try variant("applicationData") {
            $0["transactionId"] = Self.hex($0, "transactionId").uppercased()
            $0["applicationData"] = Self.hex($0, "applicationData").uppercased()
        }
        let verification = try minted.decryptor(at: token.signingTime).verify(upper)
        #expect(verification.transactionId == Self.hex(original, "transactionId").lowercased())
        #expect(verification.applicationData == Self.hex(original, "applicationData").lowercased())
        let payment = try minted.decryptor(at: token.signingTime).decrypt(upper)
        #expect(payment.verification.transactionId == verification.transactionId)
    }

    @Test("A transactionId or applicationData that is not 32 bytes is wallet.malformed", arguments: [31, 33, 16, 64])
    func identifierLength(bytes: Int) throws {
        let token = try minted.token("ec")
        let decryptor = try minted.decryptor(at: token.signingTime)
        let id = try variant("ec") { $0["transactionId"] = String(repeating: "ab", count: bytes) }
        #expect(code { try decryptor.verify(id) } == .walletMalformed)
        let data = try variant("ec") { $0["applicationData"] = String(repeating: "ab", count: bytes) }
        #expect(code { try decryptor.verify(data) } == .walletMalformed)
    }

    @Test(
        "A signature with bytes after its CMS ContentInfo is wallet.malformed, cold and warm",
        arguments: [[0x00], [0x00, 0x00], [0x30, 0x00], [0xFF]])
    func trailingSignatureBytes(trailing: [UInt8]) throws {
        let root = try ApplePayTrustedRoot(pemRepresentation: minted.root).certificate
        for name in ["ec", "ber", "rsa"] {
            let token = try ApplePayTokenForTests.parsed(minted.token(name).token)
            let signature = token.signature + trailing
            let cold = VerifiedChainCache()
            #expect(
                code { try ApplePaySignatureVerifier.verify(signature: signature, content: token.signedContent, root: root, chains: cold) }
                    == .walletMalformed, "\(name): cold")
            let warm = VerifiedChainCache()
            _ = try ApplePaySignatureVerifier.verify(signature: token.signature, content: token.signedContent, root: root, chains: warm)
            #expect(
                code { try ApplePaySignatureVerifier.verify(signature: signature, content: token.signedContent, root: root, chains: warm) }
                    == .walletMalformed, "\(name): warm")
            // Through the decryptor, with the token's JSON carrying the longer signature.
            var object = try minted.token(name).tokenObject
            object["signature"] = Base64.encode(signature)
            let json = Array(try JSONSerialization.data(withJSONObject: object))
            #expect(code { try minted.decryptor(at: minted.token(name).signingTime).decrypt(json) } == .walletMalformed, "\(name)")
        }
    }
}
