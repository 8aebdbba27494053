"""Schemathesis hooks for the schema tests (scripts/schemathesis.sh): every generated call reaches
the edge as a signed-in customer's browser would make it, so the signed-in routes answer with
their real replies rather than the 401 every one of them gives a guest.

The customer signs up through the API as a person does (an OTP from the development outbox,
`GET /api/dev/sms`), is located in Koramangala (the `userLocation` cookie the location box leaves,
without which a cart is not served), saves a home address and has a dish in the cart, so the cart,
address and checkout replies carry data and not only their empty shapes. Each call then carries
the session's cookies and its CSRF token in `x-csrf-token` (the header wins over any `_csrf` a
generated body holds, so a body never decides whether the call passes the CSRF check).

`TIFFIN_SCHEMA_BASE_URL` names the edge. `TIFFIN_SCHEMA_SESSION=fresh` gives every call a customer
of its own, for the operations that end the session they run in (logout, deleting the account):
with one shared customer the first such call would leave every later one testing a guest.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
import urllib.parse

import requests
import schemathesis

BASE_URL = os.environ["TIFFIN_SCHEMA_BASE_URL"].rstrip("/")
FRESH = os.environ.get("TIFFIN_SCHEMA_SESSION", "shared") == "fresh"

# The point the e2e customers live at (e2e/support/customer.mjs): the generated catalogue always
# has restaurants delivering there.
KORAMANGALA = {
    "lat": 12.9352,
    "lng": 77.6245,
    "address": "Koramangala, Bengaluru, Karnataka, India",
    "area": "Koramangala",
    "mainText": "Koramangala",
    "city": "bangalore",
}
LOCATION_COOKIE = urllib.parse.quote(json.dumps(KORAMANGALA, separators=(",", ":")), safe="")
# How long the sign-up waits for the OTP to reach the development outbox.
OTP_WAIT_SECONDS = 30
TIMEOUT = 30


class SetupFailed(Exception):
    """The customer could not be set up: the run stops with what the edge answered."""


def _data(reply: requests.Response, what: str) -> dict:
    try:
        body = reply.json()
    except ValueError as e:
        raise SetupFailed(f"{what}: HTTP {reply.status_code}, not JSON: {reply.text[:300]}") from e
    if not reply.ok or body.get("statusCode") not in (0, 8, 9):
        raise SetupFailed(f"{what}: HTTP {reply.status_code} {json.dumps(body)[:500]}")
    return body


def _new_mobile() -> str:
    # A fresh 10-digit number starting 6-9, so runs never share an account.
    return f"{random.randint(6, 9)}{random.randint(0, 999_999_999):09d}"


def _plain_dish(http: requests.Session) -> tuple[dict, dict]:
    """An open restaurant near Koramangala and one of its in-stock dishes with no choices."""
    query = {"lat": KORAMANGALA["lat"], "lng": KORAMANGALA["lng"], "page_type": "DESKTOP_WEB_LISTING", "offset": 0}
    listing = _data(http.get(f"{BASE_URL}/api/restaurants/list/v5", params=query, timeout=TIMEOUT), "listing")["data"]
    for card in listing["cards"]:
        restaurant_id = card["data"]["id"]
        menu_query = {"restaurantId": restaurant_id, "lat": KORAMANGALA["lat"], "lng": KORAMANGALA["lng"]}
        page = _data(http.get(f"{BASE_URL}/api/menu/pl", params=menu_query, timeout=TIMEOUT), "menu")["data"]
        if (page["restaurant"].get("deliveryState") or "OPEN") != "OPEN":
            continue
        for item in page["menu"]["items"].values():
            if item.get("inStock") == 1 and not item.get("customisable"):
                return page["restaurant"], item
    raise SetupFailed("no open restaurant near Koramangala with a plain dish")


def signed_in_customer() -> dict:
    """Signs a new customer up and answers the cookies and the CSRF token its calls carry."""
    http = requests.Session()
    host = urllib.parse.urlsplit(BASE_URL).hostname
    http.cookies.set("userLocation", LOCATION_COOKIE, domain=host, path="/")
    guest = _data(http.get(f"{BASE_URL}/api/cart", timeout=TIMEOUT), "guest cart")
    csrf = {"x-csrf-token": guest["csrfToken"]}

    mobile = _new_mobile()
    since = int(time.time() * 1000) - 1000
    _data(http.post(f"{BASE_URL}/api/auth/otp", json={"mobile": mobile}, headers=csrf, timeout=TIMEOUT), "send OTP")
    code = None
    deadline = time.monotonic() + OTP_WAIT_SECONDS
    while code is None:
        outbox = _data(http.get(f"{BASE_URL}/api/dev/sms", params={"mobile": mobile}, timeout=TIMEOUT), "outbox")
        for message in outbox["data"]["messages"]:
            found = re.search(r"\b(\d{6})\b", message["body"])
            if message["sentAt"] >= since and found:
                code = found.group(1)
                break
        if code is None:
            if time.monotonic() > deadline:
                raise SetupFailed(f"no OTP for {mobile} in the outbox after {OTP_WAIT_SECONDS} s")
            time.sleep(0.2)
    signed_in = _data(
        http.post(
            f"{BASE_URL}/api/auth/verify-otp",
            json={"mobile": mobile, "otp": code, "name": "Schema Tester", "email": ""},
            headers=csrf,
            timeout=TIMEOUT,
        ),
        "verify OTP",
    )
    csrf = {"x-csrf-token": signed_in["csrfToken"]}

    if not FRESH:
        address = {
            "annotation": "HOME",
            "address": KORAMANGALA["address"],
            "area": KORAMANGALA["area"],
            "city": KORAMANGALA["city"],
            "flat_no": "Flat 42",
            "landmark": "Near the park",
            "lat": KORAMANGALA["lat"],
            "lng": KORAMANGALA["lng"],
            "mobile": mobile,
            "instructions": "",
        }
        _data(http.post(f"{BASE_URL}/api/address", json=address, headers=csrf, timeout=TIMEOUT), "save address")
        restaurant, dish = _plain_dish(http)
        line = {"menu_item_id": dish["id"], "quantity": 2, "addons": [], "variants": []}
        cart = {"restaurantId": restaurant["id"], "cartItems": [line]}
        _data(http.post(f"{BASE_URL}/api/cart", json=cart, headers=csrf, timeout=TIMEOUT), "fill cart")

    return {"cookies": http.cookies.get_dict(), "csrf": signed_in["csrfToken"]}


# One customer for the whole run (refreshed every hour at most), or a new one for every call.
# A 401 is not retried with a new sign-in: the customer's session never ends during the shared run,
# so a 401 there is an answer to judge, not an expired token.
@schemathesis.auth(refresh_interval=None if FRESH else 3600, retry_on=[])
class Customer:
    def get(self, case, context):
        return signed_in_customer()

    def set(self, case, data, context):
        case.cookies = {**(case.cookies or {}), **data["cookies"]}
        case.headers = {**(case.headers or {}), "x-csrf-token": data["csrf"]}
