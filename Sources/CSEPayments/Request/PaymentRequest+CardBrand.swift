public import CSEValidation

extension PaymentRequest {
    /// The brand used for brand-aware checks: ``cardBrand`` if set, otherwise the brand the
    /// embedded table detects from the unmasked `cardNumber` value, if any.
    public var effectiveCardBrand: CardBrand? {
        if let cardBrand { return cardBrand }
        guard let numberIndex = product.validationPlan.fields.firstIndex(where: { $0.cardRole == .number }),
            let number = unmaskedValue(at: numberIndex), !number.isEmpty
        else { return nil }
        return CardBrandTable.embedded.brand(forPartialNumber: number)
    }

    /// The brands of the unmasked `cardNumber` value in ``CardBrandTable/embedded``: the most
    /// specific first, then brands sharing its range and its co-badges (for example mada, then
    /// Visa). Empty without a number or when no brand claims it.
    var detectedCardBrands: [CardBrand] {
        guard let numberIndex = product.validationPlan.fields.firstIndex(where: { $0.cardRole == .number }),
            let number = unmaskedValue(at: numberIndex), !number.isEmpty
        else { return [] }
        return CardBrandTable.embedded.brands(forPartialNumber: number)
    }

    /// The brand's own checks for a card field: PAN length and check digit for `cardNumber`
    /// (``CardBrand/validatePAN(_:)``), exact CVC length for `cvv`
    /// (``CardBrand/validateSecurityCode(_:)``). The caller drops failures whose code a product
    /// rule already reported for the field, so one fault is reported once.
    static func brandFailures(role: CardFieldRole?, value: String, brand: CardBrand) -> [ValidationFailure] {
        switch role {
        case .number: return brand.validatePAN(value).failures
        case .securityCode: return brand.validateSecurityCode(value).failures
        case nil: return []
        }
    }
}
