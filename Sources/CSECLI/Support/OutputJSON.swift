import CSECore
import CSEGateways
import CSEPayments
import CSEValidation

/// The JSON shapes `cse` prints, written with `JSONObjectWriter` so member order is fixed and
/// nothing is spliced by hand.
enum OutputJSON {
    /// The one validation report of `cse validate`, for products and gateways:
    /// `{["line":N,]"valid":…,"errors":[…]}`. Each issue is `{"field":…,"code":…,…}`: a product
    /// issue's parameters follow as members in key order; a gateway issue's go under
    /// `"limits":{…}` (when there are any), and with a `correlationID` (an invalid Paysafe result)
    /// an issue with a gateway code carries Paysafe's own error object
    /// `"paysafe":{"code","displayMessage","detailedMessage","correlationId"}`.
    static func validation(_ issues: [FieldIssue], line: Int? = nil, correlationID: String? = nil) -> [UInt8] {
        var out = JSONObjectWriter()
        if let line { out.int("line", line) }
        for (name, value) in validationMembers(issues, correlationID: correlationID) { out.serialized(name, value) }
        return out.finish()
    }

    /// The report's `"valid"` and `"errors"` members, serialized (``validation(_:line:correlationID:)``
    /// and `cse demo` print them).
    static func validationMembers(_ issues: [FieldIssue], correlationID: String? = nil) -> [(name: String, value: [UInt8])] {
        let errors = JSONObjectWriter.array(
            issues.map { issue in
                var item = JSONObjectWriter()
                item.string("field", issue.field)
                item.string("code", issue.code.rawValue)
                switch issue.origin {
                case .product:
                    parameters(issue.parameters, into: &item)
                case .gateway(let gatewayCode):
                    if !issue.parameters.isEmpty {
                        var limits = JSONObjectWriter()
                        parameters(issue.parameters, into: &limits)
                        item.serialized("limits", limits.finish())
                    }
                    if let correlationID, let gatewayCode {
                        let error = PaysafeError(code: gatewayCode, correlationID: correlationID)
                        var paysafe = JSONObjectWriter()
                        paysafe.int("code", error.code)
                        paysafe.string("displayMessage", error.displayMessage)
                        paysafe.string("detailedMessage", error.detailedMessage)
                        paysafe.string("correlationId", error.correlationID)
                        item.serialized("paysafe", paysafe.finish())
                    }
                }
                return item.finish()
            })
        return [("valid", Array((issues.isEmpty ? "true" : "false").utf8)), ("errors", errors)]
    }

    /// Each parameter as a member of `object`, in key order (numbers, strings or string arrays).
    static func parameters(_ parameters: [String: ValidationParameter], into object: inout JSONObjectWriter) {
        for (key, value) in parameters.sorted(by: { $0.key < $1.key }) {
            switch value {
            case .int(let number): object.int(key, number)
            case .string(let text): object.string(key, text)
            case .strings(let list): object.strings(key, list)
            }
        }
    }

    /// `{"encryptedCustomerInput":"…","encodedClientMetaInfo":"…"}`.
    static func sealed(_ sealed: SealedPaymentRequest) -> [UInt8] {
        var out = JSONObjectWriter()
        out.string("encryptedCustomerInput", sealed.encryptedCustomerInput)
        out.string("encodedClientMetaInfo", sealed.encodedClientMetaInfo)
        return out.finish()
    }

    /// `{"status":…,"productId":…,"isAllowedInContext":…,"countryCode":…,"cardType":…,
    /// "issuer":…,"coBrands":[{"productId","isAllowedInContext","cardType"}]}`; unknown values
    /// are `null`. No card digit is echoed.
    static func iin(_ details: IINDetails) -> [UInt8] {
        var out = JSONObjectWriter()
        out.string("status", details.status.rawValue)
        out.optionalString("productId", details.productID)
        out.bool("isAllowedInContext", details.isAllowedInContext)
        out.optionalString("countryCode", details.countryCode)
        out.optionalString("cardType", details.cardType?.rawValue)
        out.optionalString("issuer", details.issuer)
        out.array(
            "coBrands",
            details.coBrands.map { coBrand in
                var item = JSONObjectWriter()
                item.string("productId", coBrand.productID)
                item.bool("isAllowedInContext", coBrand.isAllowedInContext)
                item.optionalString("cardType", coBrand.cardType?.rawValue)
                return item.finish()
            })
        return out.finish()
    }
}
