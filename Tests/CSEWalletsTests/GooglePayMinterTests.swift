import CSECore
import CSEWallets
import Foundation
import Testing
import TestSupport

/// Tokens minted by an independent implementation (`Tests/Interop/google_pay_minter.py`, Python
/// `cryptography` with its own root, intermediate and recipient keys) for the cases no public
/// vector has: each negative case of the issue, escapes, non-ASCII signed strings, ECv2SigningOnly.
@Suite("Google Pay: tokens minted by python3-cryptography with a private test PKI")
struct GooglePayMinterTests {
    struct Case {
        let name: String
        let token: String
        let rootKeys: String
        let privateKeys: [String]
        let recipientID: String
        let protocols: [String]
        let senderID: String
        let clock: Int64
        let expect: String
        let plaintext: String?
    }

    static let python = "/usr/bin/python3"
    static let script = TestPaths.packageRoot.appendingPathComponent("Tests/Interop/google_pay_minter.py").path
    static let now: Int64 = 1_700_000_000_000

    /// Whether Debian's python3-cryptography is installed (`.ci/run` installs it).
    static let isAvailable: Bool = {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        return (try? run(["-c", "import cryptography"])) != nil
    }()

    static func run(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CSEError(.init(rawValue: "test.python"), "python exited non-zero") }
        return data
    }

    static let cases: [Case] = {
        guard isAvailable, let data = try? run([script, String(now)]),
            let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else { return [] }
        return list.map { entry in
            Case(
                name: entry["name"] as! String, token: entry["token"] as! String, rootKeys: entry["rootKeys"] as! String,
                privateKeys: entry["privateKeys"] as! [String], recipientID: entry["recipientId"] as! String,
                protocols: entry["protocols"] as! [String], senderID: entry["senderId"] as! String,
                clock: (entry["clockMs"] as! NSNumber).int64Value, expect: entry["expect"] as! String,
                plaintext: entry["plaintext"] as? String)
        }
    }()

    static func recipient(_ item: Case, replayGuard: (any WalletReplayGuard)? = nil) throws -> GooglePayRecipient {
        try GooglePayRecipient(
            recipientID: item.recipientID, privateKeysPEM: item.privateKeys,
            rootKeys: try GooglePayRootKeys(document: Array(item.rootKeys.utf8)),
            protocols: Set(item.protocols.map { GooglePayProtocolVersion($0)! }), senderID: item.senderID,
            clock: .fixed(unixMilliseconds: item.clock), replayGuard: replayGuard)
    }

    @Test(
        "Every minted case gives its expected result: wrong recipient, expired root, intermediate and message, bad tag, member sets, escapes, ECv2SigningOnly",
        .enabled(if: isAvailable, "needs /usr/bin/python3 with the cryptography package (Debian python3-cryptography)"))
    func mintedCases() throws {
        #expect(Self.cases.count == 42)
        for item in Self.cases {
            let recipient = try Self.recipient(item)
            do {
                let message = try recipient.decrypt(Array(item.token.utf8))
                #expect(item.expect == "ok", "\(item.name): decrypted, expects \(item.expect)")
                #expect(message.plaintextString == item.plaintext, "\(item.name): plaintext")
            } catch {
                #expect(error.code.rawValue == item.expect, "\(item.name): \(error.code), expects \(item.expect)")
                if error.code == .walletSignatureInvalid {
                    #expect(error.reason.contains("recipient id") && error.reason.contains("test keys"), "\(item.name)")
                }
            }
        }
    }

    @Test(
        "A minted message's typed members are read, and masked in the description",
        .enabled(if: isAvailable, "needs /usr/bin/python3 with the cryptography package (Debian python3-cryptography)"))
    func typedMessage() throws {
        let item = try #require(Self.cases.first)
        let message = try Self.recipient(item).decrypt(Array(item.token.utf8))
        #expect(message.protocolVersion == .ecV2)
        #expect(message.messageID == "AH2Ejtc-minted-message-id")
        #expect(message.messageExpiration == Self.now + 86_400_000)
        #expect(message.gatewayMerchantID == "exampleGatewayMerchantId")
        #expect(message.card?.authMethod == "CRYPTOGRAM_3DS")
        #expect(message.card?.cryptogram == "AgAAAAAABk4DWZ4C28yUQAAAAAA=")
        for text in ["\(message)", String(reflecting: message), "\(message.card!)"] {
            #expect(!text.contains("4895370012003478") && !text.contains("AgAAAAAABk4DWZ4C28yUQAAAAAA"))
        }
    }

    @Test(
        "With a replay guard, the second sighting of a message id is refused with wallet.replayed",
        .enabled(if: isAvailable, "needs /usr/bin/python3 with the cryptography package (Debian python3-cryptography)"))
    func replay() throws {
        let item = try #require(Self.cases.first)
        let guardian = InMemoryWalletReplayGuard(capacity: 8)
        let recipient = try Self.recipient(item, replayGuard: guardian)
        _ = try recipient.decrypt(Array(item.token.utf8))
        #expect(throws: CSEError(.walletReplayed, "")) { try recipient.decrypt(Array(item.token.utf8)) }
        // Verification alone records nothing.
        let other = try Self.recipient(item, replayGuard: InMemoryWalletReplayGuard())
        _ = try other.verify(Array(item.token.utf8))
        _ = try other.decrypt(Array(item.token.utf8))
    }

    @Test(
        "verify checks the signatures and key expiry without a private key, and reports the intermediate key's expiry",
        .enabled(if: isAvailable, "needs /usr/bin/python3 with the cryptography package (Debian python3-cryptography)"))
    func verifyOnly() throws {
        let item = try #require(Self.cases.first)
        let recipient = try GooglePayRecipient(
            recipientID: item.recipientID, privateKeysPEM: [], rootKeys: try GooglePayRootKeys(document: Array(item.rootKeys.utf8)),
            clock: .fixed(unixMilliseconds: item.clock))
        let verification = try recipient.verify(Array(item.token.utf8))
        #expect(verification.protocolVersion == .ecV2)
        #expect(verification.intermediateKeyExpiration == Self.now + 7 * 86_400_000)
        #expect(throws: CSEError(.walletNoMatchingKey, "")) { try recipient.decrypt(Array(item.token.utf8)) }
    }

    @Test(
        "replacingRootKeys swaps the trust anchors and keeps everything else",
        .enabled(if: isAvailable, "needs /usr/bin/python3 with the cryptography package (Debian python3-cryptography)"))
    func replacingRootKeys() throws {
        let item = try #require(Self.cases.first)
        let right = try GooglePayRootKeys(document: Array(item.rootKeys.utf8))
        let foreign = try GooglePayRootKeys(
            document: Array(GooglePayRootKeyFetcherTests.document(keys: 1).utf8))
        let recipient = try Self.recipient(item).replacingRootKeys(foreign)
        #expect(throws: CSEError(.walletSignatureInvalid, "")) { try recipient.decrypt(Array(item.token.utf8)) }
        let restored = recipient.replacingRootKeys(right)
        #expect(restored.recipientID == item.recipientID && restored.protocols == [.ecV2] && restored.rootKeys.count == 1)
        #expect(try restored.decrypt(Array(item.token.utf8)).messageID == "AH2Ejtc-minted-message-id")
    }
}
