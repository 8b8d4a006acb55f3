#!/usr/bin/env python3
"""The Worldline Client API on loopback, for CSEKit's ClientAPISession and `cse session` tests.

Built on emulator.py (127.0.0.1, ephemeral port, fault queue, request log, optional TLS). It
serves the Worldline SDKs' own response fixtures (--fixtures DIR = ../shared/vectors/client-api)
and data it generates (an RSA-2048 key pair and its keyId, made with python3-jwcrypto at start).

It CHECKS every Client API request and answers a check failure with HTTP 400 and an ApiError whose
item id is REQUEST_CHECK_FAILED and whose message says what was wrong:
  - the path: /client/<version>/<customerId>/<endpoint> with the configured customer id and the
    expected version (v1, or --dcc-version for services/dccrate), and no trailing slash;
  - the method of the endpoint;
  - the query: products, product and networks take exactly countryCode, currencyCode, amount,
    isRecurring [, isInstallments=true] in that order (products also hide=fields, last); no
    cache-buster; other endpoints take none;
  - the headers: Authorization exactly "GCS v1Client:<session id>"; X-GCS-ClientMetaInfo standard
    base64 of a JSON object of strings with platformIdentifier, sdkIdentifier, sdkCreator,
    deviceBrand, deviceType and appIdentifier; Content-Type application/json on a POST;
  - the body: getIINdetails {bin: 6 or 8 digits, paymentContext?: {amountOfMoney: {amount: int,
    currencyCode: 3 letters}, countryCode, isRecurring: bool, isInstallments: bool}}; dccrate
    {cardSource: {card: {cardNumber, paymentProductId?}} | {token}, transaction: {amount: {...}}};
    surchargecalculation {amountOfMoney: {...}, cardSource: ...} (the currency is checked to be a
    currency, not the amount: WL-Swift's bug).

Data served (fixture paths relative to --fixtures):
  GET  crypto/publickey             the generated key: {"keyId", "publicKey": base64 SPKI DER}
  GET  products                     wl-sdk-client-android/paymentProducts.json
  GET  products/{id}                1 paymentProductVisa, 2 paymentProductAmEx, 132 DinersClub,
                                    3 (flutter) payment_product_response, 320 (flutter) googlepay,
                                    302 the WL-Swift Apple Pay stub, 809 iDeal, 840 PayPal,
                                    771 paymentProductForValidators; others 404 (an ApiError)
  GET  products/{id}/networks       wl-sdk-client-android/paymentProductNetworks.json
  POST services/getIINdetails       bin 4…: normalIINResponseVisa; 5…: normalIINResponseMC;
                                    37…: minimalIINResponseMC (no isAllowedInContext);
                                    else 404 iinDetailsNotFound
  POST services/dccrate             currencyConversionSuccess
  POST services/surchargecalculation scWithSurcharge
The merchant-side oracle (not the Client API):
  POST /merchant/payments           {"encryptedCustomerInput": JWE, "expectedProductId": N}:
                                    decrypts with the private key (jwcrypto) and checks the
                                    header (alg RSA-OAEP, enc A256CBC-HS512, kid = our keyId),
                                    the payload's members and order, clientSessionId, nonce (32
                                    lowercase hex) and paymentProductId; answers {"ok": true,
                                    "paymentProductId", "fields": [keys]} or 400 {"ok": false,
                                    "problems": [...]}. Values are never echoed.
"""

import base64
import json
import os
import re
import sys
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import emulator  # noqa: E402

from jwcrypto import jwe, jwk  # noqa: E402

app = emulator.Emulator("client-api")
app.argparser.add_argument("--fixtures", required=True, help="the client-api fixture directory")
app.argparser.add_argument("--session-id", required=True)
app.argparser.add_argument("--customer-id", required=True)
app.argparser.add_argument("--dcc-version", default="v1")

