import CSECore
import CSECrypto
import CSEJOSE
import CSEPayments
import CSEValidation
import Foundation
import Testing
import TestSupport

/// The demo key, allowed explicitly, a fixed clock (May 2026) and a fixed meta info.
func demoSealer(nonce: NonceSource = .secureRandom, allowInvalid: Bool = false) throws(CSEError) -> PaymentRequestSealer {
    try PaymentRequestSealer(
        publicKey: DemoKeys.testOnlyPublicKey, keyID: DemoKeys.testOnlyKeyID,
        options: SealingOptions(
            allowInvalidRequest: allowInvalid, allowDemoKey: true,
            currentMonth: CalendarMonth(year: 2026, month: 5), nonceSource: nonce,
            clientMetaInfo: ClientMetaInfo(platformIdentifier: "Linux/6.1.0", deviceType: "x86_64")))
}

/// Decrypts with the demo private key in-process.
let demoDecryptor: JWEDecryptor = {
    try! JWEDecryptor(privateKey: DemoKeys.testOnlyPrivateKey(), expectedKeyID: DemoKeys.testOnlyKeyID)
}()

func openSealed(_ jwe: String) throws -> [UInt8] {
    try demoDecryptor.decrypt(jwe).plaintext.unsafeCopyToArray()
}

extension JWCryptoOracle {
    /// Runs the shared oracle in `mode` over `lines` (with `keyPEM` written to a temporary file)
    /// and returns its non-empty output lines.
    static func batch(_ mode: String, keyPEM: String?, lines: [String]) throws -> [String] {
        var arguments = [script, mode]
        var keyPath: String?
        if let keyPEM {
            let path = try temporaryFile(keyPEM)
            keyPath = path
            arguments += ["--key", path]
        }
        defer { if let keyPath { try? FileManager.default.removeItem(atPath: keyPath) } }
        return try run(arguments, input: lines.joined(separator: "\n") + "\n").filter { !$0.isEmpty }
    }
}
