public import CSECore
public import CSEValidation

/// Customer input for one payment product: field values, an optional account on file and the
/// tokenize flag, ready to validate and seal.
///
/// Values may be set masked (`"4242 4242 4242 4242"`, `"12/35"`) or unmasked; they are stored
/// unmasked, using the field's mask as the Worldline SDK's `unmaskedValue` does (characters that
/// do not fit a placeholder are dropped). Input longer than the mask is never cut off silently:
/// the field then fails validation with `length` (`reason: doesNotFitMask`), so it cannot be
/// sealed (the SDKs only ever see text typed into a masked field, which cannot overflow it).
///
/// - Important: ``description``, ``debugDescription`` and the reflection mirror show the product,
///   the ids of the fields that have values and the account on file, never a value.
public struct PaymentRequest: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The product the request is for.
    public let product: PaymentProduct
    /// The selected account on file, if any (see ``setAccountOnFile(_:)``).
    public private(set) var accountOnFile: AccountOnFile?
    /// Whether the server should store the payment details as a token. Sent only when `true`.
    public var tokenize: Bool = false
    /// The card brand, when the caller knows it (for example from an IIN lookup). When `nil`,
    /// validation detects the brand from the `cardNumber` value with
    /// ``CardBrandTable/embedded``; a number no brand claims gets no brand-aware checks.
    public var cardBrand: CardBrand?
    /// Unmasked values, one slot per field of the product's validation plan (by index, so
    /// validation reads them without hashing field ids).
    private var values: [String?]
    /// Per field: whether the value set was longer than the field's mask (see ``setValue(_:forField:)``).
    private var overflowsMask: [Bool]

    /// Creates an empty request for `product`.
    public init(product: PaymentProduct) {
        self.product = product
        self.values = Array(repeating: nil, count: product.validationPlan.fields.count)
        self.overflowsMask = Array(repeating: false, count: product.validationPlan.fields.count)
    }

    /// Creates an empty request for `product` using a stored account.
    /// - Throws: ``CSEError/Code/paymentsAccountOnFileMismatch`` when the account belongs to
    ///   another product.
    public init(product: PaymentProduct, accountOnFile: AccountOnFile) throws(CSEError) {
        self.product = product
        self.values = Array(repeating: nil, count: product.validationPlan.fields.count)
        self.overflowsMask = Array(repeating: false, count: product.validationPlan.fields.count)
        try setAccountOnFile(accountOnFile)
    }

    /// Selects a stored account, or none. Values already set for its `READ_ONLY` attributes are
    /// removed, since they cannot be sent.
    /// - Throws: ``CSEError/Code/paymentsAccountOnFileMismatch`` when the account names another
    ///   product.
    public mutating func setAccountOnFile(_ account: AccountOnFile?) throws(CSEError) {
        if let account, let productID = account.paymentProductID, !productID.isByteEqual(to: product.id) {
            throw CSEError(
                .paymentsAccountOnFileMismatch, "the account on file belongs to another payment product",
                context: ["product": product.id, "accountOnFile": account.id, "accountProduct": productID])
        }
        accountOnFile = account
        for attribute in account?.attributes ?? [] where attribute.status == .readOnly {
            if let index = product.validationPlan.index(of: attribute.key) {
                values[index] = nil
                overflowsMask[index] = false
            }
        }
    }

    /// Sets the value of a field, masked or unmasked; it is stored unmasked. A value with input
    /// left over once the field's mask is full is stored cut to the mask but marked, and
    /// ``validate(in:)`` reports it as `length` with `reason: doesNotFitMask`.
    /// - Parameters:
    ///   - value: The customer's input.
    ///   - fieldId: The product field id.
    /// - Throws: ``CSEError/Code/paymentsUnknownField`` for a field the product does not have,
    ///   ``CSEError/Code/paymentsReadOnlyField`` for a `READ_ONLY` account-on-file attribute. The
    ///   error names the field, never the value.
    public mutating func setValue(_ value: String, forField fieldID: String) throws(CSEError) {
        guard let index = product.validationPlan.index(of: fieldID) else {
            throw CSEError(
                .paymentsUnknownField, "the product has no such field",
                context: ["product": product.id, "field": SecretMasking.echoIdentifier(fieldID)])
        }
        if isReadOnly(fieldID) {
            throw CSEError(
                .paymentsReadOnlyField, "the account on file makes this field read-only",
                context: ["product": product.id, "field": SecretMasking.echoIdentifier(fieldID), "accountOnFile": accountOnFile?.id ?? ""])
        }
        if let mask = product.validationPlan.fields[index].mask {
            let (unmasked, fits) = mask.unformatChecked(value)
            values[index] = unmasked
            overflowsMask[index] = !fits
        } else {
            values[index] = value
            overflowsMask[index] = false
        }
    }

    /// Removes the value of a field.
    public mutating func removeValue(forField fieldID: String) {
        if let index = product.validationPlan.index(of: fieldID) {
            values[index] = nil
            overflowsMask[index] = false
        }
    }

    /// Whether the value set for the plan's field at `index` was longer than its mask.
    func valueOverflowsMask(at index: Int) -> Bool { overflowsMask[index] }

    /// The stored (unmasked) value of a field.
    public func unmaskedValue(forField fieldID: String) -> String? {
        product.validationPlan.index(of: fieldID).flatMap { values[$0] }
    }

    /// The unmasked value of the plan's field at `index`, without a lookup by id.
    func unmaskedValue(at index: Int) -> String? { values[index] }

    /// The stored value laid out with the field's mask (the Worldline `formatString`, including
    /// the trailing separator after a completed group), or the value itself without a mask.
    public func maskedValue(forField fieldID: String) -> String? {
        guard let index = product.validationPlan.index(of: fieldID), let value = values[index] else { return nil }
        guard let mask = product.validationPlan.fields[index].mask else { return value }
        return mask.format(value)
    }

    /// Whether the selected account on file makes `fieldId` read-only.
    public func isReadOnly(_ fieldID: String) -> Bool {
        accountOnFile?.attribute(forKey: fieldID)?.status == .readOnly
    }

    /// The non-empty unmasked values in product field order: what the encrypted payload's
    /// `paymentValues` holds.
    public var unmaskedFieldValues: [(fieldID: String, value: String)] {
        let fields = product.validationPlan.fields
        var result: [(fieldID: String, value: String)] = []
        result.reserveCapacity(fields.count)
        for index in fields.indices {
            if let value = values[index], !value.isEmpty { result.append((fields[index].id, value)) }
        }
        return result
    }

    /// The field ids that have a value, in product order.
    package var fieldIDsWithValues: [String] { unmaskedFieldValues.map(\.fieldID) }

    /// `PaymentRequest(product: 1, values: [cardNumber, cvv], accountOnFile: 0, tokenize: false)`:
    /// field ids only, never values.
    public var description: String {
        var text = "PaymentRequest(product: \(product.id), values: [\(fieldIDsWithValues.joined(separator: ", "))]"
        if let accountOnFile { text += ", accountOnFile: \(accountOnFile.id)" }
        return text + ", tokenize: \(tokenize))"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror without the values.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "product": product.id, "fieldsWithValues": fieldIDsWithValues,
                "accountOnFile": accountOnFile?.id as Any, "tokenize": tokenize,
            ],
            displayStyle: .struct)
    }
}
