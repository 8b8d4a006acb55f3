import CSECore

/// An inclusive range of Issuer Identification Numbers (ISO/IEC 7812-1 §4.2): the leading digits
/// of a card number.
///
/// Both bounds have the same number of digits, 1 through 8. A single prefix such as `4` or
/// `650052` is the range `[p, p]`. To compare ranges of different precision, each range is also
/// expressed in the 8-digit IIN space: the lower bound padded with `0`s and the upper bound
/// padded with `9`s, so `["51", "55"]` covers `51000000…55999999`.
public struct IINRange: Hashable, Sendable, CustomStringConvertible {
    /// The first IIN of the range, for example `2221`.
    public let first: String
    /// The last IIN of the range, with as many digits as ``first``.
    public let last: String
    /// ``first`` padded with `0`s to 8 digits.
    package let lowerBound: UInt32
    /// ``last`` padded with `9`s to 8 digits.
    package let upperBound: UInt32

    /// Creates a range, or returns `nil` unless both bounds are 1–8 ASCII digits of equal length
    /// with `first ≤ last`.
    /// - Parameters:
    ///   - first: The first IIN.
    ///   - last: The last IIN.
    public init?(first: String, last: String) {
        guard let low = IINRange.parse(first, pad: 0), let high = IINRange.parse(last, pad: 9),
            first.utf8.count == last.utf8.count, low.value <= high.value
        else { return nil }
        self.first = first
        self.last = last
        self.lowerBound = low.padded
        self.upperBound = high.padded
    }

    /// Creates the range of one IIN prefix, or returns `nil` unless it is 1–8 ASCII digits.
    /// - Parameter prefix: The prefix, for example `34`.
    public init?(prefix: String) {
        self.init(first: prefix, last: prefix)
    }

    /// For the generated tables, whose bounds the generator has already checked.
    init(uncheckedFirst first: String, last: String) {
        self.first = first
        self.last = last
        self.lowerBound = IINRange.parse(first, pad: 0)?.padded ?? 0
        self.upperBound = IINRange.parse(last, pad: 9)?.padded ?? 0
    }

    /// The number of digits of each bound.
    package var digitCount: Int { first.utf8.count }

    /// The number of 8-digit IINs the range covers; smaller means more specific.
    package var width: UInt32 { upperBound - lowerBound + 1 }

    /// `first` or `first–last`.
    public var description: String { first == last ? first : "\(first)–\(last)" }

    private static func parse(_ text: String, pad: UInt32) -> (value: UInt32, padded: UInt32)? {
        var value: UInt32 = 0
        var count = 0
        for byte in text.utf8 {
            guard byte.isASCIIDigit, count < 8 else { return nil }
            value = value * 10 + UInt32(byte - 0x30)
            count += 1
        }
        guard count > 0 else { return nil }
        var padded = value
        for _ in count..<8 { padded = padded * 10 + pad }
        return (value, padded)
    }
}
