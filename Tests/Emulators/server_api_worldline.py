"""The Worldline Direct emulator of server_api_emulator.py."""


import base64
import calendar
import hashlib
import hmac
import json
import re
import secrets
import time

import emulator
from server_api_common import COUNTER, app, args


SESSIONS = {}
# Worldline idempotence: key -> (status, body) of the finished first attempt, or None while it runs.
IDEMPOTENCE = {}
# Worldline CreateSession: the idempotence key of every session actually created.
CREATED_SESSIONS = []
PAYMENTS = {}

# ---------------------------------------------------------------------------------------------
# Worldline: GCS v1HMAC (the Worldline server SDKs' V1HmacAuthenticator, re-implemented here).
# Idempotence (research notes §1.3): a CreatePayment with an X-GCS-Idempotence-Key already seen
# answers the first attempt's status and body again with X-GCS-Idempotence-Request-Timestamp, and
# creates nothing; while the first attempt runs, 409 DUPLICATE_REQUEST_IN_PROGRESS. A key longer
# than 40 characters is a 400. GET /v2/{merchant}/payments/{id} answers a created payment.
# MODES: normal, session-in-progress (CreateSession answers 409 DUPLICATE_REQUEST_IN_PROGRESS), reject (CreatePayment answers 402 with a paymentResult), error500 (HTML 500),
#        error502 (a 502 error body without retriable), error503-retriable (every error retriable),
#        2xx-STATUS (CreatePayment answers 201 with that payment status and the statusCategory the
#        Direct API groups it under, e.g. 2xx-REJECTED, 2xx-CANCELLED), 2xx-STATUS-uncategorised
#        (the same without statusOutput.statusCategory).

# The Direct API's status categories of the statuses the emulator can answer with.
STATUS_CATEGORIES = {
    "REJECTED": "UNSUCCESSFUL", "CANCELLED": "UNSUCCESSFUL", "REJECTED_CAPTURE": "UNSUCCESSFUL",
    "PENDING_CAPTURE": "PENDING_MERCHANT", "CAPTURED": "COMPLETED", "REDIRECTED": "PENDING_PAYMENT",
    "PENDING_APPROVAL": "PENDING_MERCHANT", "PENDING_FRAUD_APPROVAL": "PENDING_MERCHANT",
}

def worldline_string_to_sign(request):
    content_type, date, gcs = "", "", []
    for name, value in request.headers:
        lower = name.lower()
        if lower == "content-type":
            content_type = value
        elif lower == "date":
            date = value
        elif lower.startswith("x-gcs"):
            gcs.append((lower, re.sub(r"\r?\n[ \t\x0b\x0c]*", " ", value).strip()))
    gcs.sort(key=lambda item: item[0])
    text = request.method.upper() + "\n" + content_type + "\n" + date + "\n"
    text += "".join(f"{name}:{value}\n" for name, value in gcs)
    text += request.path + (("?" + request.query) if request.query is not None else "") + "\n"
    return text


def worldline_unauthorized(reason):
    return emulator.Response.json({"errorId": "emulator-" + reason, "errors": [
        {"errorCode": "9002", "httpStatusCode": 401, "id": "MISSING_OR_INVALID_AUTHORIZATION", "message": reason}]}, 401)


def worldline_check(request, merchant):
    auth = request.header("Authorization") or ""
    prefix = "GCS v1HMAC:" + args().api_key_id + ":"
    if not auth.startswith(prefix):
        return worldline_unauthorized("unknown-key")
    expected = base64.b64encode(hmac.new(args().secret_api_key.encode(), worldline_string_to_sign(request).encode(),
                                         hashlib.sha256).digest()).decode()
    if not hmac.compare_digest(auth[len(prefix):], expected):
        return worldline_unauthorized("bad-signature")
    try:
        sent = calendar.timegm(time.strptime(request.header("Date") or "", "%a, %d %b %Y %H:%M:%S GMT"))
    except ValueError:
        return worldline_unauthorized("bad-date")
    if abs(sent - time.time()) > 900:
        return worldline_unauthorized("stale-date")
    if merchant != args().merchant_id:
        return emulator.Response.json({"errorId": "e-merchant", "errors": [{"id": "ACCESS_TO_MERCHANT_NOT_ALLOWED",
                                                                          "errorCode": "9007"}]}, 403)
    return None


def worldline_invalid(name):
    return emulator.Response.json({"errorId": "e-400", "errors": [
        {"errorCode": "21000020", "id": "PARAMETER_NOT_FOUND_IN_REQUEST", "propertyName": name}]}, 400)


def worldline_check_mobile(mobile):
    """mobilePaymentMethodSpecificInput with decryptedPaymentData (research notes §1.5, §6): product 302
    or 320, 320 with its 3-D Secure return URL, exactly the five decryptedPaymentData members, the
    expiry MMYY, the ECI an integer."""
    product = mobile.get("paymentProductId")
    data = mobile.get("decryptedPaymentData")
    if product not in (302, 320):
        return worldline_invalid("mobilePaymentMethodSpecificInput.paymentProductId")
    if product == 320 and not mobile.get("paymentProduct320SpecificInput", {}).get("threeDSecure", {}).get(
            "redirectionData", {}).get("returnUrl"):
        return worldline_invalid("mobilePaymentMethodSpecificInput.paymentProduct320SpecificInput")
    if not isinstance(data, dict) or set(data) - {"dpan", "expiryDate", "cryptogram", "eci", "cardholderName"}:
        return worldline_invalid("mobilePaymentMethodSpecificInput.decryptedPaymentData")
    if not re.fullmatch(r"\d{12,19}", str(data.get("dpan", ""))) or not re.fullmatch(r"(0[1-9]|1[0-2])\d\d", str(data.get("expiryDate", ""))):
        return worldline_invalid("mobilePaymentMethodSpecificInput.decryptedPaymentData.dpan")
    if "eci" in data and (not isinstance(data["eci"], int) or isinstance(data["eci"], bool)):
        return worldline_invalid("mobilePaymentMethodSpecificInput.decryptedPaymentData.eci")
    return None


