public import CSECore

extension CSEError.Code {
    /// A payment product definition is not the Worldline Client API shape (reference §5): not a
    /// JSON object, a missing `id`, a member of the wrong JSON type, or a duplicate field id. The
    /// context names the `product`, and the `field`, `accountOnFile` and `member` where known.
    public static let productMalformed = Self("product.malformed")
    /// A field's `regularExpression` rule has no pattern, or its pattern does not compile. The
    /// context names the `product` and `field` and the regex error `cause`; never a customer value.
    public static let productInvalidRegex = Self("product.invalidRegex")
    /// A field or label-template mask does not parse (see `Mask`). The context names the
    /// `product` and the `field` (or `accountOnFile` and `attribute`), and the mask error `cause`.
    public static let productInvalidMask = Self("product.invalidMask")
    /// More fields than `ValidationPlan/maximumFallbackPatternFields` have a `regularExpression`
    /// rule that needs the ICU fallback engine (each such value may cost up to 2.5 M backtracking
    /// steps). The context names the `product`, the `count` and the `limit`.
    public static let productTooManyFallbackPatterns = Self("product.tooManyFallbackPatterns")
    /// The product's distinct `regularExpression` patterns would compile to more than
    /// `ValidationPlan/maximumRegexInstructions` instructions or
    /// `ValidationPlan/maximumRegexBytes` bytes on the built-in engine; decided from the
    /// patterns' syntax before any is compiled. The context names the `product`, the
    /// `instructions` and `bytes` needed and both limits.
    public static let productRegexBudgetExceeded = Self("product.regexBudgetExceeded")

    /// A value was set for a field id the product does not have (it would never be sent).
    public static let paymentsUnknownField = Self("payments.unknownField")
    /// A value was set for a field whose account-on-file attribute is `READ_ONLY`.
    public static let paymentsReadOnlyField = Self("payments.readOnlyField")
    /// The account on file belongs to another payment product.
    public static let paymentsAccountOnFileMismatch = Self("payments.accountOnFileMismatch")
    /// Sealing was refused because the request does not validate. The context lists the failing
    /// `fields` and their `codes`; never a value.
    public static let paymentsInvalidRequest = Self("payments.invalidRequest")
    /// The client session id is empty or contains control characters.
    public static let paymentsInvalidClientSessionID = Self("payments.invalidClientSessionId")
    /// Sealing with a key whose private key is published (the TEST-ONLY demo key modulus, with any
    /// exponent) was refused; pass `allowDemoKey: true` to use it deliberately.
    public static let paymentsDemoKeyRefused = Self("payments.demoKeyRefused")
}

extension CSEError.Code {
    /// A nonce source returned something other than 16 bytes.
    public static let paymentsInvalidNonce = Self("payments.invalidNonce")
}
