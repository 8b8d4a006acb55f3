import CSECore

/// A Chinese resident identity number (GB 11643-1999): 15 digits, or 17 digits plus an
/// ISO 7064 MOD 11-2 check character. JSON key `residentIdNumber`.
///
/// - 15 characters: all ASCII digits (first-generation numbers carry no check digit). A sign or
///   any other character is invalid.
/// - 18 characters: the first 17 are ASCII digits with weights `2^(17-i) mod 11`; the check value
///   `(12 - sum mod 11) mod 11` is written as its digit, or as `X` (either case) for 10.
/// - Any other length is invalid.
public struct ResidentIDNumberValidator: FieldValidator {
    /// ``ValidationCode/residentIDNumber``.
    public var code: ValidationCode { .residentIDNumber }

    /// Creates the validator. It has no parameters.
    public init() {}

    /// Checks `value`.
    /// - Parameters:
    ///   - value: The unmasked identity number.
    ///   - context: Unused.
    /// - Returns: ``ValidationResult/valid`` or a `residentIdNumber` failure.
    public func validate(_ value: String, in context: ValidationContext) -> ValidationResult {
        Self.isValid(value) ? .valid : .invalid(.residentIDNumber)
    }

    /// The ISO 7064 MOD 11-2 weights for positions 1…17 (`2^(17-i) mod 11`).
    static let weights: [Int] = (0..<17).map { position in
        var weight = 1
        for _ in 0..<(17 - position) { weight = weight * 2 % 11 }
        return weight
    }

    /// Whether `value` is a well-formed 15- or 18-character identity number.
    /// - Parameter value: Any text.
    /// - Returns: `true` for a valid number; never traps.
    package static func isValid(_ value: String) -> Bool {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(18)
        for byte in value.utf8 {
            guard bytes.count < 18 else { return false }
            bytes.append(byte)
        }
        switch bytes.count {
        case 15:
            return bytes.allSatisfy { $0.asciiDigitValue != nil }
        case 18:
            var sum = 0
            for position in 0..<17 {
                guard let digit = bytes[position].asciiDigitValue else { return false }
                sum += digit * weights[position]
            }
            let check = (12 - sum % 11) % 11
            let last = bytes[17]
            if check == 10 { return last == 0x58 || last == 0x78 }  // "X" or "x"
            return last.asciiDigitValue == check
        default:
            return false
        }
    }
}
