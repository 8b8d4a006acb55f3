import CSECore
import CSEPayments
import Foundation

/// The encrypted-customer-input payload (reference §1.3) as a plain `Encodable` struct, the way a
/// Swift SDK feeds it to `JSONEncoder`.
struct CardPayload: Encodable {
    struct KeyValue: Encodable {
        let key: String
        let value: String
    }

    let clientSessionID: String
    let nonce: String
    let paymentProductID: String
    let paymentValues: [KeyValue]

    /// The wire names (Swift names case acronyms uniformly; the payload keeps the platform's).
    enum CodingKeys: String, CodingKey {
        case clientSessionID = "clientSessionId", nonce, paymentProductID = "paymentProductId", paymentValues
    }

    static let example = CardPayload(
        clientSessionID: Fixtures.clientSessionID, nonce: Fixtures.nonce, paymentProductID: BuiltinProducts.card.id,
        paymentValues: Fixtures.cardValues.map { KeyValue(key: $0.key, value: $0.value) })
}

/// The payload JSON: CSEPayments' writer (the bytes the sealer encrypts) against `JSONEncoder`.
enum PayloadSuite {
    /// The plaintext every JWE workload encrypts: the sealer's payload for the card request.
    static func payloadBytes() -> [UInt8] {
        CustomerInputPayload.bytes(
            for: CardRequestSuite.request(), clientSessionID: Fixtures.clientSessionID,
            nonce: Fixtures.nonce)
    }

    static var definitions: [Definition] {
        [
            Definition("payload-json") { _ in
                let request = CardRequestSuite.request()
                let ours = payloadBytes()
                // The same JSON value both ways (JSONEncoder may order members differently).
                let left = mustSucceed { try JSONSerialization.jsonObject(with: Data(ours)) as? NSDictionary }
                let right = mustSucceed {
                    try JSONSerialization.jsonObject(with: JSONEncoder().encode(CardPayload.example)) as? NSDictionary
                }
                guard let left, let right, left.isEqual(right) else {
                    fatalError("payload-json setup: CSEPayments and JSONEncoder disagree")
                }
                return Benchmark("payload-json", extras: [("payload_bytes", Double(ours.count))]) { iterations in
                    repeatSinking(iterations) {
                        CustomerInputPayload.bytes(for: request, clientSessionID: Fixtures.clientSessionID, nonce: Fixtures.nonce)
                    }
                }
            },
            // The check every `cse encrypt --lines` line gets (issue #37): the payload is plain,
            // so the allocation-free validator decides it; the full parser's validate mode is the
            // reference (the same verdict, proven in setup).
            Definition("json-validate/payload") { _ in
                let payload = payloadBytes()
                mustSucceed { () throws(CSEError) in try JSONValue.validate(payload) }
                var broken = payload
                broken[broken.count / 2] = 0x01
                guard (try? JSONValue.validate(broken)) == nil else { fatalError("json-validate setup: a control byte passed") }
                return Benchmark("json-validate/payload", extras: [("payload_bytes", Double(payload.count))]) { iterations in
                    repeatSinking(iterations) { (try? JSONValue.validate(payload)) != nil }
                }
            },
            Definition("foundation/json-encoder") { _ in
                let payload = CardPayload.example
                let encoder = JSONEncoder()
                return Benchmark("foundation/json-encoder") { iterations in
                    repeatSinking(iterations) { mustSucceed { try encoder.encode(payload) } }
                }
            },
        ]
    }
}
