public import CSECore

extension CSEError.Code {
    /// A regular expression could not be compiled: ICU rejects its syntax. The error's reason
    /// names the problem and the pattern offset, never a validated value.
    public static let regexInvalidPattern = Self("regex.invalidPattern")
    /// A regular expression is longer than `RegexPattern.maximumPatternLength`.
    public static let regexPatternTooLong = Self("regex.patternTooLong")
    /// A value is longer than the engine's documented input limit
    /// (`RegexPattern.maximumInputLength` or `RegexPattern.maximumFallbackInputLength`).
    public static let regexInputTooLong = Self("regex.inputTooLong")
    /// The ICU fallback engine gave up on a value after
    /// `RegexPattern.maximumFallbackProgressReports` backtracking progress reports: the pattern
    /// backtracks catastrophically on it (for example `(a+)+(?=b)` against a run of `a`).
    public static let regexStepLimitExceeded = Self("regex.stepLimitExceeded")
    /// A pattern outside the built-in subset needs ICU, and ICU's regular-expression library
    /// (Debian's `libicu72`, opened on first use) cannot be loaded, or failed while matching
    /// (out of memory). The context names the library and the reason.
    public static let regexEngineUnavailable = Self("regex.engineUnavailable")
}
