import CSECore
import CSEValidation
import Testing

/// Issue #12: ``IINTable`` and ``CardBrandTable`` answer through one lookup protocol, and a `nil`
/// allow-list means every product found is allowed.
@Suite("IIN lookup tables: one protocol for BIN files and card-brand ranges")
struct IINLookupTableTests {
    static let csv = """
        low,high,productId,country,cardType,issuer
        41000000,41999999,visa-gold,NL,Credit,Bank A
        41000000,41999999,maestro,NL,Debit,Bank A
        """

    @Test("both tables answer through the protocol as they answer directly")
    func sameAnswerThroughProtocol() throws {
        let file = try IINTable(csv: Self.csv)
        let tables: [(any IINLookupTable, IINDetails)] = [
            (file, file.iinDetails(forPartialNumber: "41111111", allowedProductIDs: ["visa-gold"])),
            (CardBrandTable.embedded, CardBrandTable.embedded.iinDetails(forPartialNumber: "41111111", allowedProductIDs: ["visa"])),
        ]
        for (table, direct) in tables {
            let allowed: Set<String> = direct.productID.map { [$0] } ?? []
            #expect(table.iinDetails(forPartialNumber: "41111111", allowedProductIDs: allowed) == direct)
        }
    }

    @Test("no allow-list: the product and every co-brand are allowed in context")
    func nilAllowListAllowsAll() throws {
        let file: any IINLookupTable = try IINTable(csv: Self.csv)
        let details = file.iinDetails(forPartialNumber: "4111 1111", allowedProductIDs: nil)
        #expect(details.status == .supported && details.productID == "visa-gold" && details.isAllowedInContext)
        #expect(details.countryCode == "NL" && details.cardType == .credit && details.issuer == "Bank A")
        #expect(details.coBrands == [IINCoBrand(productID: "maestro", isAllowedInContext: true, cardType: .debit)])
        let empty = file.iinDetails(forPartialNumber: "41111111", allowedProductIDs: [])
        #expect(empty.status == .existingButNotAllowed && !empty.isAllowedInContext)
        #expect(empty.coBrands.allSatisfy { !$0.isAllowedInContext })
    }

    @Test("no allow-list leaves the no-answer statuses alone")
    func nilAllowListNoAnswer() {
        let brands: any IINLookupTable = CardBrandTable.embedded
        #expect(brands.iinDetails(forPartialNumber: "4111", allowedProductIDs: nil).status == .notEnoughDigits)
        #expect(brands.iinDetails(forPartialNumber: "4111x111", allowedProductIDs: nil).status == .unknown)
    }
}
