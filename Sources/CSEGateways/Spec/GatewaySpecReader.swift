package import CSECore

extension GatewaySpec {
    /// Reads a spec table (the JSON format of `Vectors/gateways/`, described in
    /// docs/GATEWAYS.md). Reading is strict: unknown keys, wrong types, unknown character
    /// classes or formats, inverted length limits, rules naming unknown parameters and rows
    /// citing an undeclared source are all errors, so a typo in a table cannot weaken a check.
    /// - Parameter json: The table.
    /// - Returns: The spec.
    /// - Throws: ``CSEError/Code/gatewayTable`` naming the entry.
    package init(table json: JSONValue) throws(CSEError) {
        let top = try TableObject(json, at: "table")
        try top.allowOnly(["gateway", "operations", "sources", "unknownParameters", "parameters", "rules", "notes"])
        let sources = try top.array("sources").enumerated().map { (i, value) throws(CSEError) -> SpecSource in
            let s = try TableObject(value, at: "sources[\(i)]")
            try s.allowOnly(["id", "document", "url", "section"])
            return SpecSource(
                id: try s.string("id"), document: try s.string("document"), url: try s.string("url"),
                section: try s.string("section"))
        }
        let sourceIDs = Set(sources.map(\.id))
        func checkSource(_ source: String, at path: String) throws(CSEError) {
            guard sourceIDs.contains(source) || source.hasPrefix("decision:") else {
                throw TableObject.error("cites an undeclared source '\(source)'", at: path)
            }
        }
        var parameters: [ParameterSpec] = []
        for (i, value) in try top.array("parameters").enumerated() {
            let parameter = try Self.readParameter(value, at: "parameters[\(i)]")
            try checkSource(parameter.source, at: "parameters[\(i)]")
            guard !parameters.contains(where: { $0.name.isByteEqual(to: parameter.name) }) else {
                throw TableObject.error("duplicate parameter", at: "parameters[\(i)]")
            }
            parameters.append(parameter)
        }
        let names = Set(parameters.map(\.name))
        for parameter in parameters {
            if let related = parameter.format?.relatedField, !names.contains(related) {
                throw TableObject.error("format names an unknown parameter '\(related)'", at: parameter.name)
            }
        }
        var rules: [CrossFieldRule] = []
        for (i, value) in (try top.optionalArray("rules") ?? []).enumerated() {
            let rule = try Self.readRule(value, at: "rules[\(i)]")
            try checkSource(rule.source, at: "rules[\(i)]")
            var fields = [rule.requirement.field]
            for condition in rule.conditions {
                switch condition {
                case .valueIn(let f, _), .present(let f, _): fields.append(f)
                case .contextIn: break
                }
            }
            // A condition may name an object (`billingDetails`): a prefix of parameter names.
            for field in fields where !names.contains(field) && !names.contains(where: { $0.hasPrefix(field + ".") }) {
                throw TableObject.error("names an unknown parameter '\(field)'", at: "rules[\(i)]")
            }
            rules.append(rule)
        }
        let unknown = try top.optionalString("unknownParameters") ?? "allow"
        guard unknown == "allow" || unknown == "reject" else {
            throw TableObject.error("unknownParameters must be 'allow' or 'reject'", at: "table")
        }
        let operations = try top.array("operations").enumerated().map { (i, v) throws(CSEError) -> String in
            guard let s = v.stringValue, !s.isEmpty else { throw TableObject.error("expected a string", at: "operations[\(i)]") }
            return s
        }
        self.init(
            gateway: try top.string("gateway"), operations: operations, sources: sources,
            parameters: parameters, rules: rules, rejectsUnknownParameters: unknown == "reject")
    }

    static func readParameter(_ value: JSONValue, at path: String) throws(CSEError) -> ParameterSpec {
        let p = try TableObject(value, at: path)
        try p.allowOnly([
            "name", "class", "specials", "unicodeLetters", "type", "required", "minLength", "maxLength",
            "values", "format", "sensitivity", "codes", "source", "note",
        ])
        let name = try p.string("name")
        let here = "\(path) (\(name))"
        _ = try GatewayMap.components(of: name)
        let base = CharacterClass.Base(rawValue: try p.optionalString("class") ?? "any")
        let characters = CharacterClass(
            base, specials: try p.optionalString("specials") ?? "",
            allowsUnicodeLetters: try p.optionalBool("unicodeLetters") ?? false)
        guard characters.isKnown else { throw TableObject.error("unknown character class '\(base.rawValue)'", at: here) }
        let valueType = ParameterSpec.ValueType(rawValue: try p.optionalString("type") ?? "text")
        guard [.text, .string, .number, .boolean].contains(valueType) else {
            throw TableObject.error("unknown type '\(valueType.rawValue)'", at: here)
        }
        let minLength = try p.optionalInt("minLength")
        let maxLength = try p.optionalInt("maxLength")
        if let minLength, let maxLength, minLength > maxLength || minLength < 0 {
            throw TableObject.error("minLength exceeds maxLength", at: here)
        }
        let values = try p.optionalStringArray("values")
        var format: ParameterFormat?
        if let f = p["format"] {
            let fo = try TableObject(f, at: "\(here).format")
            try fo.allowOnly(["type", "field", "min", "max"])
            let kind = ParameterFormat.Kind(rawValue: try fo.string("type"))
            guard ParameterFormat.Kind.known.contains(kind) else {
                throw TableObject.error("unknown format '\(kind.rawValue)'", at: "\(here).format")
            }
            format = ParameterFormat(
                kind, relatedField: try fo.optionalString("field"),
                minimum: try fo.optionalInt("min").map(Int64.init),
                maximum: try fo.optionalInt("max").map(Int64.init))
        }
        let sensitivity = ParameterSpec.Sensitivity(rawValue: try p.optionalString("sensitivity") ?? "none")
        guard [.none, .pan, .securityCode, .credential].contains(sensitivity) else {
            throw TableObject.error("unknown sensitivity '\(sensitivity.rawValue)'", at: here)
        }
        var codes: [String: Int] = [:]
        if let c = p["codes"] {
            guard case .object(let object) = c else { throw TableObject.error("codes must be an object", at: here) }
            for (key, value) in object {
                guard let code = value.intValue else { throw TableObject.error("codes.\(key) must be an integer", at: here) }
                codes[key] = code
            }
        }
        return ParameterSpec(
            name: name, characters: characters, valueType: valueType,
            isRequired: try p.optionalBool("required") ?? false, minLength: minLength,
            maxLength: maxLength, allowedValues: values, format: format, sensitivity: sensitivity,
            gatewayCodes: codes, source: try p.string("source"))
    }

