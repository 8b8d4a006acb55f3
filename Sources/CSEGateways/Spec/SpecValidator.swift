import CSECore
import CSEValidation

/// Runs one ``GatewaySpec`` over one request: the parameter rows in order, then unknown
/// parameters, then the cross-field rules.
struct SpecValidator {
    let spec: GatewaySpec
    let request: GatewayMap
    let context: GatewayValidationContext

    func run() -> GatewayValidationResult {
        var errors: [FieldIssue] = []
        for parameter in spec.parameters {
            errors.append(contentsOf: check(parameter))
        }
        if spec.rejectsUnknownParameters {
            let known = Set(spec.parameters.map(\.name))
            for leaf in request.leaves where !Self.isCovered(leaf.path, by: known) {
                errors.append(FieldIssue(gatewayField: leaf.path, code: .unknownParameter))
            }
        }
        // A rule that breaks a field the rows already reported with the same code (AMEX's
        // 4-digit security code rule against a 5-digit code the row's max length caught) adds
        // nothing: each (field, code) pair is reported once, by the first check that found it.
        for rule in spec.rules where rule.conditions.allSatisfy(holds) {
            if let error = violation(of: rule), !errors.contains(where: { $0.field.isByteEqual(to: error.field) && $0.code == error.code })
            {
                errors.append(error)
            }
        }
        return GatewayValidationResult(errors: errors)
    }

    /// A leaf is covered when its path, or one of its ancestors, is a table row (an object sent
    /// where a value is expected is reported once, as `type`, on the row).
    static func isCovered(_ path: String, by known: Set<String>) -> Bool {
        if known.containsByteEqual(path) { return true }
        var prefix = Substring(path)
        while let dot = prefix.lastIndex(of: ".") {
            prefix = prefix[..<dot]
            if known.containsByteEqual(String(prefix)) { return true }
        }
        return false
    }

    func value(_ field: String) -> ParameterValue { ParameterValue(request[at: field]) }

    func error(_ parameter: ParameterSpec, _ code: ValidationCode, _ limits: [String: String] = [:]) -> FieldIssue {
        FieldIssue(gatewayField: parameter.name, code: code, limits: limits, gatewayCode: parameter.gatewayCode(for: code))
    }

    func check(_ parameter: ParameterSpec) -> [FieldIssue] {
        let value = value(parameter.name)
        guard case .text(let text, let kind) = value else {
            if case .structured = value { return [error(parameter, .type, ["type": parameter.valueType.rawValue])] }
            return parameter.isRequired ? [error(parameter, .required)] : []
        }
        let typeOK: Bool
        switch parameter.valueType {
        case .string: typeOK = kind == .string
        case .number: typeOK = kind == .number
        case .boolean: typeOK = kind == .boolean
        default: typeOK = kind != .boolean
        }
        guard typeOK else { return [error(parameter, .type, ["type": parameter.valueType.rawValue])] }

        var errors: [FieldIssue] = []
        let length = text.unicodeScalars.count
        if let min = parameter.minLength, length < min {
            errors.append(error(parameter, .length, lengthLimits(parameter)))
        } else if let max = parameter.maxLength, length > max {
            errors.append(error(parameter, .length, lengthLimits(parameter)))
        }
        let charactersOK = kind == .boolean || parameter.characters.allowsAll(text)
        if !charactersOK {
            var limits = ["class": parameter.characters.base.rawValue]
            if !parameter.characters.specials.isEmpty { limits["specials"] = parameter.characters.specialsString }
            errors.append(error(parameter, .characters, limits))
        }
        if let allowed = parameter.allowedValues, !allowed.containsByteEqual(text) {
            errors.append(error(parameter, .allowedValues, ["allowedValues": allowed.joined(separator: ",")]))
        }
        if charactersOK, let format = parameter.format,
            let failure = FormatChecks.check(format, text: text, kind: kind, in: self),
            !errors.contains(where: { $0.code == failure.code })
        {
            errors.append(error(parameter, failure.code, failure.limits))
        }
        return errors
    }

    func lengthLimits(_ parameter: ParameterSpec) -> [String: String] {
        var limits: [String: String] = [:]
        if let min = parameter.minLength { limits["minLength"] = String(min) }
        if let max = parameter.maxLength { limits["maxLength"] = String(max) }
        return limits
    }

    func holds(_ condition: CrossFieldRule.Condition) -> Bool {
        switch condition {
        case .valueIn(let field, let values):
            guard let text = value(field).text else { return false }
            return values.containsByteEqual(text)
        case .present(let field, let expected):
            return value(field).isPresent == expected
        case .contextIn(let key, let values):
            guard let actual = context.values[key] else { return false }
            return values.containsByteEqual(actual)
        }
    }

    func violation(of rule: CrossFieldRule) -> FieldIssue? {
        let field = rule.requirement.field
        let current = value(field)
        let code: ValidationCode
        var limits = ["rule": rule.id]
        switch rule.requirement {
        case .required:
            guard !current.isPresent else { return nil }
            code = .required
        case .absent:
            guard current.isPresent else { return nil }
            code = .notAllowed
        case .valueIn(_, let values, let allowAbsent):
            if !current.isPresent && allowAbsent { return nil }
            if let text = current.text, values.containsByteEqual(text) { return nil }
            code = current.isPresent ? .allowedValues : .required
            limits["allowedValues"] = values.joined(separator: ",")
        case .lengthIn(_, let lengths):
            guard let text = current.text else { return nil }
            let count = text.unicodeScalars.filter { $0 != " " }.count
            guard !lengths.contains(count) else { return nil }
            code = .length
            limits["allowedLengths"] = lengths.map(String.init).joined(separator: ",")
        }
        let gatewayCode = rule.gatewayCode ?? spec.parameter(named: field)?.gatewayCode(for: code)
        return FieldIssue(gatewayField: field, code: code, limits: limits, gatewayCode: gatewayCode)
    }
}
