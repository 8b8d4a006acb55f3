/// A table that answers IIN lookups (reference §4): ``IINTable`` (a BIN file) and
/// ``CardBrandTable`` (the card-brand ranges) both conform, so a caller holds either one as
/// `any IINLookupTable` and asks it the same question.
public protocol IINLookupTable: Sendable {
    /// Looks up a partial card number.
    /// - Parameters:
    ///   - number: The card number as typed so far (spaces ignored).
    ///   - allowedProductIDs: The product ids allowed in the caller's context.
    /// - Returns: The IIN details; ``IINStatus/unknown`` or ``IINStatus/notEnoughDigits`` when
    ///   no product answers.
    func iinDetails(forPartialNumber number: String, allowedProductIDs: Set<String>) -> IINDetails
}

extension IINLookupTable {
    /// Looks up a partial card number with an optional allow-list: `nil` allows every product
    /// (the product and every co-brand found are allowed in context).
    /// - Parameters:
    ///   - number: The card number as typed so far (spaces ignored).
    ///   - allowedProductIDs: The product ids allowed in the caller's context, or `nil` for all.
    /// - Returns: The IIN details.
    public func iinDetails(forPartialNumber number: String, allowedProductIDs: Set<String>?) -> IINDetails {
        let details = iinDetails(forPartialNumber: number, allowedProductIDs: allowedProductIDs ?? [])
        guard allowedProductIDs == nil, let productID = details.productID else { return details }
        return IINDetails(
            productID: productID, isAllowedInContext: true, countryCode: details.countryCode,
            cardType: details.cardType, issuer: details.issuer,
            coBrands: details.coBrands.map { IINCoBrand(productID: $0.productID, isAllowedInContext: true, cardType: $0.cardType) })
    }
}

extension IINTable: IINLookupTable {}

extension CardBrandTable: IINLookupTable {}
