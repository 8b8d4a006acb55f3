// Fuzz target `jwe`: compact JWE parsing and decryption with a fixed key (the bundled
// TEST-ONLY demo key). Every input must fail with a `jwe.*` code or decrypt; a success must
// carry an allowed header, and the plaintext can never be longer than the ciphertext.
import CSECore
import CSECrypto
import CSEJOSE
import CSEDemoKeys

let decryptor: JWEDecryptor = {
    do { return try JWEDecryptor(privateKey: DemoKeys.testOnlyPrivateKey()) } catch { fatalError("demo key: \(error)") }
}()

let jweCodes: Set<CSEError.Code> = [
    .jweTooLarge, .jweMalformed, .jweUnsupportedAlgorithm, .jweUnsupportedEncryption, .jweUnsupportedHeader,
    .jweKeyIDMismatch, .jweDecryptionFailed,
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWE(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(FuzzInput(data, size).bytes)
    do throws(CSEError) {
        let result = try bytes.withCSEBytes { (raw) throws(CSEError) in try decryptor.decrypt(raw) }
        require(JWEKeyAlgorithm.allowList.contains(result.header.algorithm), "success with a foreign alg")
        require(JWEContentEncryption.allowList.contains(result.header.encryption), "success with a foreign enc")
        let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        require(segments.count == 5, "success without five segments")
        require(result.plaintext.count <= segments[3].count, "plaintext longer than its ciphertext")
    } catch {
        require(jweCodes.contains(error.code), "unexpected code \(error.code)")
    }
    return 0
}
