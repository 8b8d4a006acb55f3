import Testing

@testable import CSEValidation

/// The IIN tables' storage: the same elements whether they are on the heap or in a 2 MiB-aligned
/// mapping advised for huge pages.
@Suite("HugePageArray: large IIN tables on huge pages, small ones on the heap")
struct HugePageArrayTests {
    @Test("an array under 2 MiB stays on the heap with its elements in order", arguments: [0, 1, 7, 4_096])
    func small(count: Int) {
        let elements = (0..<count).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 }
        let table = HugePageArray(elements)
        #expect(!table.isHugePageMapped)
        #expect(table.count == count)
        #expect(Array(table.buffer) == elements)
    }

    @Test("an array of 2 MiB or more is mapped at a 2 MiB boundary with its elements in order")
    func large() {
        // 3 MiB + 4 bytes: the last huge page is partly used, so the tail is rounded up.
        let count = (3 << 20) / 4 + 1
        let elements = (0..<count).map { UInt32(truncatingIfNeeded: $0 &* 2_654_435_761) }
        let table = HugePageArray(elements)
        #expect(table.isHugePageMapped)
        #expect(table.count == count)
        #expect(UInt(bitPattern: table.buffer.baseAddress) % UInt(HugePageArray<UInt32>.hugePageSize) == 0)
        #expect(table[0] == elements[0] && table[count - 1] == elements[count - 1])
        #expect(Array(table.buffer) == elements)
    }

    @Test("many tables made and dropped in turn leave nothing mapped twice or freed twice")
    func churn() {
        for round in 0..<8 {
            let table = HugePageArray([UInt64](repeating: UInt64(round), count: (2 << 20) / 8))
            #expect(table.isHugePageMapped)
            #expect(table.buffer.allSatisfy { $0 == UInt64(round) })
        }
    }
}
