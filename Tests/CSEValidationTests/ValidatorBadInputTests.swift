import CSECore
import CSEValidation
import Testing

/// Every entry point against hostile input: a typed error or an invalid result, never a trap.
@Suite("bad input at every entry point")
struct ValidatorBadInputTests {
    struct Rule: Sendable, CustomStringConvertible {
        let validator: any FieldValidator
        /// Expected validity for "" and for Arabic-Indic "٤١١١".
        let emptyValid: Bool
        let arabicIndicValid: Bool
        var description: String { validator.code.rawValue }
    }

    static let rules: [Rule] = [
        Rule(validator: LuhnValidator(), emptyValid: false, arabicIndicValid: false),
        Rule(validator: ExpirationDateValidator(), emptyValid: false, arabicIndicValid: false),
        Rule(validator: LengthValidator(minLength: 13, maxLength: 19), emptyValid: false, arabicIndicValid: false),
        Rule(validator: RangeValidator(minValue: 0, maxValue: 9_999), emptyValid: false, arabicIndicValid: false),
        Rule(validator: FixedListValidator(allowedValues: ["4111"]), emptyValid: false, arabicIndicValid: false),
        Rule(validator: EmailAddressValidator(), emptyValid: false, arabicIndicValid: false),
        Rule(validator: TermsAndConditionsValidator(), emptyValid: false, arabicIndicValid: false),
        Rule(validator: ResidentIDNumberValidator(), emptyValid: false, arabicIndicValid: false),
        Rule(
            validator: BoletoBancarioRequirednessValidator(fiscalNumberLength: 11), emptyValid: true,
            arabicIndicValid: true),
        Rule(validator: RequiredValidator(), emptyValid: false, arabicIndicValid: true),
    ]

    static let hostile: [(String, String)] = [
        ("empty", ""),
        ("Arabic-Indic 4111", "٤١١١"),
        ("lone combining mark", "\u{301}"),
        ("combining marks on digits", "4\u{301}1\u{301}1\u{301}1\u{301}"),
        ("ZWJ family", "👩‍👩‍👧"),
        ("NUL", "\u{0}"),
        ("replacement character", "\u{FFFD}"),
        ("right-to-left override", "\u{202E}4111"),
        ("newline", "\n"),
        ("10 kB digits", Long.digits),
        ("10 kB letters", Long.letters),
        ("10 kB emoji", Long.emoji),
        ("10 kB combining", Long.combining),
        ("10 kB Arabic-Indic", Long.arabicIndic),
    ]

    @Test("the empty string and Arabic-Indic digits get the documented verdicts", arguments: rules)
    func emptyAndArabicIndic(rule: Rule) {
        let ctx = context()
        #expect(rule.validator.validate("", in: ctx).isValid == rule.emptyValid, "case \(rule) / empty")
        #expect(rule.validator.validate("٤١١١", in: ctx).isValid == rule.arabicIndicValid, "case \(rule) / ٤١١١")
    }

    @Test("hostile values: only the rule's own code, and no parameter repeats the value", arguments: rules)
    func hostileValues(rule: Rule) {
        let ctx = context(fields: ["fiscalNumber": Long.emoji])
        for (id, value) in Self.hostile {
            let result = rule.validator.validate(value, in: ctx)
            #expect(result.failures.allSatisfy { $0.code == rule.validator.code }, "case \(rule) / \(id)")
            for failure in result.failures {
                for parameter in failure.parameters.values where !value.isEmpty {
                    #expect(parameter != .string(value), "case \(rule) / \(id): value leaked into a parameter")
                }
            }
        }
    }

    @Test("masks: every operation on hostile input stays within the mask")
    func masks() throws {
        let patterns = [
            "{{9999}} {{9999}} {{9999}} {{9999}} {{999}}", "{{99}}/{{99}}", "{{AAaa}}", "{{**}}-{{**}}",
            "+{{999}} ({{99}})", "123451",
        ]
        for pattern in patterns {
            let mask = try Mask(pattern)
            for (id, value) in Self.hostile {
                let formatted = mask.format(value)
                #expect(mask.unformat(value).count <= mask.capacity, "case \(pattern) / \(id)")
                #expect(formatted.count <= pattern.count, "case \(pattern) / \(id)")
                #expect(mask.formatForDisplay(value).count <= formatted.count, "case \(pattern) / \(id)")
                for caret in [-1, 0, 1, 5_000, Int.max] {
                    let (text, newCaret) = mask.format(value, cursor: caret)
                    #expect(text == formatted && (0...text.count).contains(newCaret), "case \(pattern) / \(id) @\(caret)")
                }
                #expect(mask.relaxed.format(value).count <= pattern.count, "case \(pattern) / \(id)")
            }
        }
    }

    @Test(
        "hostile mask patterns throw typed errors, never trap",
        arguments: [
            ("10 kB emoji", Long.emoji, false), ("lone combining mark", "\u{301}", false),
            ("Arabic-Indic placeholder", "{{٤}}", true), ("10 kB of opening braces", String(repeating: "{", count: 10_000), true),
            ("10 kB of closing braces", String(repeating: "}", count: 10_000), true), ("NUL in group", "{{\u{0}}}", true),
        ])
    func hostilePatterns(id: String, pattern: String, throwsError: Bool) {
        do {
            let mask = try Mask(pattern)
            #expect(!throwsError, "case \(id): parsed")
            #expect(mask.capacity == 0, "case \(id)")
        } catch {
            #expect(throwsError, "case \(id): \(error)")
            #expect([CSEError.Code.maskInvalidBraces, .maskInvalidPlaceholder].contains(error.code), "case \(id)")
        }
    }

    @Test("static helpers on hostile input")
    func helpers() {
        for (id, value) in Self.hostile {
            _ = DigitNormalizer.asciiDigits(value)
            #expect(ExpirationDateValidator.expiryMonth(of: value, relativeTo: month(2026, 5)) == nil, "case \(id)")
            #expect(!EmailAddressValidator.matches(value), "case \(id)")
            #expect(!ResidentIDNumberValidator.isValid(value), "case \(id)")
            if id != "10 kB digits" { #expect(!LuhnValidator.hasValidCheckDigit(value), "case \(id)") }
        }
    }
}
