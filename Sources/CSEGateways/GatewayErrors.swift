public import CSECore

extension CSEError.Code {
    /// A gateway spec table (JSON) is malformed: a wrong type, an unknown key or an inconsistent
    /// limit. The context names the table and the offending entry.
    public static let gatewayTable = Self("gateway.table")
    /// No spec table exists for the requested gateway and operation.
    public static let gatewayUnknownOperation = Self("gateway.unknownOperation")
    /// A validation option was given for an operation it does not apply to (the partner shared
    /// key outside Paysafe `tokenize`).
    public static let gatewayOptionNotApplicable = Self("gateway.optionNotApplicable")
    /// The request to validate is not a JSON object.
    public static let gatewayInputNotObject = Self("gateway.inputNotObject")
    /// A `GatewayMap` path is empty or has an empty component (`a..b`, `.a`, `a.`).
    public static let gatewayMapInvalidPath = Self("gatewayMap.invalidPath")
    /// A `GatewayMap` path uses a leaf value as an object, or replaces an object by a leaf.
    public static let gatewayMapConflict = Self("gatewayMap.conflict")
    /// An APS parameter value cannot be signed: arrays, `null` and nested objects inside nested
    /// objects have no documented signature form.
    public static let apsSignatureUnsupportedValue = Self("aps.signature.unsupportedValue")
    /// The SHA phrase is empty.
    public static let apsSignatureEmptyPhrase = Self("aps.signature.emptyPhrase")
    /// An APS signature algorithm name is not `sha256`, `sha512` or `sha1` (SHA-128).
    public static let apsSignatureUnknownAlgorithm = Self("aps.signature.unknownAlgorithm")
    /// An APS `response_code` is not five ASCII digits.
    public static let apsResponseCodeMalformed = Self("aps.responseCode.malformed")
}
