package import CSECore

/// A wallet product the host might be able to use: its id and the card networks it names.
public struct WalletProduct: Hashable, Sendable {
    /// `302` (Apple Pay) or `320` (Google Pay).
    public let productID: String
    /// The networks from `paymentProduct302SpecificData` / `paymentProduct320SpecificData`.
    public let networks: [String]

    /// Creates a description.
    package init(productID: String, networks: [String]) {
        self.productID = productID
        self.networks = networks
    }
}

/// The product rules the Worldline SDKs apply to what the platform returns (research note §1.6).
///
/// - Product ids are compared as numbers when they are digits (the platform's ids are integers
///   on the wire): `0117` is product 117, and a request for `01` asks for `1`.
/// - Products `117` (Maestro), `5700` (Intersolve), `5772` (Sodexo Sport & Culture) and `5784`
///   (VVV Giftcard) cannot be sent in encrypted customer input (WL-Swift CHANGELOG 4.2.0): they
///   are dropped from lists, and asking for one fails with
///   ``CSEError/Code/clientAPIProductUnavailable`` without a call.
/// - A product the platform returns must be the one asked for (compared as above); any other is
///   refused with ``CSEError/Code/clientAPIProductMismatch``, so it is never sealed.
/// - Wallet products (`302` Apple Pay, `320` Google Pay) are kept only when
///   ``isWalletAvailable`` says the host can use them. The default says no: a Linux host has no
///   wallet.
/// - The list keeps the platform's order; product fields are sorted by display order when the
///   product is loaded (``PaymentProduct``), with `expiryDate` list → text and the SDK default
///   masks.
public struct ProductRules: Sendable {
    /// The ids the SDKs refuse. (Arrays, not sets: comparing a few small strings is cheaper
    /// than hashing one, and a cached product lookup checks both lists.)
    package static let unsupportedProductIDs: [String] = ["117", "5700", "5772", "5784"]
    /// Apple Pay and Google Pay.
    package static let walletProductIDs: [String] = ["302", "320"]

    /// Decides whether a wallet product is usable on this host.
    public var isWalletAvailable: @Sendable (WalletProduct) -> Bool

    /// Creates rules.
    /// - Parameter isWalletAvailable: The wallet predicate; default "never available".
    public init(isWalletAvailable: @escaping @Sendable (WalletProduct) -> Bool = { _ in false }) {
        self.isWalletAvailable = isWalletAvailable
    }

    /// The SDKs' rules, with no wallet available.
    public static let `default` = ProductRules()

    /// The list without the unsupported products and the wallets this host cannot use.
    package func filter(_ products: BasicPaymentProducts) -> BasicPaymentProducts {
        BasicPaymentProducts(
            paymentProducts: products.paymentProducts.filter { product in
                if Self.unsupportedProductIDs.contains(Self.canonicalID(product.id)) { return false }
                if let wallet = Self.wallet(product) { return isWalletAvailable(wallet) }
                return true
            })
    }

    /// Refuses, before any call, a product id the SDKs refuse, and returns the id to request.
    /// - Returns: The id in its canonical form (``canonicalID(_:)``): the one sent and cached.
    /// - Throws: ``CSEError/Code/clientAPIProductUnavailable``, or
    ///   ``CSEError/Code/clientAPIInvalidArgument`` for an empty id or one with characters other
    ///   than letters, digits, `-` and `_`.
    package func checkRequestable(productID: String) throws(CSEError) -> String {
        guard !productID.isEmpty, productID.utf8.count <= 64,
            productID.utf8.allSatisfy({ ($0 &- 0x30 < 10) || (($0 | 0x20) &- 0x61 < 26) || $0 == 0x2D || $0 == 0x5F })
        else {
            throw CSEError(.clientAPIInvalidArgument, "a product id is 1 to 64 letters, digits, '-' or '_'")
        }
        let id = Self.canonicalID(productID)
        if Self.unsupportedProductIDs.contains(id) {
            throw CSEError(
                .clientAPIProductUnavailable,
                "this product cannot be used for encrypted customer input (the Worldline SDKs refuse it)",
                context: ["product": id])
        }
        return id
    }

    /// Refuses a product the platform returned for another id: asking for `1` and receiving
    /// `117` must not seal 117.
    /// - Throws: ``CSEError/Code/clientAPIProductMismatch`` naming both ids.
    package static func checkReturned(productID returned: String, requested: String) throws(CSEError) {
        guard canonicalID(returned) != canonicalID(requested) else { return }
        throw CSEError(
            .clientAPIProductMismatch, "the platform returned another product than the one requested",
            context: ["requested": canonicalID(requested), "returned": SecretMasking.echoName(returned, limit: 64)])
    }

    /// The id with the leading zeros of an all-digit id removed (`0117` → `117`, `000` → `0`);
    /// any other id as it is. Two ids name the same product when their canonical forms are equal.
    package static func canonicalID(_ id: String) -> String {
        let utf8 = id.utf8
        guard utf8.count > 1, utf8.first == UInt8(ascii: "0"), utf8.allSatisfy({ $0 &- 0x30 < 10 }) else { return id }
        let digits = utf8.drop { $0 == UInt8(ascii: "0") }
        return digits.isEmpty ? "0" : String(decoding: digits, as: UTF8.self)
    }

    /// Refuses a wallet product this host cannot use (checked once its networks are known, on
    /// every request: the predicate may change its answer).
    /// - Parameter wallet: The product's wallet facts (``wallet(_:)``); `nil` for a product that
    ///   is not a wallet.
    /// - Throws: ``CSEError/Code/clientAPIProductUnavailable``.
    package func checkWallet(_ wallet: WalletProduct?) throws(CSEError) {
        guard let wallet, !isWalletAvailable(wallet) else { return }
        throw CSEError(
            .clientAPIProductUnavailable, "the wallet product is not available on this host",
            context: ["product": wallet.productID])
    }

    /// The wallet facts of `product`, or `nil` when it is not a wallet product.
    static func wallet(_ product: BasicPaymentProduct) -> WalletProduct? {
        let id = canonicalID(product.id)
        guard walletProductIDs.contains(id) else { return nil }
        let data = id == "302" ? product.paymentProduct302SpecificData : product.paymentProduct320SpecificData
        return WalletProduct(productID: id, networks: data?.networks ?? [])
    }
}
