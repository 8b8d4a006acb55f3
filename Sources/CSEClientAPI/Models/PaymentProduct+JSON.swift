package import CSECore
package import CSEPayments
import CSEValidation

extension PaymentProduct {
    /// The product as the Client API writes it, after the product rules: fields in display
    /// order, `expiryDate` as text, the SDK default masks. Members: `id` (a JSON number when the
    /// id is a canonical integer), `paymentMethod`, `paymentProductGroup`, `displayHintsList`,
    /// `allowsRecurring`, `allowsTokenization`, `usesRedirectionTo3rdParty`, `fields`,
    /// `accountsOnFile`. The CLI prints it (`cse session product`).
    package var clientAPIJSONValue: JSONValue {
        var object = JSONObject([("id", CustomerInputPayload.isCanonicalInteger(id) ? .number(id) : .string(id))])
        if let paymentMethod { object["paymentMethod"] = .string(paymentMethod) }
        if let paymentProductGroup { object["paymentProductGroup"] = .string(paymentProductGroup) }
        object["displayHintsList"] = .array(
            displayHints.map { hint in
                var entry = JSONObject([("displayOrder", .number(String(hint.displayOrder)))])
                if let label = hint.label { entry["label"] = .string(label) }
                if let logo = hint.logo { entry["logo"] = .string(logo) }
                return .object(entry)
            })
        object["allowsRecurring"] = .bool(allowsRecurring)
        object["allowsTokenization"] = .bool(allowsTokenization)
        object["usesRedirectionTo3rdParty"] = .bool(usesRedirectionTo3rdParty)
        object["fields"] = .array(fields.map(\.clientAPIJSONValue))
        object["accountsOnFile"] = .array(accountsOnFile.map(\.clientAPIJSONValue))
        return .object(object)
    }
}

extension PaymentProductField {
    /// The field as the Client API writes it.
    var clientAPIJSONValue: JSONValue {
        let hints = displayHints
        var display = JSONObject([
            ("alwaysShow", .bool(hints.alwaysShow)), ("displayOrder", .number(String(hints.displayOrder))),
            ("formElement", .object(JSONObject([("type", .string(hints.formElementType.rawValue))]))),
        ])
        if let label = hints.label { display["label"] = .string(label) }
        if let mask = hints.mask { display["mask"] = .string(mask) }
        display["obfuscate"] = .bool(hints.obfuscate)
        if let placeholder = hints.placeholderLabel { display["placeholderLabel"] = .string(placeholder) }
        display["preferredInputType"] = .string(hints.preferredInputType.rawValue)
        if let tooltip = hints.tooltip { display["tooltip"] = .object(JSONObject([("label", .string(tooltip))])) }
        var validators = JSONObject()
        for rule in dataRestrictions.validators { validators[rule.key] = .object(rule.parameters) }
        return .object(
            JSONObject([
                ("id", .string(id)), ("type", .string(type)),
                (
                    "dataRestrictions",
                    .object(
                        JSONObject([
                            ("isRequired", .bool(dataRestrictions.isRequired)),
                            ("validators", .object(validators)),
                        ]))
                ),
                ("displayHints", .object(display)),
            ]))
    }
}

extension AccountOnFile {
    /// The account as the Client API writes it (`displayHints.labelTemplate`).
    var clientAPIJSONValue: JSONValue {
        var object = JSONObject([("id", .string(id))])
        if let paymentProductID {
            object["paymentProductId"] =
                CustomerInputPayload.isCanonicalInteger(paymentProductID)
                ? .number(paymentProductID) : .string(paymentProductID)
        }
        object["attributes"] = .array(
            attributes.map { attribute in
                var entry = JSONObject([("key", .string(attribute.key))])
                if let value = attribute.value { entry["value"] = .string(value) }
                entry["status"] = .string(attribute.status.rawValue)
                return .object(entry)
            })
        object["displayHints"] = .object(
            JSONObject([
                (
                    "labelTemplate",
                    .array(
                        labelTemplate.map { item in
                            var entry = JSONObject([("attributeKey", .string(item.attributeKey))])
                            if let mask = item.mask { entry["mask"] = .string(mask.pattern) }
                            return .object(entry)
                        })
                )
            ]))
        return .object(object)
    }
}
