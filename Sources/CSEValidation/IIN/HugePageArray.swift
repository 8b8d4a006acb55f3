#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An immutable array of plain values for the large IIN lookup tables, on transparent huge pages
/// where the kernel offers them.
///
/// A lookup in a table of a million ranges makes three dependent random reads (bucket, segment,
/// row) across about 24 MB. With 4 KiB pages each read is also a TLB miss, and in a virtual
/// machine a TLB miss walks two page tables. Arrays of 2 MiB or more are therefore mapped at a
/// 2 MiB boundary and advised with `MADV_HUGEPAGE` (which Debian's default `madvise` THP mode
/// needs) and then made read-only; smaller ones, or a failed mapping, use the ordinary heap. The
/// contents are the same either way, only the page size differs.
///
/// One owner per mapping: the class unmaps (or frees) its memory in `deinit`.
final class HugePageArray<Element: BitwiseCopyable>: @unchecked Sendable {
    /// The elements; valid for the lifetime of the object, never written after `init`.
    let buffer: UnsafeBufferPointer<Element>
    /// The mapping to unmap, or `nil` when the elements live on the heap.
    private let mapping: (base: UnsafeMutableRawPointer, size: Int)?
    /// The heap allocation to free, or `nil` when the elements are mapped.
    private let heap: UnsafeMutableBufferPointer<Element>?

    /// Huge pages are 2 MiB on x86-64 and on arm64 with 4 KiB base pages.
    static var hugePageSize: Int { 2 << 20 }

    /// Copies `elements`.
    init(_ elements: [Element]) {
        let byteCount = elements.count * MemoryLayout<Element>.stride
        if byteCount >= Self.hugePageSize, let mapping = Self.mapHugePages(byteCount: byteCount) {
            let start = mapping.aligned.bindMemory(to: Element.self, capacity: elements.count)
            _ = UnsafeMutableBufferPointer(start: start, count: elements.count).initialize(from: elements)
            // Read-only from here on: a stray write is a fault, not a corrupt table.
            _ = mprotect(mapping.aligned, mapping.alignedSize, PROT_READ)
            self.buffer = UnsafeBufferPointer(start: start, count: elements.count)
            self.mapping = (mapping.aligned, mapping.alignedSize)
            self.heap = nil
        } else {
            let storage = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(elements.count, 1))
            _ = storage.initialize(from: elements)
            self.buffer = UnsafeBufferPointer(start: storage.baseAddress, count: elements.count)
            self.mapping = nil
            self.heap = storage
        }
    }

    deinit {
        if let mapping { munmap(mapping.base, mapping.size) }
        heap?.deallocate()
    }

    /// Whether the elements are in a 2 MiB-aligned mapping advised for huge pages.
    var isHugePageMapped: Bool { mapping != nil }

    /// The number of elements.
    var count: Int { buffer.count }

    /// The element at `index` (bounds-checked).
    subscript(index: Int) -> Element { buffer[index] }

    /// Maps `byteCount` bytes rounded up to whole huge pages, at a huge-page boundary: maps one
    /// huge page more than needed and unmaps the unaligned head and the tail.
    private static func mapHugePages(byteCount: Int) -> (aligned: UnsafeMutableRawPointer, alignedSize: Int)? {
        let page = hugePageSize
        let alignedSize = (byteCount + page - 1) / page * page
        let raw = mmap(nil, alignedSize + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let raw, raw != MAP_FAILED else { return nil }
        let address = UInt(bitPattern: raw)
        let alignedAddress = (address + UInt(page) - 1) / UInt(page) * UInt(page)
        let head = Int(alignedAddress - address)
        if head > 0 { munmap(raw, head) }
        let tail = page - head
        let aligned = raw + head
        if tail > 0 { munmap(aligned + alignedSize, tail) }
        // Advice only: without THP (or with it off) the mapping is simply 4 KiB pages.
        _ = madvise(aligned, alignedSize, MADV_HUGEPAGE)
        return (aligned, alignedSize)
    }
}
