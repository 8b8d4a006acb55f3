/// A value named by a stable string spelling: an error or validation code, a status, a reason.
///
/// CSEKit's string-backed "open enums" are structs rather than enums, so that a platform value
/// the library does not know yet is kept as written and a new member is not a breaking change.
/// They all share this shape: equality and hashing by ``rawValue``, and the spelling as their
/// `description`. Whether a caller may create values is each type's decision: a set the library
/// owns (error codes, validation reasons) has only `package` initialisers; a set read from platform
/// data (form element types, IIN statuses) has a public one.
public protocol StableStringValue: Hashable, Sendable, CustomStringConvertible {
    /// The stable spelling, for example `jwe.decryptionFailed` or `SUPPORTED`.
    var rawValue: String { get }
}

extension StableStringValue {
    /// The stable spelling.
    public var description: String { rawValue }
}
