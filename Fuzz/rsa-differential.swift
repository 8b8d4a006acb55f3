// Fuzz target `rsa-differential`: the OpenSSL, GMP and IFMA RSA engines must agree. Input:
// `selector seed message`. With a fixed OAEP seed (the `insecureFixedSeed:` KAT API) all three
// engines must produce the same ciphertext byte for byte, or fail with the same code (on a CPU
// without AVX-512 IFMA the ifma engine is the OpenSSL one); every
// 16th input the ciphertext is also decrypted with the private key and must give the message
// back. Keys: the TEST-ONLY demo key (2048 bits) and the fuzz keys (2051 and 3072 bits).
import CSECore
@_spi(Testing) import CSECrypto
import CSEDemoKeys

let rsaKeys: [RSAPrivateKey] = {
    do {
        return [
            try DemoKeys.testOnlyPrivateKey(), try RSAPrivateKey(pemRepresentation: FuzzKeys.rsa2051PEM),
            try RSAPrivateKey(pemRepresentation: FuzzKeys.rsa3072PEM),
        ]
    } catch { fatalError("fuzz keys: \(error)") }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRSADifferential(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let selector = input.byte()
    let key = rsaKeys[Int(selector % 3)]
    let hash: DigestAlgorithm = selector & 0x04 == 0 ? .sha1 : .sha256
    let label: [UInt8] = selector & 0x08 == 0 ? [] : Array("label".utf8)
    var seed: [UInt8] = []
    for _ in 0..<hash.byteCount { seed.append(input.byte()) }
    let message = input.rest()
    let viaOpenSSL: Result<[UInt8], CSEError>
    let viaGMP: Result<[UInt8], CSEError>
    do throws(CSEError) {
        viaOpenSSL = .success(try key.publicKey.encryptOAEP(message, hash: hash, label: label, engine: .openSSL, insecureFixedSeed: seed))
    } catch { viaOpenSSL = .failure(error) }
    do throws(CSEError) {
        viaGMP = .success(try key.publicKey.encryptOAEP(message, hash: hash, label: label, engine: .gmp, insecureFixedSeed: seed))
    } catch { viaGMP = .failure(error) }
    do throws(CSEError) {
        let viaIFMA = try key.publicKey.encryptOAEP(message, hash: hash, label: label, engine: .ifma, insecureFixedSeed: seed)
        require((try? viaGMP.get()) == viaIFMA, "IFMA and GMP ciphertexts differ")
    } catch {
        if case .failure(let gmpError) = viaGMP {
            require(error.code == gmpError.code, "IFMA fails differently: \(error.code)")
        } else {
            require(false, "IFMA failed where GMP succeeded: \(error.code)")
        }
    }
    switch (viaOpenSSL, viaGMP) {
    case (.success(let a), .success(let b)):
        require(a == b, "OpenSSL and GMP ciphertexts differ")
        require(a.count == key.publicKey.byteCount, "ciphertext length")
        require(message.count <= key.publicKey.maximumOAEPMessageLength(hash: hash), "encrypted an over-long message")
        if selector & 0xF0 == 0 {
            let plain = try? key.decryptOAEP(a, hash: hash, label: label)
            require(plain?.unsafeCopyToArray() == message, "decryption does not give the message back")
        }
    case (.failure(let a), .failure(let b)):
        require(a.code == b.code, "engines fail differently: \(a.code) vs \(b.code)")
        require(a.code == .rsaMessageTooLong, "unexpected code \(a.code)")
        require(message.count > key.publicKey.maximumOAEPMessageLength(hash: hash), "refused a message that fits")
    default:
        require(false, "one engine succeeded and the other failed")
    }
    return 0
}
