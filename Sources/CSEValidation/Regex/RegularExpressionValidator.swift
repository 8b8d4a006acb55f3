public import CSECore

/// The `regularExpression` rule: the value must match an ICU regular expression.
///
/// The Worldline Client SDK semantics (reference §2) are the default: the pattern runs unanchored
/// with no options, and the value is valid iff there is **exactly one** non-overlapping match, so
/// `\d{3}` accepts `"1234"` (one match) but rejects `"123456"` (two). ``MatchMode/fullMatch``
/// instead requires the pattern to match the whole value.
///
/// Unlike the SDK, which silently drops a rule whose pattern does not compile, an invalid pattern
/// is a thrown ``CSEError`` when the validator is created, that is when the definition is loaded.
/// A value beyond the engine's input limit (see ``RegexPattern``) is reported as invalid with
/// `reason: inputTooLong`, never matched; a value on which a pattern takes more than
/// `RegexPattern.maximumBuiltinStepsPerSearch` steps on the built-in engine or
/// `RegexPattern.maximumFallbackProgressReports` progress reports on the ICU fallback, or
/// more than its request has left of
/// `RegexPattern.maximumStepsPerRequest` (or on which ICU passes its backtracking stack) is
/// invalid with `reason: stepLimit`; if ICU fails while matching (out of memory), the value is
/// invalid with `reason: engineUnavailable`. A verdict is never "valid" by default.
public struct RegularExpressionValidator: FieldValidator {
    /// How a match decides validity.
    public struct MatchMode: Hashable, Sendable, CustomStringConvertible {
        private enum Backing: Hashable, Sendable { case exactlyOne, full }
        private let backing: Backing

        /// Valid iff the unanchored pattern has exactly one non-overlapping match (Worldline default).
        public static let exactlyOneMatch = Self(backing: .exactlyOne)
        /// Valid iff the pattern matches the entire value (ICU `matches()`).
        public static let fullMatch = Self(backing: .full)

        /// `exactlyOneMatch` or `fullMatch`.
        public var description: String { backing == .exactlyOne ? "exactlyOneMatch" : "fullMatch" }
    }

    /// The compiled pattern.
    public let pattern: RegexPattern
    /// How a match decides validity.
    public let matchMode: MatchMode

    /// Always ``ValidationCode/regularExpression``.
    public var code: ValidationCode { .regularExpression }

    /// Compiles `pattern`.
    /// - Parameters:
    ///   - pattern: An ICU regular expression, as found in the product definition's
    ///     `regularExpression` parameter.
    ///   - matchMode: ``MatchMode/exactlyOneMatch`` (the Worldline rule) unless stated.
    /// - Throws: ``CSEError/Code/regexInvalidPattern`` or ``CSEError/Code/regexPatternTooLong``.
    public init(pattern: String, matchMode: MatchMode = .exactlyOneMatch) throws(CSEError) {
        self.init(try RegexPattern(pattern), matchMode: matchMode)
    }

    /// Uses an already compiled pattern.
    /// - Parameters:
    ///   - pattern: The compiled pattern.
    ///   - matchMode: ``MatchMode/exactlyOneMatch`` (the Worldline rule) unless stated.
    public init(_ pattern: RegexPattern, matchMode: MatchMode = .exactlyOneMatch) {
        self.pattern = pattern
        self.matchMode = matchMode
    }

    /// Checks `value`.
    /// - Parameters:
    ///   - value: The unmasked value.
    ///   - context: Unused; the rule depends on the value only.
    /// - Returns: ``ValidationResult/valid``, or a `regularExpression` failure whose
    ///   `regularExpression` parameter is the pattern (never the value).
    public func validate(_ value: String, in context: ValidationContext) -> ValidationResult {
        do throws(CSEError) {
            if try matches(value, budget: context.regexStepBudget) { return .valid }
            return .invalid(.regularExpression, ["regularExpression": .string(pattern.pattern)])
        } catch let error where error.code == .regexStepLimitExceeded {
            return .invalid(
                .regularExpression,
                [
                    "regularExpression": .string(pattern.pattern),
                    ValidationReason.parameterName: .reason(.stepLimit),
                ])
        } catch let error where error.code == .regexEngineUnavailable {
            return .invalid(
                .regularExpression,
                [
                    "regularExpression": .string(pattern.pattern),
                    ValidationReason.parameterName: .reason(.engineUnavailable),
                ])
        } catch {
            return .invalid(
                .regularExpression,
                [
                    "regularExpression": .string(pattern.pattern),
                    ValidationReason.parameterName: .reason(.inputTooLong),
                    "maxInputLength": .int(Int(error.context["limit"] ?? "") ?? 0),
                ])
        }
    }

    /// Whether `value` satisfies the rule.
    /// - Parameter budget: The request's step budget, if any.
    /// - Throws: ``CSEError/Code/regexInputTooLong`` beyond the engine's input limit;
    ///   ``CSEError/Code/regexStepLimitExceeded`` past the engine's step limit or the budget.
    package func matches(_ value: String, budget: RegexStepBudget? = nil) throws(CSEError) -> Bool {
        if matchMode == .fullMatch { return try pattern.matchesWhole(value, budget: budget) }
        return try pattern.numberOfMatches(in: value, limit: 2, budget: budget) == 1
    }
}
