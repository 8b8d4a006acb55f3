/// The 8-digit IIN space (`00000000…99999999`) cut into sorted, disjoint segments, each labelled
/// with the id of the range group that answers for it, plus a direct index on the first six
/// digits so a lookup binary-searches only a handful of segments.
struct IINSegments: Sendable {
    /// One entry per segment, ascending: the segment's start in the high 32 bits and the value
    /// answering for it (``none`` in gaps) in the low 32 bits, so a lookup touches one array.
    /// The first segment starts at 0.
    let entries: HugePageArray<UInt64>
    /// For each 6-digit prefix `p` (0…1 000 000): the segment containing `p × 100`.
    ///
    /// Six digits rather than five (4 MB instead of 400 KB): with a million ranges a five-digit
    /// bucket spans about 20 segments, a binary search of five dependent cache misses in the
    /// 16 MB entry array; a six-digit bucket spans about two (`iin-lookup/1M`, Benchmarks/README.md).
    let buckets: HugePageArray<UInt32>
    /// Keys per bucket.
    static let bucketWidth: UInt32 = 100

    static let none = UInt32.max
    static let spaceEnd: UInt64 = 100_000_000

    /// Builds the segments by a sweep over ranges sorted by lower bound.
    ///
    /// Among the ranges covering a point, the one with the smallest `rank` answers (rank = width
    /// then file order: narrowest first). Between two consecutive events (a range starting, or
    /// the current winner ending) the winner cannot change, so the sweep emits one segment per
    /// event at most: O(n log n) with a binary heap and lazy deletion.
    /// - Parameters:
    ///   - lows: Lower bounds, ascending.
    ///   - highs: Upper bounds (inclusive), parallel to `lows`.
    ///   - ids: The group each range answers with.
    ///   - rank: Priority per range; smaller wins.
    init(lows: [UInt32], highs: [UInt32], ids: [UInt32], rank: [UInt64]) {
        var starts = [UInt32]()
        var values = [UInt32]()
        starts.reserveCapacity(lows.count * 2 + 1)
        values.reserveCapacity(lows.count * 2 + 1)
        var heap = BinaryMinHeap(rank: rank)
        var next = 0
        var position: UInt64 = 0
        while true {
            while next < lows.count && UInt64(lows[next]) == position {
                heap.push(Int32(next))
                next += 1
            }
            while let top = heap.top, UInt64(highs[Int(top)]) < position { heap.pop() }
            let nextStart = next < lows.count ? UInt64(lows[next]) : IINSegments.spaceEnd
            let value: UInt32
            var following = nextStart
            if let top = heap.top {
                value = ids[Int(top)]
                following = min(nextStart, UInt64(highs[Int(top)]) + 1)
            } else {
                value = IINSegments.none
            }
            if values.last != value {
                starts.append(UInt32(position))
                values.append(value)
            }
            if following >= IINSegments.spaceEnd { break }
            position = following
        }
        self.entries = HugePageArray(zip(starts, values).map { UInt64($0) << 32 | UInt64($1) })
        let bucketCount = Int(IINSegments.spaceEnd) / Int(IINSegments.bucketWidth)
        var buckets = [UInt32](repeating: 0, count: bucketCount + 1)
        var segment = 0
        for prefix in 0...bucketCount {
            let key = UInt32(prefix) * IINSegments.bucketWidth
            while segment + 1 < starts.count && starts[segment + 1] <= key { segment += 1 }
            buckets[prefix] = UInt32(segment)
        }
        self.buckets = HugePageArray(buckets)
    }

    /// The group answering for an 8-digit key, or ``none``.
    func value(at key: UInt32) -> UInt32 {
        let prefix = Int(key / IINSegments.bucketWidth)
        let limit = (UInt64(key) + 1) << 32  // entries below this start at or before `key`
        let entries = entries.buffer, buckets = buckets.buffer
        var low = Int(buckets[prefix])
        var high = Int(buckets[prefix + 1]) + 1
        // Invariant: entry `low` starts at or before key; entries from `high` on start after it.
        while high - low > 1 {
            let mid = (low + high) >> 1
            if entries[mid] < limit { low = mid } else { high = mid }
        }
        return UInt32(truncatingIfNeeded: entries[low])
    }

    /// Bytes held by the arrays.
    var memoryBytes: Int { entries.count * 8 + buckets.count * 4 }
}

/// A binary min-heap of range positions ordered by a rank array.
private struct BinaryMinHeap {
    let rank: [UInt64]
    var items: [Int32] = []

    init(rank: [UInt64]) { self.rank = rank }

    var top: Int32? { items.first }

    mutating func push(_ item: Int32) {
        items.append(item)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard rank[Int(items[child])] < rank[Int(items[parent])] else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() {
        let last = items.removeLast()
        guard !items.isEmpty else { return }
        items[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count && rank[Int(items[left])] < rank[Int(items[smallest])] { smallest = left }
            if right < items.count && rank[Int(items[right])] < rank[Int(items[smallest])] { smallest = right }
            if smallest == parent { break }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
