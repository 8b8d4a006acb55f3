public import CSECore

/// A nested JSON map addressed by dot-notation paths, the request builder of the Mastercard
/// Gateway mobile SDKs (`request[at: "sourceOfFunds.provided.card.number"] = …`).
///
/// Paths are split at `.`; every component must be non-empty. Setting a path creates the objects
/// on the way. A path that would use a leaf value as an object, or replace an object by a leaf,
/// is rejected with ``CSEError/Code/gatewayMapConflict`` instead of silently dropping data.
///
/// The JSON form is canonical: object members are sorted by name (UTF-8 byte order) at every
/// level and written compactly by `JSONWriter`, so equal maps always give the same bytes, and
/// parsing those bytes gives the same map back.
///
///     var map = GatewayMap()
///     try map.set("APPLE_PAY", at: "order.walletProvider")
///     map.serialized == #"{"order":{"walletProvider":"APPLE_PAY"}}"#
public struct GatewayMap: Hashable, Sendable, CustomStringConvertible {
    /// The top-level object.
    package private(set) var root: JSONObject

    /// An empty map.
    public init() { root = JSONObject() }

    /// Builds a map from a JSON object. Nested objects and dotted member names are both accepted
    /// (`{"order":{"id":"1"}}` and `{"order.id":"1"}` give the same map); the same leaf given twice,
    /// or a leaf used as an object, is a conflict.
    /// - Parameter json: A JSON object.
    /// - Throws: ``CSEError/Code/gatewayInputNotObject``, ``CSEError/Code/gatewayMapInvalidPath``
    ///   or ``CSEError/Code/gatewayMapConflict`` (the context names the path, echoed safely,
    ///   never a value).
    package init(json: JSONValue) throws(CSEError) {
        guard case .object(let object) = json else {
            throw CSEError(.gatewayInputNotObject, "a gateway request must be a JSON object")
        }
        self.init()
        for (key, value) in object {
            try insert(value, at: try Self.components(of: key), replacing: false)
        }
    }

    /// The deepest path a map accepts, counting every component (`a.b.c` is 3), whether it came
    /// from dotted names or nested objects.
    package static let maximumPathDepth = 32

    /// The JSON limits for ``init(parsing:)``: room for the canonical form of any map built from a
    /// default-limited document (expanding dotted names at most triples the text, and a
    /// `maximumPathDepth`-deep path may hold a 64-deep value), so a map's own
    /// ``serializedBytes`` always parse back.
    package static let parsingLimits = JSONLimits(maxBytes: 4 << 20, maxDepth: maximumPathDepth + JSONLimits.default.maxDepth + 1)

    /// Parses a JSON object (RFC 8259, strict; up to 4 MiB and 97 levels deep) into a map. Nested
    /// objects and dotted member names are both accepted (`{"order":{"id":"1"}}` and
    /// `{"order.id":"1"}` give the same map); the same leaf given twice, or a leaf used as an
    /// object, is a conflict.
    /// - Parameter bytes: The UTF-8 JSON text of an object.
    /// - Throws: a `json.*` error, ``CSEError/Code/gatewayInputNotObject``,
    ///   ``CSEError/Code/gatewayMapInvalidPath`` or ``CSEError/Code/gatewayMapConflict`` (the
    ///   context names the path, echoed safely, never a value).
    public init(parsing bytes: some Collection<UInt8>) throws(CSEError) {
        try self.init(json: try JSONValue.parse(bytes, limits: Self.parsingLimits))
    }

    /// The value at a dot-notation path (an object for an inner node), or `nil`.
    package subscript(at path: String) -> JSONValue? {
        guard let parts = try? Self.components(of: path) else { return nil }
        var current = JSONValue.object(root)
        for part in parts {
            guard case .object(let object) = current, let next = object[part] else { return nil }
            current = next
        }
        return current
    }

    /// Sets a value at a dot-notation path, creating the objects on the way. An object value is
    /// merged member by member (its dotted member names are expanded too); a leaf replaces an
    /// existing leaf.
    /// - Parameters:
    ///   - value: The value.
    ///   - path: For example `sourceOfFunds.provided.card.number`.
    /// - Throws: ``CSEError/Code/gatewayMapInvalidPath`` or ``CSEError/Code/gatewayMapConflict``.
    package mutating func set(_ value: JSONValue, at path: String) throws(CSEError) {
        try insert(value, at: try Self.components(of: path), replacing: true)
    }

    /// Sets a string at a dot-notation path, creating the objects on the way; it replaces an
    /// existing leaf.
    /// - Parameters:
    ///   - value: The value.
    ///   - path: For example `sourceOfFunds.provided.card.number`.
    /// - Throws: ``CSEError/Code/gatewayMapInvalidPath``, or ``CSEError/Code/gatewayMapConflict``
    ///   when a component of the path is a leaf or the path names an object.
    public mutating func set(_ value: String, at path: String) throws(CSEError) {
        try set(.string(value), at: path)
    }

