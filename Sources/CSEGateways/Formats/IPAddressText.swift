import CSECore

/// Textual IP addresses as customers' devices report them.
package enum IPAddressText {
    /// Whether `text` is an IPv4 dotted quad: four decimal octets 0–255 separated by `.`, with no
    /// leading zeros (so `010.1.1.1` is rejected, as RFC 6943 §3.1.1 advises against
    /// octal-looking forms) and nothing else.
    package static func isIPv4(_ text: Substring) -> Bool {
        var octets = 0
        var value = 0
        var digits = 0
        var leadingZero = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: ".") {
                guard digits > 0 else { return false }
                octets += 1
                value = 0; digits = 0; leadingZero = false
                continue
            }
            guard byte.isASCIIDigit else { return false }
            if leadingZero { return false }
            if digits == 0 && byte == 0x30 { leadingZero = true }
            value = value * 10 + Int(byte - 0x30)
            digits += 1
            guard digits <= 3, value <= 255 else { return false }
        }
        return digits > 0 && octets == 3
    }

    /// Whether `text` is an IPv4 dotted quad (see ``isIPv4(_:)-(Substring)``).
    package static func isIPv4(_ text: String) -> Bool { isIPv4(Substring(text)) }

    /// Whether `text` is an IPv6 address in the text forms of RFC 4291 §2.2: eight groups of one
    /// to four hex digits, at most one `::` standing for one or more zero groups, and optionally
    /// a final dotted-quad IPv4 address counting as two groups. Zone ids (`%eth0`) and brackets
    /// are not part of an address and are rejected.
    package static func isIPv6(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8.count <= 45 else { return false }
        var groups = 0
        var sawDoubleColon = false
        var index = 0
        if utf8.starts(with: [0x3A, 0x3A]) { sawDoubleColon = true; index = 2 } else if utf8[0] == 0x3A { return false }
        while index < utf8.count {
            // One group (or the trailing IPv4 part).
            var end = index
            while end < utf8.count && utf8[end] != 0x3A { end += 1 }
            let piece = utf8[index..<end]
            if piece.contains(UInt8(ascii: ".")) {
                guard end == utf8.count, isIPv4(Substring(decoding: piece, as: UTF8.self)) else { return false }
                groups += 2
                index = end
                break
            }
            guard !piece.isEmpty, piece.count <= 4, piece.allSatisfy(isHexDigit) else { return false }
            groups += 1
            index = end
            if index == utf8.count { break }
            // At a colon: a single one separates groups; a double one is the compression.
            if index + 1 < utf8.count && utf8[index + 1] == 0x3A {
                guard !sawDoubleColon else { return false }
                sawDoubleColon = true
                index += 2
            } else {
                index += 1
                guard index < utf8.count else { return false }  // a trailing single colon
            }
        }
        return sawDoubleColon ? groups <= 7 : groups == 8
    }

    private static func isHexDigit(_ b: UInt8) -> Bool {
        b.isASCIIDigit || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
    }
}
