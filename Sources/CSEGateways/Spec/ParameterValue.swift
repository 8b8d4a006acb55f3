import CSECore

/// How a parameter appears in a request, read once for all checks.
enum ParameterValue {
    /// Absent, `null`, or an empty string.
    case absent
    /// A string, a number's source text, or a Boolean's `true`/`false`, with its JSON kind.
    case text(String, kind: Kind)
    /// An object or an array where a single value is expected.
    case structured

    enum Kind { case string, number, boolean }

    init(_ json: JSONValue?) {
        switch json {
        case nil, .null?: self = .absent
        case .string(let s)?: self = s.isEmpty ? .absent : .text(s, kind: .string)
        case .number(let n)?: self = .text(n, kind: .number)
        case .bool(let b)?: self = .text(b ? "true" : "false", kind: .boolean)
        case .object(let o)? where o.count == 0: self = .absent
        case .object?, .array?: self = .structured
        }
    }

    var text: String? {
        if case .text(let t, _) = self { return t }
        return nil
    }

    var isPresent: Bool {
        if case .absent = self { return false }
        return true
    }
}
