// The embedded gateway tables. Each literal is byte for byte the file under Vectors/gateways/
// (GatewayTablesTests checks it); edit the JSON file and re-embed it, never this copy alone.
// swift-format-ignore-file

extension GatewayTables {
    /// The bytes of `Vectors/gateways/aps-sdk-token.json`.
    static let apsSDKTokenJSON: String = #"""
        {
          "gateway": "aps",
          "operations": ["SDK_TOKEN"],
          "notes": "Amazon Payment Services (PayFort FORT) mobile SDK token request. Facts re-expressed from the cited documents; see Vectors/PROVENANCE.md and docs/GATEWAYS.md.",
          "sources": [
            {"id": "payfort-mobile-sdk", "document": "PayFort FORT Mobile SDK API documentation", "url": "https://docs.payfort.com/docs/mobile-sdk/build/index.html", "section": "Create FORT Mobile SDK Token / SDK Token - Request"},
            {"id": "aps-mobile-integration", "document": "Amazon Payment Services Mobile Integration API Reference", "url": "https://paymentservices.amazon.com/docs/api/accepting-payments/mobile-integration", "section": "SDK Token Generation / Request Parameters"}
          ],
          "unknownParameters": "reject",
          "parameters": [
            {"name": "service_command", "class": "alpha", "specials": "_", "required": true, "maxLength": 20, "values": ["SDK_TOKEN"], "source": "payfort-mobile-sdk"},
            {"name": "access_code", "class": "alphanumeric", "required": true, "maxLength": 20, "source": "payfort-mobile-sdk"},
            {"name": "merchant_identifier", "class": "alphanumeric", "required": true, "maxLength": 20, "source": "payfort-mobile-sdk"},
            {"name": "language", "class": "alpha", "required": true, "maxLength": 2, "values": ["en", "ar"], "source": "payfort-mobile-sdk"},
            {"name": "device_id", "class": "alphanumeric", "specials": "-", "required": true, "maxLength": 100, "source": "payfort-mobile-sdk", "note": "A mirror of the same table allows _ - . @ +; the PayFort page allows only -, which fits UUID device ids (docs/GATEWAYS.md, Decisions)."},
            {"name": "signature", "class": "alphanumeric", "required": true, "maxLength": 200, "source": "aps-mobile-integration"}
          ]
        }
        """#

    /// The bytes of `Vectors/gateways/aps-sdk-operation.json`.
    static let apsSDKOperationJSON: String = #"""
        {
          "gateway": "aps",
          "operations": ["AUTHORIZATION", "PURCHASE"],
          "notes": "Amazon Payment Services (PayFort FORT) iOS mobile SDK AUTHORIZATION / PURCHASE request. Rows whose source starts with 'decision:' are parameters whose names appear in APS code (aps-dotnet-sdk) but whose limits no readable public table gives; their limits are CSEKit's decision. Searched without finding them: the payfortdoc mirror (iossdkoperations, recurringparameters, Installmentsparameters, sdktokenparameters), the FortRequestObject tables of the APS React Native and Flutter SDKs, the APS Mobile Integration API Reference, Integrate Mobile SDK and Recurring Payments pages, and the FORT Mobile SDK for iOS Merchant Integration Guide v3.6, v3.7, v3.9.1 and v3.92 transcripts (readable only up to the table of contents). See docs/GATEWAYS.md, Gaps.",
          "sources": [
            {"id": "aps-ios-operations", "document": "PayFort iOS SDK documentation (mirror of the FORT iOS SDK guide)", "url": "https://bhaskarndas.github.io/payfortdoc/iossdkoperations", "section": "iOS SDK Operations (request parameters, note on ISO 4217 decimals, card_number note on MEEZA 19 / AMEX 15 / otherwise 16 digits)"},
            {"id": "aps-ios-sdk", "document": "PayFort iOS SDK documentation (mirror of the FORT iOS SDK guide)", "url": "https://bhaskarndas.github.io/payfortdoc/iossdk", "section": "About the Software / Supported Payment Options"},
            {"id": "aps-rn-sdk", "document": "Amazon Payment Services React Native SDK (payfort/rn-amazonpaymentservices): readme.md and src/types/requestObject.ts", "url": "https://github.com/payfort/rn-amazonpaymentservices", "section": "Request Parameters (FortRequestObject) table; Direct Pay Checkout sample; RequestObjectDirectPay, whose token_name and card_security_code are not optional"},
            {"id": "aps-flutter-sdk", "document": "Amazon Payment Services Flutter SDK (payfort/flutter-amazonpaymentservices): README.md", "url": "https://github.com/payfort/flutter-amazonpaymentservices", "section": "Request Parameters (FortRequestObject) table; Standard Checkout and Validate samples"},
            {"id": "aps-installments", "document": "PayFort documentation mirror (bhaskarndas/payfortdoc), docs/Installmentsparameters.md", "url": "https://bhaskarndas.github.io/payfortdoc/Installmentsparameters", "section": "Installments purchase request table: card_security_code numeric, max 4, only AMEX accepts 4 digits"},
            {"id": "aps-dotnet-sdk", "document": "Amazon Payment Services .NET SDK, APS.DotNetSDK.Commands.Responses.AuthorizeResponseCommand (parameter names only)", "url": "https://github.com/payfort", "section": "JSON property names of the AUTHORIZATION command"}
          ],
          "unknownParameters": "reject",
          "parameters": [
            {"name": "command", "class": "alpha", "required": true, "maxLength": 20, "values": ["AUTHORIZATION", "PURCHASE"], "source": "aps-ios-operations"},
            {"name": "merchant_reference", "class": "alphanumeric", "specials": "-_.", "required": true, "maxLength": 40, "source": "aps-ios-operations"},
            {"name": "amount", "class": "numeric", "required": true, "maxLength": 10, "format": {"type": "minorUnitAmount", "field": "currency"}, "source": "aps-ios-operations"},
            {"name": "currency", "class": "alpha", "required": true, "maxLength": 3, "format": {"type": "currencyCode"}, "source": "aps-ios-operations"},
            {"name": "language", "class": "alpha", "required": true, "maxLength": 2, "values": ["en", "ar"], "source": "aps-ios-operations"},
            {"name": "customer_email", "class": "alphanumeric", "specials": "_-.@+", "required": true, "maxLength": 254, "format": {"type": "email"}, "source": "aps-ios-operations"},
            {"name": "signature", "class": "alphanumeric", "maxLength": 200, "source": "aps-rn-sdk", "note": "Optional: the SDK request objects of aps-rn-sdk and aps-flutter-sdk have no signature (the SDK authenticates with sdk_token) and no SDK sample sends one; aps-ios-operations marks it mandatory. Class and length from aps-ios-operations."},
            {"name": "token_name", "class": "alphanumeric", "specials": ".@-_", "maxLength": 100, "source": "aps-ios-operations"},
            {"name": "sdk_token", "class": "alphanumeric", "required": true, "maxLength": 100, "source": "aps-ios-operations"},
            {"name": "payment_option", "class": "alpha", "maxLength": 10, "values": ["VISA", "MASTERCARD", "AMEX", "MADA", "MEEZA"], "source": "aps-ios-sdk", "note": "SADAD, NAPS and KNET are redirection options; the SDK supports the five card options, the same five that the aps-rn-sdk and aps-flutter-sdk request tables list."},
            {"name": "eci", "class": "alpha", "maxLength": 16, "values": ["ECOMMERCE", "MOTO"], "source": "aps-ios-operations", "note": "The aps-rn-sdk and aps-flutter-sdk tables print max 150 and only ECOMMERCE; the iOS operations table is followed."},
            {"name": "order_description", "class": "alphanumeric", "specials": "'/._-#:$ ", "unicodeLetters": true, "maxLength": 150, "source": "aps-ios-operations"},
            {"name": "customer_ip", "class": "alphanumeric", "specials": ".:", "maxLength": 45, "format": {"type": "ipAddress"}, "source": "aps-ios-operations"},
            {"name": "customer_name", "class": "alpha", "specials": "_\\/-.' ", "unicodeLetters": true, "maxLength": 40, "source": "aps-ios-operations"},
            {"name": "merchant_extra", "class": "alphanumeric", "specials": ".;/_-,'@", "maxLength": 999, "source": "aps-ios-operations"},
            {"name": "merchant_extra1", "class": "alphanumeric", "specials": ".;/_-,'@", "maxLength": 250, "source": "aps-ios-operations"},
            {"name": "merchant_extra2", "class": "alphanumeric", "specials": ".;/_-,'@", "maxLength": 250, "source": "aps-ios-operations"},
            {"name": "merchant_extra3", "class": "alphanumeric", "specials": ".;/_-,'@", "maxLength": 250, "source": "aps-ios-operations"},
            {"name": "merchant_extra4", "class": "alphanumeric", "specials": ".;/_-,'@", "maxLength": 250, "source": "aps-ios-operations"},
            {"name": "merchant_extra5", "class": "alphanumeric", "specials": ".;/_-,'@", "maxLength": 250, "source": "aps-ios-operations"},
            {"name": "remember_me", "class": "alpha", "maxLength": 3, "values": ["YES", "NO"], "source": "aps-ios-operations", "note": "The table says max 2 but lists YES and No; 3 is the smallest limit that admits its own values, and NO is upper case as aps-dotnet-sdk documents the property (YES or NO)."},
            {"name": "phone_number", "class": "numeric", "specials": "+-() ", "maxLength": 19, "source": "aps-ios-operations", "note": "The aps-rn-sdk and aps-flutter-sdk tables call it alphanumeric; the iOS operations table (numeric) is followed."},
            {"name": "settlement_reference", "class": "alphanumeric", "specials": "-_.", "maxLength": 34, "source": "aps-ios-operations"},
            {"name": "billing_stateProvince", "class": "alphanumeric", "specials": " -.,'", "unicodeLetters": true, "maxLength": 20, "source": "decision:name from aps-dotnet-sdk; no readable public table gives its limits (searches in the table notes); limit ours"},
            {"name": "billing_provinceCode", "class": "alphanumeric", "maxLength": 3, "source": "decision:name from aps-dotnet-sdk; no readable public table gives its limits (searches in the table notes); limit ours"},
            {"name": "billing_street", "class": "alphanumeric", "specials": " -.,'/#", "unicodeLetters": true, "maxLength": 100, "source": "decision:name from aps-dotnet-sdk; no readable public table gives its limits (searches in the table notes); limit ours"},
            {"name": "billing_street2", "class": "alphanumeric", "specials": " -.,'/#", "unicodeLetters": true, "maxLength": 100, "source": "decision:name from aps-dotnet-sdk; no readable public table gives its limits (searches in the table notes); limit ours"},
            {"name": "billing_postcode", "class": "alphanumeric", "specials": " -", "maxLength": 10, "source": "decision:name from aps-dotnet-sdk; no readable public table gives its limits (searches in the table notes); limit ours"},
            {"name": "billing_country", "class": "alpha", "maxLength": 3, "format": {"type": "countryAlpha3"}, "source": "decision:name from aps-dotnet-sdk; no readable public table gives its format (searches in the table notes); ISO 3166-1 alpha-3 is ours"},
            {"name": "billing_company", "class": "alphanumeric", "specials": " -.,'&", "unicodeLetters": true, "maxLength": 100, "source": "decision:name from aps-dotnet-sdk; no readable public table gives its limits (searches in the table notes); limit ours"},
            {"name": "billing_city", "class": "alpha", "specials": " -.'", "unicodeLetters": true, "maxLength": 100, "source": "decision:name from aps-dotnet-sdk; no readable public table gives its limits (searches in the table notes); limit ours"},
            {"name": "shipping_stateProvince", "class": "alphanumeric", "specials": " -.,'", "unicodeLetters": true, "maxLength": 20, "source": "decision:name from aps-dotnet-sdk; no readable public table gives its limits (searches in the table notes); limit ours"},
            {"name": "shipping_provinceCode", "class": "alphanumeric", "maxLength": 3, "source": "decision:name from aps-dotnet-sdk; no readable public table gives its limits (searches in the table notes); limit ours"},
            {"name": "shipping_street", "class": "alphanumeric", "specials": " -.,'/#", "unicodeLetters": true, "maxLength": 100, "source": "decision:name from aps-dotnet-sdk; no readable public table gives its limits (searches in the table notes); limit ours"},
            {"name": "shipping_street2", "class": "alphanumeric", "specials": " -.,'/#", "unicodeLetters": true, "maxLength": 100, "source": "decision:name from aps-dotnet-sdk; no readable public table gives its limits (searches in the table notes); limit ours"},
            {"name": "shipping_postcode", "class": "alphanumeric", "specials": " -", "maxLength": 10, "source": "decision:name from aps-dotnet-sdk; no readable public table gives its limits (searches in the table notes); limit ours"},
            {"name": "shipping_country", "class": "alpha", "maxLength": 3, "format": {"type": "countryAlpha3"}, "source": "decision:name from aps-dotnet-sdk; no readable public table gives its format (searches in the table notes); ISO 3166-1 alpha-3 is ours"},
            {"name": "shipping_company", "class": "alphanumeric", "specials": " -.,'&", "unicodeLetters": true, "maxLength": 100, "source": "decision:name from aps-dotnet-sdk; no readable public table gives its limits (searches in the table notes); limit ours"},
            {"name": "shipping_city", "class": "alpha", "specials": " -.'", "unicodeLetters": true, "maxLength": 100, "source": "decision:name from aps-dotnet-sdk; no readable public table gives its limits (searches in the table notes); limit ours"},
            {"name": "agreement_id", "class": "alphanumeric", "specials": "-_", "maxLength": 100, "source": "decision:name from aps-dotnet-sdk; no readable public table gives its limits (searches in the table notes); limit ours"},
            {"name": "recurring_mode", "class": "alpha", "maxLength": 20, "values": ["UNSCHEDULED", "VARIABLE", "FIXED"], "source": "decision:name from aps-dotnet-sdk; no readable public table gives its values (searches in the table notes); VARIABLE and FIXED from the issue's MADA rule, UNSCHEDULED ours"},
            {"name": "recurring_transactions_count", "class": "numeric", "maxLength": 3, "format": {"type": "integer", "min": 1}, "source": "decision:name from aps-dotnet-sdk; no readable public table gives its limits (searches in the table notes); limit ours"},
            {"name": "card_number", "class": "numeric", "maxLength": 19, "sensitivity": "pan", "format": {"type": "cardNumber"}, "source": "aps-ios-operations", "note": "Listed as a response parameter; accepted in requests so the per-option length rule can be checked before sending."},
            {"name": "card_security_code", "class": "numeric", "maxLength": 4, "sensitivity": "securityCode", "format": {"type": "securityCode", "field": "card_number"}, "source": "aps-installments", "note": "Sent by Direct Pay with token_name (aps-rn-sdk). The brand's own length applies when card_number is present; 3 digits at least is CSEKit's floor."}
          ],
          "rules": [
            {"id": "operation-authorization", "if": [{"context": "operation", "in": ["AUTHORIZATION"]}], "then": {"field": "command", "in": ["AUTHORIZATION"]}, "source": "aps-ios-operations"},
            {"id": "operation-purchase", "if": [{"context": "operation", "in": ["PURCHASE"]}], "then": {"field": "command", "in": ["PURCHASE"]}, "source": "aps-ios-operations"},
            {"id": "mada-meeza-purchase-only", "if": [{"field": "payment_option", "in": ["MADA", "MEEZA"]}], "then": {"field": "command", "in": ["PURCHASE"]}, "source": "aps-ios-operations"},
            {"id": "mada-meeza-ecommerce-only", "if": [{"field": "payment_option", "in": ["MADA", "MEEZA"]}], "then": {"field": "eci", "in": ["ECOMMERCE"], "allowAbsent": true}, "source": "aps-ios-operations"},
            {"id": "mada-recurring-count", "if": [{"field": "payment_option", "in": ["MADA"]}, {"field": "recurring_mode", "in": ["VARIABLE", "FIXED"]}], "then": {"field": "recurring_transactions_count", "required": true}, "source": "decision:rule stated by the issue from the APS iOS guide; no readable public document states it (searches in the table notes)"},
            {"id": "card-length-amex", "if": [{"field": "payment_option", "in": ["AMEX"]}], "then": {"field": "card_number", "lengths": [15]}, "source": "aps-ios-operations"},
            {"id": "card-length-meeza", "if": [{"field": "payment_option", "in": ["MEEZA"]}], "then": {"field": "card_number", "lengths": [19]}, "source": "aps-ios-operations"},
            {"id": "card-length-16", "if": [{"field": "payment_option", "in": ["VISA", "MASTERCARD", "MADA"]}], "then": {"field": "card_number", "lengths": [16]}, "source": "aps-ios-operations"},
            {"id": "direct-pay-needs-token", "if": [{"field": "card_security_code", "present": true}], "then": {"field": "token_name", "required": true}, "source": "aps-rn-sdk"},
            {"id": "cvv-length-amex", "if": [{"field": "payment_option", "in": ["AMEX"]}], "then": {"field": "card_security_code", "lengths": [4]}, "source": "aps-installments"},
            {"id": "cvv-length-3", "if": [{"field": "payment_option", "in": ["VISA", "MASTERCARD", "MADA", "MEEZA"]}], "then": {"field": "card_security_code", "lengths": [3]}, "source": "aps-installments"}
          ]
        }
        """#

    /// The bytes of `Vectors/gateways/paysafe-setup.json`.
    static let paysafeSetupJSON: String = #"""
        {
          "gateway": "paysafe",
          "operations": ["setup"],
          "notes": "Paysafe iOS SDK setup: the API key and the environment. Numeric codes are the SDK's PSError codes.",
          "sources": [
            {"id": "paysafe-ios-errors", "document": "Paysafe iOS SDK (paysafegroup/paysafe_sdk_ios_payments_api), PaysafeCommon/Errors/PSError+Custom.swift and PSError.swift", "url": "https://github.com/paysafegroup/paysafe_sdk_ios_payments_api", "section": "Core errors: coreInvalidAPIKey 9167; PSError fields code, displayMessage, detailedMessage, correlationId"},
            {"id": "paysafe-mobile-api-keys", "document": "Paysafe Developer: Mobile SDKs (iOS) - Mobile API Keys", "url": "https://developer.paysafe.com/en/api-docs/mobile-sdks/ios/mobile-api-keys/", "section": "Mobile API Keys (key username and password joined as username:password)"},
            {"id": "paysafe-authentication", "document": "Paysafe Developer: REST APIs - More about Authentication", "url": "https://developer.paysafe.com/en/rest-apis/reference-information/important-integration-concepts/authentication/", "section": "Authorization header: username:password, Base64-encoded"}
          ],
          "unknownParameters": "reject",
          "parameters": [
            {"name": "apiKey", "type": "string", "required": true, "sensitivity": "credential", "format": {"type": "basicCredentials"}, "codes": {"required": 9167, "*": 9013}, "source": "paysafe-authentication", "note": "9167 (empty key) from paysafe-ios-errors; 9013 (malformed key) is the Apple Pay iOS SDK document's code for an invalid key."},
            {"name": "environment", "type": "string", "required": true, "values": ["LIVE", "TEST"], "source": "decision:LIVE and TEST as the issue names the Apple Pay SDK environments; the iOS SDK's PaysafeEnvironment enum (PaysafeEnvironment.swift) has the cases production and test and no string form, and no readable Paysafe document prints one"}
          ]
        }
        """#

    /// The bytes of `Vectors/gateways/paysafe-tokenize.json`.
    static let paysafeTokenizeJSON: String = #"""
        {
          "gateway": "paysafe",
          "operations": ["tokenize"],
          "notes": "Paysafe iOS SDK tokenize options (PSApplePayTokenizeOptions / PSTokenizable), keys as the SDK names them. Numeric codes are the SDK's PSError codes. Rows whose source starts with 'decision:' have limits that no readable public document gives. Searched without finding them: the SDK source (BillingDetails.swift, ShippingDetails, PSTokenizeOptionsUtils.swift, which checks only amount, email, names and the merchant descriptor), the Paysafe Payments API Java SDK's CardBillingDetailsRequest (no lengths), and the docs index for Paysafe billingDetails / shippingDetails schemas. See docs/GATEWAYS.md, Gaps.",
          "sources": [
            {"id": "paysafe-ios-tokenizable", "document": "Paysafe iOS SDK (paysafegroup/paysafe_sdk_ios_payments_api), PSTokenizable.swift, PSApplePayTokenizeOptions.swift, BillingDetails.swift, TransactionType.swift", "url": "https://github.com/paysafegroup/paysafe_sdk_ios_payments_api", "section": "PaysafeCommon/PublicAccess/Model: tokenize option properties, TransactionType raw values, ThreeDS.useThreeDSecureVersion2 (Bool), BillingDetails (country and zip not optional)"},
            {"id": "paysafe-ios-errors", "document": "Paysafe iOS SDK (paysafegroup/paysafe_sdk_ios_payments_api), PSError+Custom.swift", "url": "https://github.com/paysafegroup/paysafe_sdk_ios_payments_api", "section": "invalidAmount 9054, coreInvalidCurrencyCode 9055, invalidAccountIdFormat 9101, invalidDynamicDescriptor 9098, invalidPhone 9099, invalidFirstName 9112, invalidLastName 9113, invalidEmail 9119"},
            {"id": "paysafe-ios-validation", "document": "Paysafe iOS SDK (paysafegroup/paysafe_sdk_ios_payments_api), PSTokenizeOptionsUtils.swift and the validateTokenizeOptions / getPaymentMethod checks of PSApplePayContext and PSCardForm", "url": "https://github.com/paysafegroup/paysafe_sdk_ios_payments_api", "section": "isValidAmount (greater than 0, below 1,000,000,000), isValidDynamicDescriptor (not empty, at most 20), isValidPhone (not empty, at most 13), isValidFirstName / isValidLastName (not empty, at most 80), isValidEmail; accountId containsOnlyNumbers (9101)"},
            {"id": "paysafe-3ds-usage", "document": "Paysafe Developer: Mobile SDKs (Payments API) - 3D Secure, Integrating iOS SDK", "url": "https://developer.paysafe.com/en/api-docs/mobile-sdks-payments-api/paysafe-android-sdk/3d-secure/usage-1/", "section": "Paysafe3DS parameters: accountId is mandatory for a partner using a shared API key"},
            {"id": "paysafe-credit-schema", "document": "Paysafe API reference: standaloneCreditsRequest schema", "url": "https://docs.paysafe.com/api/embedded-wallets/business/1.0.0/payments/schemas/standalonecreditsrequest", "section": "merchantRefNum <= 255 characters; amount in minor units; currencyCode <= 3 characters"}
          ],
          "unknownParameters": "allow",
          "parameters": [
            {"name": "amount", "type": "number", "required": true, "maxLength": 11, "format": {"type": "integer", "min": 0, "max": 999999999}, "codes": {"*": 9054}, "source": "paysafe-ios-validation", "note": "The SDK's check is 0 < amount < 1,000,000,000; its 9054 message says 11 characters. 0 is let through here only for the zero-amount-needs-3ds2 rule."},
            {"name": "currencyCode", "type": "string", "required": true, "format": {"type": "currencyCode"}, "codes": {"*": 9055}, "source": "paysafe-ios-errors"},
            {"name": "transactionType", "type": "string", "required": true, "values": ["PAYMENT", "STANDALONE_CREDIT", "ORIGINAL_CREDIT", "VERIFICATION", "payment", "standaloneCredit", "originalCredit", "verification"], "source": "paysafe-ios-tokenizable", "note": "Raw values and Swift case names are both accepted."},
            {"name": "merchantRefNum", "type": "string", "required": true, "maxLength": 255, "source": "paysafe-credit-schema"},
            {"name": "accountId", "type": "text", "class": "numeric", "codes": {"*": 9101}, "source": "paysafe-ios-validation", "note": "Digits only, no length limit, as the SDK checks it. PSTokenizable declares accountId as a non-optional String, while paysafe-3ds-usage makes it mandatory only for a partner using a shared API key; CSEKit follows the page (rule partner-shared-key-needs-account)."},
            {"name": "countryCode", "type": "string", "format": {"type": "countryAlpha2"}, "source": "decision:PSApplePayTokenizeOptions and PSTokenizable have no countryCode; kept for the Apple Pay merchant country (PKPaymentRequest.countryCode), ISO 3166-1 alpha-2"},
            {"name": "threeDS.useThreeDSecureVersion2", "type": "boolean", "source": "paysafe-ios-tokenizable"},
            {"name": "billingDetails.country", "type": "string", "format": {"type": "countryAlpha2"}, "source": "paysafe-ios-tokenizable"},
            {"name": "billingDetails.zip", "type": "string", "maxLength": 10, "source": "paysafe-ios-tokenizable"},
            {"name": "billingDetails.state", "type": "string", "maxLength": 40, "source": "decision:BillingDetails.swift / ShippingDetails give no length and no readable Paysafe schema was found (searches in the table notes); length ours"},
            {"name": "billingDetails.city", "type": "string", "maxLength": 40, "source": "decision:BillingDetails.swift / ShippingDetails give no length and no readable Paysafe schema was found (searches in the table notes); length ours"},
            {"name": "billingDetails.street", "type": "string", "maxLength": 50, "source": "decision:BillingDetails.swift / ShippingDetails give no length and no readable Paysafe schema was found (searches in the table notes); length ours"},
            {"name": "billingDetails.street1", "type": "string", "maxLength": 50, "source": "decision:BillingDetails.swift / ShippingDetails give no length and no readable Paysafe schema was found (searches in the table notes); length ours"},
            {"name": "billingDetails.street2", "type": "string", "maxLength": 50, "source": "decision:BillingDetails.swift / ShippingDetails give no length and no readable Paysafe schema was found (searches in the table notes); length ours"},
            {"name": "billingDetails.phone", "type": "string", "class": "numeric", "specials": "+-() ", "maxLength": 40, "source": "decision:BillingDetails.swift / ShippingDetails give no length and no readable Paysafe schema was found (searches in the table notes); length ours"},
            {"name": "billingDetails.nickName", "type": "string", "maxLength": 50, "source": "decision:BillingDetails.swift / ShippingDetails give no length and no readable Paysafe schema was found (searches in the table notes); length ours"},
            {"name": "shippingDetails.recipientName", "type": "string", "maxLength": 255, "source": "decision:BillingDetails.swift / ShippingDetails give no length and no readable Paysafe schema was found (searches in the table notes); length ours"},
            {"name": "shippingDetails.street", "type": "string", "maxLength": 50, "source": "decision:BillingDetails.swift / ShippingDetails give no length and no readable Paysafe schema was found (searches in the table notes); length ours"},
            {"name": "shippingDetails.street2", "type": "string", "maxLength": 50, "source": "decision:BillingDetails.swift / ShippingDetails give no length and no readable Paysafe schema was found (searches in the table notes); length ours"},
            {"name": "shippingDetails.city", "type": "string", "maxLength": 40, "source": "decision:BillingDetails.swift / ShippingDetails give no length and no readable Paysafe schema was found (searches in the table notes); length ours"},
            {"name": "shippingDetails.state", "type": "string", "maxLength": 40, "source": "decision:BillingDetails.swift / ShippingDetails give no length and no readable Paysafe schema was found (searches in the table notes); length ours"},
            {"name": "shippingDetails.country", "type": "string", "format": {"type": "countryAlpha2"}, "source": "decision:no readable document gives its format (searches in the table notes); ISO 3166-1 alpha-2 as billingDetails.country"},
            {"name": "shippingDetails.zip", "type": "string", "maxLength": 10, "source": "decision:BillingDetails.swift / ShippingDetails give no length and no readable Paysafe schema was found (searches in the table notes); length ours"},
            {"name": "profile.firstName", "type": "string", "minLength": 1, "maxLength": 80, "codes": {"*": 9112}, "source": "paysafe-ios-validation"},
            {"name": "profile.lastName", "type": "string", "minLength": 1, "maxLength": 80, "codes": {"*": 9113}, "source": "paysafe-ios-validation"},
            {"name": "profile.email", "type": "string", "maxLength": 255, "format": {"type": "email"}, "codes": {"*": 9119}, "source": "paysafe-ios-errors", "note": "The SDK's isValidEmail pattern is narrower (word characters, - and . before the @, a last label of 2 to 4 characters); CSEKit applies its own e-mail language."},
            {"name": "merchantDescriptor.dynamicDescriptor", "type": "string", "maxLength": 20, "codes": {"*": 9098}, "source": "paysafe-ios-validation", "note": "The SDK checks it in the card form; its Apple Pay context does not."},
            {"name": "merchantDescriptor.phone", "type": "string", "maxLength": 13, "codes": {"*": 9099}, "source": "paysafe-ios-validation", "note": "Any characters, as the SDK checks only emptiness and length (card form only)."}
          ],
          "rules": [
            {"id": "zero-amount-needs-3ds2", "if": [{"field": "amount", "in": ["0"]}], "then": {"field": "threeDS.useThreeDSecureVersion2", "in": ["true"]}, "code": 9054, "source": "decision:the issue's rule that amount 0 is allowed only with 3DS2 (a card verification); the SDK's isValidAmount (paysafe-ios-validation) refuses 0 outright and no readable Paysafe document states the 3DS2 exception"},
            {"id": "partner-shared-key-needs-account", "if": [{"context": "partnerSharedKey"}], "then": {"field": "accountId", "required": true}, "code": 9101, "source": "paysafe-3ds-usage"},
            {"id": "billing-country-required", "if": [{"field": "billingDetails", "present": true}], "then": {"field": "billingDetails.country", "required": true}, "source": "paysafe-ios-tokenizable"},
            {"id": "billing-zip-required", "if": [{"field": "billingDetails", "present": true}], "then": {"field": "billingDetails.zip", "required": true}, "source": "paysafe-ios-tokenizable"}
          ]
        }
        """#

    /// The bytes of `Vectors/gateways/mastercard-update-session.json`.
    static let mastercardUpdateSessionJSON: String = #"""
        {
          "gateway": "mastercard",
          "operations": ["updateSession"],
          "notes": "Mastercard Gateway mobile SDK: the payload of Gateway.updateSession(sessionId, apiVersion, payload), nested as the gateway API takes it; apiVersion is a top-level key here. Rows whose source starts with 'decision:' state what no readable public document gives. Searched without finding them: every stored version of the gateway-ios-sdk README (its sample leaves apiVersion as a placeholder), the docs index for the Mastercard Gateway API reference (Update Session, Initiate Authentication, Authenticate Payer) and for the developer.mastercard.com gateway pages. See docs/GATEWAYS.md, Gaps.",
          "sources": [
            {"id": "mc-ios-readme", "document": "Mastercard Gateway iOS SDK README (Mastercard-Gateway/gateway-ios-sdk)", "url": "https://github.com/Mastercard-Gateway/gateway-ios-sdk", "section": "Usage / Basic Implementation (GatewayMap paths sourceOfFunds.provided.card.*)"},
            {"id": "mc-ios-wiki", "document": "Mastercard Gateway iOS SDK wiki", "url": "https://github.com/Mastercard-Gateway/gateway-ios-sdk/wiki", "section": "Basic Transaction Lifecycle (update the session with the API version that created it); Apple Pay (devicePayment.paymentToken, order.walletProvider)"},
            {"id": "mc-api-order", "document": "Mastercard Gateway API reference, Confirm Browser Payment (REST/NVP)", "url": "https://eu-gateway.mastercard.com/api/documentation/apiDocumentation/nvp/version/latest/operation/Browser%20Payment%3a%20%20Confirm.html", "section": "order.id: any characters, length 1 to 40"},
            {"id": "mc-3ds-api", "document": "Mastercard Gateway: Implementing a 3DS Integration using the Authentication API", "url": "https://na.gateway.mastercard.com/api/documentation/integrationGuidelines/supportedFeatures/pickAdditionalFunctionality/authentication/3DS/integrationModelAPI.html", "section": "Step 1: Initiate Authentication request fields (order.currency, order.id, authentication.channel); the gateway supports 3DS2 only"}
          ],
          "unknownParameters": "allow",
          "parameters": [
            {"name": "apiVersion", "type": "text", "required": true, "format": {"type": "integer", "min": 61}, "source": "decision:the issue's minimum API version 61 for the 3DS2 mobile SDK, not found in a readable document (searches in the table notes); the wiki requires the session's own version"},
            {"name": "order.id", "type": "string", "minLength": 1, "maxLength": 40, "source": "mc-api-order"},
            {"name": "order.amount", "type": "text", "format": {"type": "decimalAmount", "field": "order.currency"}, "source": "decision:no readable document gives its format (searches in the table notes); a decimal string whose precision fits the currency (ISO 4217 minor units)"},
            {"name": "order.currency", "type": "string", "format": {"type": "currencyCode"}, "source": "mc-3ds-api"},
            {"name": "order.walletProvider", "type": "string", "values": ["APPLE_PAY", "GOOGLE_PAY", "SAMSUNG_PAY"], "source": "decision:APPLE_PAY from mc-ios-wiki and the gateway's Apple Pay and Google Pay page (GatewayMap sample); the gateway's Digital Wallets page names Apple Pay, Google Pay and Samsung Pay, but the spelling GOOGLE_PAY / SAMSUNG_PAY was not found in a readable document (searches in the table notes)"},
            {"name": "authentication.acceptVersions", "type": "string", "values": ["3DS2"], "source": "mc-3ds-api"},
            {"name": "authentication.channel", "type": "string", "values": ["PAYER_APP"], "source": "mc-3ds-api", "note": "The mobile SDK authenticates in the payer's app; PAYER_BROWSER belongs to web integrations."},
            {"name": "authentication.purpose", "type": "string", "values": ["PAYMENT_TRANSACTION"], "source": "decision:the mobile SDK's payment flow; the value list of authentication.purpose not found in a readable document (searches in the table notes)"},
            {"name": "sourceOfFunds.provided.card.nameOnCard", "type": "string", "maxLength": 256, "unicodeLetters": true, "source": "mc-ios-readme"},
            {"name": "sourceOfFunds.provided.card.number", "type": "string", "class": "numeric", "maxLength": 19, "sensitivity": "pan", "format": {"type": "cardNumber"}, "source": "mc-ios-readme"},
            {"name": "sourceOfFunds.provided.card.securityCode", "type": "string", "class": "numeric", "maxLength": 4, "sensitivity": "securityCode", "format": {"type": "securityCode", "field": "sourceOfFunds.provided.card.number"}, "source": "mc-ios-readme"},
            {"name": "sourceOfFunds.provided.card.expiry.month", "type": "string", "class": "numeric", "format": {"type": "month"}, "source": "mc-ios-readme"},
            {"name": "sourceOfFunds.provided.card.expiry.year", "type": "string", "class": "numeric", "minLength": 2, "maxLength": 2, "source": "mc-ios-readme"},
            {"name": "sourceOfFunds.provided.card.devicePayment.paymentToken", "type": "string", "format": {"type": "applePayPaymentData"}, "source": "mc-ios-wiki"}
          ],
          "rules": [
            {"id": "amount-needs-currency", "if": [{"field": "order.amount", "present": true}], "then": {"field": "order.currency", "required": true}, "source": "decision:an amount's precision depends on its currency; not stated by a readable document"},
            {"id": "apple-pay-needs-token", "if": [{"field": "order.walletProvider", "in": ["APPLE_PAY"]}], "then": {"field": "sourceOfFunds.provided.card.devicePayment.paymentToken", "required": true}, "source": "mc-ios-wiki"},
            {"id": "token-needs-apple-pay", "if": [{"field": "sourceOfFunds.provided.card.devicePayment.paymentToken", "present": true}], "then": {"field": "order.walletProvider", "in": ["APPLE_PAY"]}, "source": "mc-ios-wiki"},
            {"id": "token-excludes-card-number", "if": [{"field": "sourceOfFunds.provided.card.devicePayment.paymentToken", "present": true}], "then": {"field": "sourceOfFunds.provided.card.number", "absent": true}, "source": "decision:a session carries either a device payment token or a card number; not stated by a readable document"},
            {"id": "card-needs-expiry-month", "if": [{"field": "sourceOfFunds.provided.card.number", "present": true}], "then": {"field": "sourceOfFunds.provided.card.expiry.month", "required": true}, "source": "mc-ios-readme"},
            {"id": "card-needs-expiry-year", "if": [{"field": "sourceOfFunds.provided.card.number", "present": true}], "then": {"field": "sourceOfFunds.provided.card.expiry.year", "required": true}, "source": "mc-ios-readme"},
            {"id": "3ds-needs-channel", "if": [{"field": "authentication", "present": true}], "then": {"field": "authentication.channel", "required": true}, "source": "mc-3ds-api"},
            {"id": "3ds-needs-purpose", "if": [{"field": "authentication", "present": true}], "then": {"field": "authentication.purpose", "required": true}, "source": "decision:the SDK sends purpose with channel; not stated by a readable document"}
          ]
        }
        """#

    /// The bytes of `Vectors/gateways/aps-response-codes.json`.
    static let apsResponseCodesJSON: String = #"""
        {
          "gateway": "aps",
          "source": {"document": "PayFort documentation mirror: Transaction Response Codes", "url": "https://bhaskarndas.github.io/payfortdoc/transactioncodes", "section": "Status Codes; Message Codes (response_code = 2-digit status + 3-digit message)"},
          "notes": "outcome is CSEKit's classification of each status (success, failure, pending); messages list the codes a mobile integration meets (OLP, SADAD, batch and invoicing messages are left out).",
          "statuses": [
            {"status": "00", "description": "Invalid Request", "outcome": "failure"},
            {"status": "01", "description": "Order Stored", "outcome": "pending"},
            {"status": "02", "description": "Authorization Success", "outcome": "success"},
            {"status": "03", "description": "Authorization Failed", "outcome": "failure"},
            {"status": "04", "description": "Capture Success", "outcome": "success"},
            {"status": "05", "description": "Capture failed", "outcome": "failure"},
            {"status": "06", "description": "Refund Success", "outcome": "success"},
            {"status": "07", "description": "Refund Failed", "outcome": "failure"},
            {"status": "08", "description": "Authorization Voided Successfully", "outcome": "success"},
            {"status": "09", "description": "Authorization Void Failed", "outcome": "failure"},
            {"status": "10", "description": "Incomplete", "outcome": "pending"},
            {"status": "11", "description": "Check status Failed", "outcome": "failure"},
            {"status": "12", "description": "Check status success", "outcome": "success"},
            {"status": "13", "description": "Purchase Failure", "outcome": "failure"},
            {"status": "14", "description": "Purchase Success", "outcome": "success"},
            {"status": "15", "description": "Uncertain Transaction", "outcome": "pending"},
            {"status": "17", "description": "Tokenization failed", "outcome": "failure"},
            {"status": "18", "description": "Tokenization success", "outcome": "success"},
            {"status": "19", "description": "Transaction pending", "outcome": "pending"},
            {"status": "20", "description": "On hold", "outcome": "pending"},
            {"status": "21", "description": "SDK Token creation failure", "outcome": "failure"},
            {"status": "22", "description": "SDK Token creation success", "outcome": "success"},
            {"status": "23", "description": "Failed to process Digital Wallet service", "outcome": "failure"},
            {"status": "24", "description": "Digital wallet order processed successfully", "outcome": "success"},
            {"status": "27", "description": "Check card balance failed", "outcome": "failure"},
            {"status": "28", "description": "Check card balance success", "outcome": "success"},
            {"status": "29", "description": "Redemption failed", "outcome": "failure"},
            {"status": "30", "description": "Redemption success", "outcome": "success"},
            {"status": "31", "description": "Reverse Redemption transaction failed", "outcome": "failure"},
            {"status": "32", "description": "Reverse Redemption transaction success", "outcome": "success"},
            {"status": "40", "description": "Transaction In review", "outcome": "pending"},
            {"status": "42", "description": "Currency conversion success", "outcome": "success"},
            {"status": "43", "description": "Currency conversion failed", "outcome": "failure"},
            {"status": "44", "description": "3ds success", "outcome": "success"},
            {"status": "45", "description": "3ds failed", "outcome": "failure"},
            {"status": "46", "description": "Bill creation success", "outcome": "success"},
            {"status": "47", "description": "Bill creation failed", "outcome": "failure"},
            {"status": "48", "description": "Generating invoice payment link success", "outcome": "success"},
            {"status": "49", "description": "Generating invoice payment link failed", "outcome": "failure"},
            {"status": "50", "description": "Batch file upload successfully", "outcome": "success"},
            {"status": "51", "description": "Upload batch file failed", "outcome": "failure"},
            {"status": "52", "description": "Token created successfully", "outcome": "success"},
            {"status": "53", "description": "Token creation failed", "outcome": "failure"},
            {"status": "54", "description": "Get Tokens Success", "outcome": "success"},
            {"status": "55", "description": "Get Tokens Failed", "outcome": "failure"},
            {"status": "56", "description": "Reporting Request Success", "outcome": "success"},
            {"status": "57", "description": "Reporting Request Failed", "outcome": "failure"},
            {"status": "58", "description": "Token updated successfully", "outcome": "success"},
            {"status": "59", "description": "Token updated failed", "outcome": "failure"},
            {"status": "62", "description": "Get Installment Plans Successfully", "outcome": "success"},
            {"status": "63", "description": "Get Installment plans Failed", "outcome": "failure"},
            {"status": "66", "description": "Delete Token Success", "outcome": "success"},
            {"status": "70", "description": "Get batch results successfully", "outcome": "success"},
            {"status": "71", "description": "Get batch results failed", "outcome": "failure"},
            {"status": "72", "description": "Batch processing success", "outcome": "success"},
            {"status": "73", "description": "Batch processing failed", "outcome": "failure"},
            {"status": "74", "description": "Bank transfer successfully", "outcome": "success"},
            {"status": "75", "description": "Bank transfer failed", "outcome": "failure"},
            {"status": "76", "description": "Batch validation successfully", "outcome": "success"},
            {"status": "77", "description": "Batch validation failed", "outcome": "failure"},
            {"status": "80", "description": "Credit card verified successfully", "outcome": "success"},
            {"status": "81", "description": "Failed to verify credit card", "outcome": "failure"}
          ],
          "messages": [
            {"message": "000", "description": "Success"},
            {"message": "001", "description": "Missing parameter"},
            {"message": "002", "description": "Invalid parameter format"},
            {"message": "003", "description": "Payment option is not available for this merchant's account"},
            {"message": "004", "description": "Invalid command"},
            {"message": "005", "description": "Invalid amount"},
            {"message": "006", "description": "Technical problem"},
            {"message": "007", "description": "Duplicate order number"},
            {"message": "008", "description": "Signature mismatch"},
            {"message": "009", "description": "Invalid merchant identifier"},
            {"message": "010", "description": "Invalid access code"},
            {"message": "011", "description": "Order not saved"},
            {"message": "012", "description": "Card expired"},
            {"message": "013", "description": "Invalid currency"},
            {"message": "014", "description": "Inactive payment option"},
            {"message": "015", "description": "Inactive merchant account"},
            {"message": "016", "description": "Invalid card number"},
            {"message": "017", "description": "Operation not allowed by the acquirer"},
            {"message": "018", "description": "Operation not allowed by processor"},
            {"message": "019", "description": "Inactive acquirer"},
            {"message": "020", "description": "Processor is inactive"},
            {"message": "021", "description": "Payment option deactivated by acquirer"},
            {"message": "023", "description": "Currency not accepted by acquirer"},
            {"message": "024", "description": "Currency not accepted by processor"},
            {"message": "025", "description": "Processor integration settings are missing"},
            {"message": "026", "description": "Acquirer integration settings are missing"},
            {"message": "027", "description": "Invalid extra parameters"},
            {"message": "029", "description": "Insufficient funds"},
            {"message": "030", "description": "Authentication failed"},
            {"message": "031", "description": "Invalid issuer"},
            {"message": "032", "description": "Invalid parameter length"},
            {"message": "033", "description": "Parameter value not allowed"},
            {"message": "034", "description": "Operation not allowed"},
            {"message": "035", "description": "Order created successfully"},
            {"message": "036", "description": "Order not found"},
            {"message": "037", "description": "Missing return URL"},
            {"message": "038", "description": "Token service inactive"},
            {"message": "039", "description": "No active payment option found"},
            {"message": "040", "description": "Invalid transaction source"},
            {"message": "042", "description": "Operation amount exceeds the authorized amount"},
            {"message": "043", "description": "Inactive operation"},
            {"message": "044", "description": "Token name does not exist"},
            {"message": "046", "description": "Channel is not configured for the selected payment option"},
            {"message": "047", "description": "Order already processed"},
            {"message": "048", "description": "Operation amount exceeds captured amount"},
            {"message": "049", "description": "Operation not valid for this payment option"},
            {"message": "050", "description": "Merchant per transaction limit exceeded"},
            {"message": "051", "description": "Technical error"},
            {"message": "054", "description": "Transaction cannot be processed at this moment"},
            {"message": "057", "description": "Transaction amount exceeds the daily transaction limit"},
            {"message": "058", "description": "Transaction amount exceeds the per transaction limit"},
            {"message": "062", "description": "Token has been created"},
            {"message": "063", "description": "Token has been updated"},
            {"message": "064", "description": "3-D Secure check requested"},
            {"message": "065", "description": "Transaction waiting for customer's action"},
            {"message": "066", "description": "Merchant reference already exists"},
            {"message": "067", "description": "Dynamic Descriptor not configured for selected payment option"},
            {"message": "068", "description": "SDK service is inactive"},
            {"message": "069", "description": "Mapping not found for the given error code"},
            {"message": "070", "description": "device_id mismatch"},
            {"message": "071", "description": "Failed to initiate connection"},
            {"message": "072", "description": "Transaction has been cancelled by the consumer"},
            {"message": "073", "description": "Invalid request format"},
            {"message": "074", "description": "Transaction failed"},
            {"message": "075", "description": "Transaction failed"},
            {"message": "077", "description": "Error transaction code not found"},
            {"message": "078", "description": "Failed to check fraud screen"},
            {"message": "079", "description": "Transaction challenged by fraud rules"},
            {"message": "080", "description": "Invalid payment option"},
            {"message": "082", "description": "Inactive fraud service"},
            {"message": "083", "description": "Unexpected user behavior"},
            {"message": "084", "description": "Transaction amount is outside the plan's accepted range"},
            {"message": "086", "description": "Installment plan is not configured for merchant account"},
            {"message": "087", "description": "Card BIN does not match accepted issuer bank"},
            {"message": "088", "description": "Token name was not created for this transaction"},
            {"message": "089", "description": "Failed to retrieve digital wallet details"},
            {"message": "090", "description": "Transaction in review"},
            {"message": "092", "description": "Invalid issuer code"},
            {"message": "093", "description": "Service inactive"},
            {"message": "094", "description": "Invalid plan code"},
            {"message": "095", "description": "Inactive issuer"},
            {"message": "096", "description": "Inactive plan"},
            {"message": "097", "description": "Operation not allowed for service"},
            {"message": "098", "description": "Invalid or expired call_id"},
            {"message": "099", "description": "Failed to execute service"},
            {"message": "100", "description": "Invalid expiry date"},
            {"message": "102", "description": "Apple Pay order has been expired"},
            {"message": "110", "description": "Contradicting parameters"},
            {"message": "111", "description": "Service not applicable for payment option"},
            {"message": "112", "description": "Service not applicable for payment operation"},
            {"message": "113", "description": "Service not applicable for e-commerce indicator"},
            {"message": "114", "description": "Token already exist"},
            {"message": "118", "description": "Order bounced"},
            {"message": "119", "description": "Request dropped"},
            {"message": "121", "description": "Card number is not verified"},
            {"message": "123", "description": "Maximum number of attempts exceeded"},
            {"message": "151", "description": "3ds_id does not exist"},
            {"message": "152", "description": "3DS verification does not match the request details"},
            {"message": "662", "description": "Operation not allowed; the order is not confirmed yet"},
            {"message": "666", "description": "Transaction declined"},
            {"message": "773", "description": "Transaction closed"},
            {"message": "777", "description": "Processed, but confirmation was not received"},
            {"message": "778", "description": "Session timed out"}
          ]
        }
        """#

    /// The bytes of `Vectors/gateways/mastercard-recommendations.json`.
    static let mastercardRecommendationsJSON: String = #"""
        {
          "gateway": "mastercard",
          "source": {"document": "Mastercard Gateway API reference: Authenticate Payer / Initiate Authentication response, field response.gatewayRecommendation", "url": "https://na.gateway.mastercard.com/api/documentation/integrationGuidelines/supportedFeatures/pickAdditionalFunctionality/authentication/3DS/integrationModelAPI.html", "section": "Step 2: Authenticate Payer response (gateway recommendation); values by API version"},
          "notes": "Values the mobile SDK's authentication result carries. Before API version 70 the gateway answers PROCEED or DO_NOT_PROCEED; from version 70 it answers PROCEED, RESUBMIT_WITH_ALTERNATIVE_PAYMENT_DETAILS or DO_NOT_PROCEED_ABANDON_ORDER. Anything else is treated as do-not-proceed (fail closed).",
          "recommendations": [
            {"value": "PROCEED", "proceed": true, "action": "proceed", "minApiVersion": 1},
            {"value": "DO_NOT_PROCEED", "proceed": false, "action": "doNotProceed", "minApiVersion": 1, "maxApiVersion": 69},
            {"value": "RESUBMIT_WITH_ALTERNATIVE_PAYMENT_DETAILS", "proceed": false, "action": "resubmitWithAlternativePaymentDetails", "minApiVersion": 70},
            {"value": "DO_NOT_PROCEED_ABANDON_ORDER", "proceed": false, "action": "abandonOrder", "minApiVersion": 70}
          ]
        }
        """#
}
