public import CSECore
public import CSEValidation

extension IINDetails {
    /// Decodes a Client API `getIINdetails` response (research note §1.4) into the same
    /// ``IINDetails`` the local IIN tables return, so a caller can use either source.
    ///
    /// The status is derived as the Worldline Swift and Android SDKs derive it (the platform sends
    /// none): a `paymentProductId` with `isAllowedInContext` `true` is ``IINStatus/supported``;
    /// with `false` **or absent** it is ``IINStatus/existingButNotAllowed`` (WL-JS 4 says
    /// supported when absent; see docs/COMPATIBILITY.md); no `paymentProductId` is
    /// ``IINStatus/unknown``. Ids are integers or strings; unknown members (`cardScheme`,
    /// `panLengthMin`, a bridge's `status`) are ignored.
    /// - Throws: ``CSEError/Code/clientAPIMalformedResponse``.
    public init(clientAPIJSON json: some Collection<UInt8>) throws(CSEError) {
        let reader = ResponseReader(endpoint: "getIINdetails")
        let object = try reader.object(try reader.parse(json), member: "response")
        guard let productID = try reader.identifier(object, "paymentProductId") else {
            self = .unknown
            return
        }
        var coBrands: [IINCoBrand] = []
        for element in try reader.optionalArray(object, "coBrands") ?? [] {
            let coBrand = try reader.object(element, member: "coBrands")
            coBrands.append(
                IINCoBrand(
                    productID: try reader.requiredIdentifier(coBrand, "paymentProductId"),
                    isAllowedInContext: try reader.bool(coBrand, "isAllowedInContext", default: false),
                    cardType: try reader.optionalString(coBrand, "cardType").map(CardType.init(rawValue:))))
        }
        self.init(
            productID: productID, isAllowedInContext: try reader.bool(object, "isAllowedInContext", default: false),
            countryCode: try reader.optionalString(object, "countryCode"),
            cardType: try reader.optionalString(object, "cardType").map(CardType.init(rawValue:)),
            issuer: nil, coBrands: coBrands)
    }

    /// The details with the platform's member names: `status`, `paymentProductId`,
    /// `countryCode`, `isAllowedInContext`, `cardType`, `coBrands` (absent members left out).
    package var clientAPIJSONValue: JSONValue {
        var object = JSONObject([("status", .string(status.rawValue))])
        if let productID { object["paymentProductId"] = .string(productID) }
        if let countryCode { object["countryCode"] = .string(countryCode) }
        if productID != nil { object["isAllowedInContext"] = .bool(isAllowedInContext) }
        if let cardType { object["cardType"] = .string(cardType.rawValue) }
        if !coBrands.isEmpty {
            object["coBrands"] = .array(
                coBrands.map { coBrand in
                    var entry = JSONObject([
                        ("paymentProductId", .string(coBrand.productID)),
                        ("isAllowedInContext", .bool(coBrand.isAllowedInContext)),
                    ])
                    if let type = coBrand.cardType { entry["cardType"] = .string(type.rawValue) }
                    return .object(entry)
                })
        }
        return .object(object)
    }
}
