import CSECore
import CSECrypto
import CSEJOSE
import CSEPayments

/// Sealing a payment request: validation, nonce, payload JSON and the JWE, as an app calls it.
enum PaymentsSuite {
    static var definitions: [Definition] {
        [
            Definition("seal-card/rsa2048") { fixtures in sealCard(fixtures.keys(bits: 2048)) },
            // As on a CPU without AVX-512 IFMA, where the default engine is OpenSSL's.
            Definition("seal-card/rsa2048/openSSL") { fixtures in sealCard(fixtures.keys(bits: 2048), engine: .openSSL) },
        ]
    }

    /// `engine` forces the RSA engine (named in the benchmark unless it is the default).
    static func sealCard(_ keys: BenchmarkKeys, engine: RSAEngine? = nil) -> Benchmark {
        var options = SealingOptions()
        if let engine { options.rsaEngine = engine }
        let name = "seal-card/rsa2048" + (engine.map { "/\($0)" } ?? "")
        let sealer = mustSucceed { () throws(CSEError) in
            try PaymentRequestSealer(publicKey: keys.publicKey, keyID: Fixtures.keyID, options: options)
        }
        let request = CardRequestSuite.request()
        // Setup proves the sealed JWE decrypts to a payload carrying the card number.
        let sealed = mustSucceed { () throws(CSEError) in try sealer.seal(request, clientSessionID: Fixtures.clientSessionID) }
        let decryptor = mustSucceed { () throws(CSEError) in try JWEDecryptor(privateKey: keys.privateKey, expectedKeyID: Fixtures.keyID) }
        let plaintext = mustSucceed { () throws(CSEError) in try decryptor.decrypt(sealed.encryptedCustomerInput) }
        guard String(decoding: plaintext.plaintext.unsafeCopyToArray(), as: UTF8.self).contains(#""value":"4567350000427977""#) else {
            fatalError("\(name) setup: the sealed payload does not carry the card")
        }
        return Benchmark(name) { iterations in
            repeatSinking(iterations) {
                mustSucceed { () throws(CSEError) in try sealer.seal(request, clientSessionID: Fixtures.clientSessionID) }
            }
        }
    }
}
