import CSECore
import CSECrypto
import CSEJOSE
import CSEPayments
import CSEValidation

/// One step of `cse demo`: what was done, whether it gave the expected result, and how to show it.
struct DemoStep {
    /// The step's short name, for example `seal`.
    let name: String
    /// Whether the step gave the expected result.
    let ok: Bool
    /// Human-readable lines (the first follows the step name).
    let text: [String]
    /// JSON members after `"step"` and `"ok"`: each name with its serialized value.
    let json: [(name: String, value: [UInt8])]
}

/// One product's walk through `cse demo`: input, IIN lookup, validation, a deliberate typo,
/// sealing with the TEST-ONLY demo key, decryption with its private key, and the round trip.
/// Card numbers are shown as first 6 / last 4 and CVVs not at all.
struct DemoScenario {
    /// The section title, for example `Card`.
    let title: String
    /// The product.
    let product: PaymentProduct
    /// The input, masked as a customer types it, in product order.
    let values: [(field: String, value: String)]
    /// The same input with one deliberate mistake, and the error code it must produce.
    let typo: (field: String, value: String, expectedCode: ValidationCode)

    /// The client session id the demo seals with.
    static let sessionID = "demo-session-TEST-ONLY"

    /// Runs the scenario.
    func run(sealer: PaymentRequestSealer, decryptor: JWEDecryptor, now: CalendarMonth) -> [DemoStep] {
        var steps: [DemoStep] = []
        let context = ValidationContext(currentMonth: now)

        // 1. Input.
        var request = PaymentRequest(product: product)
        var inputOK = true
        for (field, value) in values {
            do throws(CSEError) { try request.setValue(value, forField: field) } catch { inputOK = false }
        }
        steps.append(
            DemoStep(
                name: "input", ok: inputOK, text: [Self.display(values)],
                json: Self.member("values", Self.object(values))))

        // 2. IIN lookup of the card number, when there is one.
        if let pan = request.unmaskedValue(forField: "cardNumber") {
            let details = CardBrandTable.embedded.iinDetails(
                forPartialNumber: pan, allowedProductIDs: Set(CardBrandTable.embedded.brands.map(\.id)))
            let name = details.productID.flatMap { CardBrandTable.embedded.brand(withID: $0)?.name }
            steps.append(
                DemoStep(
                    name: "iin", ok: details.status == .supported,
                    text: [
                        "\(details.status.rawValue) \(details.productID ?? "-")" + (name.map { " (\($0))" } ?? "")
                            + ", from the first 8 digits (embedded brand table)"
                    ],
                    json: Self.member("details", OutputJSON.iin(details))))
        }

        // 3. Validation of the good input.
        let errors = request.validate(in: context)
        steps.append(
            DemoStep(
                name: "validate", ok: errors.isEmpty,
                text: [errors.isEmpty ? "valid (every rule of product \"\(product.id)\" passes)" : Self.describe(errors)],
                json: OutputJSON.validationMembers(errors)))

        // 4. A typo must be caught.
        var typoRequest = request
        var typoErrors: [FieldIssue] = []
        do throws(CSEError) {
            try typoRequest.setValue(typo.value, forField: typo.field)
            typoErrors = typoRequest.validate(in: context)
        } catch {}
        let caught = typoErrors.contains { $0.field == typo.field && $0.code == typo.expectedCode }
        steps.append(
            DemoStep(
                name: "typo", ok: caught,
                text: [
                    "\(typo.field) \(Self.mask(field: typo.field, typo.value)) -> \(Self.describe(typoErrors))"
                        + (caught ? " (caught, as expected)" : " (NOT caught)")
                ],
                json: Self.member("input", Self.object([(typo.field, typo.value)])) + OutputJSON.validationMembers(typoErrors)))

        // 5. Seal.
        let sealed: SealedPaymentRequest
        do throws(CSEError) {
            sealed = try sealer.seal(request, clientSessionID: Self.sessionID)
        } catch {
            steps.append(
                DemoStep(
                    name: "seal", ok: false, text: ["failed: \(error.description)"],
                    json: Self.member("error", Self.string(error.description))))
            return steps
        }
        let jwe = sealed.encryptedCustomerInput
        let parts = jwe.split(separator: ".", omittingEmptySubsequences: false)
        let header = (try? Base64URL.decode(parts[0])).map { String(decoding: $0, as: UTF8.self) } ?? "?"
        steps.append(
            DemoStep(
                name: "seal", ok: parts.count == 5,
                text: [
                    "encryptedCustomerInput \(jwe.prefix(40))... (\(jwe.utf8.count) chars, \(parts.count) dot-separated parts)",
                    "protected header \(header)",
                    "encodedClientMetaInfo \(sealed.encodedClientMetaInfo.prefix(24))... (\(sealed.encodedClientMetaInfo.utf8.count) chars, base64 of the device info)",
                ],
                json: [
                    ("encryptedCustomerInput", Self.string(sealed.encryptedCustomerInput)),
                    ("encodedClientMetaInfo", Self.string(sealed.encodedClientMetaInfo)),
                ]
                    + Self.member("header", Array(header.utf8))))

        // 6. Decrypt with the TEST-ONLY private key, as the payment platform would with its own.
        let payload: JSONValue
        do throws(CSEError) {
            let plaintext = try decryptor.decrypt(jwe).plaintext
            payload = try plaintext.withUnsafeBytes { (bytes) throws(CSEError) in try JSONValue.parse(bytes) }
        } catch {
            steps.append(
                DemoStep(
                    name: "decrypt", ok: false, text: ["failed: \(error.description)"],
                    json: Self.member("error", Self.string(error.description))))
            return steps
        }
        var decrypted: [(field: String, value: String)] = []
        for entry in payload["paymentValues"]?.arrayValue ?? [] {
            if let key = entry["key"]?.stringValue, let value = entry["value"]?.stringValue { decrypted.append((key, value)) }
        }
        let productID = payload["paymentProductId"].map(\.serialized) ?? "?"
        let session = payload["clientSessionId"]?.stringValue ?? "?"
        let nonceDigits = payload["nonce"]?.stringValue?.utf8.count ?? 0
        steps.append(
            DemoStep(
                name: "decrypt", ok: session == Self.sessionID && nonceDigits == 32,
                text: [
                    "with the TEST-ONLY private key: clientSessionId \(session), nonce \(nonceDigits) hex digits, paymentProductId \(productID)",
                    "paymentValues \(Self.display(decrypted))",
                ],
                json: Self.member("clientSessionId", Self.string(session)) + Self.member("paymentProductId", Array(productID.utf8))
                    + Self.member("paymentValues", Self.object(decrypted))))

        // 7. Round trip: the decrypted values are the validated, unmasked input.
        let expected = request.unmaskedFieldValues
        let same =
            expected.count == decrypted.count && zip(expected, decrypted).allSatisfy { $0.fieldID == $1.field && $0.value == $1.value }
        steps.append(
            DemoStep(
                name: "round-trip", ok: same,
                text: [
                    same
                        ? "ok: the decrypted paymentValues equal the unmasked input, field by field"
                        : "MISMATCH between the decrypted paymentValues and the input"
                ],
                json: []))
        return steps
    }

