// The Client API flow, as a program: what a payment page (or an app) does with the session data
// its merchant server got from CreateSession. It opens a `ClientAPISession`, fetches the
// platform's public key, lists the products for a payment context, asks for the IIN details of
// the card number typed so far, builds the card payment request for the product the IIN names,
// validates it, seals it with the session and prints the sealed body that the merchant server
// passes on to CreatePayment.
//
//   client-api-flow SESSION-DATA.json
//
// SESSION-DATA.json is the CreateSession response: {"clientSessionId", "customerId",
// "clientApiUrl", "assetUrl"}; `clientApiUrl` is the Client API base URL (plain http only to
// loopback). The steps go to standard error, with the session id and the card data masked; the
// sealed body, {"encryptedCustomerInput", "encodedClientMetaInfo"}, is the one line on standard
// output. Exits 0 when every step succeeds, 1 when one fails (its error code on standard error),
// 64 on a usage error. `Examples/run.sh` runs it against the Client API test emulator.
import CSEKit
import Foundation

func step(_ line: String) { FileHandle.standardError.write(Data("client-api-flow: \(line)\n".utf8)) }

func fail(_ message: String) -> Never {
    step("failed: \(message)")
    exit(1)
}

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: client-api-flow SESSION-DATA.json\n".utf8))
    exit(64)
}

// A published test card (Visa) and the context of this checkout: 10.00 EUR, the Netherlands.
let cardNumber = "4111 1111 1111 1111"
let expiryDate = "12/2030"
let cvv = "123"
let cardholderName = "Ada Lovelace"

do {
    // 1. The session, from the merchant server's CreateSession response.
    let json = try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))
    let sessionData = try SessionData(json: Array(json))
    let configuration = ClientAPIConfiguration(clientMetaInfo: .current(appIdentifier: "csekit-example-client-api-flow"))
    let session = try ClientAPISession(sessionData: sessionData, configuration: configuration)
    step("session \(sessionData.maskedClientSessionID) at \(sessionData.clientAPIURL)")

    // 2. The platform's encryption key (GET crypto/publickey); the session keeps it for step 6.
    let key = try await session.publicKey()
    step("public key \(key.keyID)")

    // 3. The products the customer may pay with in this context (GET products).
    let context = try PaymentContext(amount: 1000, currencyCode: "EUR", countryCode: "NL")
    let products = try await session.basicPaymentProducts(for: context)
    step("\(products.paymentProducts.count) products for \(context)")

    // 4. The IIN details of the first 8 digits typed (POST services/getIINdetails): which
    //    product the card belongs to, and whether it is allowed here.
    let iin = try await session.iinDetails(partialCardNumber: String(cardNumber.prefix(9)), for: context)
    guard iin.status == .supported, let productID = iin.productID else { fail("the card is not supported here: \(iin.status)") }
    guard products.product(id: productID) != nil else { fail("product \(productID) is not among the listed products") }
    step("IIN \(iin.status): product \(productID)")

    // 5. The product's fields (GET products/{id}), filled in and validated with its own rules.
    let product = try await session.paymentProduct(id: productID, for: context)
    var request = PaymentRequest(product: product)
    try request.setValue(cardNumber, forField: "cardNumber")
    try request.setValue(expiryDate, forField: "expiryDate")
    try request.setValue(cvv, forField: "cvv")
    try request.setValue(cardholderName, forField: "cardholderName")
    let errors = request.validate()
    guard errors.isEmpty else { fail("the request is invalid: " + errors.map { "\($0)" }.joined(separator: ", ")) }
    step("request for product \(productID) valid: \(product.fields.map(\.id).joined(separator: ", "))")

    // 6. Sealed with the platform's key: JWE (RSA-OAEP + A256CBC-HS512) of the values, this
    //    session's id and a fresh nonce.
    let sealed = try await session.encrypt(request)
    step(
        "sealed: \(sealed.encryptedCustomerInput.split(separator: ".").count)-part JWE, meta info of \(sealed.encodedClientMetaInfo.count) characters"
    )
    print(#"{"encryptedCustomerInput":"\#(sealed.encryptedCustomerInput)","encodedClientMetaInfo":"\#(sealed.encodedClientMetaInfo)"}"#)
} catch {
    fail("\(error)")
}
