import Foundation

/// The payer's browser in a Mastercard Gateway 3-D Secure challenge against the loopback emulator
/// (emulator rules §6.2): it submits the challenge form of `authentication.redirect.html` to the
/// emulator's ACS with the payer's answer, and reads the page the ACS answers, the form the browser
/// would then POST to the merchant's return URL. Python's `urllib` does the HTTP, as the emulators
/// themselves are Python.
public enum MastercardChallenge {
    /// What the ACS answered.
    public struct Return: Sendable {
        /// The HTTP status of the ACS's answer (200, or 409 for a challenge already completed).
        public let status: Int
        /// The return form's `action`: the merchant's return URL.
        public let action: String
        /// The return form's fields (`order.id`, `transaction.id`, `result`,
        /// `response.gatewayRecommendation`), unsigned.
        public let fields: [String: String]
    }

    /// Completes the challenge whose form is in `html`, the payer answering `outcome` (`Y`
    /// authenticated, `N` not).
    public static func complete(_ html: String, outcome: String = "Y") throws -> Return {
        let script = #"""
            import json, re, sys, urllib.error, urllib.parse, urllib.request
            html, outcome = sys.argv[1], sys.argv[2]
            action = re.search(r'action="([^"]+)"', html).group(1)
            request = urllib.request.Request(action, data=urllib.parse.urlencode({"outcome": outcome}).encode(), method="POST")
            try:
                # No proxy: ProxyEnvironmentTests sets http_proxy in the test process meanwhile.
                with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(request, timeout=30) as response:
                    status, page = response.status, response.read().decode()
            except urllib.error.HTTPError as error:
                status, page = error.code, error.read().decode()
            found = re.search(r'<form[^>]*action="([^"]*)"', page)
            fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', page))
            print(json.dumps({"status": status, "action": found.group(1) if found else "", "fields": fields}))
            """#
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, html, outcome]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let status = object["status"] as? Int, let action = object["action"] as? String,
            let fields = object["fields"] as? [String: String]
        else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return Return(status: status, action: action.replacingOccurrences(of: "&amp;", with: "&"), fields: fields)
    }
}
