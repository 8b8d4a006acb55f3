public import CSECore

extension CSEError.Code {
    /// A capture, refund, cancel, void or settlement asked for more than is left: a capture over
    /// the authorised amount not yet captured, a refund over the captured amount not yet
    /// refunded, a void over what is still authorised (issue #33). The same code on every
    /// platform whose answer tells it apart; the context names the platform and, when the
    /// platform gave it, its own code. Nothing was processed.
    public static let serverAmountExceedsRemaining = Self("server.amountExceedsRemaining")
    /// The payment's state does not allow the operation: a capture after a void, a refund of a
    /// payment not captured, a void after a capture, a capture of a sale (issue #33). The same
    /// code on every platform whose answer tells it apart; the context names the platform and its
    /// own code. Nothing was processed.
    public static let serverOperationNotAllowed = Self("server.operationNotAllowed")
    /// The payment, order, transaction or token the operation names does not exist on the platform
    /// (issue #33). The context names the platform and its own code. Nothing was processed.
    public static let serverUnknownPayment = Self("server.unknownPayment")
}
