import CSECore
import CSEWallets
import Testing

/// Token documents refused for their shape, before any signature is checked, and recipients
/// refused for their configuration. (Signed cases are in GooglePayMinterTests.)
@Suite("Google Pay: token shapes and recipient configuration")
struct GooglePayTokenShapeTests {
    static let rootKeys = try! GooglePayRootKeys(document: Array(GooglePayRootKeyFetcherTests.document(keys: 1).utf8))

    static func recipient(
        _ protocols: Set<GooglePayProtocolVersion> = GooglePayProtocolVersion.all
    ) throws(CSEError)
        -> GooglePayRecipient
    {
        try GooglePayRecipient(
            recipientID: "merchant:1", privateKeysPEM: [], rootKeys: rootKeys, protocols: protocols,
            clock: .fixed(unixMilliseconds: 1_700_000_000_000))
    }

    @Test("Documents that are not a token of the documented shape are wallet.malformed")
    func malformed() throws {
        let isk = "\"intermediateSigningKey\":{\"signedKey\":\"{}\",\"signatures\":[\"AA==\"]}"
        let documents = [
            "", "not json", "[]", "{}", "{\"protocolVersion\":2}",
            "{\"protocolVersion\":\"ECv2\",\"signature\":\"AA==\",\"signedMessage\":\"{}\"}",
            "{\"protocolVersion\":\"ECv2\",\"signature\":\"AA==\",\"signedMessage\":\"{}\",\"intermediateSigningKey\":[]}",
            "{\"protocolVersion\":\"ECv2\",\"signature\":\"AA==\",\"signedMessage\":\"{}\",\"intermediateSigningKey\":{\"signedKey\":\"{}\",\"signatures\":[]}}",
            "{\"protocolVersion\":\"ECv2\",\"signature\":\"AA==\",\"signedMessage\":\"{}\",\"intermediateSigningKey\":{\"signedKey\":\"{}\",\"signatures\":[1]}}",
            "{\"protocolVersion\":\"ECv2\",\"signature\":\"AA==\",\"signedMessage\":\"{}\",\"intermediateSigningKey\":{\"signedKey\":{},\"signatures\":[\"AA==\"]}}",
            "{\"protocolVersion\":\"ECv2\",\"signature\":1,\"signedMessage\":\"{}\",\(isk)}",
            "{\"protocolVersion\":\"ECv2\",\"signature\":\"AA==\",\"signedMessage\":{},\(isk)}",
            "{\"protocolVersion\":\"ECv2\",\"signature\":\"AA==\",\"signedMessage\":\"{}\",\(isk),\"extra\":1}",
            "{\"protocolVersion\":\"ECv1\",\"signature\":\"AA==\",\"signedMessage\":\"{}\",\"extra\":1}",
            "{\"protocolVersion\":\"ECv2\",\"protocolVersion\":\"ECv2\"}",
            "{\"protocolVersion\":\"ECv2\",\"pad\":\"" + String(repeating: "a", count: 65_536) + "\"}",
            String(repeating: "[", count: 9) + String(repeating: "]", count: 9),
        ]
        let recipient = try Self.recipient()
        for (index, document) in documents.enumerated() {
            #expect(throws: CSEError(.walletMalformed, ""), "document \(index)") { try recipient.decrypt(Array(document.utf8)) }
        }
    }

    @Test("A protocolVersion outside the accepted set, or unknown, is wallet.unsupportedVersion; the error echoes it only as a safe name")
    func unsupported() throws {
        let recipient = try Self.recipient([.ecV2])
        for version in ["ECv1", "ECv2SigningOnly", "ECv3", "ecv2", "4111111111111111"] {
            let document = "{\"protocolVersion\":\"\(version)\",\"signature\":\"AA==\",\"signedMessage\":\"{}\"}"
            do {
                _ = try recipient.verify(Array(document.utf8))
                Issue.record("\(version) accepted")
            } catch {
                #expect(error.code == .walletUnsupportedVersion)
                #expect(!"\(error)".contains("4111111111111111"))
            }
        }
    }

    @Test("An ECv1 token with no ECv1 root key configured fails the signature check with the recipient-id hint")
    func noRootKeyOfTheVersion() throws {
        let document = "{\"protocolVersion\":\"ECv1\",\"signature\":\"AA==\",\"signedMessage\":\"{}\"}"
        do {
            _ = try Self.recipient().decrypt(Array(document.utf8))
            Issue.record("accepted")
        } catch {
            #expect(error.code == .walletSignatureInvalid)
            #expect(error.reason.contains("recipient id") && error.reason.contains("production"))
        }
    }

    @Test("Recipients are refused for an empty recipient id, sender id or protocol set, and for a key that is not P-256 PEM")
    func configuration() {
        #expect(throws: CSEError(.walletMalformed, "")) {
            try GooglePayRecipient(recipientID: "", privateKeysPEM: [], rootKeys: Self.rootKeys)
        }
        #expect(throws: CSEError(.walletMalformed, "")) {
            try GooglePayRecipient(recipientID: "merchant:1", privateKeysPEM: [], rootKeys: Self.rootKeys, senderID: "")
        }
        #expect(throws: CSEError(.walletMalformed, "")) {
            try GooglePayRecipient(recipientID: "merchant:1", privateKeysPEM: [], rootKeys: Self.rootKeys, protocols: [])
        }
        #expect(throws: (any Error).self) {
            try GooglePayRecipient(recipientID: "merchant:1", privateKeysPEM: ["not a key"], rootKeys: Self.rootKeys)
        }
        #expect(GooglePayProtocolVersion("ECv2") == .ecV2 && GooglePayProtocolVersion("ECV2") == nil)
        #expect(GooglePayProtocolVersion.defaultAccepted == [.ecV2] && "\(GooglePayProtocolVersion.ecV2SigningOnly)" == "ECv2SigningOnly")
    }
}
