public import CSECore
public import CSEPayments

/// The wallet data of Apple Pay (`paymentProduct302SpecificData`) or Google Pay
/// (`paymentProduct320SpecificData`).
public struct WalletSpecificData: Hashable, Sendable {
    /// The card networks the wallet accepts, as the platform names them (`Visa`, `MasterCard`).
    public let networks: [String]
    /// Google Pay's gateway id; `nil` for Apple Pay.
    public let gateway: String?

    /// Creates wallet data.
    package init(networks: [String], gateway: String? = nil) {
        self.networks = networks
        self.gateway = gateway
    }
}

/// One element of the product list (`GET products`; research note §1.4 `BasicPaymentProduct`).
///
/// Lenient where the platform is: `id` an integer or a string, display hints from
/// `displayHints` or `displayHintsList`. Strict otherwise: a member of the wrong type is
/// ``CSEError/Code/clientAPIMalformedResponse``. `jsonValue` keeps the element as received, so
/// the CLI can print it with the platform's member names.
public struct BasicPaymentProduct: Hashable, Sendable, Identifiable {
    /// The product id, for example `1` (Visa).
    public let id: String
    /// `card`, `redirect`, `mobile`, `directDebit`, `invoice`, `cash`, … (absent in some fixtures).
    public let paymentMethod: String?
    /// The group, for example `Cards`.
    public let paymentProductGroup: String?
    /// The display hints: `displayHints` (WL-JS, WL-Android), else `displayHintsList` (WL-Swift 4)
    /// as one element per entry.
    public let displayHints: [PaymentItemDisplayHints]
    /// Whether recurring payments are allowed.
    public let allowsRecurring: Bool
    /// Whether the product can be tokenized.
    public let allowsTokenization: Bool
    /// Whether instalments are allowed.
    public let allowsInstallments: Bool
    /// Whether 3-D Secure style authentication is supported.
    public let allowsAuthentication: Bool
    /// Whether the customer is redirected to a third party.
    public let usesRedirectionTo3rdParty: Bool
    /// The stored accounts of this product.
    public let accountsOnFile: [AccountOnFile]
    /// Apple Pay (302) data.
    public let paymentProduct302SpecificData: WalletSpecificData?
    /// Google Pay (320) data.
    public let paymentProduct320SpecificData: WalletSpecificData?
    /// The smallest and largest amounts allowed, in minor units, when the platform says.
    public let minAmount: Int?
    /// See ``minAmount``.
    public let maxAmount: Int?
    /// The element as received.
    package let jsonValue: JSONValue

    /// The first display hint's order, or `Int.max` without hints (sorted last).
    public var displayOrder: Int { displayHints.first?.displayOrder ?? Int.max }

    /// Decodes one element of `paymentProducts`.
    /// - Throws: ``CSEError/Code/clientAPIMalformedResponse``.
    package init(jsonValue: JSONValue) throws(CSEError) {
        try self.init(jsonValue, ResponseReader(endpoint: "products"))
    }

    init(_ value: JSONValue, _ reader: ResponseReader) throws(CSEError) {
        let object = try reader.object(value, member: "paymentProducts")
        id = try reader.requiredIdentifier(object, "id")
        paymentMethod = try reader.optionalString(object, "paymentMethod")
        paymentProductGroup = try reader.optionalString(object, "paymentProductGroup")
        displayHints = try Self.displayHints(object, reader)
        allowsRecurring = try reader.bool(object, "allowsRecurring", default: false)
        allowsTokenization = try reader.bool(object, "allowsTokenization", default: false)
        allowsInstallments = try reader.bool(object, "allowsInstallments", default: false)
        allowsAuthentication = try reader.bool(object, "allowsAuthentication", default: false)
        usesRedirectionTo3rdParty = try reader.bool(object, "usesRedirectionTo3rdParty", default: false)
        var accounts: [AccountOnFile] = []
        for element in try reader.optionalArray(object, "accountsOnFile") ?? [] {
            do {
                accounts.append(try AccountOnFile.decode(element, ProductJSONReader(product: id)))
            } catch {
                var context = error.context
                context["endpoint"] = reader.endpoint
                throw CSEError(.clientAPIMalformedResponse, error.reason, context: context, underlying: error)
            }
        }
        accountsOnFile = accounts
        paymentProduct302SpecificData = try Self.wallet(object, "paymentProduct302SpecificData", reader)
        paymentProduct320SpecificData = try Self.wallet(object, "paymentProduct320SpecificData", reader)
        minAmount = try reader.optionalInt(object, "minAmount")
        maxAmount = try reader.optionalInt(object, "maxAmount")
        jsonValue = value
    }

