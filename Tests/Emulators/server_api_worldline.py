"""The Worldline Direct emulator of server_api_emulator.py."""


import base64
import calendar
import hashlib
import hmac
import re
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
            "invalidTokens": [t for t in tokens if t.startswith("bad")]}, 201)

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
        if mobile is not None and "encryptedCustomerInput" in body:
            # A Google Pay token sealed into encryptedCustomerInput travels with product 320's
            # 3-D Secure input beside it, and no card data (research notes §1.5, route 1).
            sealed_320 = (mobile.get("paymentProductId") == 320 and "decryptedPaymentData" not in mobile
                          and mobile.get("paymentProduct320SpecificInput", {}).get("threeDSecure", {}).get(
                              "redirectionData", {}).get("returnUrl"))
            if not sealed_320:
                return worldline_invalid("mobilePaymentMethodSpecificInput")
            mobile = None
        if mobile is not None:
            refused = worldline_check_mobile(mobile)
            if refused:
                return refused
        elif len(jwe.split(".")) != 5:
            return worldline_invalid("encryptedCustomerInput")
        if not isinstance(money.get("amount"), int) or len(money.get("currencyCode", "")) != 3:
            return worldline_invalid("order.amountOfMoney")
        with app.lock:
            COUNTER[0] += 1
            number = COUNTER[0]
        payment = {"id": f"30660197{number:02d}_0", "paymentOutput": {
            "amountOfMoney": money, "references": body.get("order", {}).get("references", {}),
            "paymentMethod": "card", "cardPaymentMethodSpecificOutput": {
                "paymentProductId": 1, "card": {"cardNumber": "4111111111111111", "expiryDate": "1230"}}}}
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