KEY = jwk.JWK.generate(kty="RSA", size=2048)
KEY_ID = str(uuid.uuid4())
_pem = KEY.export_to_pem().decode("ascii")
PUBLIC_KEY_B64 = "".join(line for line in _pem.splitlines() if not line.startswith("-----"))

META_MEMBERS = ["platformIdentifier", "sdkIdentifier", "sdkCreator", "deviceBrand", "deviceType", "appIdentifier"]
PRODUCT_FILES = {
    "1": "wl-sdk-client-android/paymentProductVisa.json",
    "2": "wl-sdk-client-android/paymentProductAmEx.json",
    "132": "wl-sdk-client-android/paymentProductDinersClub.json",
    "3": "wl-sdk-client-flutter/payment_product_response.json",
    "320": "wl-sdk-client-flutter/payment_product_response_googlepay.json",
    "302": "inline-transcribed/wl-swift__applepay_basic_product.json",
    "809": "wl-sdk-client-android/paymentProductIDeal.json",
    "840": "wl-sdk-client-android/paymentProductPayPal.json",
    "771": "wl-sdk-client-android/paymentProductForValidators.json",
}


def fixture(path):
    with open(os.path.join(app.args.fixtures, path), "rb") as handle:
        return handle.read()


def fixture_response(path, status=200):
    return emulator.Response(status, fixture(path), [("Content-Type", "application/json")])


def api_error(status, error_id, message, property_name=None):
    item = {"errorCode": "EMULATOR", "category": "DIRECT_PLATFORM_ERROR", "httpStatusCode": status, "id": error_id,
            "message": message, "retriable": False}
    if property_name:
        item["propertyName"] = property_name
    return emulator.Response.json({"errorId": "emulator-" + str(uuid.uuid4()), "errors": [item]}, status)


class CheckFailed(Exception):
    pass


def require(condition, problem):
    if not condition:
        raise CheckFailed(problem)


def check_headers(request):
    auth = request.header("Authorization")
    require(auth == "GCS v1Client:" + app.args.session_id, "Authorization is not 'GCS v1Client:<session id>'")
    meta = request.header("X-GCS-ClientMetaInfo")
    require(meta is not None, "X-GCS-ClientMetaInfo is missing")
    try:
        decoded = json.loads(base64.b64decode(meta, validate=True).decode("utf-8"))
    except Exception:
        raise CheckFailed("X-GCS-ClientMetaInfo is not standard base64 of JSON")
    require(isinstance(decoded, dict), "the meta info is not a JSON object")
    for member in META_MEMBERS:
        require(isinstance(decoded.get(member), str) and decoded[member], f"the meta info has no {member}")
    require(all(isinstance(v, str) for v in decoded.values()), "a meta info value is not a string")
    if request.method == "POST":
        require((request.header("Content-Type") or "").startswith("application/json"), "a POST without Content-Type application/json")


def check_context_query(request, extra=()):
    items = request.query_items()
    names = [name for name, _ in items]
    expected = ["countryCode", "currencyCode", "amount", "isRecurring"]
    if "isInstallments" in names:
        expected.append("isInstallments")
    expected += [name for name, _ in extra]
    require(names == expected, f"query members {names} are not {expected}")
    values = dict(items)
    require(re.fullmatch(r"[A-Z]{2}", values["countryCode"]) is not None, "countryCode is not two letters")
    require(re.fullmatch(r"[A-Z]{3}", values["currencyCode"]) is not None, "currencyCode is not three letters")
    require(re.fullmatch(r"0|[1-9][0-9]{0,11}", values["amount"]) is not None, "amount is not minor units")
    require(values["isRecurring"] in ("true", "false"), "isRecurring is not true/false")
    if "isInstallments" in values:
        require(values["isInstallments"] == "true", "isInstallments is sent only when true")
    for name, value in extra:
        require(values.get(name) == value, f"{name} is not {value}")


def check_no_query(request):
    require(request.query is None, "this endpoint takes no query")