def worldline_routes():
    def idempotent(request, create):
        """Runs create once per X-GCS-Idempotence-Key: a repeat gets the first answer again, or 409
        while the first still runs (research notes §1.3)."""
        key = request.header("X-GCS-Idempotence-Key")
        if key is not None:
            if len(key) > 40 or not key.isascii():
                return emulator.Response.json({"errorId": "e-key", "errors": [
                    {"id": "INVALID_IDEMPOTENCE_KEY", "errorCode": "21000120", "httpStatusCode": 400}]}, 400)
            with app.lock:
                known = key in IDEMPOTENCE
                first = IDEMPOTENCE.get(key)
                if not known:
                    IDEMPOTENCE[key] = None
            if known:
                stamp = [("X-GCS-Idempotence-Request-Timestamp", str(int(time.time() * 1000)))]
                if first is None:
                    return emulator.Response.json({"errorId": "e-409", "errors": [
                        {"id": "DUPLICATE_REQUEST_IN_PROGRESS", "httpStatusCode": 409}]}, 409, stamp)
                return emulator.Response(first[0], first[1], [("Content-Type", "application/json")] + stamp)
        response = create(request)
        if key is not None:
            with app.lock:
                IDEMPOTENCE[key] = (response.status, response.body)
        return response

    def create_session(request):
        tokens = request.json().get("tokens", []) if request.body else []
        with app.lock:
            CREATED_SESSIONS.append(request.header("X-GCS-Idempotence-Key"))
        return emulator.Response.json({
            "assetUrl": "https://assets.example/", "clientApiUrl": args().client_api_url,
            "clientSessionId": "68a4b0b183a34016b4b694b97938f75b", "customerId": "cf7d7aafd42e4a1cb9e4b0624a5041b1",
            "invalidTokens": [t for t in tokens if t.startswith("bad") or t in DELETED_TOKENS]}, 201)

    @app.route("POST", r"/v2/(?P<merchant>[^/]+)/sessions")
    def sessions(request, match):
        refused = worldline_check(request, match.group("merchant"))
        if refused:
            return refused
        if args().mode == "session-in-progress":
            return emulator.Response.json({"errorId": "e-409", "errors": [
                {"id": "DUPLICATE_REQUEST_IN_PROGRESS", "httpStatusCode": 409}]}, 409)
        return idempotent(request, create_session)

    @app.route("GET", r"/test/worldline-sessions")
    def created_sessions(request, match):
        with app.lock:
            return emulator.Response.json({"created": len(CREATED_SESSIONS), "keys": list(CREATED_SESSIONS)}, 200)

    @app.route("POST", r"/v2/(?P<merchant>[^/]+)/payments")
    def payments(request, match):
        refused = worldline_check(request, match.group("merchant"))
        if refused:
            return refused
        return idempotent(request, create_payment)

    @app.route("GET", r"/v2/(?P<merchant>[^/]+)/payments/(?P<id>[^/]+)")
    def get_payment(request, match):
        refused = worldline_check(request, match.group("merchant"))
        if refused:
            return refused
        payment = PAYMENTS.get(match.group("id"))
        if payment is None:
            return emulator.Response.json({"errorId": "e-404", "errors": [
                {"id": "UNKNOWN_PAYMENT_ID", "errorCode": "1002", "httpStatusCode": 404}]}, 404)
        return emulator.Response.json(payment)

    def create_payment(request):
        if args().mode == "error502":
            return emulator.Response.json({"errorId": "e-502", "errors": [
                {"id": "PROCESSING_ERROR", "errorCode": "20001111", "httpStatusCode": 502}]}, 502)
        if args().mode == "error503-retriable":
            return emulator.Response.json({"errorId": "e-503", "errors": [
                {"id": "SERVICE_UNAVAILABLE", "errorCode": "20001112", "httpStatusCode": 503, "retriable": True}]}, 503)
        if args().mode == "error500":
            return emulator.Response(500, b"<html>internal error</html>", [("Content-Type", "text/html")])
        body = request.json()
        jwe = body.get("encryptedCustomerInput", "")
        mobile = body.get("mobilePaymentMethodSpecificInput")
        money = body.get("order", {}).get("amountOfMoney", {})
        sealed_wallet = False
        if mobile is not None and "encryptedCustomerInput" in body:
            # A Google Pay token sealed into encryptedCustomerInput travels with product 320's
            # 3-D Secure input beside it, and no card data (research notes §1.5, route 1).
            sealed_320 = (mobile.get("paymentProductId") == 320 and "decryptedPaymentData" not in mobile
                          and mobile.get("paymentProduct320SpecificInput", {}).get("threeDSecure", {}).get(
                              "redirectionData", {}).get("returnUrl"))
            if not sealed_320:
                return worldline_invalid("mobilePaymentMethodSpecificInput")
            mobile, sealed_wallet = None, True
        card_input = body.get("cardPaymentMethodSpecificInput", {})
        saved = None
        if mobile is not None:
            refused = worldline_check_mobile(mobile)
            if refused:
                return refused
        elif not sealed_wallet:
            refused = worldline_check_card_input(card_input)
            if refused:
                return refused
            if "token" in card_input:
                with app.lock:
                    saved = TOKENS.get(card_input["token"])
                if saved is None:
                    return worldline_unknown_token()
                if "encryptedCustomerInput" in body and len(jwe.split(".")) != 5:
                    return worldline_invalid("encryptedCustomerInput")
            elif len(jwe.split(".")) != 5:
                return worldline_invalid("encryptedCustomerInput")
        elif len(jwe.split(".")) != 5:
            return worldline_invalid("encryptedCustomerInput")
        if not isinstance(money.get("amount"), int) or len(money.get("currencyCode", "")) != 3:
            return worldline_invalid("order.amountOfMoney")
        card = dict(saved["card"]) if saved else worldline_card_of(jwe)
        with app.lock:
            COUNTER[0] += 1
            number = COUNTER[0]
        payment = {"id": f"30660197{number:02d}_0", "paymentOutput": {
            "amountOfMoney": money, "references": body.get("order", {}).get("references", {}),
            "paymentMethod": "card", "cardPaymentMethodSpecificOutput": {
                "paymentProductId": worldline_product_of(card["cardNumber"]),
                "card": {"cardNumber": card["cardNumber"], "expiryDate": card["expiryDate"]}}}}
        if mobile is not None:
            data = mobile["decryptedPaymentData"]
            del payment["paymentOutput"]["cardPaymentMethodSpecificOutput"]
            payment["paymentOutput"].update(paymentMethod="mobile", mobilePaymentMethodSpecificOutput={
                "paymentProductId": mobile["paymentProductId"], "network": "VISA",
                "paymentData": {"dpan": data["dpan"], "expiryDate": data["expiryDate"]}})
        if args().mode == "reject":
            payment.update({"status": "REJECTED", "statusOutput": {"statusCode": 2, "isAuthorized": False}})
            PAYMENTS[payment["id"]] = payment
            # A platform message may echo what it received: for wallet data, every value of it.
            echoed = " ".join(str(v) for v in (mobile or {}).get("decryptedPaymentData", {}).values()) or "4111111111111111"
            return emulator.Response.json({"errorId": "e-402", "errors": [
                {"code": "30511001", "message": f"VALUE {echoed} DECLINED"}], "paymentResult": {"payment": payment}}, 402)
        if args().mode.startswith("2xx-"):
            status = args().mode[4:].removesuffix("-uncategorised")
            output = {"statusCode": 2, "isAuthorized": False}
            if not args().mode.endswith("-uncategorised"):
                output["statusCategory"] = STATUS_CATEGORIES[status]
            payment.update({"status": status, "statusOutput": output})
            PAYMENTS[payment["id"]] = payment
            return emulator.Response.json({"creationOutput": {"additionalReference": "1"}, "payment": payment}, 201)
        # The authorisation mode (research notes §1.2): a card's, or a sealed Google Pay token's beside
        # its 3-D Secure input; PRE_AUTHORIZATION when the request names none.
        mode = (body.get("cardPaymentMethodSpecificInput", {}).get("authorizationMode")
                or body.get("mobilePaymentMethodSpecificInput", {}).get("authorizationMode") or "PRE_AUTHORIZATION")
        if mode not in ("FINAL_AUTHORIZATION", "PRE_AUTHORIZATION", "SALE"):
            return worldline_refusal(400, "INVALID_VALUE", "cardPaymentMethodSpecificInput.authorizationMode")
        if saved is not None or (mobile is None and not sealed_wallet):
            # A card (sealed, or saved): 3-D Secure and card-on-file (research notes §1.1, §1.3, §6.1).
            return worldline_card_payment(request, payment, card, card_input, mode)
        if mode == "SALE":
            payment.update({"status": "CAPTURED", "statusOutput": {
                "isCancellable": False, "statusCategory": "COMPLETED", "statusCode": 9, "isAuthorized": True}})
        else:
            payment.update({"status": "PENDING_CAPTURE", "statusOutput": {
                "isCancellable": True, "statusCategory": "PENDING_MERCHANT", "statusCode": 5, "isAuthorized": True}})
        with app.lock:
            PAYMENTS[payment["id"]] = payment
            worldline_ledger_open(payment, mode)
        return emulator.Response.json({"creationOutput": {"additionalReference": "1"}, "payment": payment}, 201)

    worldline_lifecycle_routes(idempotent)
    worldline_three_d_secure_routes()
    worldline_token_routes()



