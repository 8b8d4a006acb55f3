import CSECore
#if canImport(Glibc)
import Glibc
#endif

/// Writes the plaintext of `encryptedCustomerInput` (reference §1.3) with ``JSONWriter``, never
/// through a dictionary, so the bytes are fixed:
///
///     {"clientSessionId":"…","nonce":"<32 lowercase hex>","paymentProductId":1,
///      "accountOnFileId":"0","tokenize":true,"paymentValues":[{"key":"cardNumber","value":"…"},…]}
///
/// - `paymentProductId` is a JSON number when the product id is a canonical decimal integer
///   (as Worldline sends an `Int`), otherwise a JSON string (Worldline dropped the member);
/// - `accountOnFileId` is a string (Worldline 4.0.1 and later) and present only with an account;
/// - `tokenize` is present only when `true` (Worldline);
/// - `paymentValues` holds the non-empty unmasked values in product field order.
package enum CustomerInputPayload {
    /// The payload bytes. The caller wipes them after use (see ``wipe(_:)``).
    package static func bytes(for request: PaymentRequest, clientSessionId: String, nonce: String) -> [UInt8] {
        let values = request.unmaskedFieldValues
        var capacity = 128 + clientSessionId.utf8.count * 6 + request.product.id.utf8.count * 6
        for (key, value) in values { capacity += 24 + (key.utf8.count + value.utf8.count) * 6 }
        var out: [UInt8] = []
        // Reserve the worst case up front so the buffer never reallocates and leaves a copy behind.
        out.reserveCapacity(capacity)
        out.append(contentsOf: #"{"clientSessionId":"#.utf8)
        JSONWriter.appendString(clientSessionId, to: &out)
        out.append(contentsOf: #","nonce":"#.utf8)
        JSONWriter.appendString(nonce, to: &out)
        out.append(contentsOf: #","paymentProductId":"#.utf8)
        let id = request.product.id
        if isCanonicalInteger(id) { out.append(contentsOf: id.utf8) } else { JSONWriter.appendString(id, to: &out) }
        if let account = request.accountOnFile {
            out.append(contentsOf: #","accountOnFileId":"#.utf8)
            JSONWriter.appendString(account.id, to: &out)
        }
        if request.tokenize { out.append(contentsOf: #","tokenize":true"#.utf8) }
        out.append(contentsOf: #","paymentValues":["#.utf8)
        for (index, (key, value)) in values.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"key":"#.utf8)
            JSONWriter.appendString(key, to: &out)
            out.append(contentsOf: #","value":"#.utf8)
            JSONWriter.appendString(value, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: "]}".utf8)
        return out
    }

    /// `0` or a non-zero ASCII digit followed by digits, at most 18 digits (fits `Int64`).
    package static func isCanonicalInteger(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard let first = utf8.first, utf8.count <= 18, utf8.allSatisfy({ $0 &- 0x30 < 10 }) else { return false }
        return first != 0x30 || utf8.count == 1
    }

    /// 32 lowercase hex characters for 16 nonce bytes.
    package static func hex(_ bytes: [UInt8]) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Overwrites the bytes with zeros in a way the optimiser keeps (`explicit_bzero`).
    package static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return }
            explicit_bzero(base, buffer.count)
        }
    }
}
