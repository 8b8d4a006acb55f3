// The receiving side: what a merchant server (or a test double of the payment platform) does with
// a sealed request. It decrypts `encryptedCustomerInput` with the private key, checks the JWE
// header, the session, the product and the nonce, and validates the values again against the
// product: a server never trusts that the client validated.
//
//   receiving-service PRIVATE-KEY SESSION-ID < sealed.json
//
// Prints what it received with the card data masked, and exits 0 when every check passes, 1 when
// one fails (the reason on standard error), 64 on a usage error.
import CSEKit
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("receiving-service: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: receiving-service PRIVATE-KEY SESSION-ID < sealed.json\n".utf8))
    exit(64)
}
do {
    let privateKey = try RSAPrivateKey(
        pemRepresentation: String(decoding: try Data(contentsOf: URL(fileURLWithPath: arguments[1])), as: UTF8.self))
    let sealed = try JSONValue.parse(Array(FileHandle.standardInput.readDataToEndOfFile()))
    guard let jwe = sealed["encryptedCustomerInput"]?.stringValue else { fail("no encryptedCustomerInput") }
    guard let meta = sealed["encodedClientMetaInfo"]?.stringValue,
        let sdk = try JSONValue.parse(Array(Data(base64Encoded: meta) ?? Data()))["sdkIdentifier"]?.stringValue
    else { fail("no encodedClientMetaInfo") }

    // 1. Decrypt: RSA-OAEP + A256CBC-HS512 (the Worldline algorithms), tag checked first.
    let decryptor = try JWEDecryptor(privateKey: privateKey)
    let decrypted = try decryptor.decrypt(jwe)
    guard decrypted.header.algorithm == .rsaOAEP, decrypted.header.encryption == .a256cbcHS512 else {
        fail("unexpected algorithms \(decrypted.header.algorithm) / \(decrypted.header.encryption)")
    }
    let payload = try decrypted.plaintext.withUnsafeBytes { (bytes) throws(CSEError) -> JSONValue in try JSONValue.parse(bytes) }

    // 2. Check the envelope: this session, a fresh 128-bit nonce, a product we know.
    guard payload["clientSessionId"]?.stringValue == arguments[2] else { fail("the payload belongs to another session") }
    guard let nonce = payload["nonce"]?.stringValue, nonce.count == 32, nonce.allSatisfy(\.isHexDigit) else { fail("bad nonce") }
    // The id is a string ("card") or a Worldline number (1 = Visa, 3 = MasterCard, …); a numbered
    // card product is checked with the card rules.
    let values = payload["paymentValues"]?.arrayValue ?? []
    guard let productID = payload["paymentProductId"]?.stringValue ?? payload["paymentProductId"]?.intValue.map(String.init),
        let product = BuiltinProducts.all.first(where: { $0.id == productID })
            ?? (Int(productID) != nil && values.contains { $0["key"]?.stringValue == "cardNumber" } ? BuiltinProducts.card : nil)
    else { fail("unknown paymentProductId") }

    // 3. Validate the values again, with the product's own rules.
    var request = PaymentRequest(product: product)
    for entry in values {
        guard let field = entry["key"]?.stringValue, let value = entry["value"]?.stringValue else { fail("bad paymentValues entry") }
        try request.setValue(value, forField: field)
    }
    let errors = request.validate()
    guard errors.isEmpty else { fail("invalid values: " + errors.map { "\($0)" }.joined(separator: ", ")) }

    print("kid \(decrypted.header.keyID ?? "-"), sent by \(sdk)")
    print("session \(arguments[2]), product \(productID), nonce of 32 hex digits")
    for (field, value) in request.unmaskedFieldValues {
        let shown = field == "cardNumber" ? SecretMasking.maskPAN(value) : field == "cvv" ? "***" : value
        print("  \(field) \(shown)")
    }
    print("valid: every rule of product \"\(productID)\" passes on the receiving side")
} catch {
    fail("\(error)")
}