    /// Removes and returns the value at a path; empty parent objects are left in place.
    @discardableResult
    package mutating func removeValue(at path: String) -> JSONValue? {
        guard let parts = try? Self.components(of: path) else { return nil }
        return Self.remove(parts[...], from: &root)
    }

    /// Every leaf (a non-object value, or an empty object) with its dotted path, sorted by path.
    package var leaves: [(path: String, value: JSONValue)] {
        var out: [(path: String, value: JSONValue)] = []
        Self.collectLeaves(root, prefix: "", into: &out)
        return out.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    /// The canonical JSON value: members sorted by name at every level.
    package var json: JSONValue { Self.canonical(.object(root)) }

    /// The canonical compact JSON bytes: members sorted by name at every level.
    public var serializedBytes: [UInt8] { json.serializedBytes }

    /// The canonical compact JSON text.
    public var serialized: String { json.serialized }

    /// Maps are equal when their canonical JSON is.
    public static func == (lhs: GatewayMap, rhs: GatewayMap) -> Bool { lhs.json == rhs.json }

    /// Hashes the canonical JSON, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(json) }

    /// The leaf paths only, never the values (a map may hold a card number), each echoed safely
    /// (`SecretMasking.echoIdentifier`: a member name can be a card number too).
    public var description: String {
        "GatewayMap(" + leaves.map { SecretMasking.echoIdentifier($0.path) }.joined(separator: ", ") + ")"
    }

    // MARK: - Internals

    static func components(of path: String) throws(CSEError) -> [String] {
        let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !path.isEmpty, !parts.contains(where: \.isEmpty) else {
            throw CSEError(
                .gatewayMapInvalidPath, "a path needs non-empty components separated by '.'",
                context: ["path": SecretMasking.echoIdentifier(path)])
        }
        return parts
    }

    private mutating func insert(_ value: JSONValue, at parts: [String], replacing: Bool) throws(CSEError) {
        try Self.insert(value, at: parts[...], into: &root, replacing: replacing, done: [])
    }

    private static func insert(
        _ value: JSONValue, at parts: ArraySlice<String>, into object: inout JSONObject,
        replacing: Bool, done: [String]
    ) throws(CSEError) {
        let key = parts.first!
        let here = done + [key]
        guard done.count + parts.count <= maximumPathDepth else {
            throw CSEError(
                .gatewayMapInvalidPath, "a path may have at most \(maximumPathDepth) components",
                context: ["limit": String(maximumPathDepth)])
        }
        if parts.count == 1 {
            if case .object(let members) = value {
                // Merge an object member by member, expanding dotted names.
                var child: JSONObject
                switch object[key] {
                case nil: child = JSONObject()
                case .object(let existing)?: child = existing
                case _?: throw conflict(here, "a leaf value is used as an object")
                }
                for (name, member) in members {
                    try insert(member, at: try components(of: name)[...], into: &child, replacing: replacing, done: here)
                }
                object[key] = .object(child)
                return
            }
            switch object[key] {
            case nil: object[key] = value
            case .object?: throw conflict(here, "an object would be replaced by a leaf value")
            case _?:
                guard replacing else { throw conflict(here, "the same path is given twice") }
                object[key] = value
            }
            return
        }
        var child: JSONObject
        switch object[key] {
        case nil: child = JSONObject()
        case .object(let existing)?: child = existing
        case _?: throw conflict(here, "a leaf value is used as an object")
        }
        try insert(value, at: parts.dropFirst(), into: &child, replacing: replacing, done: here)
        object[key] = .object(child)
    }

    private static func conflict(_ parts: [String], _ reason: String) -> CSEError {
        CSEError(.gatewayMapConflict, reason, context: ["path": SecretMasking.echoIdentifier(parts.joined(separator: "."))])
    }

    private static func remove(_ parts: ArraySlice<String>, from object: inout JSONObject) -> JSONValue? {
        let key = parts.first!
        if parts.count == 1 {
            let old = object[key]
            object[key] = nil
            return old
        }
        guard case .object(var child)? = object[key] else { return nil }
        let removed = remove(parts.dropFirst(), from: &child)
        object[key] = .object(child)
        return removed
    }

    private static func collectLeaves(
        _ object: JSONObject, prefix: String,
        into out: inout [(path: String, value: JSONValue)]
    ) {
        for (key, value) in object {
            let path = prefix.isEmpty ? key : prefix + "." + key
            if case .object(let child) = value, child.count > 0 {
                collectLeaves(child, prefix: path, into: &out)
            } else {
                out.append((path, value))
            }
        }
    }

    private static func canonical(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            let members = zip(object.keys, object.values)
                .sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
                .map { ($0.0, canonical($0.1)) }
            return .object(JSONObject(members))
        case .array(let elements):
            return .array(elements.map(canonical))
        default:
            return value
        }
    }
}
