/// Sealing a payment request (validate, payload JSON, JWE). Empty until CSEPayments has a sealer.
enum PaymentsSuite {
    static var definitions: [Definition] { [] }
}