def check_amount(value, where):
    require(isinstance(value, dict) and set(value) == {"amount", "currencyCode"}, f"{where} is not {{amount, currencyCode}}")
    require(isinstance(value["amount"], int) and not isinstance(value["amount"], bool) and value["amount"] >= 0,
            f"{where}.amount is not an integer")
    require(isinstance(value["currencyCode"], str) and re.fullmatch(r"[A-Z]{3}", value["currencyCode"]) is not None,
            f"{where}.currencyCode is not a currency")


def check_card_source(value):
    require(isinstance(value, dict) and len(value) == 1, "cardSource is not {card} or {token}")
    if "token" in value:
        require(isinstance(value["token"], str) and value["token"], "cardSource.token is not a string")
        return
    card = value.get("card")
    require(isinstance(card, dict) and set(card) <= {"cardNumber", "paymentProductId"}, "cardSource.card has other members")
    require(isinstance(card.get("cardNumber"), str) and re.fullmatch(r"[0-9]{6,19}", card["cardNumber"]) is not None,
            "cardSource.card.cardNumber is not 6 to 19 digits")
    if "paymentProductId" in card:
        require(isinstance(card["paymentProductId"], int), "cardSource.card.paymentProductId is not an integer")


def client_api(method, endpoint_pattern, version=None):
    """Registers a Client API route with the path, method and header checks."""

    def register(handler):
        pattern = r"/client/(?P<version>v[0-9])/(?P<customer>[^/]+)/" + endpoint_pattern

        def checked(request, match):
            try:
                expected_version = version() if callable(version) else "v1"
                require(match["version"] == expected_version, f"API version {match['version']} is not {expected_version}")
                require(match["customer"] == app.args.customer_id, "the customer id is not the session's")
                require(request.method == method, f"method {request.method} is not {method}")
                check_headers(request)
                return handler(request, match)
            except CheckFailed as problem:
                return api_error(400, "REQUEST_CHECK_FAILED", str(problem))
            except (ValueError, KeyError, TypeError, AttributeError) as error:
                return api_error(400, "REQUEST_CHECK_FAILED", "the body is not the documented JSON: " + type(error).__name__)

        app.route("*", pattern)(checked)
        return handler

    return register


@client_api("GET", r"crypto/publickey")
def public_key(request, match):
    check_no_query(request)
    return emulator.Response.json({"keyId": KEY_ID, "publicKey": PUBLIC_KEY_B64})


@client_api("GET", r"products")
def products(request, match):
    check_context_query(request, extra=[("hide", "fields")])
    return fixture_response("wl-sdk-client-android/paymentProducts.json")


@client_api("GET", r"products/(?P<id>[0-9A-Za-z_-]+)")
def product(request, match):
    check_context_query(request)
    path = PRODUCT_FILES.get(match["id"])
    if path is None:
        return api_error(404, "UNKNOWN_PRODUCT_ID", "UNKNOWN_PRODUCT_ID", "productId")
    return fixture_response(path)


@client_api("GET", r"products/(?P<id>[0-9A-Za-z_-]+)/networks")
def networks(request, match):
    check_context_query(request)
    return fixture_response("wl-sdk-client-android/paymentProductNetworks.json")


@client_api("POST", r"services/getIINdetails")
def iin_details(request, match):
    check_no_query(request)
    body = request.json()
    require(isinstance(body, dict) and set(body) <= {"bin", "paymentContext"}, "the IIN body has other members")
    require(isinstance(body.get("bin"), str) and re.fullmatch(r"[0-9]{6}|[0-9]{8}", body["bin"]) is not None,
            "bin is not 6 or 8 digits")
    if "paymentContext" in body:
        context = body["paymentContext"]
        require(isinstance(context, dict) and set(context) == {"amountOfMoney", "countryCode", "isRecurring", "isInstallments"},
                "paymentContext members are not amountOfMoney, countryCode, isRecurring, isInstallments")
        check_amount(context["amountOfMoney"], "paymentContext.amountOfMoney")
        require(isinstance(context["isRecurring"], bool) and isinstance(context["isInstallments"], bool),
                "isRecurring/isInstallments are not Booleans")
        require(re.fullmatch(r"[A-Z]{2}", context["countryCode"] or "") is not None, "countryCode is not two letters")
    bin_ = body["bin"]
    if bin_.startswith("4"):
        return fixture_response("wl-sdk-client-android/normalIINResponseVisa.json")
    if bin_.startswith("5"):
        return fixture_response("wl-sdk-client-android/normalIINResponseMC.json")
    if bin_.startswith("37"):
        return fixture_response("wl-sdk-client-android/minimalIINResponseMC.json")
    return fixture_response("wl-sdk-client-android/iinDetailsNotFound.json", 404)


