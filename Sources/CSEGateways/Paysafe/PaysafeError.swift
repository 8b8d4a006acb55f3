package import CSECore
import CSECrypto

/// An error in the shape of the Paysafe iOS SDK's `PSError`: a numeric `code`, a
/// `displayMessage` for the payer, a `detailedMessage` for the developer and the
/// `correlationId` that ties it to one SDK session.
///
/// The codes are Paysafe's (for example 9167 for an empty API key); the message texts are
/// CSEKit's own wording, and never contain the API key or any other value.
public struct PaysafeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The Paysafe numeric code, for example 9054.
    public let code: Int
    /// A payer-facing message that names only the code.
    public let displayMessage: String
    /// A developer-facing explanation.
    public let detailedMessage: String
    /// The session's correlation id.
    public let correlationID: String

    /// Creates an error for a Paysafe code, with CSEKit's messages for it.
    /// - Parameters:
    ///   - code: The Paysafe code.
    ///   - correlationId: The session's correlation id.
    package init(code: Int, correlationID: String) {
        self.code = code
        self.displayMessage = "There was an error (\(code)); please contact support."
        self.detailedMessage = Self.detailedMessages[code] ?? "Invalid tokenize options."
        self.correlationID = correlationID
    }

    /// The developer explanations, by code.
    package static let detailedMessages: [Int: String] = [
        9013: "The API key is not the base64 form of username:password.",
        9054: "The amount must be a whole number of minor units from 1 to 999999999 (0 only with 3DS2), at most 11 characters.",
        9055: "The currency code is not an ISO 4217 alphabetic code.",
        9098: "merchantDescriptor.dynamicDescriptor is invalid.",
        9099: "merchantDescriptor.phone is invalid.",
        9101: "accountId is missing or invalid.",
        9112: "profile.firstName is invalid.",
        9113: "profile.lastName is invalid.",
        9119: "profile.email is invalid.",
        9167: "The API key must not be empty.",
    ]

    /// A fresh correlation id: a version-4 UUID (RFC 9562 §5.4) from the CSPRNG, lower case.
    /// - Throws: ``CSEError/Code/randomFailure`` if the CSPRNG fails.
    package static func newCorrelationID() throws(CSEError) -> String {
        try SecureRandom.uuidV4()
    }

    /// `code: detailedMessage (correlationId)`.
    public var description: String { "\(code): \(detailedMessage) (\(correlationID))" }
}
