// The embedded built-in products. Each literal is byte for byte the file under Vectors/products/
// (BuiltinProductsTests checks it); edit the JSON file and re-embed it, never this copy alone.

extension BuiltinProducts {
    /// The bytes of `Vectors/products/card.json`.
    static let cardJSON: String = #"""
        {
          "id": "card",
          "paymentMethod": "card",
          "paymentProductGroup": "cards",
          "usesRedirectionTo3rdParty": false,
          "allowsTokenization": true,
          "allowsRecurring": true,
          "displayHintsList": [
            {"displayOrder": 0, "label": "Card"}
          ],
          "fields": [
            {
              "id": "cardNumber",
              "type": "numericstring",
              "dataRestrictions": {
                "isRequired": true,
                "validators": {"length": {"minLength": 12, "maxLength": 19}, "luhn": {}}
              },
              "displayHints": {
                "alwaysShow": false, "displayOrder": 10, "formElement": {"type": "text"}, "label": "Card number",
                "mask": "{{9999}} {{9999}} {{9999}} {{9999}} {{999}}", "obfuscate": false,
                "placeholderLabel": "**** **** **** ****", "preferredInputType": "IntegerKeyboard"
              }
            },
            {
              "id": "expiryDate",
              "type": "expirydate",
              "dataRestrictions": {
                "isRequired": true,
                "validators": {
                  "expirationDate": {},
                  "length": {"minLength": 4, "maxLength": 4},
                  "regularExpression": {"regularExpression": "(?:0[1-9]|1[0-2])[0-9]{2}"}
                }
              },
              "displayHints": {
                "alwaysShow": false, "displayOrder": 20, "formElement": {"type": "text"}, "label": "Expiry date",
                "mask": "{{99}}/{{99}}", "obfuscate": false, "placeholderLabel": "MM/YY", "preferredInputType": "IntegerKeyboard"
              }
            },
            {
              "id": "cvv",
              "type": "numericstring",
              "dataRestrictions": {
                "isRequired": true,
                "validators": {
                  "length": {"minLength": 3, "maxLength": 4},
                  "regularExpression": {"regularExpression": "^[0-9]{3}[0-9]?$"}
                }
              },
              "displayHints": {
                "alwaysShow": true, "displayOrder": 24, "formElement": {"type": "text"}, "label": "CVV",
                "mask": "{{9999}}", "obfuscate": true, "placeholderLabel": "123", "preferredInputType": "IntegerKeyboard",
                "tooltip": {"label": "The 3 or 4 digit security code printed on your card."}
              }
            },
            {
              "id": "cardholderName",
              "type": "string",
              "dataRestrictions": {
                "isRequired": true,
                "validators": {"length": {"minLength": 2, "maxLength": 51}}
              },
              "displayHints": {
                "alwaysShow": false, "displayOrder": 30, "formElement": {"type": "text"}, "label": "Cardholder name",
                "obfuscate": false, "placeholderLabel": "Name on the card", "preferredInputType": "StringKeyboard"
              }
            }
          ]
        }

        """#

    /// The bytes of `Vectors/products/sepa-direct-debit.json`.
    static let sepaDirectDebitJSON: String = #"""
        {
          "id": "sepa-direct-debit",
          "paymentMethod": "directDebit",
          "usesRedirectionTo3rdParty": false,
          "allowsTokenization": true,
          "allowsRecurring": true,
          "displayHintsList": [
            {"displayOrder": 0, "label": "SEPA Direct Debit"}
          ],
          "fields": [
            {
              "id": "iban",
              "type": "string",
              "dataRestrictions": {
                "isRequired": true,
                "validators": {"iban": {}}
              },
              "displayHints": {
                "alwaysShow": false, "displayOrder": 10, "formElement": {"type": "text"}, "label": "IBAN",
                "obfuscate": false, "placeholderLabel": "DE89 3704 0044 0532 0130 00", "preferredInputType": "StringKeyboard"
              }
            },
            {
              "id": "accountHolderName",
              "type": "string",
              "dataRestrictions": {
                "isRequired": true,
                "validators": {"length": {"minLength": 2, "maxLength": 70}}
              },
              "displayHints": {
                "alwaysShow": false, "displayOrder": 20, "formElement": {"type": "text"}, "label": "Account holder",
                "obfuscate": false, "placeholderLabel": "Name of the account holder", "preferredInputType": "StringKeyboard"
              }
            }
          ]
        }

        """#
}