@client_api("POST", r"services/dccrate", version=lambda: app.args.dcc_version)
def dcc_rate(request, match):
    check_no_query(request)
    body = request.json()
    require(isinstance(body, dict) and set(body) == {"cardSource", "transaction"}, "the dccrate body is not {cardSource, transaction}")
    check_card_source(body["cardSource"])
    require(isinstance(body["transaction"], dict) and set(body["transaction"]) == {"amount"}, "transaction is not {amount}")
    check_amount(body["transaction"]["amount"], "transaction.amount")
    return fixture_response("wl-sdk-client-android/currencyConversionSuccess.json")


@client_api("POST", r"services/surchargecalculation")
def surcharge(request, match):
    check_no_query(request)
    body = request.json()
    require(isinstance(body, dict) and set(body) == {"amountOfMoney", "cardSource"},
            "the surcharge body is not {amountOfMoney, cardSource}")
    check_amount(body["amountOfMoney"], "amountOfMoney")
    check_card_source(body["cardSource"])
    return fixture_response("wl-sdk-client-android/scWithSurcharge.json")


@app.route("POST", r"/merchant/payments")
def merchant_payment(request, match):
    problems = []
    try:
        body = request.json()
        token = jwe.JWE()
        token.deserialize(body["encryptedCustomerInput"], key=KEY)
        header = json.loads(token.objects["protected"])
        if header != {"alg": "RSA-OAEP", "enc": "A256CBC-HS512", "kid": KEY_ID}:
            problems.append(f"protected header members {sorted(header)} or values are not RSA-OAEP/A256CBC-HS512/our kid")
        payload = json.loads(token.payload.decode("utf-8"))
    except Exception as error:
        return emulator.Response.json({"ok": False, "problems": ["does not decrypt: " + type(error).__name__]}, 400)
    keys = list(payload)
    allowed = ["clientSessionId", "nonce", "paymentProductId", "accountOnFileId", "tokenize", "paymentValues"]
    if [k for k in allowed if k in keys] != keys or keys[:3] != allowed[:3] or keys[-1] != "paymentValues":
        problems.append(f"payload members {keys} are not in the documented order")
    if payload.get("clientSessionId") != app.args.session_id:
        problems.append("clientSessionId is not the session's")
    if not re.fullmatch(r"[0-9a-f]{32}", str(payload.get("nonce"))):
        problems.append("nonce is not 32 lowercase hex digits")
    product_id = payload.get("paymentProductId")
    if not isinstance(product_id, int) or isinstance(product_id, bool):
        problems.append("paymentProductId is not a JSON integer")
    elif "expectedProductId" in body and product_id != body["expectedProductId"]:
        problems.append(f"paymentProductId {product_id} is not {body['expectedProductId']}")
    values = payload.get("paymentValues")
    if not isinstance(values, list) or not all(isinstance(v, dict) and set(v) == {"key", "value"} for v in values):
        problems.append("paymentValues is not [{key, value}]")
        values = []
    if problems:
        return emulator.Response.json({"ok": False, "problems": problems}, 400)
    return emulator.Response.json({"ok": True, "paymentProductId": product_id, "fields": [v["key"] for v in values]})


if __name__ == "__main__":
    app.main()
