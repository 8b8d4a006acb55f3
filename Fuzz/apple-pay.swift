// Fuzz target `apple-pay`: Apple Pay tokens from arbitrary bytes, through every stage a token
// reaches before any key is used: the token's shape (paymentData, PKPaymentToken or Apple Pay
// JS's {"token":…}), the CMS signature read from BER (CSEKit's reader and OpenSSL's), the chain
// and signer checks, and the decrypted payment data as a merchant would get it. The first byte
// selects the stage.
import CSECore
import CSECrypto
@testable import CSEWallets

/// The default decryptor: the embedded Apple Root CA - G3, no merchant keys, a fixed clock.
private let decryptor = try! ApplePayDecryptor(clock: .fixed(unixMilliseconds: 1_700_000_000_000))
private let root = ApplePayTrustedRoot.appleRootCAG3.certificate

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzApplePay(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let selector = input.byte()
    let bytes = input.rest()
    switch selector % 4 {
    case 0:
        // A whole token: nothing the fuzzer writes carries Apple's signature, so every outcome is
        // a refusal with one of the codes that come before decryption.
        let codes: Set<CSEError.Code> = [.walletMalformed, .walletUnsupportedVersion, .walletUntrustedCertificate, .walletSignatureInvalid]
        do throws(CSEError) {
            _ = try decryptor.decrypt(bytes)
            require(false, "an unsigned token decrypted")
        } catch {
            require(codes.contains(error.code), "token: unexpected code \(error.code)")
        }
    case 1:
        // The token's shape only.
        do throws(CSEError) {
            let token = try ApplePayToken(json: bytes, accepting: [.ecV1, .rsaV1])
            require(!token.signature.isEmpty, "a token without a signature parsed")
        } catch {
            require(error.code == .walletMalformed || error.code == .walletUnsupportedVersion, "shape: unexpected code \(error.code)")
        }
    case 2:
        // A signature as BER bytes over fixed content: CMS parsing (CSEKit's BER reader, then
        // OpenSSL's), the marker OIDs, the chain. The reader's signed attributes are read too, as
        // the fast check of a remembered chain reads them.
        if let signed = try? CMSSignedData(ber: bytes) {
            for signer in signed.signers {
                if let attributes = signer.signedAttributes.flatMap({ try? CMSSignedAttributes($0) }) {
                    require(attributes.signedBytes.first == 0x31, "signed attributes not re-tagged as a SET")
                }
            }
        }
        do throws(CSEError) {
            _ = try ApplePaySignatureVerifier.verify(signature: bytes, content: Array("content".utf8), root: root)
            require(false, "a fuzzed signature verified")
        } catch {
            let codes: Set<CSEError.Code> = [.walletMalformed, .walletUntrustedCertificate, .walletSignatureInvalid]
            require(codes.contains(error.code), "signature: unexpected code \(error.code)")
        }
    default:
        // Decrypted payment data: typed members or wallet.decryptionFailed (one code for every
        // decryption failure); the description never shows
        // a device account number of 12 or more digits.
        do throws(CSEError) {
            let payment = try ApplePayPaymentData(json: SecureBytes(bytes))
            let pan = payment.applicationPrimaryAccountNumber
            if pan.utf8.count >= 12, pan.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                require(!payment.description.contains(pan), "a payment description shows the device PAN")
            }
        } catch {
            require(error.code == .walletDecryptionFailed, "payment data: unexpected code \(error.code)")
        }
    }
    return 0
}