    /// `displayHints` (an object), else `displayHintsList` (an array), as WL-JS and WL-Android
    /// read them first.
    static func displayHints(_ object: JSONObject, _ reader: ResponseReader) throws(CSEError) -> [PaymentItemDisplayHints] {
        var elements: [JSONObject] = []
        if let single = try reader.optionalObject(object, "displayHints") {
            elements = [single]
        } else {
            for element in try reader.optionalArray(object, "displayHintsList") ?? [] {
                elements.append(try reader.object(element, member: "displayHintsList"))
            }
        }
        var hints: [PaymentItemDisplayHints] = []
        for element in elements {
            hints.append(
                PaymentItemDisplayHints(
                    displayOrder: try reader.optionalInt(element, "displayOrder") ?? 0,
                    label: try reader.optionalString(element, "label"), logo: try reader.optionalString(element, "logo")))
        }
        return hints
    }

    private static func wallet(_ object: JSONObject, _ key: String, _ reader: ResponseReader) throws(CSEError) -> WalletSpecificData? {
        guard let data = try reader.optionalObject(object, key) else { return nil }
        return WalletSpecificData(networks: try reader.strings(data, "networks") ?? [], gateway: try reader.optionalString(data, "gateway"))
    }
}

/// The product list (`GET products`): `{"paymentProducts":[…]}`, after the product rules
/// (see ``ProductRules``).
public struct BasicPaymentProducts: Hashable, Sendable {
    /// The products, in display order (ties keep the platform's order).
    public let paymentProducts: [BasicPaymentProduct]

    /// Creates a list.
    package init(paymentProducts: [BasicPaymentProduct]) {
        self.paymentProducts = paymentProducts
    }

    /// Every account on file of every product, in list order.
    public var accountsOnFile: [AccountOnFile] { paymentProducts.flatMap(\.accountsOnFile) }

    /// The product with this id (all-digit ids compared as numbers: `01` finds product `1`).
    public func product(id: String) -> BasicPaymentProduct? {
        let wanted = ProductRules.canonicalID(id)
        return paymentProducts.first { ProductRules.canonicalID($0.id) == wanted }
    }

    /// Decodes a response body as received, without applying any rule.
    /// - Throws: ``CSEError/Code/clientAPIMalformedResponse``.
    public init(json: some Collection<UInt8>) throws(CSEError) {
        let reader = ResponseReader(endpoint: "products")
        let object = try reader.object(try reader.parse(json), member: "response")
        guard let list = try reader.optionalArray(object, "paymentProducts") else {
            throw reader.malformed("paymentProducts is missing", member: "paymentProducts")
        }
        var products: [BasicPaymentProduct] = []
        products.reserveCapacity(list.count)
        for element in list { products.append(try BasicPaymentProduct(element, reader)) }
        self.init(paymentProducts: products)
    }

    /// `{"paymentProducts":[…]}` with each element as received.
    package var jsonValue: JSONValue {
        .object(JSONObject([("paymentProducts", .array(paymentProducts.map(\.jsonValue)))]))
    }
}

/// The card networks of a product (`GET products/{id}/networks`): `{"networks":["VISA",…]}`.
public struct PaymentProductNetworks: Hashable, Sendable {
    /// The network names as the platform writes them.
    public let networks: [String]

    /// Creates a list.
    package init(networks: [String]) { self.networks = networks }

    /// Decodes a response body.
    /// - Throws: ``CSEError/Code/clientAPIMalformedResponse``.
    public init(json: some Collection<UInt8>) throws(CSEError) {
        let reader = ResponseReader(endpoint: "networks")
        let object = try reader.object(try reader.parse(json), member: "response")
        guard let networks = try reader.strings(object, "networks") else {
            throw reader.malformed("networks is missing", member: "networks")
        }
        self.init(networks: networks)
    }

    /// `{"networks":[…]}`.
    package var jsonValue: JSONValue { .object(JSONObject([("networks", .array(networks.map(JSONValue.string)))])) }
}