# ---------------------------------------------------------------------------------------------
# Worldline capture, refund and cancel (research notes §1.2 and §6.1; issue #33). Every payment
# CreatePayment makes gets a ledger: its authorisation mode, the authorised, captured, refunded
# and cancelled amounts, and its operations, each with its own id (the payment id's first part
# and the next `_k` suffix) and merchant reference. The rules are checked here, never trusted
# from the client: capture ≤ authorised − captured − cancelled (no amount: all of it, final);
# a FINAL_AUTHORIZATION is captured in full (a partial capture that is not final is a 400);
# refund only of a captured payment, ≤ captured − refunded, in the order's currency; cancel
# only while nothing is captured, ≤ what is still authorised, in the order's currency. Amount
# rules answer 400 `INVALID_VALUE` naming the member; an operation the state does not allow
# answers 409 `ACTION_NOT_ALLOWED_ON_TARGET` (the exact ids are not published: research notes
# §7.1); an unknown payment 404 `UNKNOWN_PAYMENT_ID`. All three calls keep the CreatePayment
# idempotence (`idempotent` above). Options: --worldline-capture-status (CAPTURE_REQUESTED or
# CAPTURED), --worldline-refund-status (REFUND_REQUESTED or REFUNDED); mode refund-declined
# answers a refund 402 with a refundResult REJECTED (and books nothing).
LEDGER = {}

