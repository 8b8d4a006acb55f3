import CSECore
import CSECrypto
@testable import CSEWallets
import Foundation
import Testing
import TestSupport

/// The public Google Pay vectors of `../shared/vectors/wallets/` (index.json: Tink, the .NET port,
/// moov, Basis Theory, r2d2, yoyowallet), each at its own clock, and again just past the first
/// expiry it carries.
@Suite("Google Pay: every public vector at its clock, and one millisecond past its first expiry")
struct GooglePayVectorTests {
    struct Vector {
        let id: String
        let format: String
        let token: [UInt8]
        let rootKeys: [UInt8]
        let privateKeys: [String]
        let recipientID: String
        let clock: Int64
        let expect: String
        let alsoAcceptable: [String]
        let plaintext: [UInt8]?
        let encKeyHex: String?
        let macKeyHex: String?
    }

    static let folder = "wallets"

    static let vectors: [Vector] = {
        guard let data = TestPaths.sharedFile("wallets/index.json"),
            let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else { return [] }
        func file(_ path: String) -> [UInt8] { Array(TestPaths.sharedFile("wallets/" + path) ?? Data()) }
        return list.compactMap { entry -> Vector? in
            guard let format = entry["format"] as? String, format.hasPrefix("google-") else { return nil }
            let intermediates = entry["intermediates"] as? [String: Any]
            var keys = [entry["merchant_private_key"] as! String]
            keys += (entry["other_merchant_private_keys"] as? [String]) ?? []
            return Vector(
                id: entry["id"] as! String, format: format, token: file(entry["token"] as! String),
                rootKeys: file(entry["root"] as! String),
                privateKeys: keys.map { String(decoding: file($0), as: UTF8.self) },
                recipientID: entry["recipient_id"] as! String, clock: (entry["clock_unix_ms"] as! NSNumber).int64Value,
                expect: entry["expect"] as! String, alsoAcceptable: (entry["also_acceptable"] as? [String]) ?? [],
                plaintext: (entry["plaintext"] as? String).map(file),
                encKeyHex: intermediates?["encKeyHex"] as? String, macKeyHex: intermediates?["macKeyHex"] as? String)
        }
    }()

    /// The `wallet.*` code of each failure kind of index.json.
    static let codes: [String: CSEError.Code] = [
        "bad-format": .walletMalformed, "bad-signature": .walletSignatureInvalid, "wrong-recipient": .walletSignatureInvalid,
        "expired-intermediate": .walletKeyExpired, "bad-tag": .walletDecryptionFailed, "expired-message": .walletMessageExpired,
        "unsupported-protocol": .walletUnsupportedVersion, "bad-payload": .walletMalformed,
    ]

    static func recipient(_ vector: Vector, clock: Int64) throws -> GooglePayRecipient {
        let protocolName = String(vector.format.dropFirst("google-".count))
        return try GooglePayRecipient(
            recipientID: vector.recipientID, privateKeysPEM: vector.privateKeys,
            rootKeys: try GooglePayRootKeys(document: vector.rootKeys),
            protocols: [GooglePayProtocolVersion(protocolName)!], clock: .fixed(unixMilliseconds: clock))
    }

    static func outcome(_ body: () throws -> GooglePayMessage) -> Result<GooglePayMessage, CSEError> {
        do { return .success(try body()) } catch let error as CSEError { return .failure(error) } catch {
            return .failure(CSEError(.init(rawValue: "unexpected"), "\(error)"))
        }
    }

    @Test(
        "Every google-* vector gives its expected result: the exact plaintext, or the failure's wallet.* code",
        .enabled(if: !vectors.isEmpty, "needs ../shared/vectors/wallets/index.json"))
    func everyVectorAtItsClock() throws {
        #expect(Self.vectors.count == 31)
        for vector in Self.vectors {
            let recipient = try Self.recipient(vector, clock: vector.clock)
            switch Self.outcome({ try recipient.decrypt(vector.token) }) {
            case .success(let message):
                #expect(vector.expect == "ok", "\(vector.id) decrypted but expects \(vector.expect)")
                #expect(message.plaintext.unsafeCopyToArray() == vector.plaintext, "\(vector.id) plaintext")
            case .failure(let error):
                let accepted = ([vector.expect] + vector.alsoAcceptable).compactMap { Self.codes[$0] }
                #expect(accepted.contains(error.code), "\(vector.id) failed with \(error.code), expects \(vector.expect)")
            }
        }
    }

