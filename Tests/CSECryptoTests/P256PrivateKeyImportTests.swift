import CSECore
import CSECrypto
import Foundation
import Testing
import TestSupport

/// One throwaway P-256 key (generated with `openssl ecparam -name prime256v1 -genkey` for this test)
/// in the three layouts OpenSSL and the platforms' consoles write; its SPKI from `openssl ec -pubout`.
private enum TestKey {
    static let parametersAndSEC1 = """
        -----BEGIN EC PARAMETERS-----
        BggqhkjOPQMBBw==
        -----END EC PARAMETERS-----
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEIOvUmKDDXr1V8ir6k3jql6MhldTXDz6axZMCFmAJCvNuoAoGCCqGSM49
        AwEHoUQDQgAE888avjNBdhjIj6ht5fK/WQfhdfjnD+K7i9uHmLFfMCrsH+dATZ69
        4MGZwJeDOfxOFJDGYRXoYrRJjBpAKPp7iQ==
        -----END EC PRIVATE KEY-----

        """
    static var sec1: String { String(parametersAndSEC1.split(separator: "\n", maxSplits: 3)[3]) }
    static let pkcs8 = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg69SYoMNevVXyKvqT
        eOqXoyGV1NcPPprFkwIWYAkK826hRANCAATzzxq+M0F2GMiPqG3l8r9ZB+F1+OcP
        4ruL24eYsV8wKuwf50BNnr3gwZnAl4M5/E4UkMZhFehitEmMGkAo+nuJ
        -----END PRIVATE KEY-----
        """
    static let spki =
        "3059301306072a8648ce3d020106082a8648ce3d03010703420004f3cf1abe33417618c88fa86de5f2bf5907e175f8e70fe2bb"
        + "8bdb8798b15f302aec1fe7404d9ebde0c199c0978339fc4e1490c66115e862b4498c1a4028fa7b89"
    /// A secp384r1 key (`openssl ecparam -name secp384r1 -genkey -noout`).
    static let p384 = """
        -----BEGIN EC PRIVATE KEY-----
        MIGkAgEBBDCOFAdZBgTylPKGi9CtYbpmX1nxYIp7YidJs61LrgqsQ//ChDjvV7SL
        PVjQzAXt+YGgBwYFK4EEACKhZANiAARtS3V8dB/rb9yZPp4PfzjinEs9nNNL/Jiz
        PVjzXL+xYrsyD5WQ+gu9ibRPLGiDhh6eik7he0G0bmne1itRapmcImi8CszMw+10
        YFi8BJE/FG3KHC8DtU+o1b38GBFYWW8=
        -----END EC PRIVATE KEY-----
        """
}

@Suite("P-256 private keys: PKCS#8, SEC 1, and SEC 1 after an EC PARAMETERS block")
struct P256PrivateKeyImportTests {
    private typealias S = SymmetricTestSupport

    @Test("The three layouts of one key import to the same key, whose public key is openssl's")
    func threeLayouts() throws {
        let keys = try [TestKey.parametersAndSEC1, TestKey.sec1, TestKey.pkcs8].map { try P256PrivateKey(pem: $0) }
        for key in keys {
            #expect(Hex.encode(key.publicKey.subjectPublicKeyInfo) == TestKey.spki)
        }
        // ECDH is symmetric: d_A·Q_B = d_B·Q_A.
        let other = try P256PrivateKey(rawScalar: [UInt8](repeating: 0x11, count: 32))
        let z1 = try keys[0].sharedSecret(with: other.publicKey)
        let z2 = try other.sharedSecret(with: keys[2].publicKey)
        #expect(z1 == z2 && z1.count == 32)
        #expect(!"\(keys[0])".contains("EOvU") && "\(keys[0])" == "P256PrivateKey(<redacted>)")
    }

    /// A key keeps its derivation contexts for reuse (issue #37); each use sets its own peer, so a
    /// context must never answer with the previous token's peer, in turn or across threads.
    @Test("One key agrees with many peers in turn and at once: d_A·Q_B = d_B·Q_A for every peer", .tags(.concurrency))
    func pooledAgreement() throws {
        let merchant = try P256PrivateKey(rawScalar: [UInt8](repeating: 0x11, count: 32))
        let peers = try (1...8).map { i in try P256PrivateKey(rawScalar: [UInt8](repeating: 0, count: 31) + [UInt8(i * 3)]) }
        let expected = try peers.map { try $0.sharedSecret(with: merchant.publicKey) }
        #expect(Set(expected.map { $0.unsafeCopyToArray() }).count == peers.count)
        for round in 0..<3 {
            for (peer, z) in zip(peers, expected) {
                #expect(try merchant.sharedSecret(with: peer.publicKey) == z, "round \(round)")
            }
        }
        let mismatches = ThreadLock(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for i in 0..<200 {
                let k = (i + thread) % peers.count
                if (try? merchant.sharedSecret(with: peers[k].publicKey)) != expected[k] { mismatches.withLock { $0 += 1 } }
            }
        }
        #expect(mismatches.withLock { $0 } == 0)
    }

    @Test("Another curve, a mislabelled block, an unknown label and a broken parameters block are refused")
    func refusals() {
        #expect(S.error { try P256PrivateKey(pem: TestKey.p384) }?.code == .keyUnsupportedType)
        let mislabelled = TestKey.pkcs8.replacingOccurrences(of: "PRIVATE KEY", with: "EC PRIVATE KEY")
        #expect(S.error { try P256PrivateKey(pem: mislabelled) }?.code == .derMalformed)
        let rsaLabel = TestKey.pkcs8.replacingOccurrences(of: "PRIVATE KEY", with: "RSA PRIVATE KEY")
        #expect(S.error { try P256PrivateKey(pem: rsaLabel) }?.code == .pemUnexpectedLabel)
        // secp384r1's OID in the parameters block (06 05 2B 81 04 00 22).
        let otherParameters = TestKey.parametersAndSEC1.replacingOccurrences(of: "BggqhkjOPQMBBw==", with: "BgUrgQQAIg==")
        #expect(S.error { try P256PrivateKey(pem: otherParameters) }?.code == .keyUnsupportedType)
        let unterminated = TestKey.parametersAndSEC1.replacingOccurrences(of: "-----END EC PARAMETERS-----", with: "")
        #expect(S.error { try P256PrivateKey(pem: unterminated) }?.code == .pemMalformed)
        #expect(S.error { try P256PrivateKey(pem: "") }?.code == .pemMalformed)
    }
}
