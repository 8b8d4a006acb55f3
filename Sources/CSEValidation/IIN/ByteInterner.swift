/// Interns byte strings (UTF-8 field values of a BIN file) into dense ids without creating a
/// `String` per row: an open-addressing hash table over one byte arena.
struct ByteInterner {
    private var arena: [UInt8] = []
    /// `ends[id]` is the arena offset just past string `id`; string 0 starts at 0.
    private var ends: [UInt32] = []
    private var hashes: [UInt64] = []
    /// 0 for an empty slot, else id + 1.
    private var slots: [UInt32] = [UInt32](repeating: 0, count: 64)

    /// The number of distinct strings.
    var count: Int { ends.count }

    /// The id of `bytes`, adding it when new.
    mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let id = Int(slots[slot] - 1)
            if hashes[id] == hash && equals(id, bytes) { return UInt32(id) }
            slot = (slot + 1) & mask
        }
        let id = UInt32(ends.count)
        arena.append(contentsOf: bytes)
        ends.append(UInt32(arena.count))
        hashes.append(hash)
        slots[slot] = id + 1
        if ends.count * 2 > slots.count { grow() }
        return id
    }

    private func equals(_ id: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = id == 0 ? 0 : Int(ends[id - 1])
        let end = Int(ends[id])
        guard end - start == bytes.count else { return false }
        return arena.withUnsafeBufferPointer { stored in
            var i = 0
            while i < bytes.count {
                if stored[start + i] != bytes[i] { return false }
                i += 1
            }
            return true
        }
    }

    private mutating func grow() {
        var newSlots = [UInt32](repeating: 0, count: slots.count * 2)
        let mask = newSlots.count - 1
        for id in 0..<ends.count {
            var slot = Int(truncatingIfNeeded: hashes[id]) & mask
            while newSlots[slot] != 0 { slot = (slot + 1) & mask }
            newSlots[slot] = UInt32(id + 1)
        }
        slots = newSlots
    }

    /// Every interned string, by id. The bytes were validated as UTF-8 before interning.
    func strings() -> [String] {
        var out = [String]()
        out.reserveCapacity(ends.count)
        var start = 0
        for end in ends {
            out.append(String(decoding: arena[start..<Int(end)], as: UTF8.self))
            start = Int(end)
        }
        return out
    }
}