OPERATION_STATUS = {
    "CAPTURE_REQUESTED": (91, "PENDING_CONNECT_OR_3RD_PARTY"), "CAPTURED": (9, "COMPLETED"),
    "REFUND_REQUESTED": (81, "PENDING_CONNECT_OR_3RD_PARTY"), "REFUNDED": (8, "REFUNDED"),
    "REJECTED": (83, "UNSUCCESSFUL"),
}


def worldline_ledger_open(payment, mode):
    money = payment["paymentOutput"]["amountOfMoney"]
    captured = money["amount"] if mode == "SALE" else 0
    LEDGER[payment["id"]] = {"mode": mode, "currency": money["currencyCode"], "authorised": money["amount"],
                             "captured": captured, "refunded": 0, "cancelled": 0, "captureFinal": mode == "SALE",
                             "refundFinal": False, "operations": []}


def worldline_refusal(status, error_id, name=None):
    entry = {"id": error_id, "errorCode": "21000130" if status == 400 else "1409000" + str(status), "httpStatusCode": status}
    if name:
        entry["propertyName"] = name
    return emulator.Response.json({"errorId": f"e-{status}", "errors": [entry]}, status)


def worldline_unknown_payment():
    return emulator.Response.json({"errorId": "e-404", "errors": [
        {"id": "UNKNOWN_PAYMENT_ID", "errorCode": "1002", "httpStatusCode": 404}]}, 404)


def worldline_operation(payment_id, ledger, kind, status, amount, reference, section):
    number = len(ledger["operations"]) + 1
    code, category = OPERATION_STATUS[status]
    output = {"amountOfMoney": {"amount": amount, "currencyCode": ledger["currency"]}}
    if reference is not None:
        output["operationReferences"] = {"merchantReference": reference}
    operation = {"id": payment_id.split("_")[0] + f"_{number}", "status": status,
                 "statusOutput": {"statusCode": code, "statusCategory": category}, section: output}
    ledger["operations"].append({"kind": kind, "operation": operation})
    return operation


