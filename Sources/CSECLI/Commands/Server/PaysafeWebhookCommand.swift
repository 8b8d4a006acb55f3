import CSECore
import CSEServerAPI

/// `cse paysafe webhook-verify`: checks a Paysafe webhook's `Signature` over the raw body.
struct PaysafeWebhookVerifyCommand: CLICommand {
    static let spec = CommandSpec(
        name: "paysafe webhook-verify",
        abstract: "Verify a Paysafe webhook's Signature over the raw body on standard input.",
        discussion: """
            Reads the body exactly as received (at most 1 MiB) and checks that --signature (the
            Signature header) is base64 of HMAC-SHA256 of it, keyed with the webhook key's bytes:
            --key-file holds the key as Paysafe's console shows it, base64 text, which cse decodes
            (the text itself is not the key). Compared in constant time. Prints
            {"valid":true,"id","eventType","notification":{…}} with card numbers masked and exits
            0; a wrong signature is paysafe.webhook.signature, a signed body that is not a JSON
            object paysafe.webhook.malformed: exit 1, nothing on stdout, nothing of the body on
            stderr. Paysafe's events are minimal: fetch the linked resource before acting.
            """,
        options: Options.self)

    /// The options of `cse paysafe webhook-verify`.
    struct Options: CommandOptions {
        let keyFile: OptionKey<String>
        let signature: OptionKey<String>

        init(_ declare: inout OptionDeclarations) {
            keyFile = declare.required("key-file", "FILE", help: "The webhook HMAC key as base64 text, as Paysafe's console shows it.")
            signature = declare.required("signature", "SIG", help: "The Signature header value.")
        }
    }

    let keyPath: String
    let signature: String

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        keyPath = arguments[\.keyFile]
        signature = arguments[\.signature]
    }

    func run() throws(CSEError) -> Int32 {
        let key = try PaysafeWebhook.key(base64: try ServerSecretFile.read(keyPath))
        let body = try NotificationInput.body()
        let notification = try PaysafeWebhook.verifiedNotification(signature: signature, body: body, key: key)
        JSONLine.write(
            .object(
                JSONObject([
                    ("valid", .bool(true)), ("id", notification.id.map(JSONValue.string) ?? .null),
                    ("eventType", notification.eventType.map(JSONValue.string) ?? .null), ("notification", notification.maskedValue),
                ])))
        return ExitCode.success
    }
}
