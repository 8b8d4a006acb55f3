import CSEClientAPI
import CSECore
import CSEPayments
import CSEValidation
import Testing

@Suite(
    "Client API models: the SDKs' fixtures decode to what their tests assert",
    .enabled(if: ClientAPIFixtures.available, ClientAPIFixtures.skipReason))
struct ModelDecodingTests {
    @Test("the Android product list: 35 products, display hints from displayHints, wallet data")
    func androidProductList() throws {
        let list = try BasicPaymentProducts(json: try ClientAPIFixtures.bytes("wl-sdk-client-android/paymentProducts.json"))
        #expect(list.paymentProducts.count == 35)
        let visa = try #require(list.product(id: "1"))
        #expect(visa.paymentMethod == "card")
        #expect(visa.paymentProductGroup == "Cards")
        #expect(visa.displayHints.first?.label == "VISA")
        #expect(visa.displayHints.first?.displayOrder == 33)
        let googlePay = try #require(list.product(id: "320"))
        #expect(googlePay.paymentProduct320SpecificData?.gateway != nil)
        #expect(list.product(id: "302")?.paymentProduct302SpecificData?.networks.isEmpty == false)
    }

    @Test("string ids and accounts on file (Android basicPaymentProducts.json: 3 accounts on product 1)")
    func accountsOnFile() throws {
        let list = try BasicPaymentProducts(json: try ClientAPIFixtures.bytes("wl-sdk-client-android/basicPaymentProducts.json"))
        let first = try #require(list.product(id: "1"))
        #expect(first.accountsOnFile.count == 3)
        #expect(first.allowsInstallments == false || first.allowsInstallments == true)
        #expect(list.accountsOnFile.count == 3)
    }

    @Test("the Swift list decodes without paymentMethod (WL-Swift fixture, 24 products)")
    func swiftProductList() throws {
        let list = try BasicPaymentProducts(json: try ClientAPIFixtures.bytes("wl-sdk-client-swift/paymentProducts.json"))
        #expect(list.paymentProducts.count == 24)
        #expect(list.product(id: "1")?.accountsOnFile.count == 1)
        #expect(list.product(id: "1")?.paymentMethod == nil)
    }

    @Test("the product rules drop 117, 5700, 5772, 5784 and the wallets; a predicate can keep a wallet")
    func rules() throws {
        let list = try BasicPaymentProducts(json: try ClientAPIFixtures.bytes("wl-sdk-client-android/paymentProducts.json"))
        let filtered = ProductRules.default.filter(list)
        #expect(filtered.paymentProducts.count == 35 - 6)
        for id in ["117", "5700", "5772", "5784", "302", "320"] { #expect(filtered.product(id: id) == nil, "\(id)") }
        #expect(
            filtered.paymentProducts.map(\.id)
                == list.paymentProducts.map(\.id).filter {
                    !["117", "5700", "5772", "5784", "302", "320"].contains($0)
                })
        let applePay = ProductRules(isWalletAvailable: { $0.productID == "302" && !$0.networks.isEmpty }).filter(list)
        #expect(applePay.product(id: "302") != nil)
        #expect(applePay.product(id: "320") == nil)
    }

    @Test("asking for an unsupported product is a clear error", arguments: ["117", "5700", "5772", "5784"])
    func unsupported(id: String) {
        #expect(throws: CSEError(.clientAPIProductUnavailable, "")) { try ProductRules.default.checkRequestable(productID: id) }
    }

    @Test("product ids with path characters are refused", arguments: ["", "../1", "1/networks", "1?x", String(repeating: "9", count: 65)])
    func badProductIDs(id: String) {
        #expect(throws: CSEError(.clientAPIInvalidArgument, "")) { try ProductRules.default.checkRequestable(productID: id) }
    }

