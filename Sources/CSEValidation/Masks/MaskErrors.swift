public import CSECore

extension CSEError.Code {
    /// A mask has a character inside `{{…}}` that is not one of the placeholders `9`, `a`, `A`
    /// or `*`. The context gives its `offset` (in characters) and the `character`.
    public static let maskInvalidPlaceholder = Self("mask.invalidPlaceholder")
    /// A mask's braces do not balance or enclose nothing: `{{` inside a group, `}}` outside
    /// one, an empty group `{{}}`, or a group that is never closed. The context gives the
    /// `offset` (in characters).
    public static let maskInvalidBraces = Self("mask.invalidBraces")
    /// A mask is longer than `Mask.maximumPatternLength` Unicode scalars. The context gives
    /// the `length` and the `limit`.
    public static let maskTooLong = Self("mask.tooLong")
}