    static func readRule(_ value: JSONValue, at path: String) throws(CSEError) -> CrossFieldRule {
        let r = try TableObject(value, at: path)
        try r.allowOnly(["id", "if", "then", "code", "source", "note"])
        let id = try r.string("id")
        let here = "\(path) (\(id))"
        var conditions: [CrossFieldRule.Condition] = []
        for (i, c) in (try r.optionalArray("if") ?? []).enumerated() {
            let co = try TableObject(c, at: "\(here).if[\(i)]")
            if let key = try co.optionalString("context") {
                try co.allowOnly(["context", "in"])
                conditions.append(.contextIn(key: key, values: try co.optionalStringArray("in") ?? ["true"]))
            } else if let present = try co.optionalBool("present") {
                try co.allowOnly(["field", "present"])
                conditions.append(.present(field: try co.string("field"), present))
            } else {
                try co.allowOnly(["field", "in"])
                guard let values = try co.optionalStringArray("in") else {
                    throw TableObject.error("a condition needs 'in', 'present' or 'context'", at: "\(here).if[\(i)]")
                }
                conditions.append(.valueIn(field: try co.string("field"), values: values))
            }
        }
        guard let thenValue = r["then"] else { throw TableObject.error("missing 'then'", at: here) }
        let t = try TableObject(thenValue, at: "\(here).then")
        let field = try t.string("field")
        let requirement: CrossFieldRule.Requirement
        if try t.optionalBool("required") == true {
            try t.allowOnly(["field", "required"])
            requirement = .required(field: field)
        } else if try t.optionalBool("absent") == true {
            try t.allowOnly(["field", "absent"])
            requirement = .absent(field: field)
        } else if let values = try t.optionalStringArray("in") {
            try t.allowOnly(["field", "in", "allowAbsent"])
            requirement = .valueIn(field: field, values: values, allowAbsent: try t.optionalBool("allowAbsent") ?? false)
        } else if let lengths = t["lengths"]?.arrayValue {
            try t.allowOnly(["field", "lengths"])
            let ints = lengths.compactMap(\.intValue)
            guard ints.count == lengths.count, !ints.isEmpty else { throw TableObject.error("lengths must be integers", at: here) }
            requirement = .lengthIn(field: field, lengths: ints)
        } else {
            throw TableObject.error("'then' needs 'required', 'absent', 'in' or 'lengths'", at: here)
        }
        return CrossFieldRule(
            id: id, conditions: conditions, requirement: requirement,
            gatewayCode: try r.optionalInt("code"), source: try r.string("source"))
    }
}

/// Typed, strict access to one JSON object of a spec table.
struct TableObject {
    let object: JSONObject
    let path: String

    init(_ value: JSONValue, at path: String) throws(CSEError) {
        guard case .object(let object) = value else { throw Self.error("expected an object", at: path) }
        self.object = object
        self.path = path
    }

    static func error(_ reason: String, at path: String) -> CSEError {
        CSEError(.gatewayTable, "spec table: \(reason)", context: ["entry": path])
    }

    subscript(key: String) -> JSONValue? { object[key] }

    func allowOnly(_ keys: Set<String>) throws(CSEError) {
        for key in object.keys where !keys.contains(key) {
            throw Self.error("unknown key '\(key)'", at: path)
        }
    }

    func string(_ key: String) throws(CSEError) -> String {
        guard let s = try optionalString(key) else { throw Self.error("missing '\(key)'", at: path) }
        return s
    }

    func optionalString(_ key: String) throws(CSEError) -> String? {
        guard let value = object[key] else { return nil }
        guard let s = value.stringValue else { throw Self.error("'\(key)' must be a string", at: path) }
        return s
    }

    func optionalBool(_ key: String) throws(CSEError) -> Bool? {
        guard let value = object[key] else { return nil }
        guard let b = value.boolValue else { throw Self.error("'\(key)' must be true or false", at: path) }
        return b
    }

    func optionalInt(_ key: String) throws(CSEError) -> Int? {
        guard let value = object[key] else { return nil }
        guard let i = value.intValue else { throw Self.error("'\(key)' must be an integer", at: path) }
        return i
    }

    func array(_ key: String) throws(CSEError) -> [JSONValue] {
        guard let a = try optionalArray(key) else { throw Self.error("missing '\(key)'", at: path) }
        return a
    }

    func optionalArray(_ key: String) throws(CSEError) -> [JSONValue]? {
        guard let value = object[key] else { return nil }
        guard let a = value.arrayValue else { throw Self.error("'\(key)' must be an array", at: path) }
        return a
    }

    func optionalStringArray(_ key: String) throws(CSEError) -> [String]? {
        guard let values = try optionalArray(key) else { return nil }
        var out: [String] = []
        for value in values {
            guard let s = value.stringValue else { throw Self.error("'\(key)' must hold strings", at: path) }
            out.append(s)
        }
        return out
    }
}
