import CSECore
import CSEPayments
import CSEValidation
import Testing

@Suite("product JSON (reference §5)")
struct ProductDecodingTests {
    @Test("the Worldline card fixture decodes with every display hint")
    func worldlineFixture() throws {
        let p = try product(Fixtures.worldlineCard)
        #expect(p.id == "1")
        #expect(p.paymentMethod == "card")
        #expect(p.paymentProductGroup == "cards")
        #expect(p.allowsRecurring && p.allowsTokenization && !p.usesRedirectionTo3rdParty)
        #expect(
            p.displayHints == [
                PaymentItemDisplayHints(
                    displayOrder: 20, label: "Visa",
                    logo: "/templates/master/global/css/img/ppimages/pp_logo_1_v1.png")
            ])
        #expect(p.fields.map(\.id) == ["cardNumber", "expiryDate", "cvv"])
        let cvv = try #require(p.field("cvv"))
        #expect(cvv.type == "numericstring")
        #expect(
            cvv.displayHints
                == FieldDisplayHints(
                    displayOrder: 24, formElementType: .text, mask: "{{9999}}", obfuscate: false, label: "CVV:",
                    placeholderLabel: "123", preferredInputType: .integerKeyboard, alwaysShow: true,
                    tooltip: "The CVV is a 3 or 4 digit code embossed or imprinted on your card."))
        #expect(!cvv.dataRestrictions.isRequired)
        #expect(cvv.dataRestrictions.validators.map(\.key) == ["length", "regularExpression"])
        #expect(p.field("cardNumber")?.dataRestrictions.isRequired == true)
        #expect(p.unknownValidators.isEmpty)
    }

    @Test("accounts on file: ids as strings, statuses, the label from the relaxed mask")
    func accountOnFile() throws {
        let aof = try #require(try product(Fixtures.worldlineCard).accountsOnFile.first)
        #expect(aof.id == "0")
        #expect(aof.paymentProductID == "1")
        #expect(aof.attributes.map(\.status) == [.mustWrite, .readOnly, .readOnly, .canWrite])
        #expect(aof.labelTemplate.map(\.attributeKey) == ["cardNumber", "cardholderName"])
        #expect(aof.label == "**** **** **** 7988")
    }

    @Test("the label template gives 4012 XXXX XXXX 0026 for 4012XXXXXXXX0026 (reference §3)")
    func labelTemplate() throws {
        let aof =
            #"[{"id": "a1", "attributes": [{"key": "cardNumber", "value": "4012XXXXXXXX0026", "status": "READ_ONLY"}],"#
            + #" "displayHints": {"labelTemplate": [{"attributeKey": "cardNumber", "mask": "{{9999}} {{9999}} {{9999}} {{9999}}"}]}}]"#
        let p = try product(Fixtures.product(fields: #"{"id": "cardNumber"}"#, accountsOnFile: aof))
        #expect(p.accountOnFile("a1")?.label == "4012 XXXX XXXX 0026")
    }

    @Test(
        "the label template is also read from displayHintsList, object or array (reference bug §9.9)",
        arguments: [
            #"{"labelTemplate": [{"attributeKey": "cardNumber", "mask": "{{9999}} {{9999}} {{9999}} {{9999}}"}]}"#,
            #"[{"logo": "x.png"}, {"labelTemplate": [{"attributeKey": "cardNumber", "mask": "{{9999}} {{9999}} {{9999}} {{9999}}"}]}]"#,
        ])
    func labelTemplateFromList(hints: String) throws {
        let aof =
            #"[{"id": 7, "attributes": [{"key": "cardNumber", "value": "4012XXXXXXXX0026", "status": "READ_ONLY"}], "displayHintsList": \#(hints)}]"#
        let p = try product(Fixtures.product(fields: #"{"id": "cardNumber"}"#, accountsOnFile: aof))
        #expect(p.accountOnFile("7")?.label == "4012 XXXX XXXX 0026")
    }

    @Test("an unknown attribute status reads as READ_ONLY; a missing one too")
    func unknownStatus() throws {
        let aof = #"[{"id": 1, "attributes": [{"key": "a", "status": "SOMETIMES"}, {"key": "b"}]}]"#
        let p = try product(Fixtures.product(fields: #"{"id": "a"}"#, accountsOnFile: aof))
        #expect(p.accountsOnFile[0].attributes.map(\.status) == [.readOnly, .readOnly])
    }

    @Test("product and account ids may be integers or strings")
    func identifiers() throws {
        #expect(try product(Fixtures.product(fields: "", id: "302")).id == "302")
        #expect(try product(Fixtures.product(fields: "", id: #""abc""#)).id == "abc")
        for bad in ["1.5", "true", #""""#, "null", "[]"] {
            let error = caught { () throws(CSEError) in try PaymentProduct(json: Fixtures.product(fields: "", id: bad)) }
            #expect(error?.code == .productMalformed, "id \(bad)")
        }
    }

    @Test("fields are in display order; equal display orders keep JSON order")
    func fieldOrder() throws {
        let fields = [("c", 30), ("a", 10), ("b2", 20), ("b1", 20)]
            .map { #"{"id": "\#($0.0)", "displayHints": {"displayOrder": \#($0.1)}}"# }.joined(separator: ",")
        let p = try product(Fixtures.product(fields: fields))
        #expect(p.fields.map(\.id) == ["a", "b2", "b1", "c"])
        #expect(p.validationPlan.fields.map(\.id) == ["a", "b2", "b1", "c"])
    }

    @Test("the validationRules array form decodes like the validators object")
    func validationRulesArray() throws {
        let field =
            #"{"id": "n", "dataRestrictions": {"validationRules": [{"validationType": "LENGTH", "minLength": 2, "maxLength": 3},"#
            + #" {"validationType": "REGULAREXPRESSION", "regex": "^[0-9]+$"}, {"validationType": "REQUIRED"}, {"validationType": "TYPE", "type": "numericstring"}]}}"#
        let p = try product(Fixtures.product(fields: field))
        let restrictions = try #require(p.field("n")?.dataRestrictions)
        #expect(restrictions.isRequired)
        #expect(restrictions.validators.map(\.key) == ["length", "regularExpression", "required", "TYPE"])
        #expect(restrictions.unknownValidators == ["TYPE"])
        var request = PaymentRequest(product: p)
        #expect(codes(request.validate(in: fixedContext())) == ["n:required"])
        try request.setValue("12a4", forField: "n")
        #expect(codes(request.validate(in: fixedContext())) == ["n:length", "n:regularExpression"])
        try request.setValue("123", forField: "n")
        #expect(request.validate(in: fixedContext()).isEmpty)
    }

    @Test("unknown validator keys are kept with their parameters and reported, never dropped")
    func unknownValidators() throws {
        let field = #"{"id": "x", "dataRestrictions": {"validators": {"luhn": {}, "fancyCheck": {"level": 3}, "cardHolderScore": {}}}}"#
        let p = try product(Fixtures.product(fields: field))
        #expect(p.field("x")?.unknownValidators == ["fancyCheck", "cardHolderScore"])
        #expect(p.validationPlan.field("x")?.unknownValidators == ["fancyCheck", "cardHolderScore"])
        #expect(p.unknownValidators.map { "\($0.fieldID).\($0.key)" } == ["x.fancyCheck", "x.cardHolderScore"])
        let kept = try #require(p.field("x")?.dataRestrictions.validators.first { $0.key == "fancyCheck" })
        #expect(kept.parameters["level"] == .number("3"))
        #expect(p.validationPlan.field("x")?.validators.map(\.code) == [.luhn])
    }

    @Test("rules run in the fixed Worldline order whatever the JSON order")
    func ruleOrder() throws {
        let field =
            #"{"id": "x", "dataRestrictions": {"validators": {"length": {"minLength": 1, "maxLength": 2}, "luhn": {}, "expirationDate": {}, "regularExpression": {"regularExpression": "z"}}}}"#
        let p = try product(Fixtures.product(fields: field))
        #expect(p.validationPlan.field("x")?.validators.map(\.code) == [.luhn, .expirationDate, .length, .regularExpression])
    }

    @Test("every known rule compiles, in the one declared run order, and reports its own code (issue #23 point 3)")
    func everyKnownRuleCompiles() throws {
        // The JSON lists the rules in reverse: the plan must follow the declared order.
        let parameters: [String: String] = [
            "range": #"{"minValue": 1, "maxValue": 9}"#, "length": #"{"minLength": 1, "maxLength": 9}"#,
            "fixedList": #"{"allowedValues": ["a"]}"#, "regularExpression": #"{"regularExpression": "a"}"#,
            "boletoBancarioRequiredness": #"{"fiscalNumberLength": 11}"#,
        ]
        let rules = ValidatorDefinition.knownKeys.filter { $0 != "required" }
        #expect(
            rules == [
                "luhn", "expirationDate", "range", "length", "fixedList", "emailAddress", "regularExpression",
                "termsAndConditions", "iban", "residentIdNumber", "boletoBancarioRequiredness",
            ])
        #expect(ValidatorDefinition.knownKeys.last == "required")
        let members = rules.reversed().map { #""\#($0)": \#(parameters[$0] ?? "{}")"# }.joined(separator: ", ")
        let p = try product(Fixtures.product(fields: #"{"id": "x", "dataRestrictions": {"validators": {\#(members)}}}"#))
        #expect(p.validationPlan.field("x")?.validators.map(\.code.rawValue) == rules)
        #expect(p.validationPlan.field("x")?.unknownValidators == [])
    }

    @Test("an invalid or missing regular expression is a load error naming the product and field")
    func invalidRegex() {
        for params in [#"{"regularExpression": "([0-9]"}"#, #"{"regularExpression": "a{2,1}"}"#, "{}"] {
            let field = #"{"id": "iban", "dataRestrictions": {"validators": {"regularExpression": \#(params)}}}"#
            let error = caught { () throws(CSEError) in try PaymentProduct(json: Fixtures.product(fields: field)) }
            #expect(error?.code == .productInvalidRegex, "params \(params)")
            #expect(error?.context["product"] == "p1" && error?.context["field"] == "iban", "params \(params)")
        }
    }

    @Test("an invalid field or label-template mask is a load error naming where it is")
    func invalidMask() {
        let field = caught { () throws(CSEError) in
            try PaymentProduct(json: Fixtures.product(fields: #"{"id": "cvv", "displayHints": {"mask": "{{99X}}"}}"#))
        }
        #expect(field?.code == .productInvalidMask)
        #expect(field?.context["field"] == "cvv" && field?.context["product"] == "p1")
        #expect(field?.underlying?.code == .maskInvalidPlaceholder)
        let aof = #"[{"id": 5, "attributes": [], "displayHints": {"labelTemplate": [{"attributeKey": "cardNumber", "mask": "{{99"}]}}]"#
        let label = caught { () throws(CSEError) in try PaymentProduct(json: Fixtures.product(fields: "", accountsOnFile: aof)) }
        #expect(label?.code == .productInvalidMask)
        #expect(label?.context["accountOnFile"] == "5" && label?.context["attribute"] == "cardNumber")
    }

    @Test(
        "wrong JSON types and duplicate fields are malformed, with the member named",
        arguments: [
            (#"{"id": "a", "displayHints": {"displayOrder": "1"}}"#, "displayOrder"),
            (#"{"id": "a", "displayHints": {"obfuscate": 1}}"#, "obfuscate"),
            (#"{"id": "a", "dataRestrictions": {"isRequired": "yes"}}"#, "isRequired"),
            (#"{"id": "a", "dataRestrictions": {"validators": {"length": {"minLength": "2"}}}}"#, "minLength"),
            (#"{"id": "a", "dataRestrictions": {"validators": {"luhn": true}}}"#, "validators.luhn"),
            (#"{"id": "a", "dataRestrictions": {"validators": {"fixedList": {"allowedValues": [1]}}}}"#, "allowedValues"),
            (#"{"id": "a", "dataRestrictions": {"validators": {"boletoBancarioRequiredness": {}}}}"#, "fiscalNumberLength"),
            (#"{"id": "a", "dataRestrictions": {"validationRules": [{"minLength": 1}]}}"#, "validationType"),
            (#"{"id": "a"}, {"id": "a"}"#, "fields.id"),
            (#"{"type": "string"}"#, "id"),
            (#"{"id": ""}"#, "fields.id"),
        ])
    func malformed(fields: String, member: String) {
        let error = caught { () throws(CSEError) in try PaymentProduct(json: Fixtures.product(fields: fields)) }
        #expect(error?.code == .productMalformed, "case \(member)")
        #expect(error?.context["member"] == member, "case \(member)")
    }

    @Test("non-object documents and a missing id are malformed; broken JSON keeps its json code")
    func documentShape() {
        for text in ["[]", "42", #"{"fields": []}"#] {
            #expect(caught { () throws(CSEError) in try PaymentProduct(json: text) }?.code == .productMalformed, "case \(text)")
        }
        #expect(caught { () throws(CSEError) in try PaymentProduct(json: "{\"id\": 1,}") }?.code == .jsonSyntax)
    }

    @Test("Worldline post-processing: expiryDate list → text and default mask; cardNumber default masks (reference §1.5)")
    func fixups() throws {
        let fields =
            #"{"id": "expiryDate", "displayHints": {"formElement": {"type": "list"}}}, {"id": "cardNumber"}, {"id": "other", "displayHints": {"formElement": {"type": "list"}}}"#
        let p = try product(Fixtures.product(fields: fields))
        #expect(p.field("expiryDate")?.displayHints.mask == "{{99}}/{{99}}")
        #expect(p.field("expiryDate")?.displayHints.formElementType == .text)
        #expect(p.field("cardNumber")?.displayHints.mask == "{{9999}} {{9999}} {{9999}} {{9999}}")
        #expect(p.field("other")?.displayHints.formElementType == .list)
        #expect(p.field("other")?.displayHints.mask == nil)
        let amex = try product(Fixtures.product(fields: #"{"id": "cardNumber"}"#, id: "2"))
        #expect(amex.field("cardNumber")?.displayHints.mask == "{{9999}} {{999999}} {{99999}}")
        let kept = try product(Fixtures.product(fields: #"{"id": "expiryDate", "displayHints": {"mask": "{{99}}-{{9999}}"}}"#))
        #expect(kept.field("expiryDate")?.displayHints.mask == "{{99}}-{{9999}}")
    }

    @Test("Apple Pay style fields with an empty validators array load")
    func emptyValidatorsArray() throws {
        let p = try product(
            Fixtures.product(fields: #"{"id": "encryptedPaymentData", "dataRestrictions": {"isRequired": true, "validators": []}}"#))
        #expect(p.field("encryptedPaymentData")?.dataRestrictions.validators.isEmpty == true)
    }
}