def worldline_lifecycle_routes(idempotent):
    def target(request, match):
        """The payment of the path, or the answer that refuses the request."""
        refused = worldline_check(request, match.group("merchant"))
        if refused:
            return None, None, refused
        payment_id = match.group("id")
        with app.lock:
            payment, ledger = PAYMENTS.get(payment_id), LEDGER.get(payment_id)
        if payment is None or ledger is None:
            return None, None, worldline_unknown_payment()
        return payment, ledger, None

    def body_of(request):
        body = request.json() if request.body else {}
        return body if isinstance(body, dict) else None

    def reference_of(body):
        return body.get("operationReferences", {}).get("merchantReference")

    def operation(name):
        """Registers POST …/payments/{id}/<name>: the payment, its ledger and the JSON object body
        reach the handler, once per idempotence key (a repeat replays the first answer)."""
        def register(handle):
            @app.route("POST", r"/v2/(?P<merchant>[^/]+)/payments/(?P<id>[^/]+)/" + name)
            def route(request, match):
                payment, ledger, refused = target(request, match)
                if refused:
                    return refused

                def create(request):
                    body = body_of(request)
                    if body is None:
                        return worldline_invalid("body")
                    return handle(payment, ledger, body)
                return idempotent(request, create)
            return handle
        return register

    @operation("capture")
    def capture(payment, ledger, body):
        amount, final = body.get("amount"), body.get("isFinal", False)
        if amount is not None and (not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0):
            return worldline_refusal(400, "INVALID_VALUE", "amount")
        if not isinstance(final, bool):
            return worldline_refusal(400, "INVALID_VALUE", "isFinal")
        with app.lock:
            remaining = ledger["authorised"] - ledger["captured"] - ledger["cancelled"]
            if payment["status"] == "CANCELLED" or ledger["captureFinal"] or remaining <= 0:
                return worldline_refusal(409, "ACTION_NOT_ALLOWED_ON_TARGET")
            if amount is None:
                amount, final = remaining, True
            if amount > remaining:
                return worldline_refusal(400, "INVALID_VALUE", "amount")
            if ledger["mode"] == "FINAL_AUTHORIZATION" and amount < remaining and not final:
                return worldline_refusal(400, "INVALID_VALUE", "isFinal")
            ledger["captured"] += amount
            ledger["captureFinal"] = final or ledger["captured"] + ledger["cancelled"] == ledger["authorised"]
            status = args().worldline_capture_status
            operation = worldline_operation(payment["id"], ledger, "capture", status, amount, reference_of(body),
                                            "captureOutput")
            payment["status"] = status
            payment["statusOutput"] = {"statusCode": OPERATION_STATUS[status][0], "isCancellable": False,
                                       "statusCategory": OPERATION_STATUS[status][1], "isAuthorized": True}
        return emulator.Response.json(operation, 201)

    @operation("refund")
    def refund(payment, ledger, body):
        money = body.get("amountOfMoney")
        if not isinstance(money, dict):
            return worldline_invalid("amountOfMoney")
        amount, final = money.get("amount"), body.get("isFinal", False)
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            return worldline_refusal(400, "INVALID_VALUE", "amountOfMoney.amount")
        with app.lock:
            if money.get("currencyCode") != ledger["currency"]:
                return worldline_refusal(400, "INVALID_VALUE", "amountOfMoney.currencyCode")
            if ledger["captured"] == 0 or ledger["refundFinal"]:
                return worldline_refusal(409, "ACTION_NOT_ALLOWED_ON_TARGET")
            if amount > ledger["captured"] - ledger["refunded"]:
                return worldline_refusal(400, "INVALID_VALUE", "amountOfMoney.amount")
            if args().mode == "refund-declined":
                rejected = worldline_operation(payment["id"], ledger, "declined-refund", "REJECTED", amount,
                                               reference_of(body), "refundOutput")
                return emulator.Response.json({"errorId": "e-402", "errors": [
                    {"id": "REFUND_DECLINED", "errorCode": "30041001", "httpStatusCode": 402}],
                    "refundResult": rejected}, 402)
            ledger["refunded"] += amount
            ledger["refundFinal"] = bool(final)
            status = args().worldline_refund_status
            operation = worldline_operation(payment["id"], ledger, "refund", status, amount, reference_of(body),
                                            "refundOutput")
            payment["status"] = status
        return emulator.Response.json(operation, 201)

    @operation("cancel")
    def cancel(payment, ledger, body):
        money, final = body.get("amountOfMoney"), body.get("isFinal", False)
        with app.lock:
            remaining = ledger["authorised"] - ledger["captured"] - ledger["cancelled"]
            if ledger["captured"] > 0 or payment["status"] == "CANCELLED" or remaining <= 0:
                return worldline_refusal(409, "ACTION_NOT_ALLOWED_ON_TARGET")
            if money is None:
                amount = remaining
            else:
                amount = money.get("amount") if isinstance(money, dict) else None
                if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
                    return worldline_refusal(400, "INVALID_VALUE", "amountOfMoney.amount")
                if money.get("currencyCode") != ledger["currency"]:
                    return worldline_refusal(400, "INVALID_VALUE", "amountOfMoney.currencyCode")
                if amount > remaining:
                    return worldline_refusal(400, "INVALID_VALUE", "amountOfMoney.amount")
            ledger["cancelled"] += amount
            ledger["operations"].append({"kind": "cancel", "operation": {"amount": amount,
                                                                          "reference": reference_of(body)}})
            if amount == remaining or final:
                payment["status"] = "CANCELLED"
                payment["statusOutput"] = {"statusCode": 6, "statusCategory": "UNSUCCESSFUL",
                                           "isCancellable": False, "isAuthorized": False}
            answer = {"payment": payment}
        return emulator.Response.json(answer, 200)

    def listing(kind, section, request, match):
        payment, ledger, refused = target(request, match)
        if refused:
            return refused
        with app.lock:
            items = [entry["operation"] for entry in ledger["operations"] if entry["kind"] == kind]
        return emulator.Response.json({section: items}, 200)

    @app.route("GET", r"/v2/(?P<merchant>[^/]+)/payments/(?P<id>[^/]+)/captures")
    def captures(request, match):
        return listing("capture", "captures", request, match)

    @app.route("GET", r"/v2/(?P<merchant>[^/]+)/payments/(?P<id>[^/]+)/refunds")
    def refunds(request, match):
        return listing("refund", "refunds", request, match)

    @app.route("GET", r"/test/worldline-ledger/(?P<id>[^/]+)")
    def ledger_of(request, match):
        with app.lock:
            ledger = LEDGER.get(match.group("id"))
            if ledger is None:
                return worldline_unknown_payment()
            counts = {}
            for entry in ledger["operations"]:
                counts[entry["kind"]] = counts.get(entry["kind"], 0) + 1
            summary = {name: ledger[name] for name in ("mode", "currency", "authorised", "captured", "refunded", "cancelled")}
            summary["operations"] = counts
        return emulator.Response.json(summary, 200)


