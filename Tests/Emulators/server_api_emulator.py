#!/usr/bin/env python3
"""Loopback emulators of the merchant-server APIs CSEKit calls (issue #15), on emulator.py.

    server_api_emulator.py --platform worldline|aps|mastercard|paysafe [credentials] [--mode M]

Every emulator checks the request's signature or authentication ITSELF, with Python's hmac,
hashlib and base64 (an implementation independent of CSEKit), and answers the platform's error
shape when it fails. --mode makes the emulator misbehave in one documented way, so the tests can
check that CSEKit refuses it (see each platform's MODES).
"""

import base64
import calendar
import hashlib
import hmac
import json
import re
import time

import emulator

app = emulator.Emulator("server-api")
app.argparser.add_argument("--platform", required=True, choices=["worldline", "aps", "mastercard", "paysafe"])
app.argparser.add_argument("--mode", default="normal")
# Worldline
app.argparser.add_argument("--merchant-id", default="1234")
app.argparser.add_argument("--api-key-id", default="5e45c937b9db33ae")
app.argparser.add_argument("--secret-api-key", default="")
app.argparser.add_argument("--client-api-url", default="https://client.example/client")
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
# Notifications (webhooks): the Worldline webhook secret and its key id, the Mastercard
# notification secret, the Paysafe webhook key as base64 text (as Paysafe's console shows it).
app.argparser.add_argument("--webhook-secret", default="")
app.argparser.add_argument("--webhook-key-id", default="dummy-key-id")
app.argparser.add_argument("--notification-secret", default="")
app.argparser.add_argument("--webhook-key", default="")

SESSIONS = {}
COUNTER = [0]
# Worldline idempotence: key -> (status, body) of the finished first attempt, or None while it runs.
IDEMPOTENCE = {}
# Worldline CreateSession: the idempotence key of every session actually created.
CREATED_SESSIONS = []
PAYMENTS = {}


def args():
    return app.args


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
        payment.update({"status": "PENDING_CAPTURE", "statusOutput": {
            "isCancellable": True, "statusCategory": "PENDING_MERCHANT", "statusCode": 5, "isAuthorized": True}})
        PAYMENTS[payment["id"]] = payment
        return emulator.Response.json({"creationOutput": {"additionalReference": "1"}, "payment": payment}, 201)


# ---------------------------------------------------------------------------------------------
# APS: SHA phrase signatures (the APS "Signature Calculation" rule, re-implemented here).
# MODES: normal, wrong-response-signature, tampered, unsigned, other-device, failure-NNNNN.

