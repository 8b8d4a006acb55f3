public import CSECore
import CSEValidation

/// The Worldline platform's payment product id of each card brand, so that a request on the
/// built-in card product (``BuiltinProducts/card``) seals the id the platform expects instead of
/// the generic `card`.
///
/// The ids come from the platform's own product lists in the Worldline SDKs' test fixtures (see
/// `Vectors/PROVENANCE.md`, "Platform product ids"): Visa 1, American Express 2, MasterCard 3,
/// Maestro 117, JCB 125, Discover 128, Diners Club 132, UnionPay 430. A brand without an id here
/// is refused with ``CSEError/Code/paymentsUnknownCardBrand``, never sent as a string id.
package enum PlatformProductIDs {
    /// Brand id (``CardBrand/id``) → platform product id.
    package static let byBrandID: [String: String] = [
        "visa": "1", "american-express": "2", "mastercard": "3", "maestro": "117",
        "jcb": "125", "discover": "128", "diners-club": "132", "unionpay": "430",
    ]

    /// The platform product id of `brand`, or `nil` when the table has none.
    package static func productID(for brand: CardBrand) -> String? { byBrandID[brand.id] }

    /// The `paymentProductId` a sealed request carries: the product's own id, except for the
    /// built-in card product, whose id is the platform id of the request's
    /// ``PaymentRequest/effectiveCardBrand``.
    /// - Throws: ``CSEError/Code/paymentsUnknownCardBrand`` for the built-in card product when
    ///   no brand is detected or the brand has no platform id. The context names the brand id,
    ///   never a digit of the card.
    package static func sealedProductID(for request: PaymentRequest) throws(CSEError) -> String {
        guard request.product.id == BuiltinProducts.cardProductID else { return request.product.id }
        guard let brand = request.effectiveCardBrand else {
            throw CSEError(
                .paymentsUnknownCardBrand,
                "the built-in card product needs the card brand to name the platform product; none was detected (set cardBrand for an account on file)"
            )
        }
        guard let id = productID(for: brand) else {
            throw CSEError(
                .paymentsUnknownCardBrand, "the card brand has no Worldline platform product id",
                context: ["brand": brand.id])
        }
        return id
    }
}

extension CSEError.Code {
    /// A request on the built-in card product has no detected brand, or a brand without a
    /// platform product id (`PlatformProductIDs`). The context names the `brand` when known.
    public static let paymentsUnknownCardBrand = Self("payments.unknownCardBrand")
}