# ---------------------------------------------------------------------------------------------
# Worldline 3-D Secure and card-on-file tokens (research notes §1.1, §1.3 and §6.1; issues #34, #35).
#
# The card of an encryptedCustomerInput. This emulator holds no private key, so it cannot open a
# real JWE: a test that needs a particular card puts the JSON {"cardNumber","expiryDate"} base64url
# in the JWE's ciphertext part (the fourth); any other JWE stands for the default card
# 4111111111111111 (as before). The test cards (their behaviour, as the platform's test cards have):
#   4000000000001091  a 3-D Secure challenge (REDIRECT, or MOBILE_THREEDS_CHALLENGE with
#                     threeDSecure.deviceChannel AppBased);
#   4000000000001018  authentication failed without a challenge: REJECTED, authenticationStatus N;
#   4000000000001067  authentication unavailable: authorised, authenticationStatus U, liability merchant;
#   any other         frictionless: authorised, authenticationStatus Y, liability issuer;
#   4111111111111112  (not Luhn-valid) refused by the vault (CreateToken answers 400).
# Any request with threeDSecure.challengeIndicator challenge-required is challenged too. A
# challenge needs threeDSecure.redirectionData.returnUrl (400 PARAMETER_NOT_FOUND_IN_REQUEST
# otherwise); the deprecated cardPaymentMethodSpecificInput.returnUrl and .skipAuthentication are
# refused (400), so the client is seen to send only threeDSecure. skipAuthentication skips 3-D
# Secure (no threeDSecureResults). The payer: GET /acs/<paymentId>?outcome=success|fail|abandon
# (success → PENDING_CAPTURE or CAPTURED for SALE, flow challenge; fail → REJECTED; both then
# 302 to the return URL with RETURNMAC and paymentId appended, names set by
# --worldline-return-mac-name / --worldline-return-id-name; abandon → stays REDIRECTED).
# A payment that ends REDIRECTED is not tokenized (creationOutput.tokenizationSucceeded false).
#
# Card-on-file (the Direct API's CardPaymentMethodSpecificInput): isRecurring with either
# unscheduledCardOnFile indicator is a 400 ("not allowed if isRecurring is true"); a subsequent
# merchant-initiated payment (recurring sequence "recurring", or unscheduled "merchantInitiated")
# needs a token and is never challenged.
#
# Tokens: POST /v2/{m}/tokens (encryptedCustomerInput) → 201 {token, isNewToken true, tokenStatus
# CREATED, card} for a new card number, 200 {… isNewToken false, tokenStatus UNCHANGED} with the
# first token for a card already saved; GET …/tokens/{id} → TokenResponse or 404 UNKNOWN_TOKEN;
# DELETE → 204, then 404. A payment with an unknown (deleted) token is 404 UNKNOWN_TOKEN.
# CreateSession lists a deleted token in invalidTokens. GET /test/worldline-tokens counts them.
TOKENS = {}          # token -> {"card": {...}, "productId": n}
CARD_TOKENS = {}     # card number -> token
DELETED_TOKENS = set()
REDIRECTS = {}       # payment id -> {"returnUrl", "RETURNMAC", "mode", "tokenize"}

CHALLENGE_CARD = "4000000000001091"
FAILED_CARD = "4000000000001018"
UNAVAILABLE_CARD = "4000000000001067"
DEFAULT_CARD = {"cardNumber": "4111111111111111", "expiryDate": "1230"}

app.argparser.add_argument("--worldline-return-mac-name", default="RETURNMAC")
app.argparser.add_argument("--worldline-return-id-name", default="paymentId")

CHALLENGE_INDICATORS = {
    "no-preference", "no-challenge-requested", "challenge-requested", "challenge-required",
    "no-challenge-requested-risk-analysis-performed", "no-challenge-requested-data-share-only",
    "no-challenge-requested-consumer-authentication-performed", "no-challenge-requested-use-whitelist-exemption",
    "challenge-requested-whitelist-prompt-requested", "request-scoring-without-connecting-to-acs"}
EXEMPTIONS = {"none", "transaction-risk-analysis", "low-value", "whitelist"}


def worldline_card_of(jwe):
    parts = jwe.split(".")
    if len(parts) == 5:
        try:
            text = base64.urlsafe_b64decode(parts[3] + "=" * (-len(parts[3]) % 4)).decode("utf-8")
            card = json.loads(text)
            if isinstance(card, dict) and isinstance(card.get("cardNumber"), str):
                return {"cardNumber": card["cardNumber"], "expiryDate": str(card.get("expiryDate", "1230"))}
        except (ValueError, UnicodeDecodeError):
            pass
    return dict(DEFAULT_CARD)


def worldline_product_of(number):
    return {"4": 1, "5": 3, "3": 2}.get(number[:1], 1)


def worldline_luhn(number):
    digits = [int(c) for c in number if c.isdigit()]
    total = 0
    for index, digit in enumerate(reversed(digits)):
        if index % 2:
            digit *= 2
            digit -= 9 if digit > 9 else 0
        total += digit
    return len(digits) >= 12 and total % 10 == 0


def worldline_unknown_token():
    return emulator.Response.json({"errorId": "e-404", "errors": [
        {"id": "UNKNOWN_TOKEN", "errorCode": "1004", "httpStatusCode": 404, "propertyName": "token"}]}, 404)


def worldline_check_card_input(card):
    """The card input's 3-D Secure and card-on-file members, checked against the documented lists."""
    if not isinstance(card, dict):
        return worldline_invalid("cardPaymentMethodSpecificInput")
    for deprecated in ("returnUrl", "skipAuthentication"):
        if deprecated in card:
            return worldline_refusal(400, "INVALID_VALUE", "cardPaymentMethodSpecificInput." + deprecated)
    three_ds = card.get("threeDSecure", {})
    if not isinstance(three_ds, dict):
        return worldline_invalid("cardPaymentMethodSpecificInput.threeDSecure")
    if "challengeIndicator" in three_ds and three_ds["challengeIndicator"] not in CHALLENGE_INDICATORS:
        return worldline_refusal(400, "INVALID_VALUE", "cardPaymentMethodSpecificInput.threeDSecure.challengeIndicator")
    if "exemptionRequest" in three_ds and three_ds["exemptionRequest"] not in EXEMPTIONS:
        return worldline_refusal(400, "INVALID_VALUE", "cardPaymentMethodSpecificInput.threeDSecure.exemptionRequest")
    if "deviceChannel" in three_ds and three_ds["deviceChannel"] not in ("AppBased", "Browser"):
        return worldline_refusal(400, "INVALID_VALUE", "cardPaymentMethodSpecificInput.threeDSecure.deviceChannel")
    if "skipAuthentication" in three_ds and not isinstance(three_ds["skipAuthentication"], bool):
        return worldline_refusal(400, "INVALID_VALUE", "cardPaymentMethodSpecificInput.threeDSecure.skipAuthentication")
    unscheduled = "unscheduledCardOnFileRequestor" in card or "unscheduledCardOnFileSequenceIndicator" in card
    if card.get("isRecurring") is True and unscheduled:
        return worldline_refusal(400, "INVALID_VALUE", "cardPaymentMethodSpecificInput.unscheduledCardOnFileRequestor")
    if card.get("unscheduledCardOnFileRequestor", "merchantInitiated") not in ("merchantInitiated", "cardholderInitiated"):
        return worldline_refusal(400, "INVALID_VALUE", "cardPaymentMethodSpecificInput.unscheduledCardOnFileRequestor")
    if card.get("unscheduledCardOnFileSequenceIndicator", "first") not in ("first", "subsequent"):
        return worldline_refusal(400, "INVALID_VALUE", "cardPaymentMethodSpecificInput.unscheduledCardOnFileSequenceIndicator")
    sequence = card.get("recurring", {}).get("recurringPaymentSequenceIndicator") if isinstance(card.get("recurring"), dict) else None
    if "recurring" in card and (card.get("isRecurring") is not True or sequence not in ("first", "recurring")):
        return worldline_refusal(400, "INVALID_VALUE", "cardPaymentMethodSpecificInput.recurring")
    if worldline_merchant_initiated(card) and "token" not in card:
        return worldline_invalid("cardPaymentMethodSpecificInput.token")
    if "tokenize" in card and ("token" in card or not isinstance(card["tokenize"], bool)):
        return worldline_refusal(400, "INVALID_VALUE", "cardPaymentMethodSpecificInput.tokenize")
    return None


