import CSEValidation
import Testing
import TestSupport

@Suite("Mask: properties over random masks and inputs (seeded)")
struct MaskPropertyTests {
    static let placeholders: [Character] = ["9", "a", "A", "*"]
    static let literals: [Character] = [" ", "/", "-", ".", "+", "X", "x", "1", "é", "👍🏽"]
    static let alphabet: [Character] = [
        "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "z", "A", "Z", "X", "x",
        " ", "/", "-", ".", "+", "é", "e\u{301}", "👍🏽", "٤", "４",
    ]

    struct Case {
        let mask: String
        let input: String
    }

    static func cases(count: Int, seed: UInt64) -> [Case] {
        var rng = SplitMix64(state: seed)
        var result: [Case] = []
        for _ in 0..<count {
            var mask = ""
            let homogeneous: Character? = Bool.random(using: &rng) ? placeholders.randomElement(using: &rng) : nil
            let startsWithLiteral = Bool.random(using: &rng)
            let parts = Int.random(in: 1...5, using: &rng)
            for part in 0..<parts {
                let literalTurn = (part % 2 == 0) == startsWithLiteral
                if literalTurn {
                    for _ in 0..<Int.random(in: 1...3, using: &rng) { mask.append(literals.randomElement(using: &rng)!) }
                } else {
                    mask += "{{"
                    for _ in 0..<Int.random(in: 1...5, using: &rng) {
                        mask.append(homogeneous ?? placeholders.randomElement(using: &rng)!)
                    }
                    mask += "}}"
                }
            }
            var input = ""
            for _ in 0..<Int.random(in: 0...25, using: &rng) { input.append(alphabet.randomElement(using: &rng)!) }
            result.append(Case(mask: mask, input: input))
        }
        return result
    }

    static let all = cases(count: 3_000, seed: 0x5EED_CAFE)

    private static func fits(_ placeholder: Character, _ c: Character) -> Bool {
        switch placeholder {
        case "9": return c.unicodeScalars.count == 1 && ("0"..."9").contains(c)
        case "a": return c.unicodeScalars.count == 1 && ("a"..."z").contains(c)
        case "A": return c.unicodeScalars.count == 1 && ("A"..."Z").contains(c)
        default: return true
        }
    }

    @Test("format, unformat and format-with-caret text equal the reference model")
    func matchesReferenceModel() throws {
        for (n, c) in Self.all.enumerated() {
            let mask = try Mask(c.mask)
            let formatted = mask.format(c.input)
            #expect(formatted == referenceFormat(c.input, mask: c.mask).text, "case \(n): \(c.mask) / \(c.input)")
            #expect(mask.unformat(c.input) == referenceUnformat(c.input, mask: c.mask), "case \(n)")
            #expect(mask.format(c.input, cursor: 3).text == formatted, "case \(n)")
        }
    }

    @Test("format and formatForDisplay are idempotent; display output is a prefix of format output")
    func idempotent() throws {
        for (n, c) in Self.all.enumerated() {
            let mask = try Mask(c.mask)
            let once = mask.format(c.input)
            #expect(mask.format(once) == once, "case \(n): \(c.mask) / \(c.input)")
            let display = mask.formatForDisplay(c.input)
            #expect(mask.formatForDisplay(display) == display, "case \(n)")
            #expect(once.starts(with: display), "case \(n)")
            #expect(mask.unformat(once) == mask.unformat(c.input), "case \(n)")
        }
    }

    @Test("unformat(format(x)) keeps x's placeholder-fitting characters in order, up to capacity")
    func keepsPlaceholderCharacters() throws {
        var checked = 0
        for (n, c) in Self.all.enumerated() {
            // Placeholders in mask order, and whether any literal could fill one of them.
            var slots: [Character] = []
            var literalChars: [Character] = []
            var inGroup = false
            var chars = Array(c.mask)[...]
            while let ch = chars.first {
                if chars.starts(with: ["{", "{"]) { inGroup = true; chars = chars.dropFirst(2); continue }
                if chars.starts(with: ["}", "}"]) { inGroup = false; chars = chars.dropFirst(2); continue }
                if inGroup { slots.append(ch) } else { literalChars.append(ch) }
                chars = chars.dropFirst()
            }
            guard !literalChars.contains(where: { l in slots.contains { Self.fits($0, l) } }) else { continue }
            checked += 1
            // Greedy model: each placeholder takes the next input character that fits it.
            var expected = ""
            var slot = 0
            for ch in c.input where slot < slots.count {
                if Self.fits(slots[slot], ch) { expected.append(ch); slot += 1 }
            }
            let mask = try Mask(c.mask)
            #expect(mask.unformat(mask.format(c.input)) == expected, "case \(n): \(c.mask) / \(c.input)")
            #expect(mask.unformat(c.input).count <= mask.capacity, "case \(n)")
        }
        #expect(checked > 500, "enough masks whose literals cannot fill a placeholder")
    }

    @Test("homogeneous digit masks keep exactly the ASCII digits, up to capacity")
    func digitMasks() throws {
        let masks = ["{{9999}} {{9999}} {{9999}} {{9999}} {{999}}", "{{99}}/{{99}}", "{{999}}-{{99}}-{{9999}}"]
        for (n, c) in Self.all.enumerated() {
            for pattern in masks {
                let mask = try Mask(pattern)
                let digits = c.input.filter { $0.unicodeScalars.count == 1 && ("0"..."9").contains($0) }
                #expect(
                    mask.unformat(mask.format(c.input)) == String(digits.prefix(mask.capacity)),
                    "case \(n): \(pattern) / \(c.input)")
            }
        }
    }

    @Test("caret rule: after the display form of the characters before it, before the next typed one")
    func caretRule() throws {
        var rng = SplitMix64(state: 0xC0FFEE)
        for (n, c) in Self.all.enumerated() {
            let mask = try Mask(c.mask)
            let inputCount = c.input.count
            let caret = Int.random(in: 0...inputCount, using: &rng)
            let (text, newCaret) = mask.format(c.input, cursor: caret)
            #expect((0...text.count).contains(newCaret), "case \(n)")
            let before = String(c.input.prefix(caret))
            let low = mask.formatForDisplay(before)
            let high = mask.format(before)
            #expect(text.starts(with: low), "case \(n): \(c.mask) / \(c.input) @\(caret)")
            if mask.unformat(before).count < mask.capacity || low.count == text.count {
                #expect(
                    newCaret >= low.count && newCaret <= high.count,
                    "case \(n): \(c.mask) / \(c.input) @\(caret) -> \(newCaret)")
            }
            // A caret at the end of the input ends at the end of the text.
            #expect(mask.format(c.input, cursor: inputCount).cursor == text.count, "case \(n)")
        }
    }
}
