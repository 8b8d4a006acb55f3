"""The signed notification deliveries of server_api_emulator.py (every platform)."""


import base64
import hashlib
import hmac
import json

import emulator
from server_api_common import COUNTER, app, args

from server_api_mastercard import TRANSACTIONS
from server_api_worldline import PAYMENTS

# ---------------------------------------------------------------------------------------------
# Notifications (research notes §1.4, §2.4, §4.4, §6): each GET /test/<platform>-webhook/… answers
# the delivery the platform would POST, {"headers": [[name, value], …], "body": "<raw text>"},
# signed or authenticated HERE (Python hmac/hashlib/base64), so a test hands it to the verifier
# exactly as received. ?mode= makes one delivery misbehave:
#   Worldline  ?type=payment.captured (default) | payment.refunded | payment.cancelled |
#              payment.rejected_capture …; mode=bad-signature
#   Mastercard mode=wrong-secret | no-secret | duplicate (X-Notification-Secret twice) |
#              joined (one header "secret, secret")
#   Paysafe    ?eventType=PAYMENT_COMPLETED (default); mode=bad-signature | pretty-body (the body
#              re-indented after signing: whitespace differs from what was signed)

# The status, category and legacy status code a Worldline payment reaches with each event type.
WORLDLINE_EVENT_STATUS = {
    "payment.pending_capture": ("PENDING_CAPTURE", "PENDING_MERCHANT", 5),
    "payment.capture_requested": ("CAPTURE_REQUESTED", "PENDING_CONNECT_OR_3RD_PARTY", 91),
    "payment.captured": ("CAPTURED", "COMPLETED", 9),
    "payment.refund_requested": ("REFUND_REQUESTED", "PENDING_CONNECT_OR_3RD_PARTY", 81),
    "payment.refunded": ("REFUNDED", "REFUNDED", 8),
    "payment.cancelled": ("CANCELLED", "UNSUCCESSFUL", 6),
    "payment.rejected_capture": ("REJECTED_CAPTURE", "UNSUCCESSFUL", 93),
    # 3-D Secure (research notes §6.1): the payer sent away, and a failed authentication.
    "payment.redirected": ("REDIRECTED", "PENDING_PAYMENT", 46),
    "payment.rejected": ("REJECTED", "UNSUCCESSFUL", 2),
}


def delivery(headers, body):
    return emulator.Response.json({"headers": headers, "body": body})


def notification_routes(platform):
    if platform == "worldline":
        @app.route("GET", r"/test/worldline-webhook/(?P<id>[^/]+)")
        def worldline_webhook(request, match):
            query = dict(request.query_items())
            kind = query.get("type", "payment.captured")
            status, category, code = WORLDLINE_EVENT_STATUS.get(kind, ("CREATED", "CREATED", 0))
            with app.lock:
                COUNTER[0] += 1
                number = COUNTER[0]
                stored = PAYMENTS.get(match.group("id"))
            payment = dict(stored) if stored else {"id": match.group("id"), "paymentOutput": {
                "amountOfMoney": {"amount": 2345, "currencyCode": "EUR"}, "references": {"merchantReference": "order-1"}}}
            payment.update(status=status, statusOutput={"statusCategory": category, "statusCode": code,
                                                        "isAuthorized": status in ("PENDING_CAPTURE", "CAPTURE_REQUESTED")})
            event = {"apiVersion": "v1", "id": f"8ee793f6-4553-4749-85dc-{number:012d}",
                     "created": "2026-12-05T20:00:00.000+0100", "merchantId": args().merchant_id, "type": kind,
                     "payment": payment}
            body = json.dumps(event, indent=2)
            secret = args().webhook_secret + ("x" if query.get("mode") == "bad-signature" else "")
            signature = base64.b64encode(hmac.new(secret.encode(), body.encode(), hashlib.sha256).digest()).decode()
            return delivery([["X-GCS-Signature", signature], ["X-GCS-KeyId", args().webhook_key_id],
                             ["Content-Type", "application/json"]], body)
    elif platform == "mastercard":
        @app.route("GET", r"/test/mastercard-webhook/(?P<order>[^/]+)/(?P<txn>[^/]+)")
        def mastercard_webhook(request, match):
            known = TRANSACTIONS.get((match.group("order"), match.group("txn")))
            if not known:
                return emulator.Response.json({"error": "no such transaction"}, 404)
            mode = dict(request.query_items()).get("mode", "normal")
            secret = args().notification_secret
            with app.lock:
                COUNTER[0] += 1
                number = COUNTER[0]
            headers = [["Content-Type", "application/json"], ["X-Notification-Id", f"0c5a4b6e-0000-4000-8000-{number:012d}"],
                       ["X-Notification-Attempt", "1"]]
            if mode == "wrong-secret":
                headers.append(["X-Notification-Secret", secret[:-1] + ("A" if secret[-1:] != "A" else "B")])
            elif mode == "duplicate":
                headers += [["X-Notification-Secret", secret], ["X-Notification-Secret", secret]]
            elif mode == "joined":
                headers.append(["X-Notification-Secret", secret + ", " + secret])
            elif mode != "no-secret":
                headers.append(["X-Notification-Secret", secret])
            return delivery(headers, known[2].decode("utf-8"))
    elif platform == "paysafe":
        @app.route("GET", r"/test/paysafe-webhook/(?P<id>[^/]+)")
        def paysafe_webhook(request, match):
            query = dict(request.query_items())
            event = {"id": match.group("id"), "eventType": query.get("eventType", "PAYMENT_COMPLETED"),
                     "eventDate": "2026-12-05T19:00:00Z", "payload": {"id": "pay-" + match.group("id"), "status": "COMPLETED",
                     "card": {"cardNum": "4111111111111111", "lastDigits": "1111"}},
                     "links": [{"rel": "payment", "href": "http://127.0.0.1/paymenthub/v1/payments/pay-" + match.group("id")}]}
            body = json.dumps(event, separators=(",", ":"))
            key = base64.b64decode(args().webhook_key, validate=True)
            if query.get("mode") == "bad-signature":
                key = args().webhook_key.encode()  # the base64 text, not the key (V-PS-2)
            signature = base64.b64encode(hmac.new(key, body.encode(), hashlib.sha256).digest()).decode()
            if query.get("mode") == "pretty-body":
                body = json.dumps(event, indent=2)
            return delivery([["Signature", signature], ["Content-Type", "application/json"]], body)


