// Fuzz target `gateway`: the gateway parameter-spec engine. Input: `selector json`.
// - selector 0: the bytes are a spec table (GatewaySpec(table:)); a table that loads validates
//   an empty request and a request made of its own parameter names;
// - otherwise the bytes are a request validated against an embedded spec (APS SDK_TOKEN,
//   AUTHORIZATION, PURCHASE; Paysafe setup, tokenize; Mastercard updateSession), and signed and
//   verified with an APS phrase.
// Invariants: errors name known or unknown parameters only and never carry a card-like value;
// GatewayMap's canonical JSON round-trips byte for byte; a fresh signature verifies.
import CSECore
import CSEGateways
import CSEValidation

let gatewayDomains: Set<Substring> = ["json", "gateway", "gatewayMap", "aps", "paysafe", "mastercard", "digest"]

func requireGatewayCode(_ error: CSEError) {
    let domain = error.code.rawValue.split(separator: ".").first ?? ""
    require(gatewayDomains.contains(domain), "unexpected code \(error.code)")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGateway(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let selector = input.byte()
    let bytes = input.rest()
    let json: JSONValue
    do throws(CSEError) {
        json = try JSONValue.parse(bytes)
    } catch {
        requireGatewayCode(error)
        return 0
    }
    if selector % 8 == 0 {
        checkTable(json)
    } else {
        checkRequest(json, selector: selector)
    }
    return 0
}

func checkTable(_ json: JSONValue) {
    let spec: GatewaySpec
    do throws(CSEError) {
        spec = try GatewaySpec(table: json)
    } catch {
        requireGatewayCode(error)
        return
    }
    _ = spec.validate(GatewayMap())
    var request = GatewayMap()
    for parameter in spec.parameters.prefix(32) {
        _ = try? request.set(String(repeating: "9", count: 3), at: parameter.name)
    }
    _ = spec.validate(request)
}

func checkRequest(_ json: JSONValue, selector: UInt8) {
    let map: GatewayMap
    do throws(CSEError) {
        map = try GatewayMap(json: json)
    } catch {
        requireGatewayCode(error)
        return
    }
    guard let reparsed = try? GatewayMap(parsing: map.serializedBytes) else {
        require(false, "canonical JSON does not reparse"); return
    }
    require(reparsed.serializedBytes == map.serializedBytes, "canonical JSON is not stable")
    let result: GatewayValidationResult
    do throws(CSEError) {
        switch selector % 8 {
        case 1: result = try APSValidation.validate(json, operation: .apsSDKToken)
        case 2: result = try APSValidation.validate(json, operation: .apsAuthorization)
        case 3: result = try APSValidation.validate(json, operation: .apsPurchase)
        case 4: result = try PaysafeValidation.validateSetup(json)
        case 5: result = try PaysafeValidation.validateTokenize(json, partnerSharedKey: selector & 0x80 != 0)
        case 6: result = try MastercardValidation.validateUpdateSession(json)
        default:
            checkSignature(map)
            return
        }
    } catch {
        requireGatewayCode(error)
        return
    }
    let cardLike = map.leaves.compactMap { $0.value.stringValue }.filter { $0.count >= 12 && $0.allSatisfy(\.isNumber) }
    for error in result.errors {
        for value in cardLike where !error.field.contains(value) {
            require(!error.description.contains(value), "an error carries a request value")
        }
    }
    if selector % 8 == 5 { _ = PaysafeValidation.paysafeErrors(of: result, correlationID: "fuzz") }
}

func checkSignature(_ map: GatewayMap) {
    for algorithm in [APSSignatureAlgorithm.sha256, .sha512] {
        do throws(CSEError) {
            let signature = try APSSignature.sign(map.root, phrase: "fuzz-phrase", algorithm: algorithm)
            let verifies = try APSSignature.isValid(signature, for: map.root, phrase: "fuzz-phrase", algorithm: algorithm)
            require(verifies, "a fresh signature does not verify")
            let forged = try APSSignature.isValid(signature, for: map.root, phrase: "other-phrase", algorithm: algorithm)
            require(!forged, "a signature verifies under another phrase")
        } catch {
            requireGatewayCode(error)
        }
    }
}
