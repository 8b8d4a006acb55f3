/// A rule between a command's options, declared with them (``OptionDeclarations/conflict(_:with:reason:)``,
/// ``OptionDeclarations/need(_:by:)``) and checked by the parser, instead of by hand in each
/// command's initializer: the one place that writes "cannot be combined with" and "needs".
enum OptionRule: Sendable {
    /// None of the options may be given with the anchor.
    case conflict([String], with: String, reason: String?)
    /// Each of the options needs the anchor.
    case need(String, by: [String])

    /// The usage error for `line`, or `nil` when the rule holds.
    func violation(in line: ParsedCommandLine) -> UsageError? {
        func given(_ name: String) -> Bool { line.flags.contains(name) || line.values[name] != nil }
        switch self {
        case .conflict(let options, let anchor, let reason):
            guard given(anchor), let first = options.first(where: given) else { return nil }
            return UsageError("--\(first) cannot be combined with --\(anchor)\(reason.map { " (\($0))" } ?? "").")
        case .need(let anchor, let options):
            guard !given(anchor), let first = options.first(where: given) else { return nil }
            return UsageError("--\(first) needs --\(anchor).")
        }
    }
}
