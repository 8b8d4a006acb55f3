import CSECore
import CSECrypto
import CSEJOSE
import Testing
import TestSupport

/// Every JWE the encryptor writes is one the decryptor reads, with the same limits: over every
/// key id the encryptor accepts (up to ``JWELimits/maxKeyIDBytes`` UTF-8 bytes, escapes
/// included), every `alg` × `enc`, and payload sizes up to the plaintext limit.
@Suite("Every JWE the encryptor writes, the decryptor reads")
struct JWEWriteReadPropertyTests {
    static let key = JOSEVectors.key2048

    /// Characters that cost the most once JSON-escaped (controls: 6 bytes each), that need an
    /// escape of two (`"`, `\`), and that are several UTF-8 bytes raw.
    static let alphabet: [Unicode.Scalar] = [
        "\u{0}", "\u{1F}", "\n", "\"", "\\", "a", "Z", "-", "é", "\u{2028}", "\u{202E}", "€", "😀", "\u{FFFF}",
    ]

    /// A key id of `byteCount` UTF-8 bytes (or one scalar fewer when a multi-byte one would not fit).
    static func keyID(byteCount: Int, using generator: inout SplitMix64) -> String {
        var text = String.UnicodeScalarView()
        var bytes = 0
        while bytes < byteCount {
            var scalar = alphabet[Int(generator.next() % UInt64(alphabet.count))]
            if bytes + String(scalar).utf8.count > byteCount { scalar = "a" }
            text.append(scalar)
            bytes += String(scalar).utf8.count
        }
        return String(text)
    }

    static func roundTrip(
        keyID: String?, algorithm: JWEKeyAlgorithm, encryption: JWEContentEncryption, plaintext: [UInt8],
        limits: JWELimits = .default, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let encryptor = try JWEEncryptor(
            publicKey: key.publicKey, keyID: keyID, algorithm: algorithm, encryption: encryption, limits: limits)
        let jwe = try encryptor.encrypt(plaintext)
        let decrypted = try JWEDecryptor(privateKey: key, expectedKeyID: keyID, limits: limits).decrypt(jwe)
        #expect(decrypted.plaintext.withUnsafeBytes { Array($0) } == plaintext, sourceLocation: sourceLocation)
        #expect(decrypted.header.keyID.isByteEqual(to: keyID) && decrypted.header.algorithm == algorithm, sourceLocation: sourceLocation)
    }

    @Test("the longest key id, made only of characters JSON escapes to six bytes, fits the 8 KiB header the decryptor reads")
    func worstCaseKeyID() throws {
        let keyID = String(repeating: "\u{1}", count: JWELimits.maxKeyIDBytes)
        let encryptor = try JWEEncryptor(publicKey: Self.key.publicKey, keyID: keyID, algorithm: .rsaOAEP256, encryption: .a256cbcHS512)
        let header = try #require(encryptor.encrypt("x".utf8).split(separator: ".").first)
        let headerJSON = try Base64URL.decode(String(header))
        // 6 × 1,024 bytes of escapes and 53 of the rest: the longest header we can write.
        #expect(headerJSON.count == 6_197 && headerJSON.count <= JWELimits.maxProtectedHeaderBytes)
        for (algorithm, encryption) in JOSEVectors.pairs {
            try Self.roundTrip(keyID: keyID, algorithm: algorithm, encryption: encryption, plaintext: Array("{}".utf8))
        }
    }

    @Test("a key id one byte over the limit is refused when the encryptor is made, never written")
    func overlongKeyID() {
        for keyID in [String(repeating: "k", count: JWELimits.maxKeyIDBytes + 1), String(repeating: "k", count: 8_100)] {
            let error = #expect(throws: CSEError.self) { try JWEEncryptor(publicKey: Self.key.publicKey, keyID: keyID) }
            #expect(error?.code == .jweKeyIDTooLong && error?.context["limit"] == "1024")
            #expect(error.map { !$0.description.contains("kkkk") } == true)
        }
    }

    @Test("random key ids, alg × enc and payload sizes: each JWE written is read back, byte for byte")
    func randomRoundTrips() throws {
        var generator = SplitMix64(seed: 0x6A77_6552_6561_6421)
        let sizes = [0, 1, 15, 16, 17, 31, 32, 33, 255, 4_096]
        for round in 0..<96 {
            let (algorithm, encryption) = JOSEVectors.pairs[round % JOSEVectors.pairs.count]
            let keyID: String? =
                round % 8 == 0 ? nil : Self.keyID(byteCount: Int(generator.next() % UInt64(JWELimits.maxKeyIDBytes + 1)), using: &generator)
            let size = round % 3 == 0 ? sizes[round / 3 % sizes.count] : Int(generator.next() % 2_048)
            let plaintext = (0..<size).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            try Self.roundTrip(keyID: keyID, algorithm: algorithm, encryption: encryption, plaintext: plaintext)
        }
    }

    @Test("the largest plaintext with the longest, worst-escaped key id fits the compact limit")
    func largestOutput() throws {
        let keyID = String(repeating: "\u{1}", count: JWELimits.maxKeyIDBytes)
        let plaintext = [UInt8](repeating: 0x5A, count: JWELimits.default.maxPlaintextBytes)
        for encryption in [JWEContentEncryption.a256cbcHS512, .a256gcm] {
            try Self.roundTrip(keyID: keyID, algorithm: .rsaOAEP256, encryption: encryption, plaintext: plaintext)
        }
    }

    @Test("with small custom limits, the encryptor refuses what the decryptor with the same limits would refuse")
    func customLimits() throws {
        var generator = SplitMix64(seed: 0x4C69_6D69_7473)
        for _ in 0..<48 {
            let limits = JWELimits(
                maxCompactBytes: 400 + Int(generator.next() % 3_000), maxPlaintextBytes: Int(generator.next() % 3_000))
            let keyID = Self.keyID(byteCount: Int(generator.next() % 200), using: &generator)
            let plaintext = [UInt8](repeating: 0x41, count: Int(generator.next() % 3_000))
            let encryptor = try JWEEncryptor(publicKey: Self.key.publicKey, keyID: keyID, limits: limits)
            let jwe: String
            do throws(CSEError) {
                jwe = try encryptor.encrypt(plaintext)
            } catch {
                #expect(error.code == .jweTooLarge)
                continue
            }
            #expect(jwe.utf8.count <= limits.maxCompactBytes)
            let decrypted = try JWEDecryptor(privateKey: Self.key, limits: limits).decrypt(jwe)
            #expect(decrypted.plaintext.count == plaintext.count)
        }
    }

    @Test("an output over maxCompactBytes is jwe.tooLarge at the encryptor (it was written, then refused by cse decrypt)")
    func compactLimitAtTheEncryptor() throws {
        let limits = JWELimits(maxCompactBytes: 1_000, maxPlaintextBytes: 4_096)
        let encryptor = try JWEEncryptor(publicKey: Self.key.publicKey, keyID: "k", limits: limits)
        let error = #expect(throws: CSEError.self) { try encryptor.encrypt([UInt8](repeating: 0x41, count: 2_000)) }
        #expect(error?.code == .jweTooLarge && error?.context["limit"] == "1000")
        _ = try JWEDecryptor(privateKey: Self.key, limits: limits).decrypt(try encryptor.encrypt([UInt8](repeating: 0x41, count: 100)))
    }
}
