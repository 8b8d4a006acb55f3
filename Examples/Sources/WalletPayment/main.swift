// The merchant side of a wallet payment, in process: decrypt an Apple Pay token with the merchant's
// Payment Processing key, and pay with the card it carries through Worldline's CreatePayment
// (`decryptedPaymentData`), with no JSON between the decryptor and the payment (issue #31,
// point 1). It imports the two products it uses, CSEWallets and CSEServerAPI, not the umbrella.
//
//   wallet-payment TOKEN CERT.pem KEY.pem CLOCK_MS ORIGIN SECRET_FILE
//
// TOKEN is a PKPaymentToken's paymentData, CERT/KEY the Payment Processing certificate and key,
// CLOCK_MS the instant (Unix milliseconds) at which to check the token's signing time, ORIGIN the
// Worldline origin (Examples/run.sh passes the server test emulator on 127.0.0.1), SECRET_FILE
// the secret API key. Prints the payment's id and status and the card masked; exits 1 when the
// token or the payment is refused, 75 when the outcome is unknown.
import CSECore
import CSECrypto
import CSEServerAPI
import CSEWallets
import Foundation

func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("wallet-payment: \(message)\n".utf8))
    exit(status)
}

let arguments = CommandLine.arguments
guard arguments.count == 7, let clock = Int64(arguments[4]) else {
    fail("usage: wallet-payment TOKEN CERT.pem KEY.pem CLOCK_MS ORIGIN SECRET_FILE", status: 64)
}
func read(_ path: String) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    return Array(data)
}

do {
    // 1. Verify and decrypt the token (signature, chain to Apple Root CA - G3, signing time).
    let identity = try ApplePayMerchantIdentity(
        certificatePEM: String(decoding: read(arguments[2]), as: UTF8.self),
        privateKeyPEM: String(decoding: read(arguments[3]), as: UTF8.self))
    let decryptor = try ApplePayDecryptor(merchantIdentities: [identity], clock: .fixed(unixMilliseconds: clock))

    // 2. The one typed card: the decryptor's payment, straight into the platform's request.
    let card = try WalletCard(try decryptor.decrypt(read(arguments[1])))
    let request = try WorldlineWalletPaymentRequest(card: card, amount: 100, currencyCode: "USD", merchantReference: "wallet-example-1")

    // 3. Pay. `createPayment` returns an outcome: succeeded, refused, pending (the payer must act:
    //    `action` says how) or unknown with the keys that settle it.
    let client = try WorldlineServerClient(
        credentials: try WorldlineServerCredentials(
            merchantID: "1234", apiKeyID: "5e45c937b9db33ae", secretAPIKey: SecureBytes(read(arguments[6]))),
        environment: try ServerEnvironment(origin: arguments[5]))
    switch await client.createPaymentOutcome(request) {
    case .succeeded(let payment, _):
        print("card \(card)")
        print("payment \(payment.id) \(payment.status)")
    case .refused(_, let error):
        fail("refused: \(error.code)")
    case .pending(let payment, let action, _):
        print("payment \(payment.id) pending: \(action == nil ? "the platform decides later" : "the payer must act")")
        exit(3)
    case .unknown(let keys, let error):
        fail("outcome unknown (\(error.code)); retry with idempotence key \(keys.idempotenceKey?.description ?? "-")", status: 75)
    }
} catch {
    fail("\(error.code): \(error)")
}

extension WorldlineServerClient {
    /// ``createPayment(_:idempotenceKey:)`` with an error that proves nothing was processed folded
    /// into `.refused`, so the example has one `switch`.
    func createPaymentOutcome(_ request: WorldlineWalletPaymentRequest) async -> PaymentOutcome<WorldlinePayment> {
        do { return try await createPayment(request) } catch { return .refused(nil, error) }
    }
}
