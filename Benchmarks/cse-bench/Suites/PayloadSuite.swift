import CSECore
import Foundation

/// The encrypted-customer-input payload (reference §1.3) as a plain struct, for `JSONEncoder`.
struct CardPayload: Encodable {
    struct KeyValue: Encodable {
        let key: String
        let value: String
    }

    let clientSessionId: String
    let nonce: String
    let paymentProductId: Int
    let paymentValues: [KeyValue]

    static let example = CardPayload(
        clientSessionId: Fixtures.clientSessionId, nonce: Fixtures.nonce, paymentProductId: 1,
        paymentValues: Fixtures.cardValues.map { KeyValue(key: $0.key, value: $0.value) })

    /// The same object written with CSECore's `JSONWriter`, members in the wire order.
    func jsonBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(160 + paymentValues.reduce(0) { $0 + 24 + ($1.key.utf8.count + $1.value.utf8.count) * 6 })
        out.append(contentsOf: #"{"clientSessionId":"#.utf8)
        JSONWriter.appendString(clientSessionId, to: &out)
        out.append(contentsOf: #","nonce":"#.utf8)
        JSONWriter.appendString(nonce, to: &out)
        out.append(contentsOf: #","paymentProductId":"#.utf8)
        out.append(contentsOf: String(paymentProductId).utf8)
        out.append(contentsOf: #","paymentValues":["#.utf8)
        for (index, pair) in paymentValues.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"key":"#.utf8)
            JSONWriter.appendString(pair.key, to: &out)
            out.append(contentsOf: #","value":"#.utf8)
            JSONWriter.appendString(pair.value, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: "]}".utf8)
        return out
    }
}

/// The payload JSON, ours against Foundation's `JSONEncoder`.
enum PayloadSuite {
    /// The plaintext every JWE and seal workload encrypts.
    static func payloadBytes() -> [UInt8] { CardPayload.example.jsonBytes() }

    static var definitions: [Definition] {
        [
            Definition("payload-json") { _ in
                let payload = CardPayload.example
                // Same JSON value both ways (JSONEncoder may order members differently).
                let ours = mustSucceed { try JSONSerialization.jsonObject(with: Data(payload.jsonBytes())) as? NSDictionary }
                let theirs = mustSucceed { try JSONSerialization.jsonObject(with: JSONEncoder().encode(payload)) as? NSDictionary }
                guard let ours, let theirs, ours.isEqual(theirs) else {
                    fatalError("payload-json setup: JSONWriter and JSONEncoder disagree")
                }
                return Benchmark("payload-json", extras: [("payload_bytes", Double(payload.jsonBytes().count))]) { iterations in
                    repeatSinking(iterations) { payload.jsonBytes() }
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
