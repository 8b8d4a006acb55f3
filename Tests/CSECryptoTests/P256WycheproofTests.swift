import CSECore
import CSECrypto
import Foundation
import Testing
import TestSupport

private struct ECDHGroup: Decodable {
    struct Test: Decodable {
        let tcId: Int
        let comment: String
        let flags: [String]
        let `public`: String
        let `private`: String
        let shared: String
        let result: WycheproofResult
    }
    let curve: String
    let encoding: String
    let tests: [Test]
}

private struct ECDSAGroup: Decodable {
    struct PublicKey: Decodable {
        let curve: String
        let uncompressed: String
    }
    struct Test: Decodable {
        let tcId: Int
        let comment: String
        let msg, sig: String
        let result: WycheproofResult
    }
    let publicKey: PublicKey
    let publicKeyDer: String
    let sha: String
    let tests: [Test]
}

/// Wycheproof's private keys are big-endian integers with an optional sign octet: the 32-byte
/// scalar, left-padded.
private func scalar(_ hex: String) -> [UInt8] {
    let magnitude = Array(Hex.decode(hex).drop { $0 == 0 })
    return [UInt8](repeating: 0, count: max(0, 32 - magnitude.count)) + magnitude
}

@Suite("P-256: Wycheproof ecdh_secp256r1, ecdh_secp256r1_ecpoint and ecdsa_secp256r1_sha256")
struct P256WycheproofTests {
    private typealias S = SymmetricTestSupport

    /// Runs one ECDH file: `importPeer` reads the `public` member in the file's encoding, and
    /// `derive` agrees with it in that encoding without importing a key (the wallets' path, which
    /// keeps peer keys and contexts in the private key's pool): both must give the same secret or
    /// the same error code. A private key the file uses again is the same object, so its pooled
    /// contexts go from valid peers to invalid ones and back.
    private func runECDH(
        _ name: String, importPeer: ([UInt8]) throws -> P256PublicKey,
        derive: (P256PrivateKey, [UInt8]) throws -> SecureBytes
    ) throws -> (valid: Int, invalid: Int, acceptableAccepted: Int, acceptableRefused: Int, total: Int) {
        let file = try WycheproofFile<ECDHGroup>.load(name)
        var valid = 0, invalid = 0, acceptableAccepted = 0, acceptableRefused = 0
        var keys: [String: P256PrivateKey] = [:]
        for group in file.testGroups {
            #expect(group.curve == "secp256r1")
            for test in group.tests {
                let id = "tcId \(test.tcId) (\(test.comment), \(test.flags))"
                let privateKey = try keys[test.private] ?? P256PrivateKey(rawScalar: scalar(test.private))
                keys[test.private] = privateKey
                let imported: Result<[UInt8], CSEError> = Result { () throws(CSEError) in
                    let peer: P256PublicKey
                    do { peer = try importPeer(Hex.decode(test.public)) } catch let error as CSEError { throw error } catch {
                        throw CSEError(.keyMalformed, "unexpected error")
                    }
                    return S.bytes(try privateKey.sharedSecret(with: peer))
                }
                let direct: Result<[UInt8], CSEError> = Result { () throws(CSEError) in
                    do { return S.bytes(try derive(privateKey, Hex.decode(test.public))) } catch let error as CSEError { throw error } catch
                    {
                        throw CSEError(.keyMalformed, "unexpected error")
                    }
                }
                switch (imported, direct) {
                case (.success(let a), .success(let b)): #expect(a == b, "\(id): the same secret both ways")
                case (.failure(let a), .failure(let b)): #expect(a.code == b.code, "\(id): the same error both ways")
                default: Issue.record("\(id): import \(imported), direct \(direct)")
                }
                let outcome = try? imported.get()
                switch test.result {
                case .valid:
                    valid += 1
                    #expect(outcome.map(Hex.encode) == test.shared, "\(id): shared secret")
                    #expect(outcome?.count == 32, "\(id): Z is always 32 bytes")
                case .invalid:
                    invalid += 1
                    #expect(outcome == nil, "\(id): must be refused")
                case .acceptable:
                    // Either verdict is allowed; an accepted one must still be the right secret.
                    if let outcome {
                        acceptableAccepted += 1
                        #expect(Hex.encode(outcome) == test.shared, "\(id): shared secret")
                    } else {
                        acceptableRefused += 1
                    }
                }
            }
        }
        return (valid, invalid, acceptableAccepted, acceptableRefused, file.numberOfTests)
    }

    @Test(
        "ECDH with SubjectPublicKeyInfo peers (Apple Pay's form): every valid secret exact, every invalid key refused",
        .enabled(
            if: WycheproofFile<ECDHGroup>.isPresent("ecdh_secp256r1_test.json"),
            "needs ../shared/vectors/wycheproof/testvectors_v1/ecdh_secp256r1_test.json"))
    func ecdhSubjectPublicKeyInfo() throws {
        let counts = try runECDH(
            "ecdh_secp256r1_test.json", importPeer: { try P256PublicKey(subjectPublicKeyInfo: $0) },
            derive: { try $0.sharedSecret(withSubjectPublicKeyInfo: $1) })
        #expect(counts.total == 612)
        #expect(counts.valid + counts.invalid + counts.acceptableAccepted + counts.acceptableRefused == 612)
        #expect((counts.valid, counts.invalid) == (330, 52))
        // Compressed points, BER variants and explicit curve parameters: all refused (one encoding only).
        #expect(counts.acceptableAccepted == 0)
        #expect(counts.acceptableRefused == 230)
    }

