// Fuzz target `mask`: mask parsing, format, formatForDisplay, format-with-caret and unformat.
// Input: `pattern NUL value NUL caret-byte`. Invariants (differential):
// - Mask against an independent reference model of the Worldline SDK's formatter
//   (Tests/CSEValidationTests/MaskReferenceModel.swift, compiled in): same formatted text, same
//   unformatted value (the reference's own unformatString whenever no appended character merges
//   with a literal before it; see docs/COMPATIBILITY.md, Masks);
// - format and formatForDisplay are idempotent and unformat(format(x)) == unformat(x) unless an
//   appended Character merges with the one before it; display output is a prefix of format
//   output; unformat gives at most `capacity` characters;
// - the caret stays inside the text, and format-with-caret gives format's text;
// - a homogeneous all-`9` mask keeps exactly the ASCII digits, up to capacity.
import CSECore
import CSEValidation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMask(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let pattern = text(input.field())
    let value = text(input.field())
    let caret = Int(Int8(bitPattern: input.byte()))
    let mask: Mask
    do throws(CSEError) {
        mask = try Mask(pattern)
    } catch {
        require([.maskInvalidBraces, .maskInvalidPlaceholder, .maskTooLong].contains(error.code), "unexpected code \(error.code)")
        return 0
    }
    let formatted = mask.format(value)
    let display = mask.formatForDisplay(value)
    let raw = mask.unformat(value)
    require(formatted == referenceFormat(value, mask: pattern).text, "format differs from the reference model")
    require(raw == referenceUnformatUnmerged(value, mask: pattern), "unformat differs from the reference model")
    if !referenceFormatMerges(value, mask: pattern) {
        require(raw == referenceUnformat(value, mask: pattern), "unformat differs from the reference's unformatString")
    }
    require(formatted.starts(with: display), "display output is not a prefix of format output")
    // Re-reading the output is exact unless an appended Character merged with the one before it
    // (a lone combining mark filling a placeholder right after a literal): then, as in the
    // reference, the text reads back differently (docs/COMPATIBILITY.md, Masks).
    if !referenceFormatMerges(value, mask: pattern) {
        require(mask.format(formatted) == formatted, "format is not idempotent")
        require(mask.formatForDisplay(display) == display, "formatForDisplay is not idempotent")
        require(mask.unformat(formatted) == raw, "unformat(format(x)) != unformat(x)")
    }
    require(raw.count <= mask.capacity, "unformat exceeds capacity")
    let withCaret = mask.format(value, cursor: caret)
    require(withCaret.text == formatted, "format-with-caret text differs")
    require((0...withCaret.text.count).contains(withCaret.cursor), "caret outside the text")
    let relaxed = mask.relaxed
    require(relaxed.capacity == mask.capacity, "relaxed mask capacity")
    require((try? Mask(relaxed.pattern))?.capacity == mask.capacity, "relaxed pattern does not reparse")
    if mask.capacity > 0, isDigitMaskWithSeparators(pattern) {
        let digits = value.filter { $0.unicodeScalars.count == 1 && ("0"..."9").contains($0) }
        require(mask.unformat(formatted) == String(digits.prefix(mask.capacity)), "digit mask lost or invented digits")
    }
    return 0
}

/// Whether every group holds only `9`s and every literal is a space, `/` or `-` (so no literal
/// can be taken for a digit).
func isDigitMaskWithSeparators(_ pattern: String) -> Bool {
    var rest = Substring(pattern)
    var inGroup = false
    while let c = rest.first {
        if rest.hasPrefix("{{") { inGroup = true; rest = rest.dropFirst(2); continue }
        if rest.hasPrefix("}}") { inGroup = false; rest = rest.dropFirst(2); continue }
        guard inGroup ? c == "9" : (c == " " || c == "/" || c == "-") else { return false }
        rest = rest.dropFirst()
    }
    return true
}
