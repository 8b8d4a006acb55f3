// Fuzz target `client-api`: the Client API response decoders (issue #14). Input: one selector
// byte, then a response body. Every decoder must return a value or throw its documented code
// (never trap); and what it returns must keep the invariants the session relies on: the product
// rules never keep 117/5700/5772/5784 or a wallet, a decoded list re-decodes from its own JSON to
// the same list, an IIN answer without a product is UNKNOWN and one with a product is SUPPORTED
// exactly when allowed, an ApiError's context never carries a run of 12 digits (a card number),
// session data never prints its id in full.
import CSEClientAPI
import CSECore
import CSEValidation

let malformed: Set<CSEError.Code> = [.clientAPIMalformedResponse]

func expectCode(_ error: CSEError, _ allowed: Set<CSEError.Code>, _ decoder: String) {
    require(allowed.contains(error.code), "\(decoder): unexpected code \(error.code)")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClientAPI(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let selector = input.byte() % 7
    let body = input.rest()
    switch selector {
    case 0:
        do throws(CSEError) {
            let list = try BasicPaymentProducts(json: body)
            let again = try BasicPaymentProducts(json: list.jsonValue.serializedBytes)
            require(again == list, "products: the list does not re-decode from its own JSON")
            let kept = ProductRules.default.filter(list)
            // Ids compare in their canonical form: "0117" is product 117 (issue #24, point 5).
            func refused(_ id: String) -> Bool {
                let canonical = ProductRules.canonicalID(id)
                return ProductRules.unsupportedProductIDs.contains(canonical) || ProductRules.walletProductIDs.contains(canonical)
            }
            require(!kept.paymentProducts.contains { refused($0.id) }, "products: the rules kept a refused product")
            require(
                kept.paymentProducts.map(\.id) == list.paymentProducts.map(\.id).filter { !refused($0) },
                "products: the rules changed the order or dropped an allowed product")
        } catch { expectCode(error, malformed, "products") }
    case 1:
        do throws(CSEError) {
            let details = try IINDetails(clientAPIJSON: body)
            if details.productID == nil {
                require(details.status == .unknown, "iin: no product but status \(details.status)")
            } else {
                require(details.status == (details.isAllowedInContext ? .supported : .existingButNotAllowed), "iin: status disagrees")
            }
            _ = details.clientAPIJSONValue.serializedBytes
        } catch { expectCode(error, malformed, "iin") }
    case 2:
        do throws(CSEError) {
            let apiError = try APIError(json: body)
            for value in apiError.context.values {
                var run = 0
                for scalar in value.unicodeScalars {
                    run = (0x30...0x39).contains(scalar.value) ? run + 1 : (scalar == " " ? run : 0)
                    require(run < 12, "apiError: a 12-digit run reached the error context")
                }
            }
        } catch { expectCode(error, malformed, "apiError") }
    case 3:
        do throws(CSEError) { _ = try CurrencyConversionResponse(json: body) } catch { expectCode(error, malformed, "dcc") }
    case 4:
        do throws(CSEError) { _ = try SurchargeCalculationResponse(json: body) } catch { expectCode(error, malformed, "surcharge") }
    case 5:
        do throws(CSEError) { _ = try PaymentProductNetworks(json: body) } catch { expectCode(error, malformed, "networks") }
    default:
        do throws(CSEError) {
            let session = try SessionData(json: body)
            require(session.clientAPIURL.hasSuffix("/client"), "session: the base does not end in /client")
            if session.clientSessionID.unicodeScalars.count > 8 {
                require(!session.description.contains(session.clientSessionID), "session: the id is printed in full")
            }
            let roundTrip = try SessionData(jsonValue: session.jsonValue)
            require(roundTrip == session, "session: no round trip")
        } catch { expectCode(error, [.clientAPIInvalidSession], "session") }
    }
    return 0
}
