public import CSECore
public import CSECrypto

/// The result of checking an APS response against the request that produced it.
public struct APSResponseVerification: Hashable, Sendable, CustomStringConvertible {
    /// Whether the response carries a `signature` that matches its parameters and the response
    /// phrase.
    public let signatureValid: Bool
    /// Request parameters the response does not echo (names only).
    public let missingParameters: [String]
    /// Request parameters the response echoes with a different value (names only; values are
    /// never reported, since they may be card data).
    public let changedParameters: [String]

    /// Creates a result.
    package init(signatureValid: Bool, missingParameters: [String], changedParameters: [String]) {
        self.signatureValid = signatureValid
        self.missingParameters = missingParameters
        self.changedParameters = changedParameters
    }

    /// `true` when the signature is valid and every request parameter came back unchanged.
    public var isValid: Bool { signatureValid && missingParameters.isEmpty && changedParameters.isEmpty }

    /// The verdict and the parameter names involved.
    public var description: String {
        if isValid { return "valid" }
        var parts: [String] = []
        if !signatureValid { parts.append("signature mismatch") }
        if !missingParameters.isEmpty { parts.append("missing: " + missingParameters.joined(separator: ",")) }
        if !changedParameters.isEmpty { parts.append("changed: " + changedParameters.joined(separator: ",")) }
        return parts.joined(separator: "; ")
    }
}

extension APSSignature {
    /// Request parameters that APS does not echo: the request's own `signature` (the response
    /// has its own) and the card security code, which is never returned.
    package static let notEchoed: Set<String> = ["signature", "card_security_code"]

    /// ``verifyResponse(request:response:responsePhrase:algorithm:)`` with the phrase as text (tests).
    package static func verifyResponse(
        request: JSONObject, response: JSONObject, responsePhrase: String,
        algorithm: APSSignatureAlgorithm = .sha256
    ) throws(CSEError) -> APSResponseVerification {
        try verifyResponse(request: request, response: response, responsePhrase: SecureBytes(responsePhrase.utf8), algorithm: algorithm)
    }

    /// Verifies a response: its `signature` (with the SHA response phrase) and that every request
    /// parameter comes back unchanged, as the APS guides promise ("every parameter the merchant
    /// sends in the request is received in the response, even the optional ones").
    ///
    /// `card_number` may come back masked in the documents' form (first 6 and last 4 digits, the
    /// rest `*`, as ``SecretMasking/maskPAN(_:)`` writes it); `notEchoed` parameters are not
    /// compared.
    /// - Parameters:
    ///   - request: The parameters that were sent: UTF-8 JSON text of an object.
    ///   - response: The parameters received, including `signature`: UTF-8 JSON text of an object.
    ///   - responsePhrase: The SHA response phrase, in a wiping buffer.
    ///   - algorithm: The account's SHA type.
    /// - Returns: The verdict; an unsigned response has `signatureValid == false`.
    /// - Throws: a `json.*` error for text that is not a JSON object,
    ///   ``CSEError/Code/apsSignatureEmptyPhrase`` or
    ///   ``CSEError/Code/apsSignatureUnsupportedValue``.
    public static func verifyResponse(
        request: some Collection<UInt8>, response: some Collection<UInt8>, responsePhrase: SecureBytes,
        algorithm: APSSignatureAlgorithm = .sha256
    ) throws(CSEError) -> APSResponseVerification {
        try verifyResponse(
            request: try JSONObject.parse(request, what: "the APS request"),
            response: try JSONObject.parse(response, what: "the APS response"), responsePhrase: responsePhrase,
            algorithm: algorithm)
    }

    /// ``verifyResponse(request:response:responsePhrase:algorithm:)`` of parsed parameters.
    package static func verifyResponse(
        request: JSONObject, response: JSONObject, responsePhrase: SecureBytes,
        algorithm: APSSignatureAlgorithm = .sha256
    ) throws(CSEError) -> APSResponseVerification {
        var signatureValid = false
        if let signature = response["signature"]?.stringValue {
            signatureValid = try isValid(signature, for: response, phrase: responsePhrase, algorithm: algorithm)
        }
        return echoCheck(request: request, response: response, signatureValid: signatureValid)
    }

    static func echoCheck(request: JSONObject, response: JSONObject, signatureValid: Bool) -> APSResponseVerification {
        var missing: [String] = []
        var changed: [String] = []
        for (name, sent) in request where !notEchoed.contains(name) {
            guard let received = response[name] else { missing.append(name); continue }
            if echoes(sent: sent, received: received, maskable: name.isByteEqual(to: "card_number")) { continue }
            changed.append(name)
        }
        return APSResponseVerification(signatureValid: signatureValid, missingParameters: missing, changedParameters: changed)
    }

    static func echoes(sent: JSONValue, received: JSONValue, maskable: Bool) -> Bool {
        if let a = scalarText(sent), let b = scalarText(received) {
            return a == b || (maskable && b == SecretMasking.maskPAN(a))
        }
        return sent == received
    }
}
