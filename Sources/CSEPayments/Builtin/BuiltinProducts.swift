import CSECore

/// Payment products built into CSEKit, so a demo or a test needs no Client API call. Their JSON
/// is stored in `Vectors/products/` and embedded byte for byte.
///
/// They are CSEKit's generic definitions, not Worldline products. A request on ``card`` is sealed
/// with the platform product id of the card's detected brand (Visa `1`, American Express `2`,
/// MasterCard `3`, …; see `PlatformProductIDs`), never the string `card`; a brand without a
/// platform id is refused. ``sepaDirectDebit`` keeps its string id. A Worldline integration
/// loads the real product from the Client API.
public enum BuiltinProducts {
    /// A generic card product (`Vectors/products/card.json`), fields in this order:
    /// - `cardNumber`: required; length 12–19, `luhn`; mask `{{9999}} {{9999}} {{9999}} {{9999}} {{999}}`;
    ///   brand-aware PAN length when the brand is known;
    /// - `expiryDate`: required; `expirationDate`, length 4–4, regular expression
    ///   `(?:0[1-9]|1[0-2])[0-9]{2}`; mask `{{99}}/{{99}}`;
    /// - `cvv`: required; length 3–4, regular expression `^[0-9]{3}[0-9]?$`; mask `{{9999}}`;
    ///   the brand's exact CVC length when the brand is known;
    /// - `cardholderName`: required; length 2–51.
    public static let card: PaymentProduct = load(cardJSON)

    /// The id of ``card`` in its JSON: `card`. Sealing replaces it with the brand's platform id.
    package static let cardProductID = "card"

    /// A generic SEPA direct-debit product (`Vectors/products/sepa-direct-debit.json`):
    /// - `iban`: required; `iban` (registry length, BBAN structure, MOD 97-10);
    /// - `accountHolderName`: required; length 2–70.
    public static let sepaDirectDebit: PaymentProduct = load(sepaDirectDebitJSON)

    /// The embedded JSON text of the built-in product with this id, exactly as stored in
    /// `Vectors/products/`.
    package static func embeddedJSON(id: String) -> String? {
        switch id {
        case card.id: return cardJSON
        case sepaDirectDebit.id: return sepaDirectDebitJSON
        default: return nil
        }
    }

    /// Every built-in product.
    public static var all: [PaymentProduct] { [card, sepaDirectDebit] }

    /// Loads an embedded definition. The embedded JSON is fixed and tested, so a failure here is
    /// a build defect, not a runtime condition.
    private static func load(_ json: String) -> PaymentProduct {
        do {
            return try PaymentProduct(json: json)
        } catch {
            fatalError("embedded product definition does not load: \(error)")
        }
    }
}