def aps_value(value):
    """A parameter as signed: nested objects (apple_header, apple_paymentMethod) as {k=v, k=v} in
    the order received (research notes §2.2)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}={v}" for k, v in value.items()) + "}"
    return str(value)


def aps_signature(params, phrase):
    text = phrase + "".join(f"{k}={aps_value(params[k])}" for k in sorted(params) if k != "signature") + phrase
    return hashlib.new(args().sha_type, text.encode()).hexdigest()


# APS server-to-server payments (research notes §2.3, §2.5, §2.7): PURCHASE/AUTHORIZATION with a
# token_name, checked against the trusted-channel rules; merchant_reference unique (a repeat is
# 00066 and creates nothing); CHECK_STATUS answers from the stored orders (11036 when unknown).
# MODES (payments): decline (13/03 + 072), on-hold (20064 with 3ds_url), uncertain (15777).
APS_ORDERS = {}


def aps_payment(echoed, mode):
    reference = echoed.get("merchant_reference", "")
    if echoed.get("digital_wallet") == "APPLE_PAY":
        header = echoed.get("apple_header")
        method = echoed.get("apple_paymentMethod")
        wallet_ok = (isinstance(header, dict) and set(header) == {"apple_transactionId", "apple_ephemeralPublicKey", "apple_publicKeyHash"}
                     and isinstance(method, dict) and set(method) == {"apple_displayName", "apple_network", "apple_type"}
                     and all(echoed.get(k) for k in ("apple_data", "apple_signature", "customer_ip")) and "token_name" not in echoed)
    else:
        wallet_ok = bool(re.fullmatch(r"[A-Za-z0-9.@_-]{1,100}", echoed.get("token_name", ""))) and echoed.get("eci") in (
            "ECOMMERCE", "MOTO", "RECURRING")
    checks = [wallet_ok,
        re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", reference), re.fullmatch(r"\d{1,10}", echoed.get("amount", "")),
        re.fullmatch(r"[A-Z]{3}", echoed.get("currency", "")), echoed.get("language") in ("en", "ar"),
        re.fullmatch(r"[A-Za-z0-9_.+-]+@[A-Za-z0-9_.-]+", echoed.get("customer_email", "")),
    ]
    if not all(checks):
        return dict(echoed, response_code="00002", status="00", response_message="Invalid parameter format")
    with app.lock:
        if reference in APS_ORDERS:
            return dict(echoed, response_code="00066", status="00", response_message="Merchant reference already exists")
        COUNTER[0] += 1
        number = COUNTER[0]
    purchase = echoed["command"] == "PURCHASE"
    code = {"decline": ("13" if purchase else "03") + "072", "on-hold": "20064", "uncertain": "15777"}.get(
        mode, "14000" if purchase else "02000")
    response = dict(echoed, fort_id=f"1690{number:013d}", response_code=code, status=code[:2],
                    response_message={"000": "Success", "072": "Transaction has been cancelled by the consumer",
                                      "064": "3-D Secure check requested",
                                      "777": "Processed, but confirmation was not received"}[code[2:]],
                    card_number="400555******0001", expiry_date="2105", payment_option="VISA")
    if code[2:] == "000":
        response["authorization_code"] = "123456"
    if code == "20064":
        response["3ds_url"] = "https://sbcheckout.payfort.com/FortAPI/redirectionResponse/threeDs2RedirectURL?token=abc"
    with app.lock:
        APS_ORDERS[reference] = response
    return response


def aps_check_status(echoed):
    order = APS_ORDERS.get(echoed.get("merchant_reference"))
    if order is None:
        return dict(echoed, response_code="11036", status="11", response_message="Order not found")
    approved = order["response_code"][2:] == "000"
    return dict(echoed, response_code="12000", status="12", response_message="Success", fort_id=order["fort_id"],
                transaction_status=order["status"], transaction_code=order["response_code"],
                transaction_message=order["response_message"], authorized_amount=order["amount"] if approved else "0",
                captured_amount=order["amount"] if approved and order["command"] == "PURCHASE" else "0")


def aps_routes():
    @app.route("GET", r"/test/aps-feedback/(?P<ref>[^/]+)")
    def feedback(request, match):
        """The transaction feedback APS would post for an order, signed here with the response
        phrase (Python hashlib): form-encoded, or JSON with ?format=json; ?status=NN&response_code=NNNNN
        posts the order with another status, as APS does when it settles later."""
        order = APS_ORDERS.get(match.group("ref"))
        if order is None:
            return emulator.Response.json({"error": "no such order"}, 404)
        params = {k: v for k, v in order.items() if k != "signature"}
        query = dict(request.query_items())
        for name in ("status", "response_code"):
            if name in query:
                params[name] = query[name]
        params["signature"] = aps_signature(params, args().response_phrase)
        if query.get("format") == "json":
            return emulator.Response.json(params)
        from urllib.parse import urlencode
        return emulator.Response(200, urlencode(params).encode(), [("Content-Type", "application/x-www-form-urlencoded")])

    @app.route("POST", r"/FortAPI/paymentApi")
    def payment_api(request, match):
        params = request.json()
        echoed = {k: v for k, v in params.items() if k != "signature"}
        mode = args().mode
        # Apple Pay requests use the second credential set (research notes §2.2).
        apple = params.get("digital_wallet") == "APPLE_PAY"
        request_phrase = args().apple_request_phrase if apple else args().request_phrase
        response_phrase = args().apple_response_phrase if apple else args().response_phrase
        if not hmac.compare_digest(params.get("signature", ""), aps_signature(params, request_phrase)):
            response = dict(echoed, response_code="00008", status="00", response_message="Signature mismatch")
        elif params.get("access_code") != (args().apple_access_code if apple else args().access_code):
            response = dict(echoed, response_code="21010", status="21", response_message="Invalid access code")
        elif params.get("merchant_identifier") != args().merchant_identifier:
            response = dict(echoed, response_code="21009", status="21", response_message="Invalid merchant identifier")
        elif params.get("command") in ("PURCHASE", "AUTHORIZATION"):
            response = aps_payment(echoed, mode)
        elif params.get("query_command") == "CHECK_STATUS":
            response = aps_check_status(echoed)
        elif mode.startswith("failure-"):
            code = mode[len("failure-"):]
            response = dict(echoed, response_code=code, status=code[:2], response_message="Failure")
        else:
            response = dict(echoed, response_code="22000", status="22", response_message="Success", sdk_token="Dwp78q3TOKEN")
        if mode == "other-device":
            response["device_id"] = "another-device"
        response["signature"] = aps_signature(response, response_phrase)
        if mode == "wrong-response-signature":
            response["signature"] = aps_signature(response, response_phrase + "x")
        elif mode == "tampered":
            response["sdk_token"] = "TamperedTOKEN"
        elif mode == "unsigned":
            del response["signature"]
        return emulator.Response.json(response, 200)


# ---------------------------------------------------------------------------------------------
# Mastercard Gateway: HTTP Basic merchant.<id>:<password> (RFC 7617), sessions kept in memory.

def mastercard_error(status, cause, explanation, field=None):
    error = {"cause": cause, "explanation": explanation}
    if field:
        error.update(field=field, validationType="INVALID")
    return emulator.Response.json({"error": error, "result": "ERROR"}, status)


def mastercard_check(request, version, merchant):
    expected = "Basic " + base64.b64encode(f"merchant.{args().merchant_id}:{args().api_password}".encode()).decode()
    if not hmac.compare_digest(request.header("Authorization") or "", expected) or merchant != args().merchant_id:
        return mastercard_error(401, "INVALID_REQUEST", "Invalid credentials.")
    if int(version) < 39:
        return mastercard_error(400, "INVALID_REQUEST", "Unsupported API version", "apiVersion")
    return None


def merge(target, source):
    for key, value in source.items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            merge(target[key], value)
        else:
            target[key] = value


def mastercard_routes():
    base = r"/api/rest/version/(?P<version>\d+)/merchant/(?P<merchant>[^/]+)/session"

    @app.route("POST", base)
    def create(request, match):
        refused = mastercard_check(request, match.group("version"), match.group("merchant"))
        if refused:
            return refused
        if args().mode == "busy":
            return mastercard_error(500, "SERVER_BUSY", "Try again later")
        body = request.json() if request.body else {}
        COUNTER[0] += 1
        session_id = f"SESSION{COUNTER[0]:025d}"
        limit = body.get("session", {}).get("authenticationLimit", 5)
        SESSIONS[session_id] = {}
        return emulator.Response.json({"merchant": args().merchant_id, "result": "SUCCESS", "session": {
            "aes256Key": "abcdef12345", "authenticationLimit": limit, "id": session_id, "updateStatus": "NO_UPDATE",
            "version": "abcdef0123"}}, 201)

    @app.route("PUT", base + r"/(?P<id>[^/]+)")
    def update(request, match):
        refused = mastercard_check(request, match.group("version"), match.group("merchant"))
        if refused:
            return refused
        session_id = match.group("id")
        if session_id not in SESSIONS:
            return mastercard_error(400, "INVALID_REQUEST", "Session not found", "session.id")
        merge(SESSIONS[session_id], request.json())
        return emulator.Response.json(dict(SESSIONS[session_id], merchant=args().merchant_id, session={
            "id": session_id, "updateStatus": "SUCCESS", "version": "1468375202"}), 200)

    @app.route("GET", base + r"/(?P<id>[^/]+)")
    def retrieve(request, match):
        refused = mastercard_check(request, match.group("version"), match.group("merchant"))
        if refused:
            return refused
        session_id = match.group("id")
        if session_id not in SESSIONS:
            return mastercard_error(400, "INVALID_REQUEST", "Session not found", "session.id")
        return emulator.Response.json(dict(SESSIONS[session_id], merchant=args().merchant_id, session={
            "id": session_id, "updateStatus": "SUCCESS" if SESSIONS[session_id] else "NO_UPDATE", "version": "1"}), 200)


# Mastercard transactions (research notes §3.2-3.4). PUT …/order/{o}/transaction/{t} with PAY or
# AUTHORIZE: the emulator checks the body with its own rules (order.amount a decimal string in
# major units with exactly the currency's ISO 4217 exponent, sourceOfFunds.type CARD, a session
# that holds a card or a wallet token that is JSON text with walletProvider and API >= 47) and keeps
# the answer per (order, transaction): an identical repeat gets the first answer and moves no money
# again; the same ids with another body are an INVALID_REQUEST. GET of the transaction or the order
# answers what was stored. MODES (transactions): decline (FAILURE DECLINED), pending (PENDING
# SUBMITTED), unknown-result (result UNKNOWN), txn-busy (ERROR SERVER_BUSY, processing nothing).
MINOR_UNITS = {"EUR": 2, "USD": 2, "GBP": 2, "JPY": 0, "KWD": 3, "BHD": 3, "SAR": 2}
TRANSACTIONS = {}
ORDERS = {}


def mastercard_transaction_routes():
    base = r"/api/rest/version/(?P<version>\d+)/merchant/(?P<merchant>[^/]+)/order/(?P<order>[^/]+)"

    def invalid(explanation, field):
        return mastercard_error(400, "INVALID_REQUEST", explanation, field)

    def check_body(body, version):
        if body.get("apiOperation") not in ("PAY", "AUTHORIZE"):
            return invalid("Unsupported apiOperation", "apiOperation")
        order = body.get("order", {})
        currency = order.get("currency")
        amount = order.get("amount")
        if currency not in MINOR_UNITS:
            return invalid("Invalid currency", "order.currency")
        exponent = MINOR_UNITS[currency]
        pattern = r"\d+" if exponent == 0 else r"\d+\.\d{%d}" % exponent
        if not isinstance(amount, str) or not re.fullmatch(pattern, amount):
            return invalid("Invalid amount for the currency", "order.amount")
        funds = body.get("sourceOfFunds", {})
        if funds.get("type") != "CARD":
            return invalid("Invalid source of funds", "sourceOfFunds.type")
        provided_card = funds.get("provided", {}).get("card", {})
        sources = ["session" in body, "number" in provided_card, "paymentToken" in provided_card.get("devicePayment", {})]
        if sources.count(True) != 1:  # exactly one funding source: a session, device data, or a wallet token
            return invalid("Exactly one source of funds", "sourceOfFunds")
        if "session" in body:
            card = SESSIONS.get(body["session"].get("id"), {}).get("sourceOfFunds", {}).get("provided", {}).get("card", {})
            if not card.get("number"):
                return invalid("Session has no card", "session.id")
            return card["number"]
        card = funds.get("provided", {}).get("card", {})
        if "number" in card:  # merchant-decrypted device data (research notes §3.2, route 3)
            expiry = card.get("expiry", {})
            device = card.get("devicePayment")
            if (order.get("walletProvider") not in ("APPLE_PAY", "GOOGLE_PAY") or not re.fullmatch(r"\d{12,19}", str(card["number"]))
                    or not re.fullmatch(r"(0[1-9]|1[0-2])", str(expiry.get("month"))) or not re.fullmatch(r"\d\d", str(expiry.get("year")))
                    or (device is not None and (device.get("cryptogramFormat") not in ("3DSECURE", "EMV")
                                                or not device.get("onlinePaymentCryptogram")))):
                return invalid("Invalid device payment data", "sourceOfFunds.provided.card")
            if int(version) < 47:
                return invalid("Wallet payments need version 47", "apiVersion")
            return card["number"]
        token = card.get("devicePayment", {}).get("paymentToken")
        if order.get("walletProvider") not in ("APPLE_PAY", "GOOGLE_PAY") or not isinstance(token, str):
            return invalid("Missing wallet data", "order.walletProvider")
        if int(version) < 47:
            return invalid("Wallet payments need version 47", "apiVersion")
        try:
            json.loads(token)
        except ValueError:
            return invalid("The payment token is not JSON", "sourceOfFunds.provided.card.devicePayment.paymentToken")
        return "5204730000001003"

    @app.route("PUT", base + r"/transaction/(?P<txn>[^/]+)")
    def transaction(request, match):
        refused = mastercard_check(request, match.group("version"), match.group("merchant"))
        if refused:
            return refused
        body = request.json()
        canonical = json.dumps(body, sort_keys=True)
        key = (match.group("order"), match.group("txn"))
        with app.lock:
            known = TRANSACTIONS.get(key)
        if known:
            if known[0] != canonical:
                return invalid("Transaction ID already used with different content", "transaction.id")
            return emulator.Response(known[1], known[2], [("Content-Type", "application/json")])
        mode = args().mode
        if mode == "echo-errors":  # an explanation that repeats the card data it received
            card = body.get("sourceOfFunds", {}).get("provided", {}).get("card", {})
            return mastercard_error(400, "INVALID_REQUEST", "Invalid card " + json.dumps(card), "sourceOfFunds.provided.card")
        checked = check_body(body, match.group("version"))
        if isinstance(checked, emulator.Response):
            return checked
        if mode == "txn-busy":
            return mastercard_error(500, "SERVER_BUSY", "Try again later")
        result, code = {"decline": ("FAILURE", "DECLINED"), "pending": ("PENDING", "SUBMITTED"),
                        "unknown-result": ("UNKNOWN", "UNKNOWN")}.get(mode, ("SUCCESS", "APPROVED"))
        paying = body["apiOperation"] == "PAY"
        approved = result == "SUCCESS"
        amount = body["order"]["amount"]
        order = {"id": key[0], "amount": float(amount), "currency": body["order"]["currency"],
                 "status": ("CAPTURED" if paying else "AUTHORIZED") if approved else "FAILED",
                 "totalAuthorizedAmount": float(amount) if approved else 0,
                 "totalCapturedAmount": float(amount) if approved and paying else 0}
        answer = {"merchant": args().merchant_id, "result": result, "response": {"gatewayCode": code},
                  "order": order,
                  "transaction": {"id": key[1], "type": "PAYMENT" if paying else "AUTHORIZATION", "amount": float(amount),
                                  "currency": body["order"]["currency"], "authorizationCode": "123456" if approved else None},
                  "sourceOfFunds": {"type": "CARD", "provided": {"card": {"number": checked, "brand": "MASTERCARD"}}}}
        if "authentication" in body:
            answer["authentication"] = body["authentication"]
        encoded = json.dumps(answer).encode("utf-8")
        with app.lock:
            TRANSACTIONS[key] = (canonical, 201, encoded)
            ORDERS.setdefault(key[0], {"order": order, "transactions": []})["transactions"].append(answer["transaction"])
            ORDERS[key[0]]["order"] = order
        return emulator.Response(201, encoded, [("Content-Type", "application/json")])

    @app.route("GET", base + r"/transaction/(?P<txn>[^/]+)")
    def retrieve_transaction(request, match):
        refused = mastercard_check(request, match.group("version"), match.group("merchant"))
        if refused:
            return refused
        known = TRANSACTIONS.get((match.group("order"), match.group("txn")))
        if not known:
            return invalid("Transaction not found", "transaction.id")
        return emulator.Response(200, known[2], [("Content-Type", "application/json")])

    @app.route("GET", base)
    def retrieve_order(request, match):
        refused = mastercard_check(request, match.group("version"), match.group("merchant"))
        if refused:
            return refused
        known = ORDERS.get(match.group("order"))
        if not known:
            return invalid("Order not found", "order.id")
        return emulator.Response.json(dict(known["order"], merchant=args().merchant_id, result="SUCCESS",
                                           transaction=known["transactions"]))


# ---------------------------------------------------------------------------------------------
# Paysafe: HTTP Basic (base64 of username:password) with the key of the API called.

def luhn(number):
    total = 0
    for i, ch in enumerate(reversed(number)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def paysafe_refused(request, payments=False):
    key = (args().payments_key or args().api_key) if payments else args().api_key
    auth = request.header("Authorization") or ""
    ok = hmac.compare_digest(auth, "Basic " + key)
    try:
        user, _, password = base64.b64decode(key, validate=True).decode().partition(":")
        ok = ok and bool(user) and bool(password)
    except ValueError:
        ok = False
    if not ok:
        return emulator.Response.json({"error": {"code": "5279", "message": "Invalid credentials"}}, 401)
    return None


# Paysafe payments (research notes §4.3, §4.4), on both APIs, kept apart: POST /paymenthub/v1/payments
# (paymentHandleToken, dupCheck default true) and POST /cardpayments/v1/accounts/{id}/auths
# (card.paymentToken, one this emulator issued). A merchantRefNum used before on the
# same API is a 409 (code 5031 here: Paysafe's own code is not documented); GET …?merchantRefNum=
# lists the payments with it. MODES (payments): decline (402, the payment FAILED with an error),
# pending (status PROCESSING).
PAYSAFE_PAYMENTS = []
PAYSAFE_TOKENS = {}


def paysafe_field_errors(body, required):
    errors = [{"field": name, "error": "invalid"} for name, ok in required if not ok(body)]
    if errors:
        return emulator.Response.json({"error": {"code": "5068", "message": "Field error(s)", "fieldErrors": errors}}, 400)
    return None


def paysafe_take(api, account, body, extra):
    reference = body["merchantRefNum"]
    with app.lock:
        used = any(p["merchantRefNum"] == reference and p["_api"] == (api, account) for p in PAYSAFE_PAYMENTS)
        if used and body.get("dupCheck", True):
            return emulator.Response.json({"error": {"code": "5031", "message": "The merchantRefNum has already been used"}}, 409)
        COUNTER[0] += 1
        number = COUNTER[0]
    mode = args().mode
    status = {"decline": "FAILED", "pending": "PROCESSING"}.get(mode, "COMPLETED")
    payment = dict(extra, id=f"a1b2c3d4-0000-4000-8000-{number:012d}", merchantRefNum=reference, amount=body["amount"],
                   status=status, settleWithAuth=body.get("settleWithAuth", False), _api=(api, account))
    with app.lock:
        PAYSAFE_PAYMENTS.append(payment)
    shown = {k: v for k, v in payment.items() if k != "_api"}
    if status == "FAILED":
        shown["error"] = {"code": "3009", "message": "Your request has been declined by the issuing bank."}
        return emulator.Response.json(shown, 402)
    return emulator.Response.json(shown, 201)


def paysafe_routes():
    is_int = lambda name: lambda b: isinstance(b.get(name), int) and not isinstance(b.get(name), bool) and b[name] >= 0
    present = lambda name: lambda b: isinstance(b.get(name), str) and b[name] != ""

    @app.route("POST", r"/paymenthub/v1/payments")
    def hub_payment(request, match):
        refused = paysafe_refused(request, payments=True)
        if refused:
            return refused
        body = request.json()
        bad = paysafe_field_errors(body, [("amount", is_int("amount")), ("merchantRefNum", present("merchantRefNum")),
                                          ("currencyCode", lambda b: len(b.get("currencyCode", "")) == 3),
                                          ("paymentHandleToken", present("paymentHandleToken"))])
        if bad:
            return bad
        return paysafe_take("hub", None, body, {"paymentType": "CARD", "currencyCode": body["currencyCode"],
                                                "paymentHandleToken": body["paymentHandleToken"],
                                                "gatewayResponse": {"authCode": "111111"},
                                                "card": {"lastDigits": "1111", "cardBin": "411111", "cardExpiry": {"month": 12, "year": 2030}}})

    @app.route("POST", r"/cardpayments/v1/accounts/(?P<account>\d+)/auths")
    def card_auth(request, match):
        refused = paysafe_refused(request, payments=True)
        if refused:
            return refused
        body = request.json()
        token = body.get("card", {}).get("paymentToken")
        bad = paysafe_field_errors(body, [("amount", is_int("amount")), ("merchantRefNum", present("merchantRefNum")),
                                          ("card.paymentToken", lambda b: token in PAYSAFE_TOKENS)])
        if bad:
            return bad
        card = PAYSAFE_TOKENS[token]
        return paysafe_take("card", match.group("account"), body, {"authCode": "222222", "currencyCode": "EUR",
                                                                    "card": {"lastDigits": card["lastDigits"], "type": "VI"}})

    def listing(request, api, account, name):
        refused = paysafe_refused(request, payments=True)
        if refused:
            return refused
        reference = dict(request.query_items()).get("merchantRefNum")
        found = [{k: v for k, v in p.items() if k != "_api"} for p in PAYSAFE_PAYMENTS
                 if p["_api"] == (api, account) and p["merchantRefNum"] == reference]
        return emulator.Response.json({name: found})

    @app.route("GET", r"/paymenthub/v1/payments")
    def hub_lookup(request, match):
        return listing(request, "hub", None, "payments")

    @app.route("GET", r"/cardpayments/v1/accounts/(?P<account>\d+)/auths")
    def card_lookup(request, match):
        return listing(request, "card", match.group("account"), "auths")

    def wallet_token(lastDigits, extra):
        with app.lock:
            COUNTER[0] += 1
            token = f"SCW1allet{COUNTER[0]}"
            PAYSAFE_TOKENS[token] = {"lastDigits": lastDigits}
        return emulator.Response.json(dict(extra, id=f"wtok-{COUNTER[0]}", paymentToken=token, timeToLiveSeconds=899,
                                           isFromMultiUseToken=False), 201)

    @app.route("POST", r"/customervault/v1/applepaysingleusetokens")
    def apple_tokens(request, match):
        """research notes §4.2: the ApplePayPayment shape; paymentData either the encrypted token
        (version, data, signature, header) or only decryptedData."""
        refused = paysafe_refused(request)
        if refused:
            return refused
        envelope = request.json().get("applePayPaymentToken", {})
        data = envelope.get("token", {}).get("paymentData", {})
        if args().mode == "echo-errors":  # an error message that repeats what it received
            return emulator.Response.json({"error": {"code": "5068", "message": "Invalid data: " + json.dumps(data)}}, 400)
        if "decryptedData" in data:
            decrypted = data["decryptedData"]
            ok = set(data) == {"decryptedData"} and re.fullmatch(r"\d{12,19}", str(decrypted.get("applicationPrimaryAccountNumber", "")))
            last = str(decrypted.get("applicationPrimaryAccountNumber", ""))[-4:]
        else:
            ok = all(data.get(k) for k in ("version", "data", "signature")) and isinstance(data.get("header"), dict)
            last = "0492"
        if not ok:
            return emulator.Response.json({"error": {"code": "5068", "message": "Field error(s)", "fieldErrors": [
                {"field": "applePayPaymentToken.token.paymentData", "error": "invalid"}]}}, 400)
        return wallet_token(last, {"applePayPaymentToken": {"token": {"paymentMethod": envelope["token"].get("paymentMethod")}}})

    @app.route("POST", r"/customervault/v1/googlepaysingleusetokens")
    def google_tokens(request, match):
        refused = paysafe_refused(request)
        if refused:
            return refused
        token = request.json().get("googlePayPaymentToken", {})
        if not all(isinstance(token.get(k), str) and token[k] for k in ("signature", "protocolVersion", "signedMessage")):
            return emulator.Response.json({"error": {"code": "5068", "message": "Field error(s)", "fieldErrors": [
                {"field": "googlePayPaymentToken", "error": "invalid"}]}}, 400)
        return wallet_token("3478", {"googlePayPaymentToken": {"paymentMethod": "TOKENIZED_CARD"},
                                     "card": {"cardBin": "489537", "lastDigits": "3478", "cardType": "VI"}})

    @app.route("POST", r"/customervault/v1/singleusetokens")
    def tokens(request, match):
        refused = paysafe_refused(request)
        if refused:
            return refused
        card = request.json().get("card", {})
        number = card.get("cardNum", "")
        if not number.isdigit() or not luhn(number):
            return emulator.Response.json({"error": {"code": "5068", "message": "Field error(s)", "fieldErrors": [
                {"field": "card.cardNum", "error": "invalid card number"}]}}, 400)
        COUNTER[0] += 1
        PAYSAFE_TOKENS[f"SCO0Jpx0ZfBkF{COUNTER[0]}"] = {"lastDigits": number[-4:]}
        return emulator.Response.json({
            "id": f"tok-{COUNTER[0]}", "paymentToken": f"SCO0Jpx0ZfBkF{COUNTER[0]}", "timeToLiveSeconds": 899,
            "card": {"cardBin": number[:6], "lastDigits": number[-4:], "cardExpiry": card.get("cardExpiry"),
                     "holderName": card.get("holderName", ""), "cardType": "VI"}}, 201)


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


if __name__ == "__main__":
    import sys
    platform = sys.argv[sys.argv.index("--platform") + 1] if "--platform" in sys.argv else ""
    {"worldline": worldline_routes, "aps": aps_routes, "mastercard": lambda: (mastercard_routes(), mastercard_transaction_routes()), "paysafe": paysafe_routes}.get(
        platform, lambda: None)()
    notification_routes(platform)
    app.main()
