// Fuzz target `google-pay`: Google Pay token documents and root-key documents from arbitrary
// bytes, and the documents only a valid Google signature lets through (signedKey, signedMessage,
// the decrypted message), reached here directly. The first byte selects which.
import CSECore
import CSECrypto
@testable import CSEWallets

/// The SubjectPublicKeyInfo of the P-256 base point: a valid key. No input can carry a signature
/// under it, because the fuzzer does not compute ECDSA.
private let rootKeys = try! GooglePayRootKeys(
    document: Array(
        ("{\"keys\":[{\"keyValue\":\"MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEaxfR8uEsQkf4vOblY6RA8ncDfYEt6zOg9KE5RdiYwpZP40Li/hp/m47n60p8D54WK84zV2sxXs7LtkBoN79R9Q==\","
            + "\"protocolVersion\":\"ECv2\",\"keyExpiration\":\"2154841200000\"},{\"keyValue\":\"MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEaxfR8uEsQkf4vOblY6RA8ncDfYEt6zOg9KE5RdiYwpZP40Li/hp/m47n60p8D54WK84zV2sxXs7LtkBoN79R9Q==\","
            + "\"protocolVersion\":\"ECv1\"}]}").utf8))
private let recipient = try! GooglePayRecipient(
    recipientID: "merchant:12345678901234567890", privateKeysPEM: [], rootKeys: rootKeys,
    protocols: GooglePayProtocolVersion.all, clock: .fixed(unixMilliseconds: 1_700_000_000_000))
/// A recipient key for the decryption path (scalar 1…32; a fuzz-only key).
private let recipientKey = try! P256PrivateKey(rawScalar: (1...32).map { UInt8($0) })

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGooglePay(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let selector = input.byte()
    let bytes = input.rest()
    switch selector % 5 {
    case 0:
        // A whole token: no input verifies (there is no signature to forge), so every outcome is a
        // refusal, and one of the codes that come before decryption.
        let codes: Set<CSEError.Code> = [.walletMalformed, .walletUnsupportedVersion, .walletSignatureInvalid, .walletKeyExpired]
        do throws(CSEError) {
            _ = try recipient.verify(bytes)
            require(false, "an unsigned token verified")
        } catch {
            require(codes.contains(error.code), "token: unexpected code \(error.code)")
        }
    case 1:
        do throws(CSEError) {
            let keys = try GooglePayRootKeys(document: bytes)
            require(keys.count <= GooglePayRootKeys.maximumKeyCount, "more keys than the limit")
        } catch {
            require(error.code == .walletMalformed, "root keys: unexpected code \(error.code)")
        }
    case 2:
        do throws(CSEError) {
            _ = try GooglePaySignedKey(text(bytes))
        } catch {
            require(error.code == .walletMalformed, "signedKey: unexpected code \(error.code)")
        }
    case 3:
        // signedMessage, then the KEM with a fixed key: the tag cannot match, so decryption must
        // fail uniformly (never with another code, never by crashing on a bad point).
        do throws(CSEError) {
            let message = try GooglePayEncryptedMessage(text(bytes))
            let version: GooglePayProtocolVersion = bytes.count % 2 == 0 ? .ecV2 : .ecV1
            _ = try GooglePayDecryption.decrypt(message, privateKeys: [recipientKey], version: version)
            require(false, "a fuzzed tag matched")
        } catch {
            require(
                error.code == .walletMalformed || error.code == .walletDecryptionFailed, "signedMessage: unexpected code \(error.code)")
        }
    default:
        // A decrypted message: typed members or wallet.malformed; the card's description never
        // shows a card number of 12 or more digits.
        let object = try? JSONValue.parse(bytes).objectValue
        do throws(CSEError) {
            let message = try GooglePayMessage(protocolVersion: .ecV2, plaintext: SecureBytes(bytes), object: object)
            if let card = message.card, let pan = card.pan, pan.utf8.count >= 12, pan.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                !(card.authMethod ?? "").contains(pan), !(card.eciIndicator ?? "").contains(pan)
            {
                require(!card.description.contains(pan), "a card description shows the PAN")
            }
        } catch {
            require(error.code == .walletMalformed, "message: unexpected code \(error.code)")
        }
    }
    return 0
}
