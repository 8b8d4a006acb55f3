import CSECore
import CSEPayments
import CSEValidation

/// The JSON shapes `cse` prints, written with `JSONWriter` so member order is fixed.
enum OutputJSON {
    /// `{"valid":…,"errors":[{"field":…,"code":…,<params in key order>},…]}`, optionally led by
    /// `"line":N`.
    static func validation(_ errors: [FieldValidationError], line: Int? = nil) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        if let line { out.append(contentsOf: "\"line\":\(line),".utf8) }
        out.append(contentsOf: "\"valid\":\(errors.isEmpty),\"errors\":[".utf8)
        for (index, error) in errors.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"field":"#.utf8)
            JSONWriter.appendString(error.fieldID, to: &out)
            out.append(contentsOf: #","code":"#.utf8)
            JSONWriter.appendString(error.code.rawValue, to: &out)
            appendParameters(error.parameters, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: "]}".utf8)
        return out
    }

    /// `,"key":value` for each parameter in key order (numbers, strings or string arrays).
    static func appendParameters(_ parameters: [String: ValidationParameter], to out: inout [UInt8]) {
        for (key, value) in parameters.sorted(by: { $0.key < $1.key }) {
            out.append(UInt8(ascii: ","))
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
