"""What the platform emulators of server_api_emulator.py share: the one Emulator, its command
line (every platform's options, so one argument list starts any platform), the running number
behind every id the emulators make, and small helpers."""



import emulator


app = emulator.Emulator("server-api")
app.argparser.add_argument("--platform", required=True, choices=["worldline", "aps", "mastercard", "paysafe"])
app.argparser.add_argument("--mode", default="normal")
# Worldline
app.argparser.add_argument("--merchant-id", default="1234")
app.argparser.add_argument("--api-key-id", default="5e45c937b9db33ae")
app.argparser.add_argument("--secret-api-key", default="")
app.argparser.add_argument("--client-api-url", default="https://client.example/client")
# Worldline capture and refund: the status a capture and a refund answer (issue #33).
app.argparser.add_argument("--worldline-capture-status", default="CAPTURE_REQUESTED", choices=["CAPTURE_REQUESTED", "CAPTURED"])
app.argparser.add_argument("--worldline-refund-status", default="REFUND_REQUESTED", choices=["REFUND_REQUESTED", "REFUNDED"])
# APS
app.argparser.add_argument("--access-code", default="zx0IPmPy5jp1vAz8Kpg7")
app.argparser.add_argument("--merchant-identifier", default="CycHZxVj")
app.argparser.add_argument("--request-phrase", default="")
app.argparser.add_argument("--response-phrase", default="")
app.argparser.add_argument("--sha-type", default="sha256")
app.argparser.add_argument("--apple-access-code", default="AppleAccessCode01")
app.argparser.add_argument("--apple-request-phrase", default="")
app.argparser.add_argument("--apple-response-phrase", default="")
# Mastercard
app.argparser.add_argument("--api-password", default="")
# Paysafe: each key opens its own API, as on the platform (research notes §4): --api-key the
# Customer Vault (single-use tokens), --payments-key the Payments and Card Payments APIs (the
# server-to-server key; --api-key as well when it is not given).
app.argparser.add_argument("--api-key", default="")
app.argparser.add_argument("--payments-key", default="")
# Paysafe settlements and refunds start PENDING (until batched) unless this says COMPLETED.
app.argparser.add_argument("--settlement-status", default="PENDING", choices=["PENDING", "COMPLETED"])
# Notifications (webhooks): the Worldline webhook secret and its key id, the Mastercard
# notification secret, the Paysafe webhook key as base64 text (as Paysafe's console shows it).
app.argparser.add_argument("--webhook-secret", default="")
app.argparser.add_argument("--webhook-key-id", default="dummy-key-id")
app.argparser.add_argument("--notification-secret", default="")
app.argparser.add_argument("--webhook-key", default="")


# The running number behind every id the emulators make (payments, sessions, tokens).
COUNTER = [0]
# ISO 4217 exponents of the currencies the tests use.
MINOR_UNITS = {"EUR": 2, "USD": 2, "GBP": 2, "JPY": 0, "KWD": 3, "BHD": 3, "SAR": 2}


def args():
    return app.args
