public import CSECore
package import CSEValidation

/// The Worldline platform's payment product id of each card brand, so that a request on the
/// built-in card product (``BuiltinProducts/card``) seals the id the platform expects instead of
/// the generic `card`.
///
/// The ids come from the platform's own product lists in the Worldline SDKs' test fixtures (see
/// `Vectors/PROVENANCE.md`, "Platform product ids"): Visa 1, American Express 2, MasterCard 3,
/// Maestro 117, JCB 125, Discover 128, Diners Club 132, UnionPay 430. A brand without an id here
/// is refused with ``CSEError/Code/paymentsUnknownCardBrand``, never sent as a string id. A
/// co-badged card (a domestic brand with an international co-brand, such as mada with Visa)
/// seals the payer's chosen brand, else its first brand with an id (``sealedBrand(for:)``).
package enum PlatformProductIDs {
    /// Brand id (``CardBrand/id``) → platform product id.
    package static let byBrandID: [String: String] = [
        "visa": "1", "american-express": "2", "mastercard": "3", "maestro": "117",
        "jcb": "125", "discover": "128", "diners-club": "132", "unionpay": "430",
    ]

    /// The platform product id of `brand`, or `nil` when the table has none.
    package static func productID(for brand: CardBrand) -> String? { byBrandID[brand.id] }

    /// The `paymentProductId` a sealed request carries: the product's own id, except for the
    /// built-in card product, whose id is the platform id of ``sealedBrand(for:)``.
    /// - Throws: The errors of ``sealedBrand(for:)``, for the built-in card product only.
    package static func sealedProductID(for request: PaymentRequest) throws(CSEError) -> String {
        guard request.product.id == BuiltinProducts.cardProductID else { return request.product.id }
        return try sealedBrand(for: request).productID
    }

    /// The brand a built-in card request seals, and its platform id, for co-badged cards too (a mada card that is
    /// also a Visa card, for example):
    /// 1. the payer's choice, ``PaymentRequest/cardBrand``, when given (the EU Interchange Fee
    ///    Regulation, (EU) 2015/751 Art. 8(6), lets the payer choose the brand of a co-badged
    ///    card): it must be one of the card's brands (when the number names any) and have a
    ///    platform id;
    /// 2. otherwise the first of the card's brands (``CardBrandTable/brands(forPartialNumber:)``:
    ///    the most specific, then the co-badges) that has a platform id.
    /// - Throws: ``CSEError/Code/paymentsCardBrandMismatch`` when the chosen brand is not one of
    ///   the card's brands; ``CSEError/Code/paymentsUnknownCardBrand`` when no brand is detected
    ///   or given, or when neither the chosen brand nor any of the card's brands has a platform
    ///   id. The context names brand ids (`brand`, `cardBrands`), never a digit of the card.
    package static func sealedBrand(for request: PaymentRequest) throws(CSEError) -> (brand: CardBrand, productID: String) {
        let detected = request.detectedCardBrands
        let detectedIDs = detected.map(\.id).joined(separator: ",")
        if let chosen = request.cardBrand {
            guard detected.isEmpty || detected.contains(where: { $0.id.isByteEqual(to: chosen.id) }) else {
                throw CSEError(
                    .paymentsCardBrandMismatch, "the chosen card brand is not one of the card's brands",
                    context: ["brand": SecretMasking.echoName(chosen.id, limit: 64), "cardBrands": detectedIDs])
            }
            guard let id = productID(for: chosen) else {
                var context = ["brand": SecretMasking.echoName(chosen.id, limit: 64)]
                if !detected.isEmpty { context["cardBrands"] = detectedIDs }
                throw CSEError(.paymentsUnknownCardBrand, "the chosen card brand has no Worldline platform product id", context: context)
            }
            return (chosen, id)
        }
        guard let first = detected.first else {
            throw CSEError(
                .paymentsUnknownCardBrand,
                "the built-in card product needs the card brand to name the platform product; none was detected (set cardBrand for an account on file)"
            )
        }
        for brand in detected {
            if let id = productID(for: brand) { return (brand, id) }
        }
        throw CSEError(
            .paymentsUnknownCardBrand, "no brand of the card has a Worldline platform product id",
            context: ["brand": first.id, "cardBrands": detectedIDs])
    }
}

extension CSEError.Code {
    /// The payer's chosen ``PaymentRequest/cardBrand`` is not one of the brands of the card
    /// number (its own and its co-badges in ``CardBrandTable/embedded``), so a request on the
    /// built-in card product cannot seal it. The context names the chosen `brand` and the card's
    /// `cardBrands` (ids, comma-separated), never a digit of the card.
    public static let paymentsCardBrandMismatch = Self("payments.cardBrandMismatch")
    /// A request on the built-in card product has no detected brand, or neither the chosen brand
    /// nor any of the card's brands (co-badges included) has a platform product id
    /// (`PlatformProductIDs`). The context names the `brand` (and the card's `cardBrands`) when
    /// known.
    public static let paymentsUnknownCardBrand = Self("payments.unknownCardBrand")
}
