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

/// What the client sends: `SealedPaymentRequest`'s two members.
struct Sealed: Decodable {
    let encryptedCustomerInput: String
    let encodedClientMetaInfo: String
}

/// The decrypted payload (the Worldline client SDKs' form). `paymentProductId` is a string
/// ("card") or a Worldline number (1 = Visa, 3 = MasterCard, …).
struct Payload: Decodable {
    struct Value: Decodable {
        let key: String
        let value: String
    }
    let clientSessionId: String
    let nonce: String
    let paymentProductId: String
    let paymentValues: [Value]

    enum CodingKeys: String, CodingKey { case clientSessionId, nonce, paymentProductId, paymentValues }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        clientSessionId = try container.decode(String.self, forKey: .clientSessionId)
        nonce = try container.decode(String.self, forKey: .nonce)
        if let text = try? container.decode(String.self, forKey: .paymentProductId) {
            paymentProductId = text
        } else {
            paymentProductId = String(try container.decode(Int.self, forKey: .paymentProductId))
        }
        paymentValues = try container.decodeIfPresent([Value].self, forKey: .paymentValues) ?? []
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: receiving-service PRIVATE-KEY SESSION-ID < sealed.json\n".utf8))
    exit(64)
}
do {
    let privateKey = try RSAPrivateKey(
        pemRepresentation: String(decoding: try Data(contentsOf: URL(fileURLWithPath: arguments[1])), as: UTF8.self))
    let sealed = try JSONDecoder().decode(Sealed.self, from: FileHandle.standardInput.readDataToEndOfFile())
    struct ClientMeta: Decodable { let sdkIdentifier: String }
    guard let meta = Data(base64Encoded: sealed.encodedClientMetaInfo),
        let sdk = try? JSONDecoder().decode(ClientMeta.self, from: meta).sdkIdentifier
    else { fail("no encodedClientMetaInfo") }

    // 1. Decrypt: RSA-OAEP + A256CBC-HS512 (the Worldline algorithms), tag checked first.
    let decryptor = try JWEDecryptor(privateKey: privateKey)
    let decrypted = try decryptor.decrypt(sealed.encryptedCustomerInput)
    guard decrypted.header.algorithm == .rsaOAEP, decrypted.header.encryption == .a256cbcHS512 else {
        fail("unexpected algorithms \(decrypted.header.algorithm) / \(decrypted.header.encryption)")
    }
    let payload = try decrypted.plaintext.withUnsafeBytes { try JSONDecoder().decode(Payload.self, from: Data($0)) }

    // 2. Check the envelope: this session, a fresh 128-bit nonce, a product we know.
    guard payload.clientSessionId == arguments[2] else { fail("the payload belongs to another session") }
    guard payload.nonce.count == 32, payload.nonce.allSatisfy(\.isHexDigit) else { fail("bad nonce") }
    // A numbered card product is checked with the card rules.
    let values = payload.paymentValues
    let productID = payload.paymentProductId
    guard
        let product = BuiltinProducts.all.first(where: { $0.id == productID })
            ?? (Int(productID) != nil && values.contains { $0.key == "cardNumber" } ? BuiltinProducts.card : nil)
    else { fail("unknown paymentProductId") }

    // 3. Validate the values again, with the product's own rules.
    var request = PaymentRequest(product: product)
    for entry in values {
        try request.setValue(entry.value, forField: entry.key)
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
