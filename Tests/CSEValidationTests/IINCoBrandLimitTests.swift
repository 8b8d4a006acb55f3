import CSECore
import CSEValidation
import Testing

/// Issue #13 F01 (table part): one range with one product and 999,999 co-brands made every lookup
/// a 66 MB answer. Co-brand rows per range are capped when the table loads.
@Suite("an IIN range has at most maximumCoBrandsPerRange co-brands (F01)")
struct IINCoBrandLimitTests {
    /// `product` then `coBrands` rows with the same bounds, co-brand ids distinct.
    static func table(coBrands: Int, spread: Bool = false) -> [UInt8] {
        var csv = Array("low,high,productId,country,cardType,issuer\n".utf8)
        csv.reserveCapacity(40 + (coBrands + 1) * 32)
        func row(_ id: Int) {
            csv.append(contentsOf: "41000000,41999999,p\(id),,,\n".utf8)
        }
        for id in 0...coBrands {
            row(id)
            // Spread: other ranges between the co-brand rows, so only the load-time group check
            // (after sorting) can see the group's size.
            if spread { csv.append(contentsOf: "5\(id % 10)000000,5\(id % 10)999999,x\(id),,,\n".utf8) }
        }
        return csv
    }

    @Test("a range with one product and 1,000,000 co-brands is refused at load with iin.tooManyCoBrands")
    func millionCoBrandsRefused() throws {
        let csv = Self.table(coBrands: 1_000_000)
        do {
            _ = try IINTable(csv: csv)
            Issue.record("a 1,000,000-co-brand range loaded")
        } catch {
            #expect(error.code == .iinTooManyCoBrands)
            #expect(error.code.rawValue == "iin.tooManyCoBrands")
            #expect(error.context["limit"] == "16")
            // Refused at the 18th data row (line 19), not after parsing the million rows.
            #expect(error.context["line"] == "19")
        }
    }

    @Test("co-brand rows spread over the file are counted per range after sorting")
    func spreadCoBrandsRefused() throws {
        #expect(throws: CSEError(.iinTooManyCoBrands, "")) { try IINTable(csv: Self.table(coBrands: 17, spread: true)) }
        do {
            _ = try IINTable(csv: Self.table(coBrands: 17, spread: true))
        } catch {
            #expect(error.context["low"] == "41000000")
            #expect(error.context["high"] == "41999999")
        }
    }

    @Test("exactly the limit loads and answers every co-brand; one more is refused")
    func limitBoundary() throws {
        let table = try IINTable(csv: Self.table(coBrands: 16))
        let details = table.iinDetails(forPartialNumber: "41000000", allowedProductIDs: ["p0"])
        #expect(details.productID == "p0")
        #expect(details.coBrands.count == 16)
        #expect(throws: CSEError(.iinTooManyCoBrands, "")) { try IINTable(csv: Self.table(coBrands: 17)) }
        // The limit is configurable and clamped at 1,000.
        #expect(IINTable.Limits(maximumCoBrandsPerRange: 5_000).maximumCoBrandsPerRange == 1_000)
        let wide = try IINTable(csv: Self.table(coBrands: 40), limits: IINTable.Limits(maximumCoBrandsPerRange: 40))
        #expect(wide.iinDetails(forPartialNumber: "41000000", allowedProductIDs: []).coBrands.count == 40)
    }

    @Test("repeating one co-brand id still counts every row (each costs lookup time)")
    func repeatedIDsCount() throws {
        var csv = Array("41000000,41999999,p,,,\n".utf8)
        for _ in 0..<17 { csv.append(contentsOf: "41000000,41999999,q,,,\n".utf8) }
        #expect(throws: CSEError(.iinTooManyCoBrands, "")) { try IINTable(csv: csv) }
    }
}

/// Issue #13 F14 for IIN lookups: product ids in the allowed set match by bytes.
@Suite("allowed product ids match by bytes (F14)")
struct IINAllowedProductIDTests {
    @Test("a KELVIN SIGN product id does not make product K1 allowed, with few or many allowed ids")
    func kelvinProductID() throws {
        let table = try IINTable(csv: "41000000,41999999,K1,,,\n")
        #expect(table.iinDetails(forPartialNumber: "41000000", allowedProductIDs: ["K1"]).isAllowedInContext)
        #expect(!table.iinDetails(forPartialNumber: "41000000", allowedProductIDs: ["\u{212A}1"]).isAllowedInContext)
        let many = Set((0..<40).map { "p\($0)" } + ["\u{212A}1"])
        #expect(!table.iinDetails(forPartialNumber: "41000000", allowedProductIDs: many).isAllowedInContext)
    }
}

/// Issue #13 F06 (the class): an unknown currency code is echoed through the one safe-echo rule.
@Suite("unknown currency codes are echoed safely (F06 class)")
struct CurrencyCodeEchoTests {
    @Test("a card number or an ESC sequence given as a currency code is redacted; a plain code is kept")
    func currencyCodeEcho() throws {
        for (code, echoed) in [("4111111111111111", "<redacted 16 chars>"), ("\u{1B}[2J", "<redacted 4 chars>"), ("ABC", "ABC")] {
            do {
                _ = try Currency.named(code)
                Issue.record("\(echoed) was accepted")
            } catch {
                #expect(error.code == .currencyUnknown)
                #expect(error.context["code"] == echoed)
            }
        }
    }
}
