import CSECore
import CSEGateways
import CSEPayments
import CSEValidation

/// The JSON shapes `cse` prints, written with `JSONWriter` so member order is fixed.
enum OutputJSON {
    /// The one validation report of `cse validate`, for products and gateways:
    /// `{["line":N,]"valid":…,"errors":[…]}`. Each issue is `{"field":…,"code":…,…}`: a product
    /// issue's parameters follow as members in key order; a gateway issue's go under
    /// `"limits":{…}` (when there are any), and with a `correlationID` (an invalid Paysafe result)
    /// an issue with a gateway code carries Paysafe's own error object
    /// `"paysafe":{"code","displayMessage","detailedMessage","correlationId"}`.
    static func validation(_ issues: [FieldIssue], line: Int? = nil, correlationID: String? = nil) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        if let line { out.append(contentsOf: "\"line\":\(line),".utf8) }
        out.append(contentsOf: "\"valid\":\(issues.isEmpty),\"errors\":[".utf8)
        for (index, issue) in issues.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"field":"#.utf8)
            JSONWriter.appendString(issue.field, to: &out)
            out.append(contentsOf: #","code":"#.utf8)
            JSONWriter.appendString(issue.code.rawValue, to: &out)
            switch issue.origin {
            case .product:
                appendParameters(issue.parameters, to: &out)
            case .gateway(let gatewayCode):
                if !issue.parameters.isEmpty {
                    out.append(contentsOf: #","limits":{"#.utf8)
                    appendParameters(issue.parameters, to: &out, leadingComma: false)
                    out.append(UInt8(ascii: "}"))
                }
                if let correlationID, let gatewayCode {
                    let error = PaysafeError(code: gatewayCode, correlationID: correlationID)
                    var paysafe = JSONObjectWriter()
                    paysafe.int("code", error.code)
                    paysafe.string("displayMessage", error.displayMessage)
                    paysafe.string("detailedMessage", error.detailedMessage)
                    paysafe.string("correlationId", error.correlationID)
                    out.append(contentsOf: #","paysafe":"#.utf8)
                    out.append(contentsOf: paysafe.finish())
                }
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: "]}".utf8)
        return out
    }

    /// `,"key":value` for each parameter in key order (numbers, strings or string arrays); without
    /// `leadingComma` the first member has no comma before it.
    static func appendParameters(_ parameters: [String: ValidationParameter], to out: inout [UInt8], leadingComma: Bool = true) {
        for (index, (key, value)) in parameters.sorted(by: { $0.key < $1.key }).enumerated() {
            if leadingComma || index > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            switch value {
            case .int(let number): out.append(contentsOf: String(number).utf8)
            case .string(let text): JSONWriter.appendString(text, to: &out)
            case .strings(let list):
                out.append(UInt8(ascii: "["))
                for (i, text) in list.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    JSONWriter.appendString(text, to: &out)
                }
                out.append(UInt8(ascii: "]"))
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
        var out: [UInt8] = Array(#"{"status":"#.utf8)
        JSONWriter.appendString(details.status.rawValue, to: &out)
        out.append(contentsOf: #","productId":"#.utf8)
        appendOptional(details.productID, to: &out)
        out.append(contentsOf: #","isAllowedInContext":"#.utf8)
        out.append(contentsOf: String(details.isAllowedInContext).utf8)
        out.append(contentsOf: #","countryCode":"#.utf8)
        appendOptional(details.countryCode, to: &out)
        out.append(contentsOf: #","cardType":"#.utf8)
        appendOptional(details.cardType?.rawValue, to: &out)
        out.append(contentsOf: #","issuer":"#.utf8)
        appendOptional(details.issuer, to: &out)
        out.append(contentsOf: #","coBrands":["#.utf8)
        for (index, coBrand) in details.coBrands.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"productId":"#.utf8)
            JSONWriter.appendString(coBrand.productID, to: &out)
            out.append(contentsOf: #","isAllowedInContext":"#.utf8)
            out.append(contentsOf: String(coBrand.isAllowedInContext).utf8)
            out.append(contentsOf: #","cardType":"#.utf8)
            appendOptional(coBrand.cardType?.rawValue, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: "]}".utf8)
        return out
    }

    /// A JSON string, or `null`.
    static func appendOptional(_ text: String?, to out: inout [UInt8]) {
        if let text { JSONWriter.appendString(text, to: &out) } else { out.append(contentsOf: "null".utf8) }
    }
}