def worldline_merchant_initiated(card):
    """A later payment of a series, the payer absent."""
    recurring = card.get("recurring") if isinstance(card.get("recurring"), dict) else {}
    return (recurring.get("recurringPaymentSequenceIndicator") == "recurring"
            or card.get("unscheduledCardOnFileRequestor") == "merchantInitiated")


def worldline_save_card(card):
    """The token of `card`: its existing one (isNewToken false), or a new one. Call with app.lock."""
    number = card["cardNumber"]
    if number in CARD_TOKENS and CARD_TOKENS[number] in TOKENS:
        return CARD_TOKENS[number], False
    COUNTER[0] += 1
    token = f"7e1a{COUNTER[0]:04d}-0c5b-4d2e-9f3a-{secrets.token_hex(6)}"
    TOKENS[token] = {"card": dict(card), "productId": worldline_product_of(number)}
    CARD_TOKENS[number] = token
    return token, True


def worldline_results(flow, status, eci, liability):
    return {"version": "2.2.0", "flow": flow, "authenticationStatus": status, "eci": eci, "liability": liability,
            "cavv": "AAABBEg0VhI0VniQEjRWAAAAAAA=", "dsTransactionId": "f25084f0-5b16-4c0a-ae5d-b24808a95e4b"}


def worldline_authorise(payment, mode):
    if mode == "SALE":
        payment.update({"status": "CAPTURED", "statusOutput": {
            "isCancellable": False, "statusCategory": "COMPLETED", "statusCode": 9, "isAuthorized": True}})
    else:
        payment.update({"status": "PENDING_CAPTURE", "statusOutput": {
            "isCancellable": True, "statusCategory": "PENDING_MERCHANT", "statusCode": 5, "isAuthorized": True}})


def worldline_reject(payment):
    payment.update({"status": "REJECTED", "statusOutput": {
        "isCancellable": False, "statusCategory": "UNSUCCESSFUL", "statusCode": 2, "isAuthorized": False}})


def worldline_card_payment(request, payment, card, card_input, mode):
    three_ds = card_input.get("threeDSecure", {})
    skip = three_ds.get("skipAuthentication") is True
    merchant_initiated = worldline_merchant_initiated(card_input)
    tokenize = card_input.get("tokenize") is True or (
        card_input.get("recurring", {}).get("recurringPaymentSequenceIndicator") == "first" and "token" not in card_input)
    number = card["cardNumber"]
    challenge = not skip and not merchant_initiated and (
        number == CHALLENGE_CARD or three_ds.get("challengeIndicator") == "challenge-required")
    output = payment["paymentOutput"]["cardPaymentMethodSpecificOutput"]
    creation = {"additionalReference": "1"}
    if challenge:
        return_url = three_ds.get("redirectionData", {}).get("returnUrl")
        if not return_url:
            return worldline_invalid("cardPaymentMethodSpecificInput.threeDSecure.redirectionData.returnUrl")
        payment.update({"status": "REDIRECTED", "statusOutput": {
            "isCancellable": False, "statusCategory": "PENDING_PAYMENT", "statusCode": 46, "isAuthorized": False}})
        mac = secrets.token_hex(18)
        if tokenize:
            creation["tokenizationSucceeded"] = False
        with app.lock:
            PAYMENTS[payment["id"]] = payment
            REDIRECTS[payment["id"]] = {"returnUrl": return_url, "RETURNMAC": mac, "mode": mode}
        if three_ds.get("deviceChannel") == "AppBased":
            action = {"actionType": "MOBILE_THREEDS_CHALLENGE", "mobileThreeDSecureChallengeParameters": {
                "acsReferenceNumber": "3DS_LOA_ACS_201_13579", "acsTransactionId": "a1b2c3d4-0000-4000-8000-" + payment["id"][:12].zfill(12),
                "threeDServerTransactionId": "d4c3b2a1-0000-4000-8000-000000000001", "acsSignedContent": "eyJhbGciOiJQUzI1NiJ9.e30.c2ln"}}
        else:
            host = request.header("Host") or "127.0.0.1"
            action = {"actionType": "REDIRECT", "redirectData": {
                "redirectURL": f"http://{host}/acs/{payment['id']}", "RETURNMAC": mac}}
        return emulator.Response.json({"creationOutput": creation, "merchantAction": action, "payment": payment}, 201)
    if not skip and not merchant_initiated and three_ds:
        if number == FAILED_CARD:
            output["threeDSecureResults"] = worldline_results("frictionless", "N", "07", "merchant")
            worldline_reject(payment)
            with app.lock:
                PAYMENTS[payment["id"]] = payment
            return emulator.Response.json({"creationOutput": creation, "payment": payment}, 201)
        if number == UNAVAILABLE_CARD:
            output["threeDSecureResults"] = worldline_results("frictionless", "U", "07", "merchant")
        else:
            output["threeDSecureResults"] = worldline_results("frictionless", "Y", "05", "issuer")
    worldline_authorise(payment, mode)
    with app.lock:
        if tokenize:
            token, new = worldline_save_card(card)
            creation.update(token=token, isNewToken=new, tokenizationSucceeded=True)
        PAYMENTS[payment["id"]] = payment
        worldline_ledger_open(payment, mode)
    return emulator.Response.json({"creationOutput": creation, "payment": payment}, 201)


