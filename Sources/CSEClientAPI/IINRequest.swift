package import CSECore

/// The `bin` of an IIN lookup (research note §1.4): spaces are stripped (WL-JS), then the first
/// 8 digits are sent when 8 or more were typed, otherwise the first 6 (WL-Swift, WL-JS).
package enum IINBin {
    /// The digits to send, or `nil` when fewer than 6 were typed (the caller answers
    /// `notEnoughDigits` without a call).
    /// - Throws: ``CSEError/Code/clientAPIInvalidCardNumber`` for a character other than a
    ///   digit or a space, or more than 19 digits; the context gives the digit count only.
    package static func truncated(_ partialCardNumber: String) throws(CSEError) -> String? {
        var digits: [UInt8] = []
        digits.reserveCapacity(19)
        for byte in partialCardNumber.utf8 where byte != 0x20 {
            guard byte &- 0x30 < 10 else {
                throw CSEError(.clientAPIInvalidCardNumber, "the card number holds a character other than a digit or a space")
            }
            guard digits.count < 19 else {
                throw CSEError(.clientAPIInvalidCardNumber, "the card number has more than 19 digits")
            }
            digits.append(byte)
        }
        guard digits.count >= 6 else { return nil }
        return String(decoding: digits.prefix(digits.count >= 8 ? 8 : 6), as: UTF8.self)
    }

    /// The request body: `{"bin":"…","paymentContext":{…}}` (`paymentContext` only with a context).
    static func body(bin: String, context: PaymentContext?) -> [UInt8] {
        var object = JSONObject([("bin", .string(bin))])
        if let context { object["paymentContext"] = context.jsonValue }
        return JSONValue.object(object).serializedBytes
    }
}
