import CSECore

extension CSEError.Code {
    /// Standard input is not the JSON object the command reads (field values, a card, a wallet token).
    static let cliNotAnObject = Self("cli.notAnObject")
    /// A field value in the input is not a JSON string (or `null`).
    static let cliFieldNotString = Self("cli.fieldNotString")
    /// A `seal` key file carries no key id and `--kid` was not given.
    static let cliMissingKeyID = Self("cli.missingKeyId")
    /// `seal`: the input has no `clientSessionId` member and `--session-id` was not given.
    static let cliMissingSessionID = Self("cli.missingSessionId")
    /// `iin`: the input is not a (partial) card number.
    static let cliNotDigits = Self("cli.notDigits")
    /// A `--key env:NAME` variable is not set.
    static let cliMissingEnvironment = Self("cli.missingEnvironment")
    /// `demo`: a step did not give the expected result.
    static let cliDemoFailed = Self("cli.demoFailed")
    /// An asynchronous command's task ended without a result (a defect of `cse`, never of the input).
    static let cliInternal = Self("cli.internal")
}