    @Test(
        "The derived encryption and MAC keys equal the vectors' intermediates (HKDF over ephemeral point ‖ Z)",
        .enabled(if: !vectors.isEmpty, "needs ../shared/vectors/wallets/index.json"))
    func derivedKeys() throws {
        var checked = 0
        for vector in Self.vectors {
            guard let encKeyHex = vector.encKeyHex, let macKeyHex = vector.macKeyHex else { continue }
            let token = try GooglePayToken(vector.token, accepted: GooglePayProtocolVersion.all)
            let message = try GooglePayEncryptedMessage(token.signedMessage)
            let key = try P256PrivateKey(pem: vector.privateKeys[0])
            let keys = try GooglePayDecryption.keys(message, privateKey: key, version: token.protocolVersion)
            #expect(Hex.encode(keys.encryptionKey.unsafeCopyToArray()) == encKeyHex.lowercased(), "\(vector.id) encKey")
            #expect(Hex.encode(keys.macKey.unsafeCopyToArray()) == macKeyHex.lowercased(), "\(vector.id) macKey")
            checked += 1
        }
        #expect(checked == 15)
    }

    @Test(
        "Every vector that decrypts and carries an expiry fails with that expiry's code one millisecond after it",
        .enabled(if: !vectors.isEmpty, "needs ../shared/vectors/wallets/index.json"))
    func onePastTheFirstExpiry() throws {
        var checked = 0
        for vector in Self.vectors where vector.expect == "ok" {
            let atClock = try Self.recipient(vector, clock: vector.clock)
            let keyExpiration = try atClock.verify(vector.token).intermediateKeyExpiration
            let messageExpiration = try atClock.decrypt(vector.token).messageExpiration
            let expiries = [keyExpiration, messageExpiration].compactMap { $0 }
            guard let first = expiries.min() else { continue }  // Tink's ECv1 test messages never expire
            let expected: CSEError.Code = keyExpiration == first ? .walletKeyExpired : .walletMessageExpired
            let past = try Self.recipient(vector, clock: first + 1)
            switch Self.outcome({ try past.decrypt(vector.token) }) {
            case .success: Issue.record("\(vector.id) still decrypts past its expiry")
            case .failure(let error): #expect(error.code == expected, "\(vector.id)")
            }
            let atExpiry = try Self.recipient(vector, clock: first - 1)
            #expect(throws: Never.self, "\(vector.id) one millisecond before") { _ = try atExpiry.decrypt(vector.token) }
            checked += 1
        }
        #expect(checked == 10)
    }

    @Test(
        "The decrypted payment messages give typed card data with the PAN and cryptogram masked in the description",
        .enabled(if: !vectors.isEmpty, "needs ../shared/vectors/wallets/index.json"))
    func typedResults() throws {
        let card = try #require(Self.vectors.first { $0.id == "r2d2-ecv1-tokenized-card" })
        let message = try Self.recipient(card, clock: card.clock).decrypt(card.token)
        #expect(message.protocolVersion == .ecV1)
        #expect(message.paymentMethod == "TOKENIZED_CARD")
        #expect(message.messageExpiration == 1_510_318_759_535)
        #expect(message.messageID?.hasPrefix("AH2EjtfMnpeHvgqY") == true)
        let details = try #require(message.card)
        #expect(details.pan == "4895370012003478")
        #expect(details.cryptogram == "AgAAAAAABk4DWZ4C28yUQAAAAAA=")
        #expect(details.eciIndicator == "07")
        #expect(details.authMethod == "3DS")
        #expect(details.expirationMonth == 12 && details.expirationYear == 2022)
        let description = "\(message)"
        #expect(!description.contains("4895370012003478") && !description.contains("AgAAAAAABk4DWZ4C28yUQAAAAAA"))
        #expect(description.contains("489537******3478"))

        let moov = try #require(Self.vectors.first { $0.id == "moov-ecv2-test-environment" })
        let ecv2 = try Self.recipient(moov, clock: moov.clock).decrypt(moov.token)
        #expect(ecv2.card?.authMethod == "PAN_ONLY" && ecv2.card?.pan == "4111111111111111" && ecv2.card?.cryptogram == nil)
        #expect(ecv2.plaintextString == String(decoding: moov.plaintext!, as: UTF8.self))

        let tink = try #require(Self.vectors.first { $0.id == "tink-ecv1-someRecipient" })
        let bare = try Self.recipient(tink, clock: tink.clock).decrypt(tink.token)
        #expect(bare.plaintextString == "plaintext" && bare.card == nil && bare.messageID == nil)
    }
}
