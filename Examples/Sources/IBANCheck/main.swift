// A service that only validates IBANs depends on the `CSEValidation` product alone (issue #23,
// point 1): it links neither OpenSSL nor libcurl, and builds without ICU's headers.
//
//   swift run iban-check IBAN…     prints one line per argument: the electronic format and the
//                                  country, or why the value is not an IBAN; exits 1 if any is not
import CSECore
import CSEValidation
import Foundation

var allValid = true
for argument in CommandLine.arguments.dropFirst() {
    let result = IBAN.check(argument)
    if result.isValid, let iban = try? IBAN(argument) {
        print("\(iban.electronicFormat) valid (\(iban.country.code))")
    } else {
        allValid = false
        print("invalid: \(result.failure?.rawValue ?? "unknown")")
    }
}
do {
    _ = try IBAN("GB00 WEST 1234 5698 7654 32")
} catch {
    // The error names the rule, never the value.
    print("error: \(error.code.rawValue)")
}
exit(allValid ? 0 : 1)
