package import CSECore

/// Reads product JSON members with typed errors that say where the problem is (product id,
/// field id, account on file, member) and never quote a value.
package struct ProductJSONReader: JSONMemberReader {
    /// The product id, or `?` while it is not known yet.
    var product: String
    /// The field being read, if any.
    var field: String?
    /// The account on file being read, if any.
    var accountOnFile: String?

    package init(product: String = "?", field: String? = nil, accountOnFile: String? = nil) {
        self.product = product
        self.field = field
        self.accountOnFile = accountOnFile
    }

    /// The error context: where, never what.
    func context(member: String? = nil) -> [String: String] {
        var context = ["product": product]
        if let field { context["field"] = field }
        if let accountOnFile { context["accountOnFile"] = accountOnFile }
        if let member { context["member"] = member }
        return context
    }

    package func malformed(_ reason: String, member: String) -> CSEError {
        CSEError(.productMalformed, reason, context: context(member: member))
    }
}
