/// Identifier comparison by bytes.
///
/// Swift's `String ==`, `Set<String>` and `Dictionary<String, _>` use Unicode canonical
/// equivalence: `"\u{212A}-1"` (KELVIN SIGN) equals `"K-1"`, and `";"` equals U+037E GREEK
/// QUESTION MARK. Identifiers (a JWE `kid`, product and field ids, JSON member names, gateway
/// and operation names) are byte strings to every other party (RFC 7515 §4.1.4: `kid` is a
/// case-sensitive string; RFC 8259 §8.3: member names compare code unit by code unit), so CSEKit
/// matches them by their UTF-8 bytes.
extension String {
    /// Whether both strings have the same UTF-8 bytes (no Unicode normalisation).
    @inlinable
    package func isByteEqual(to other: String) -> Bool {
        // Native strings (every parsed JSON name, every literal) keep contiguous UTF-8: compare
        // the buffers. A JSON object lookup compares names this way, so it must be cheap (a
        // generic `UTF8View.elementsEqual` was 0.5% of an Apple Pay token, issue #37).
        let contiguous = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in
                mine.count == theirs.count && mine.elementsEqual(theirs)
            }
        }
        if let contiguous, let equal = contiguous { return equal }
        // Bridged or other lazy strings: equal bytes imply canonical equivalence, so the fast
        // `==` rules out almost every mismatch before the byte-by-byte check.
        return self == other && utf8.count == other.utf8.count && utf8.elementsEqual(other.utf8)
    }
}

extension Optional where Wrapped == String {
    /// Whether both are `nil`, or both hold strings with the same UTF-8 bytes.
    @inlinable
    package func isByteEqual(to other: String?) -> Bool {
        switch (self, other) {
        case (nil, nil): true
        case (let a?, let b?): a.isByteEqual(to: b)
        default: false
        }
    }
}

extension Collection where Element == String {
    /// Whether an element has the same UTF-8 bytes as `identifier` (see
    /// ``Swift/String/isByteEqual(to:)``).
    @inlinable
    package func containsByteEqual(_ identifier: String) -> Bool {
        contains { $0.isByteEqual(to: identifier) }
    }
}

extension Set where Element == String {
    /// `contains(identifier)` by bytes: a hashed lookup, then a byte check of the member found
    /// (a `Set` holds at most one of a group of canonically equivalent strings).
    @inlinable
    package func containsByteEqual(_ identifier: String) -> Bool {
        guard let index = firstIndex(of: identifier) else { return false }
        return self[index].isByteEqual(to: identifier)
    }
}
