// The README's "Library in five lines", as a program. The lines between the README markers are
// the README's snippet, character for character (Examples/check-readme.sh compares them); the
// lines around them supply what the README leaves to the caller: a Client API public-key response
// and a client session id.
//
//   swift run five-lines PRIVATE-KEY-OUT     prints the sealed request as one JSON line and writes
//                                            the test key's private half to PRIVATE-KEY-OUT (PEM)
import CSEKit
import Foundation

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: five-lines PRIVATE-KEY-OUT\n".utf8))
    exit(64)
}
// A fresh test key pair, its public half served as the Client API `crypto/publickey` response.
let privateKey = try RSAPrivateKey.generate(bits: 2048)
let clientAPIResponse = #"{"keyId":"example-key-1","publicKey":"\#(Data(privateKey.publicKey.derRepresentation).base64EncodedString())"}"#
let sessionID = "example-session-1"

// README begin
let key = try PublicKeyResponse(json: Array(clientAPIResponse.utf8))  // {"keyId":…,"publicKey":…}
var request = PaymentRequest(product: BuiltinProducts.card)
try request.setValue("4111 1111 1111 1111", forField: "cardNumber")  // masked or unmasked
try request.setValue("12/30", forField: "expiryDate")
try request.setValue("123", forField: "cvv")
try request.setValue("J. Doe", forField: "cardholderName")
let errors = request.validate()  // [] when valid
let sealed = try PaymentRequestSealer(publicKeyResponse: key).seal(request, clientSessionID: sessionID)
// sealed.encryptedCustomerInput → CreatePayment.encryptedCustomerInput
// README end

guard errors.isEmpty else {
    FileHandle.standardError.write(Data("five-lines: the sample request is invalid: \(errors)\n".utf8))
    exit(1)
}
try Data(privateKey.pemRepresentation.utf8).write(to: URL(fileURLWithPath: CommandLine.arguments[1]))
print(#"{"encryptedCustomerInput":"\#(sealed.encryptedCustomerInput)","encodedClientMetaInfo":"\#(sealed.encodedClientMetaInfo)"}"#)
