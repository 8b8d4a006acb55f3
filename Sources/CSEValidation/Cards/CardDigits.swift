/// Byte-level reading of a card number: only ASCII digits count, ASCII spaces are ignored, and
/// anything else (letters, punctuation, NUL, Arabic-Indic or other non-ASCII digits) makes the
/// number unreadable. Deciding this once keeps every card entry point consistent.
struct CardDigits {
    /// The number of digits.
    var count = 0
    /// The first `min(count, 8)` digits as an integer.
    var leading: UInt32 = 0
    /// Whether the Luhn sum over all digits is a multiple of 10 (meaningful when `count > 0`).
    var luhnValid = false

    /// Reads `text`, or returns `nil` when it contains anything but ASCII digits and spaces.
    /// - Parameter withLuhn: Whether to compute ``luhnValid`` (detection does not need it).
    init?(_ text: String, withLuhn: Bool = true) {
        var text = text
        guard let result = text.withUTF8({ withLuhn ? CardDigits(bytes: $0) : CardDigits(prefixOf: $0) }) else { return nil }
        self = result
    }

    /// Reads the leading digits and checks that every byte is a digit or a space, without Luhn.
    init?(prefixOf bytes: UnsafeBufferPointer<UInt8>) {
        for byte in bytes {
            if byte == 0x20 { continue }
            let digit = byte &- 0x30
            guard digit < 10 else { return nil }
            if count < 8 { leading = leading &* 10 &+ UInt32(digit) }
            count &+= 1
        }
    }

    init?(bytes: UnsafeBufferPointer<UInt8>) {
        // Luhn from the left: keep both parities' sums and pick one at the end.
        var sumIfEvenCount = 0, sumIfOddCount = 0
        for byte in bytes {
            if byte == 0x20 { continue }
            let digit = Int(byte &- 0x30)
            guard digit < 10 else { return nil }
            if count < 8 { leading = leading &* 10 &+ UInt32(digit) }
            let doubled = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
            // Digit i (0-based from the left) is doubled when (count - 1 - i) is odd.
            if count & 1 == 0 {
                sumIfEvenCount &+= doubled
                sumIfOddCount &+= digit
            } else {
                sumIfEvenCount &+= digit
                sumIfOddCount &+= doubled
            }
            count &+= 1
        }
        luhnValid = (count & 1 == 0 ? sumIfEvenCount : sumIfOddCount) % 10 == 0
    }

    /// The leading digits padded with zeros into the 8-digit IIN space, using `digits` of them.
    func key(using digits: Int) -> UInt32 {
        var value = leading
        var have = min(count, 8)
        while have > digits { value /= 10; have -= 1 }
        while have < 8 { value = value &* 10; have += 1 }
        return value
    }
}