    /// A value as the demo may show it: card numbers as first 6 / last 4, CVVs hidden.
    static func mask(field: String, _ value: String) -> String {
        switch field {
        case "cardNumber": return SecretMasking.maskPAN(value)
        case "cvv": return String(repeating: "*", count: value.count)
        default: return value
        }
    }

    /// `field value, field value` with ``mask(field:_:)`` applied.
    static func display(_ values: [(field: String, value: String)]) -> String {
        values.map { "\($0.field) \(mask(field: $0.field, $0.value))" }.joined(separator: ", ")
    }

    /// `invalid: field: code(params); …`.
    static func describe(_ errors: [FieldIssue]) -> String {
        errors.isEmpty ? "valid" : "invalid: " + errors.map(\.description).joined(separator: "; ")
    }

    /// A JSON object of masked values.
    static func object(_ values: [(field: String, value: String)]) -> [UInt8] {
        var out = JSONObjectWriter()
        for (field, value) in values { out.string(field, mask(field: field, value)) }
        return out.finish()
    }

    /// A JSON string.
    static func string(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        JSONWriter.appendString(text, to: &out)
        return out
    }

    /// One member: `name` and its serialized value.
    static func member(_ name: String, _ json: [UInt8]) -> [(name: String, value: [UInt8])] { [(name, json)] }
}
