import Foundation

/// Typed (`Codable`) reading of vector files: a file that does not match its declared shape fails
/// with the decoder's path to the offending member, instead of a cast that traps.
public enum VectorFiles {
    /// Decodes a project vector file (`Vectors/<path>`).
    public static func project<T: Decodable>(_ type: T.Type, _ path: String) throws -> T {
        try JSONDecoder().decode(type, from: try TestPaths.projectFile(path))
    }

    /// Decodes a shared vector file (`../shared/vectors/<path>`), or `nil` when the shared vectors
    /// are absent (the caller's test is then skipped by its `.enabled(if:)` trait).
    public static func shared<T: Decodable>(_ type: T.Type, _ path: String) throws -> T? {
        guard let data = TestPaths.sharedFile(path) else { return nil }
        return try JSONDecoder().decode(type, from: data)
    }
}

/// Any JSON value, decoded without a schema, for the members of a vector file that are handed on
/// as JSON (a JWK, a JWE in its JSON serialization). ``bytes`` re-serializes it.
public enum AnyJSON: Decodable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([AnyJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: AnyJSON].self))
        }
    }

    /// The string, when this is a JSON string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The member `name`, when this is a JSON object that has it.
    public subscript(name: String) -> AnyJSON? {
        if case .object(let members) = self { return members[name] }
        return nil
    }

    /// The value as compact JSON bytes (object members sorted by name).
    public var bytes: [UInt8] { Array(try! JSONSerialization.data(withJSONObject: foundation, options: [.sortedKeys, .fragmentsAllowed])) }

    private var foundation: Any {
        switch self {
        case .null: NSNull()
        case .bool(let value): value
        case .number(let value): value.rounded() == value && abs(value) < 1e15 ? Int(value) as Any : value as Any
        case .string(let value): value
        case .array(let values): values.map(\.foundation)
        case .object(let members): members.mapValues(\.foundation)
        }
    }
}
