import CSECore

/// Writes the plaintext of `encryptedCustomerInput` (reference §1.3) with `JSONWriter`, never
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
///
/// The library's one JSON object writer is `JSONObjectWriter` (the JWE header and the client meta
/// info use it); this payload is the one exception, on purpose: it holds card data, so it is written
/// with pointer stores into a single allocation sized exactly up front, which never grows and so
/// never leaves a copy of a card number behind in freed memory, and which measured ≈ 300 ns against
/// ≈ 780 ns for array appends (cse-bench `payload-json`, Benchmarks/README.md).
package enum CustomerInputPayload {
    /// The payload bytes. The caller zeroes them after use (`secureZero`).
    /// - Parameter productID: The `paymentProductId` to write; the product's id by default (the
    ///   sealer passes ``PlatformProductIDs/sealedProductID(for:)``).
    package static func bytes(
        for request: PaymentRequest, clientSessionID: String, nonce: String,
        productID: String? = nil
    ) -> [UInt8] {
        // The plan's fields and the request's values by index: no array of (key, value) pairs.
        let fields = request.product.validationPlan.fields
        let id = productID ?? request.product.id
        let idIsNumber = isCanonicalInteger(id)
        // An exact upper bound, so the payload is written into one allocation that never grows
        // (and so never leaves a copy behind): the fixed member names fit in 128 bytes, each
        // value takes at most 24 bytes of punctuation and names plus its escaped key and value.
        var capacity =
            128 + JSONWriter.maximumQuotedLength(of: clientSessionID) + JSONWriter.maximumQuotedLength(of: nonce)
            + JSONWriter.maximumQuotedLength(of: id)
        if let account = request.accountOnFile { capacity += JSONWriter.maximumQuotedLength(of: account.id) }
        for index in fields.indices {
            guard let value = request.unmaskedValue(at: index), !value.isEmpty else { continue }
            capacity += 24 + JSONWriter.maximumQuotedLength(of: fields[index].id) + JSONWriter.maximumQuotedLength(of: value)
        }
        // Pointer writes instead of array appends: cse-bench payload-json ≈ 780 → ≈ 300 ns.
        return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            let out = UnsafeMutableRawPointer(buffer.baseAddress!)
            var o = 0
            func raw(_ text: StaticString) {
                (out + o).copyMemory(from: text.utf8Start, byteCount: text.utf8CodeUnitCount)
                o += text.utf8CodeUnitCount
            }
            func string(_ text: String) { o += JSONWriter.write(string: text, to: out + o) }
            raw(#"{"clientSessionId":"#)
            string(clientSessionID)
            raw(#","nonce":"#)
            string(nonce)
            raw(#","paymentProductId":"#)
            if idIsNumber {
                var text = id
                text.withUTF8 { utf8 in
                    (out + o).copyMemory(from: utf8.baseAddress!, byteCount: utf8.count)
                    o += utf8.count
                }
            } else {
                string(id)
            }
            if let account = request.accountOnFile {
                raw(#","accountOnFileId":"#)
                string(account.id)
            }
            if request.tokenize { raw(#","tokenize":true"#) }
            raw(#","paymentValues":["#)
            var first = true
            for index in fields.indices {
                guard let value = request.unmaskedValue(at: index), !value.isEmpty else { continue }
                if !first { raw(",") }
                first = false
                raw(#"{"key":"#)
                string(fields[index].id)
                raw(#","value":"#)
                string(value)
                raw("}")
            }
            raw("]}")
            count = o
        }
    }

    /// `0` or a non-zero ASCII digit followed by digits, at most 18 digits (fits `Int64`).
    package static func isCanonicalInteger(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard let first = utf8.first, utf8.count <= 18, utf8.allSatisfy({ $0.isASCIIDigit }) else { return false }
        return first != 0x30 || utf8.count == 1
    }
}