def worldline_three_d_secure_routes():
    @app.route("GET", r"/acs/(?P<id>[^/]+)")
    def acs(request, match):
        payment_id = match.group("id")
        outcome = dict(request.query_items()).get("outcome", "success")
        with app.lock:
            payment, redirect = PAYMENTS.get(payment_id), REDIRECTS.get(payment_id)
            if payment is None or redirect is None or payment["status"] != "REDIRECTED":
                return emulator.Response.text("no challenge waits for this payment", 404)
            if outcome == "abandon":
                return emulator.Response.text("the payer closed the window", 200)
            output = payment["paymentOutput"]["cardPaymentMethodSpecificOutput"]
            if outcome == "success":
                output["threeDSecureResults"] = worldline_results("challenge", "Y", "05", "issuer")
                worldline_authorise(payment, redirect["mode"])
                worldline_ledger_open(payment, redirect["mode"])
            else:
                output["threeDSecureResults"] = worldline_results("challenge", "N", "07", "merchant")
                worldline_reject(payment)
        separator = "&" if "?" in redirect["returnUrl"] else "?"
        location = (redirect["returnUrl"] + separator + args().worldline_return_mac_name + "=" + redirect["RETURNMAC"]
                    + "&" + args().worldline_return_id_name + "=" + payment_id)
        return emulator.Response(302, b"", [("Location", location)])


def worldline_token_routes():
    @app.route("POST", r"/v2/(?P<merchant>[^/]+)/tokens")
    def create_token(request, match):
        refused = worldline_check(request, match.group("merchant"))
        if refused:
            return refused
        if request.header("X-GCS-Idempotence-Key") is not None:
            return worldline_refusal(400, "INVALID_VALUE", "X-GCS-Idempotence-Key")
        body = request.json() if request.body else {}
        jwe = body.get("encryptedCustomerInput", "") if isinstance(body, dict) else ""
        if "card" in body or len(jwe.split(".")) != 5:
            return worldline_invalid("encryptedCustomerInput")
        card = worldline_card_of(jwe)
        if not worldline_luhn(card["cardNumber"]):
            return worldline_refusal(400, "INVALID_VALUE", "card.cardNumber")
        with app.lock:
            token, new = worldline_save_card(card)
        return emulator.Response.json({
            "token": token, "isNewToken": new, "tokenStatus": "CREATED" if new else "UNCHANGED",
            "card": {"cardNumber": card["cardNumber"], "expiryDate": card["expiryDate"], "cardholderName": "Wile E. Coyote"}},
            201 if new else 200)

    @app.route("GET", r"/v2/(?P<merchant>[^/]+)/tokens/(?P<token>[^/]+)")
    def get_token(request, match):
        refused = worldline_check(request, match.group("merchant"))
        if refused:
            return refused
        with app.lock:
            saved = TOKENS.get(match.group("token"))
        if saved is None:
            return worldline_unknown_token()
        return emulator.Response.json({
            "id": match.group("token"), "paymentProductId": saved["productId"], "isTemporary": False,
            "card": {"alias": "VISA ending 1111", "data": {"cardWithoutCvv": {
                "cardNumber": saved["card"]["cardNumber"], "expiryDate": saved["card"]["expiryDate"]}}}})

    @app.route("DELETE", r"/v2/(?P<merchant>[^/]+)/tokens/(?P<token>[^/]+)")
    def delete_token(request, match):
        refused = worldline_check(request, match.group("merchant"))
        if refused:
            return refused
        if request.body or request.header("Content-Type") is not None:
            return worldline_invalid("body")
        token = match.group("token")
        with app.lock:
            saved = TOKENS.pop(token, None)
            if saved is not None:
                DELETED_TOKENS.add(token)
                CARD_TOKENS.pop(saved["card"]["cardNumber"], None)
        if saved is None:
            return worldline_unknown_token()
        return emulator.Response(204, b"")

    @app.route("GET", r"/test/worldline-tokens")
    def tokens_of(request, match):
        with app.lock:
            return emulator.Response.json({"tokens": len(TOKENS), "deleted": len(DELETED_TOKENS)}, 200)
