/// The byte ranges of a small JSON object of the plainest shape, read without building a
/// ``JSONValue``: one object (RFC 8259 §4) whose member names are ASCII without escapes and
/// unique among their siblings, and whose values are ASCII strings without escapes or objects of
/// the same kind. Wallet tokens are written this way, and their base64 members are kilobytes long:
/// reading them as ranges of the input saves building a `String` per member that is decoded and
/// dropped right after (issue #37).
///
/// It is a fast path, never the authority: any other document (another shape, a number, an escape,
/// non-ASCII text, whitespace it does not expect, invalid JSON, a duplicate name, more than
/// `maxMembers` members or deeper than `maxDepth`) gives `nil`, and the caller then parses with
/// ``JSONValue/parse(_:limits:)``, whose verdict and errors decide. Every document this reader
/// accepts is one `parse` accepts, with the same members and string values.
package struct JSONPlainObject {
    /// One member: its parent (an index into ``members``, or `nil` at the top level), the range of
    /// its name and of its value (a string's text without the quotes, or an object's text from
    /// `{` to `}`).
    package struct Member {
        package let parent: Int?
        package let name: Range<Int>
        package fileprivate(set) var value: Range<Int>
        package let isObject: Bool
    }

    /// The members in document order; an object's members follow it.
    package private(set) var members: [Member] = []
    private let bytes: UnsafeRawBufferPointer
    private var index = 0

    /// Reads `bytes`, or returns `nil` when they are not of the plain shape.
    /// - Parameters:
    ///   - bytes: The document; the ranges refer to it, so it must outlive their use.
    ///   - maxDepth: The deepest nesting accepted (1: only string members).
    ///   - maxMembers: The most members accepted, all levels together.
    package init?(_ bytes: UnsafeRawBufferPointer, maxDepth: Int, maxMembers: Int) {
        self.bytes = bytes
        members.reserveCapacity(maxMembers)
        skipWhitespace()
        guard readObject(parent: nil, depth: 1, maxDepth: maxDepth, maxMembers: maxMembers) else { return nil }
        skipWhitespace()
        guard index == bytes.count else { return nil }
    }

    /// The member named `name` (compared by bytes) whose parent is `parent`.
    package func member(_ name: StaticString, in parent: Int?) -> Int? {
        let wanted = UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        return members.indices.first { i in
            members[i].parent == parent && members[i].name.count == wanted.count
                && UnsafeRawBufferPointer(rebasing: bytes[members[i].name]).elementsEqual(wanted)
        }
    }

    /// The number of members whose parent is `parent`.
    package func memberCount(in parent: Int?) -> Int {
        members.count { $0.parent == parent }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    /// A string token's text range (after the opening quote, before the closing one), or `nil`
    /// for anything but ASCII without escapes or control characters.
    private mutating func readString() -> Range<Int>? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let base = bytes.baseAddress else { return nil }
        let start = index + 1
        index = ASCIIScan.jsonPlainWordsEnd(base, from: start, count: bytes.count, delete: false)
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                defer { index += 1 }
                return start..<index
            }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }

    private mutating func readObject(parent: Int?, depth: Int, maxDepth: Int, maxMembers: Int) -> Bool {
        guard depth <= maxDepth, index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return false }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return true
        }
        let firstSibling = members.count
        while true {
            skipWhitespace()
            guard members.count < maxMembers, let name = readString() else { return false }
            for sibling in members[firstSibling...] where sibling.parent == parent && sibling.name.count == name.count {
                if UnsafeRawBufferPointer(rebasing: bytes[sibling.name]).elementsEqual(UnsafeRawBufferPointer(rebasing: bytes[name])) {
                    return false
                }
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
            index += 1
            skipWhitespace()
            guard index < bytes.count else { return false }
            if bytes[index] == UInt8(ascii: "{") {
                let position = members.count
                let start = index
                members.append(Member(parent: parent, name: name, value: start..<start, isObject: true))
                guard readObject(parent: position, depth: depth + 1, maxDepth: maxDepth, maxMembers: maxMembers) else { return false }
                members[position].value = start..<index
            } else {
                guard let value = readString() else { return false }
                members.append(Member(parent: parent, name: name, value: value, isObject: false))
            }
            skipWhitespace()
            guard index < bytes.count else { return false }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { return false }
            index += 1
            return true
        }
    }
}
