public import CSECore

/// The kind of form element a field is shown with (`displayHints.formElement.type`). An open set:
/// the Client API values are static members, and an unknown value is kept as written.
public struct FormElementType: StableStringValue {
    /// The JSON spelling, for example `text`.
    public let rawValue: String
    /// Creates a type from its JSON spelling.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A free-text input.
    public static let text = Self(rawValue: "text")
    /// A choice from a list.
    public static let list = Self(rawValue: "list")
    /// An amount of money.
    public static let currency = Self(rawValue: "currency")
    /// A check box.
    public static let boolean = Self(rawValue: "boolean")
    /// A date picker.
    public static let date = Self(rawValue: "date")

}

/// The keyboard a field asks for (`displayHints.preferredInputType`). An open set.
public struct PreferredInputType: StableStringValue {
    /// The JSON spelling, for example `IntegerKeyboard`.
    public let rawValue: String
    /// Creates a type from its JSON spelling.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The default text keyboard.
    public static let stringKeyboard = Self(rawValue: "StringKeyboard")
    /// Digits only.
    public static let integerKeyboard = Self(rawValue: "IntegerKeyboard")
    /// An e-mail keyboard.
    public static let emailAddressKeyboard = Self(rawValue: "EmailAddressKeyboard")
    /// A phone keypad.
    public static let phoneNumberKeyboard = Self(rawValue: "PhoneNumberKeyboard")
    /// A date keyboard.
    public static let dateKeyboard = Self(rawValue: "DateKeyboard")

}

/// How a field is presented (`fields[].displayHints`, reference §5).
public struct FieldDisplayHints: Hashable, Sendable {
    /// The position of the field in the form; fields are ordered by it (ascending, ties keep JSON
    /// order). Default 0.
    public let displayOrder: Int
    /// The form element (`formElement.type`); default ``FormElementType/text``.
    public let formElementType: FormElementType
    /// The display mask as written, for example `{{9999}} {{9999}} {{9999}} {{9999}}`, after the
    /// Worldline defaults for `expiryDate` and `cardNumber` (see ``PaymentProduct``).
    public let mask: String?
    /// Whether the value should be hidden while typed (CVV). Default `false`.
    public let obfuscate: Bool
    /// The label.
    public let label: String?
    /// The placeholder text.
    public let placeholderLabel: String?
    /// The keyboard to show; default ``PreferredInputType/stringKeyboard``.
    public let preferredInputType: PreferredInputType
    /// Whether the field is shown even when an account on file covers it. Default `false`.
    public let alwaysShow: Bool
    /// The tooltip text (`tooltip.label`); the tooltip image is not kept.
    public let tooltip: String?

    /// Creates display hints.
    package init(
        displayOrder: Int = 0, formElementType: FormElementType = .text, mask: String? = nil, obfuscate: Bool = false,
        label: String? = nil, placeholderLabel: String? = nil, preferredInputType: PreferredInputType = .stringKeyboard,
        alwaysShow: Bool = false, tooltip: String? = nil
    ) {
        self.displayOrder = displayOrder
        self.formElementType = formElementType
        self.mask = mask
        self.obfuscate = obfuscate
        self.label = label
        self.placeholderLabel = placeholderLabel
        self.preferredInputType = preferredInputType
        self.alwaysShow = alwaysShow
        self.tooltip = tooltip
    }

    /// Decodes `displayHints`.
    static func decode(_ object: JSONObject, _ reader: ProductJSONReader) throws(CSEError) -> FieldDisplayHints {
        let formElement = try reader.optionalObject(object, "formElement")
        let formType = try formElement.map { (element) throws(CSEError) in try reader.optionalString(element, "type") } ?? nil
        let tooltip = try reader.optionalObject(object, "tooltip")
        return FieldDisplayHints(
            displayOrder: try reader.int(object, "displayOrder", default: 0),
            formElementType: formType.map(FormElementType.init(rawValue:)) ?? .text,
            mask: try reader.optionalString(object, "mask"),
            obfuscate: try reader.bool(object, "obfuscate", default: false),
            label: try reader.optionalString(object, "label"),
            placeholderLabel: try reader.optionalString(object, "placeholderLabel"),
            preferredInputType: try reader.optionalString(object, "preferredInputType")
                .map(PreferredInputType.init(rawValue:)) ?? .stringKeyboard,
            alwaysShow: try reader.bool(object, "alwaysShow", default: false),
            tooltip: try tooltip.map { (tip) throws(CSEError) in try reader.optionalString(tip, "label") } ?? nil)
    }

    /// The same hints with another mask and form element (the Worldline post-processing).
    func replacing(mask: String?, formElementType: FormElementType) -> FieldDisplayHints {
        FieldDisplayHints(
            displayOrder: displayOrder, formElementType: formElementType, mask: mask, obfuscate: obfuscate,
            label: label, placeholderLabel: placeholderLabel, preferredInputType: preferredInputType,
            alwaysShow: alwaysShow, tooltip: tooltip)
    }
}
