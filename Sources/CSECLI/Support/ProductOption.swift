import CSECore
import CSEPayments

/// The `--product` option: `builtin:card`, `builtin:sepa` (alias `builtin:sepa-direct-debit`)
/// or the path of a payment-product JSON file in the Client API format.
enum ProductOption: Sendable {
    /// A product built into CSEKit.
    case builtin(PaymentProduct)
    /// A product JSON file, loaded when the command runs.
    case file(String)

    /// The built-in names, as `--help` lists them.
    static let builtinNames = ["builtin:card", "builtin:sepa"]

    /// Parses the option value.
    /// - Throws: ``UsageError`` for an unknown `builtin:` name.
    init(_ text: String) throws(UsageError) {
        switch text {
        case "builtin:card": self = .builtin(BuiltinProducts.card)
        case "builtin:sepa", "builtin:sepa-direct-debit": self = .builtin(BuiltinProducts.sepaDirectDebit)
        default:
            guard !text.hasPrefix("builtin:") else {
                throw UsageError("Unknown built-in product; use \(Self.builtinNames.joined(separator: " or ")), or a product JSON file.")
            }
            self = .file(text)
        }
    }

    /// The product.
    /// - Throws: `cli.file` when the file cannot be read, `product.*` when it does not load.
    func load() throws(CSEError) -> PaymentProduct {
        switch self {
        case .builtin(let product): return product
        case .file(let path): return try PaymentProduct(json: try Files.read(path))
        }
    }
}