    @Test(
        "IIN statuses as the SDKs' tests assert them",
        arguments: [
            ("wl-sdk-client-android/iinDetailsResponse.json", "SUPPORTED", "1", 0),
            ("wl-sdk-client-android/normalIINResponseVisa.json", "SUPPORTED", "1", 2),
            ("wl-sdk-client-android/normalIINResponseMC.json", "SUPPORTED", "3", 2),
            ("wl-sdk-client-android/normalIINResponseVisaNoCoBrand.json", "SUPPORTED", "1", 0),
            ("wl-sdk-client-android/minimalIINResponseVisa.json", "EXISTING_BUT_NOT_ALLOWED", "1", 0),
            ("wl-sdk-client-android/minimalIINResponseMC.json", "EXISTING_BUT_NOT_ALLOWED", "3", 0),
            ("inline-transcribed/wl-swift__iin_supported.json", "SUPPORTED", "3", 0),
            ("inline-transcribed/wl-swift__iin_missing_isAllowedInContext.json", "EXISTING_BUT_NOT_ALLOWED", "3", 0),
            ("wl-sdk-client-flutter/iin_details_response.json", "SUPPORTED", "3", 2),
        ])
    func iinStatus(file: String, status: String, product: String, coBrands: Int) throws {
        let details = try IINDetails(clientAPIJSON: try ClientAPIFixtures.bytes(file))
        #expect(details.status.rawValue == status)
        #expect(details.productID == product)
        #expect(details.coBrands.count == coBrands)
    }

    @Test("IIN co-brands keep their own allowance and card type (Flutter: 119 Prepaid not allowed)")
    func coBrands() throws {
        let details = try IINDetails(clientAPIJSON: try ClientAPIFixtures.bytes("wl-sdk-client-flutter/iin_details_response.json"))
        #expect(details.coBrands.map(\.productID) == ["3", "119"])
        #expect(details.coBrands.map(\.isAllowedInContext) == [true, false])
        #expect(details.coBrands.last?.cardType == .prepaid)
        #expect(details.cardType == .credit)
        #expect(details.countryCode == "US")
    }

    @Test("an empty IIN body is unknown; a mistyped one is malformed")
    func iinEdges() {
        #expect((try? IINDetails(clientAPIJSON: Array("{}".utf8)))?.status == .unknown)
        #expect(throws: CSEError(.clientAPIMalformedResponse, "")) {
            try IINDetails(clientAPIJSON: Array(#"{"paymentProductId":1,"isAllowedInContext":"yes"}"#.utf8))
        }
        #expect(throws: CSEError(.clientAPIMalformedResponse, "")) { try IINDetails(clientAPIJSON: Array("[".utf8)) }
    }

    @Test("ApiError: numeric and string errorCode, SDK defaults for message and retriable")
    func apiErrors() throws {
        let numeric = try APIError(json: try ClientAPIFixtures.bytes("wl-sdk-client-android/apiError400.json"))
        #expect(numeric.errorID == "15eabcd5-30b3-479b-ae03-67bb351c07e6-00000092")
        #expect(numeric.errors.first?.errorCode == "50001130")
        #expect(numeric.errors.first?.code == "50001130")
        #expect(numeric.errors.first?.id == "UNKNOWN_PAYMENT_ID")
        #expect(numeric.errors.first?.propertyName == "paymentId")
        #expect(numeric.errors.first?.httpStatusCode == 400)
        let minimal = try APIErrorItem(
            jsonValue: try JSONValue.parse(try ClientAPIFixtures.bytes("wl-sdk-client-android/apiErrorItemMissingOptionalProperties.json")))
        #expect(minimal.message == "This error does not contain a message")
        #expect(minimal.retriable)
        let complete = try APIErrorItem(
            jsonValue: try JSONValue.parse(try ClientAPIFixtures.bytes("wl-sdk-client-android/apiErrorItemComplete.json")))
        #expect(!complete.retriable)
        #expect(complete.category == "PAYMENT_PLATFORM_ERROR")
        let notFound = try APIError(json: try ClientAPIFixtures.bytes("wl-sdk-client-android/iinDetailsNotFound.json"))
        #expect(
            notFound.context == [
                "errorId": "62c1bdb7-b3b7-443b-a665-5e41eaf85063", "errorCode": "50001111",
                "id": "IIN_NOT_FOUND", "propertyName": "bin", "retriable": "false",
            ])
    }

