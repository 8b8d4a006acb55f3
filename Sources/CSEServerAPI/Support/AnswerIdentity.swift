internal import CSECore

/// What a money-moving request asked for, to hold the platform's answer against: an answer that
/// names another amount, currency, reference or id replays another payment (a reused idempotence
/// key, or reused order and transaction ids), and must not be reported as this one (issue #32,
/// point 6). Every platform refuses such an answer the same way: `server.referenceInUse`, nothing
/// taken by this request.
struct ExpectedAnswer {
    /// The amount in minor units.
    var amount: Int64
    /// The ISO 4217 code.
    var currencyCode: String
    /// The merchant reference, when the request carried one.
    var merchantReference: String?
    /// The merchant-chosen ids the answer must repeat (`order.id`, `transaction.id`), by name.
    var identifiers: [(name: String, value: String)] = []

    /// The first member of the answer that names another payment, or `nil`. A member the
    /// answer leaves out is not held against it (not every answer repeats every member).
    /// - Parameters:
    ///   - amount: The answer's amount in minor units, when it has one.
    ///   - currencyCode: The answer's currency, when it has one.
    ///   - merchantReference: The answer's reference, when it has one.
    ///   - identifiers: The answer's ids, by the names of ``identifiers``.
    func mismatch(
        amount: Int64?, currencyCode: String?, merchantReference: String?, identifiers answered: [String: String] = [:]
    ) -> String? {
        if let amount, amount != self.amount { return "amount" }
        if let currencyCode, currencyCode != self.currencyCode { return "currency" }
        if let expected = self.merchantReference, let merchantReference, merchantReference != expected { return "merchantReference" }
        for (name, value) in identifiers {
            if let answer = answered[name], answer != value { return name }
        }
        return nil
    }

    /// `server.referenceInUse` for an answer whose `member` names another payment, with the keys
    /// of this request (they are identifiers, not secrets).
    func referenceInUseError(member: String, platform: String, keys: PaymentReconciliation) -> CSEError {
        var context = ["platform": platform, "member": member]
        for (name, value) in keys.members { context[name] = value }
        return CSEError(
            .serverReferenceInUse,
            "the platform answered with another payment (its \(member) differs from the request): the key or ids were used "
                + "for another payment, and this request took nothing",
            context: context)
    }

    /// Minor units from a JSON number in major units (`12.34`, `1234.0`, `1.5E2`), exactly, by
    /// the currency's ISO 4217 exponent; `nil` when the text is not such a number or has more
    /// significant decimals than the currency. No floating point is involved.
    static func minorUnits(fromMajorNumber text: String, exponent: Int) -> Int64? {
        var digits: [UInt8] = []
        var fractionDigits = 0
        var scale = 0
        var inFraction = false
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "-") { return nil }
        while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") {
                guard !inFraction else { return nil }
                inFraction = true
                continue
            }
            guard (0x30...0x39).contains(byte) else { return nil }
            digits.append(byte)
            if inFraction { fractionDigits += 1 }
        }
        if !bytes.isEmpty {
            bytes = bytes.dropFirst()
            var negative = false
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                negative = sign == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            guard !bytes.isEmpty, bytes.count <= 4, bytes.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            scale = Int(String(decoding: bytes, as: UTF8.self)) ?? 0
            if negative { scale = -scale }
        }
        guard !digits.isEmpty, digits.count <= 40 else { return nil }
        // value = digits × 10^(scale − fractionDigits); minor = value × 10^exponent.
        let shift = scale - fractionDigits + exponent
        if shift < 0 {
            guard -shift <= digits.count, digits.suffix(-shift).allSatisfy({ $0 == 0x30 }) else { return nil }
            digits.removeLast(-shift)
        } else {
            guard shift <= 20 else { return nil }
            digits.append(contentsOf: repeatElement(0x30, count: shift))
        }
        while digits.count > 1, digits.first == 0x30 { digits.removeFirst() }
        return digits.isEmpty ? 0 : Int64(String(decoding: digits, as: UTF8.self))
    }
}
