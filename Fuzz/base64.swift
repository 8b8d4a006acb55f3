// Fuzz target `base64`: strict base64 / base64url decoding of arbitrary text, and the
// encode → decode identity (differential: every alphabet and padding rule).
import CSECore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBase64(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size).bytes
    let bytes = Array(input)

    // 1. Identity: any bytes encode to text that decodes back to the same bytes.
    for alphabet in [Base64.Alphabet.standard, .url] {
        for padding in [true, false] {
            let encoded = Base64.encode(bytes, alphabet: alphabet, padding: padding)
            require(encoded.utf8.count == Base64.encodedLength(of: bytes.count, padding: padding), "encodedLength")
            let strictRule: Base64.PaddingRule = padding ? .required : .forbidden
            for rule in [strictRule, .optional] {
                do throws(CSEError) {
                    let decoded = try Base64.decode(encoded, alphabet: alphabet, padding: rule)
                    require(decoded == bytes, "decode(encode(x)) != x")
                } catch {
                    require(false, "decode(encode(x)) threw \(error.code)")
                }
            }
        }
    }
    let url = Base64URL.encode(bytes)
    require((try? Base64URL.decode(url)) == bytes, "Base64URL identity")

    // 2. Strict decoding of arbitrary text: a success is canonical, so re-encoding it gives the
    //    text back; a failure is one of the four base64 codes.
    let codes: Set<CSEError.Code> = [.base64InvalidCharacter, .base64InvalidPadding, .base64InvalidLength, .base64NonCanonical]
    for alphabet in [Base64.Alphabet.standard, .url] {
        for rule in [Base64.PaddingRule.required, .forbidden, .optional] {
            do throws(CSEError) {
                let decoded = try bytes.withCSEBytes { (raw) throws(CSEError) in
                    try Base64.decode(raw, alphabet: alphabet, padding: rule)
                }
                let padded = Base64.encode(decoded, alphabet: alphabet, padding: true)
                let unpadded = Base64.encode(decoded, alphabet: alphabet, padding: false)
                let original = text(bytes)
                switch rule {
                case .required: require(padded == original, "accepted non-canonical padded text")
                case .forbidden: require(unpadded == original, "accepted non-canonical unpadded text")
                default: require(padded == original || unpadded == original, "accepted non-canonical text")
                }
            } catch {
                require(codes.contains(error.code), "unexpected code \(error.code)")
            }
        }
    }
    return 0
}