    @Test(
        "ECDH with uncompressed-point peers (Google Pay's form): every valid secret exact, every invalid point refused",
        .enabled(
            if: WycheproofFile<ECDHGroup>.isPresent("ecdh_secp256r1_ecpoint_test.json"),
            "needs ../shared/vectors/wycheproof/testvectors_v1/ecdh_secp256r1_ecpoint_test.json"))
    func ecdhUncompressedPoint() throws {
        let counts = try runECDH(
            "ecdh_secp256r1_ecpoint_test.json", importPeer: { try P256PublicKey(x962Uncompressed: $0) },
            derive: { try $0.sharedSecret(withUncompressedPoint: $1) })
        #expect(counts.total == 355)
        #expect(counts.valid + counts.invalid + counts.acceptableAccepted + counts.acceptableRefused == 355)
        #expect((counts.valid, counts.invalid) == (330, 24))
        #expect((counts.acceptableAccepted, counts.acceptableRefused) == (0, 1), "the compressed point is refused")
    }

    @Test(
        "ECDSA P-256/SHA-256: every verdict matches, for keys imported from the SPKI and from the point",
        .enabled(
            if: WycheproofFile<ECDSAGroup>.isPresent("ecdsa_secp256r1_sha256_test.json"),
            "needs ../shared/vectors/wycheproof/testvectors_v1/ecdsa_secp256r1_sha256_test.json"))
    func ecdsa() throws {
        let file = try WycheproofFile<ECDSAGroup>.load("ecdsa_secp256r1_sha256_test.json")
        #expect(file.algorithm == "ECDSA")
        var valid = 0, invalid = 0
        for group in file.testGroups {
            #expect(group.publicKey.curve == "secp256r1" && group.sha == "SHA-256")
            let fromSPKI = try P256PublicKey(subjectPublicKeyInfo: Hex.decode(group.publicKeyDer))
            let fromPoint = try P256PublicKey(x962Uncompressed: Hex.decode(group.publicKey.uncompressed))
            #expect(fromSPKI.x962Uncompressed == Hex.decode(group.publicKey.uncompressed))
            #expect(fromPoint.subjectPublicKeyInfo == Hex.decode(group.publicKeyDer))
            for test in group.tests {
                let id = "tcId \(test.tcId) (\(test.comment))"
                let message = Hex.decode(test.msg), signature = Hex.decode(test.sig)
                let verdicts = [fromSPKI, fromPoint].map { $0.isValidECDSASignature(signature, forSHA256Of: message) }
                switch test.result {
                case .valid:
                    valid += 1
                    #expect(verdicts == [true, true], "\(id): must verify")
                case .invalid, .acceptable:
                    // The file has no acceptable ECDSA cases; one would be refused too (DER only).
                    invalid += 1
                    #expect(verdicts == [false, false], "\(id): must be refused")
                }
            }
        }
        #expect(file.numberOfTests == 484)
        #expect((valid, invalid) == (174, 310))
    }

    @Test("Other curves, explicit parameters and off-curve points are refused with typed key errors")
    func refusals() throws {
        let good = try P256PrivateKey(rawScalar: [UInt8](repeating: 0, count: 31) + [7]).publicKey
        var point = good.x962Uncompressed
        point[64] ^= 1
        #expect(S.error { try P256PublicKey(x962Uncompressed: point) }?.code == .keyMalformed)
        #expect(S.error { try P256PublicKey(x962Uncompressed: point.dropLast()) }?.code == .keyMalformed)
        var spki = good.subjectPublicKeyInfo
        spki[spki.count - 1] ^= 1
        #expect(S.error { try P256PublicKey(subjectPublicKeyInfo: spki) }?.code == .keyMalformed)
        // secp384r1's OID in place of prime256v1.
        var otherCurve = good.subjectPublicKeyInfo
        otherCurve.replaceSubrange(15..<23, with: [0x2B, 0x81, 0x04, 0x00, 0x22])
        #expect(S.error { try P256PublicKey(subjectPublicKeyInfo: otherCurve) }?.code == .keyUnsupportedType)
        // Scalars 0 and n are not private keys.
        #expect(S.error { try P256PrivateKey(rawScalar: [UInt8](repeating: 0, count: 32)) }?.code == .keyMalformed)
        let order = Hex.decode("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        #expect(S.error { try P256PrivateKey(rawScalar: order) }?.code == .keyMalformed)
        #expect(S.error { try P256PrivateKey(rawScalar: [1]) }?.code == .keyMalformed)
    }
}
