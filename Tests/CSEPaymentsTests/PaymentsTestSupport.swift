import CSECore
import CSEPayments
import CSEValidation

/// A fixed clock (May 2026), so no test depends on the day it runs.
func fixedContext(_ year: Int = 2026, _ monthNumber: Int = 5) -> ValidationContext {
    ValidationContext(currentMonth: CalendarMonth(year: year, month: monthNumber)!)
}

/// `fieldId:code` strings, in order.
func codes(_ errors: [FieldIssue]) -> [String] { errors.map { "\($0.field):\($0.code.rawValue)" } }

/// Loads a product from JSON text, failing the test with the error code.
func product(_ json: String) throws -> PaymentProduct { try PaymentProduct(json: json) }

/// Catches a typed error from a throwing expression.
func caught<T>(_ body: () throws(CSEError) -> T) -> CSEError? {
    do { _ = try body(); return nil } catch { return error }
}

enum Fixtures {
    /// The card product of reference §5, assembled from the Worldline test fixtures
    /// `paymentProduct.json` and `SessionTestCase` (test data).
    static let worldlineCard = #"""
        { "id": 1, "paymentMethod": "card", "paymentProductGroup": "cards", "usesRedirectionTo3rdParty": false,
          "allowsRecurring": true, "allowsTokenization": true, "mobileIntegrationLevel": "OPTIMISED_SUPPORT",
          "displayHintsList": [{"displayOrder": 20, "label": "Visa", "logo": "/templates/master/global/css/img/ppimages/pp_logo_1_v1.png"}],
          "accountsOnFile": [{"id": 0, "paymentProductId": 1,
              "attributes": [{"key":"cardholderName","value":"Rob","status":"MUST_WRITE","mustWriteReason":"IN_THE_PAST"},
                             {"key":"cardNumber","value":"************7988","status":"READ_ONLY"},
                             {"key":"expiryDate","value":"0820","status":"READ_ONLY"},
                             {"key":"issueNumber","value":"12","status":"CAN_WRITE"}],
              "displayHints": {"labelTemplate": [{"attributeKey":"cardNumber","mask":"{{9999}} {{9999}} {{9999}} {{9999}} {{999}}"},
                                                 {"attributeKey":"cardholderName"}]}}],
          "fields": [
            {"id":"cardNumber","type":"numericstring",
             "dataRestrictions":{"isRequired":true,"validators":{"length":{"minLength":12,"maxLength":19},"luhn":{}}},
             "displayHints":{"alwaysShow":true,"displayOrder":10,"formElement":{"type":"text"},"label":"Card number:",
                "mask":"{{9999}} {{9999}} {{9999}} {{9999}} {{999}}","obfuscate":false,
                "placeholderLabel":"**** **** **** ****","preferredInputType":"IntegerKeyboard"}},
            {"id":"expiryDate","type":"expirydate",
             "dataRestrictions":{"isRequired":true,"validators":{"expirationDate":{},"length":{"minLength":4,"maxLength":4},
                "regularExpression":{"regularExpression":"(?:0[1-9]|1[0-2])[0-9]{2}"}}},
             "displayHints":{"alwaysShow":true,"displayOrder":20,"formElement":{"type":"text"},"label":"Expiry date:",
                "mask":"{{99}}/{{99}}","obfuscate":false,"placeholderLabel":"MM/YY","preferredInputType":"IntegerKeyboard"}},
            {"id":"cvv","type":"numericstring",
             "dataRestrictions":{"isRequired":false,"validators":{"length":{"minLength":3,"maxLength":4},
                "regularExpression":{"regularExpression":"^[0-9]{3}[0-9]?$"}}},
             "displayHints":{"alwaysShow":true,"displayOrder":24,"formElement":{"type":"text"},"label":"CVV:","mask":"{{9999}}",
                "obfuscate":false,"placeholderLabel":"123","preferredInputType":"IntegerKeyboard",
                "tooltip":{"image":"/templates/master/global/css/img/ppimages/ppf_cvv_v1.png",
                           "label":"The CVV is a 3 or 4 digit code embossed or imprinted on your card."}}}]}
        """#

    /// The fields of the WL PaymentRequestTestCase (reference §6): `creditCard` (luhn, length
    /// 13–19, regex `^[0-9]*$`) and `expiryDate` (expirationDate, length 4–4), both required.
    static let worldlineRequestTest = #"""
        {"id": "1", "paymentMethod": "card", "usesRedirectionTo3rdParty": false, "fields": [
          {"id": "creditCard", "displayHints": {"displayOrder": 1, "formElement": {"type": "text"},
             "mask": "{{9999}} {{9999}} {{9999}} {{9999}} {{999}}"},
           "dataRestrictions": {"isRequired": true, "validators": {"luhn": {}, "length": {"minLength": 13, "maxLength": 19},
             "regularExpression": {"regularExpression": "^[0-9]*$"}}}},
          {"id": "expiryDate", "displayHints": {"displayOrder": 2, "formElement": {"type": "text"}, "mask": "{{99}}/{{99}}"},
           "dataRestrictions": {"isRequired": true, "validators": {"expirationDate": {}, "length": {"minLength": 4, "maxLength": 4}}}}
        ]}
        """#

    /// A product whose fields are given as JSON, with id `p1`.
    static func product(fields: String, accountsOnFile: String = "[]", id: String = "\"p1\"") -> String {
        #"{"id": \#(id), "paymentMethod": "card", "usesRedirectionTo3rdParty": false, "fields": [\#(fields)], "accountsOnFile": \#(accountsOnFile)}"#
    }
}
