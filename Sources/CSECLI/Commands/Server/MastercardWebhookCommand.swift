import CSECore
import CSEServerAPI

/// `cse mastercard webhook-verify`: checks a Mastercard Gateway webhook notification's
/// `X-Notification-Secret` and prints the transaction it carries.
struct MastercardWebhookVerifyCommand: CLICommand {
    static let spec = CommandSpec(
        name: "mastercard webhook-verify",
        abstract: "Verify a Mastercard Gateway webhook notification (headers as options, raw body on standard input).",
        discussion: """
            Give every header of the delivery as received with --header 'NAME: VALUE'
            (repeatable), or keep them off the command line (the secret header is a secret) in
            --headers-file, one 'NAME: VALUE' per line; both may be combined.
            X-Notification-Secret must occur exactly once, as one value (not a comma-joined list),
            and equal the notification secret of --secret-file, compared in constant time; only then
            is the body read, as the RETRIEVE TRANSACTION JSON it carries. Prints
            {"valid":true,"notificationId","attempt","transaction":{…}} with card numbers masked
            and exits 0; deduplicate on notificationId, and treat RETRIEVE TRANSACTION ('cse
            mastercard retrieve') as the authority. A missing, repeated or comma-joined header is
            mastercard.webhook.header, a wrong secret mastercard.webhook.secret, a body that is no
            transaction mastercard.webhook.malformed: exit 1, nothing on stdout, nothing of the
            body or the headers' values on stderr. The body is read raw, at most 1 MiB.
            """,
        options: Options.self)

    /// The options of `cse mastercard webhook-verify`.
    struct Options: CommandOptions {
        let secretFile: OptionKey<String>
        let header: OptionKey<[String]>
        let headersFile: OptionKey<String?>

        init(_ declare: inout OptionDeclarations) {
            secretFile = declare.required("secret-file", "FILE", help: "The notification secret of Merchant Administration.")
            header = declare.repeated("header", "HEADER", help: "A header of the delivery as received, as 'NAME: VALUE' (repeatable).")
            headersFile = declare.value(
                "headers-file", "FILE", help: "The delivery's headers, one 'NAME: VALUE' per line (keeps the secret off the command line).")
        }
    }

    let secretPath: String
    let headers: [(name: String, value: String)]
    let headersPath: String?

    init(arguments: ParsedArguments<Options>) throws(UsageError) {
        secretPath = arguments[\.secretFile]
        var headers: [(name: String, value: String)] = []
        for argument in arguments[\.header] { headers.append(try NotificationInput.header(argument)) }
        self.headers = headers
        headersPath = arguments[\.headersFile]
    }

    func run() throws(CSEError) -> Int32 {
        let secret = try ServerSecretFile.read(secretPath)
        let body = try NotificationInput.body()
        var fields = headers
        if let headersPath {
            fields += try NotificationInput.headers(file: headersPath) { line in
                CSEError(.mastercardWebhookHeader, "a line of the headers file is not 'NAME: VALUE'", context: ["line": String(line)])
            }
        }
        let notification = try MastercardWebhook.verifiedNotification(body: body, headers: fields, secret: secret)
        var members: [(String, JSONValue)] = [("valid", .bool(true))]
        members.append(("notificationId", notification.notificationID.map(JSONValue.string) ?? .null))
        members.append(("attempt", notification.attempt.map { .number(String($0)) } ?? .null))
        members.append(("transaction", notification.transaction.maskedValue))
        JSONLine.write(.object(JSONObject(members)))
        return ExitCode.success
    }
}