    @Test("an error token that could be a card number is redacted in the context")
    func apiErrorHygiene() throws {
        let body = #"{"errorId":"4111 1111 1111 1111","errors":[{"errorCode":"4111111111111111","id":"x"}]}"#
        let context = try APIError(json: Array(body.utf8)).context
        #expect(!context.values.joined().contains("1111 1111"))
        #expect(!context.values.joined().contains("4111111111111111"))
    }

    @Test("DCC: Allowed with a proposal, NoRate with an empty one; rates keep their decimal text")
    func dcc() throws {
        let allowed = try CurrencyConversionResponse(
            json: try ClientAPIFixtures.bytes("wl-sdk-client-android/currencyConversionSuccess.json"))
        #expect(allowed.dccSessionID == "5cd02469177743fb8a0b2c78937ee25f")
        #expect(allowed.result == "Allowed")
        #expect(allowed.proposal?.exchangeRate == "1.57")
        #expect(allowed.proposal?.invertedExchangeRate == "0.63694")
        #expect(allowed.proposal?.baseAmount?.amount == 1000)
        #expect(allowed.proposal?.source == "European Central Bank")
        let noRate = try CurrencyConversionResponse(
            json: try ClientAPIFixtures.bytes("wl-sdk-client-android/currencyConversionNoRate.json"))
        #expect(noRate.result == "NoRate")
        #expect(noRate.proposal?.baseAmount == nil)
    }

    @Test("surcharges: OK with a rate, NO_SURCHARGE without (Android and Flutter fixtures)")
    func surcharges() throws {
        let with = try SurchargeCalculationResponse(json: try ClientAPIFixtures.bytes("wl-sdk-client-android/scWithSurcharge.json"))
        #expect(with.surcharges.count == 1)
        #expect(with.surcharges[0].paymentProductID == "1")
        #expect(with.surcharges[0].result == "OK")
        #expect(with.surcharges[0].totalAmount.amount == 1366)
        #expect(with.surcharges[0].surchargeRate?.adValoremRate == "3.3")
        #expect(with.surcharges[0].surchargeRate?.specificRate == "333")
        let without = try SurchargeCalculationResponse(json: try ClientAPIFixtures.bytes("wl-sdk-client-android/scWithNoSurcharge.json"))
        #expect(without.surcharges[0].result == "NO_SURCHARGE")
        #expect(without.surcharges[0].surchargeRate == nil)
        let flutter = try SurchargeCalculationResponse(
            json: try ClientAPIFixtures.bytes("wl-sdk-client-flutter/surcharge_calculation_response_with_surcharge.json"))
        #expect(!flutter.surcharges.isEmpty)
    }

    @Test("networks")
    func networks() throws {
        #expect(
            try PaymentProductNetworks(json: try ClientAPIFixtures.bytes("wl-sdk-client-android/paymentProductNetworks.json")).networks
                == ["CB", "Eurocard", "VISA"])
        #expect(
            try PaymentProductNetworks(json: try ClientAPIFixtures.bytes("inline-transcribed/wl-swift__networks_applepay.json")).networks
                .count == 4)
    }

    @Test("the card products load as full PaymentProducts: fields by display order, SDK defaults")
    func products() throws {
        for file in [
            "wl-sdk-client-android/paymentProductVisa.json", "wl-sdk-client-android/paymentProductAmEx.json",
            "wl-sdk-client-android/paymentProductDinersClub.json", "wl-sdk-client-android/cardPaymentProduct.json",
            "wl-sdk-client-flutter/payment_product_response.json", "wl-sdk-client-swift/paymentProduct.json",
        ] {
            let product = try PaymentProduct(json: try ClientAPIFixtures.bytes(file))
            let orders = product.fields.map(\.displayHints.displayOrder)
            #expect(orders == orders.sorted(), "\(file)")
            #expect(product.field("cardNumber")?.displayHints.mask != nil, "\(file)")
        }
    }
}
