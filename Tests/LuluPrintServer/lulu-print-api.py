#!/usr/bin/env python3
"""A loopback stand-in for Lulu's Print API, written from its published documentation (the
OpenAPI description openapi_public.yml behind api.lulu.com/docs, and the Print API help pages),
for bookrender's ordering tests.

It is strict about the wire format: the token request (form body, Basic credential of the client
key and secret, the realm's path), the bearer token on every call, JSON bodies with exactly the
documented fields and types, the documented paths with their trailing slash. What it gets wrong is
answered the way the API answers (Django REST framework's field errors, Keycloak's token errors).
It downloads the files it is given, as Lulu does, and measures them with poppler's pdfinfo.

  lulu-print-api.py --key KEY --secret SECRET --log requests.jsonl [--port 0] [--files DIR]

prints the port once it listens. Every API request is a line of the log (method, path, query,
headers, body, status). Tests script it with POST /__mock__/control (failures, token expiry, file
problems, a different cover size) and drive a print job's status with POST /__mock__/advance,
which also sends the PRINT_JOB_STATUS_CHANGED webhook, signed with HMAC-SHA256 as Lulu signs it.
"""
import argparse, base64, hashlib, hmac, json, os, re, secrets, subprocess, sys, tempfile, threading, time
import urllib.error, urllib.parse, urllib.request
from datetime import datetime, timezone
from decimal import Decimal, ROUND_HALF_UP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOKEN_PATH = "/auth/realms/glasstree/protocol/openid-connect/token"
LEVELS = ["MAIL", "PRIORITY_MAIL", "GROUND_HD", "GROUND_BUS", "GROUND", "EXPEDITED", "EXPRESS"]
# Lulu Print API help, "How is spine width calculated": the hardcover table, inches.
CASEWRAP = [(84, "0.25"), (140, "0.5"), (168, "0.625"), (194, "0.6875"), (222, "0.75"), (250, "0.8125"), (278, "0.875"),
            (306, "0.9375"), (334, "1"), (360, "1.0625"), (388, "1.125"), (416, "1.1875"), (444, "1.25"), (472, "1.3125"),
            (500, "1.375"), (528, "1.4375"), (556, "1.5"), (582, "1.5625"), (610, "1.625"), (638, "1.6875"), (666, "1.75"),
            (694, "1.8125"), (722, "1.875"), (750, "1.9375"), (778, "2"), (800, "2.0625")]
SKU = re.compile(r"^(\d{4})X(\d{4})(BW|FC)(STD|PRE)(PB|CW|LW|CO|SS)(\d{3}(?:UW|UC|CW)\d{3})([GMU])([XNGRBTF])([XGBW])$")
CENT = Decimal("0.01")

lock = threading.Lock()
state = {"tokens": {}, "jobs": {}, "validations": {}, "next_job": 1001, "next_validation": 1, "fetches": []}
control = {}


def now():
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def money(d):
    return str(Decimal(d).quantize(CENT, rounding=ROUND_HALF_UP))


class Refusal(Exception):
    def __init__(self, status, body):
        self.status, self.body = status, body


def field_errors(errors):
    if errors:
        raise Refusal(400, errors)


def check_fields(obj, spec, where, errors):
    """spec: name -> (type, required); type is str, int, bool, dict, list or a set of allowed strings."""
    if not isinstance(obj, dict):
        errors[where or "non_field_errors"] = ["Expected a dictionary of items but got type \"%s\"." % type(obj).__name__]
        return
    for key in obj:
        if key not in spec:
            errors[(where + "." if where else "") + key] = ["Unknown field."]
    for key, (kind, required) in spec.items():
        name = (where + "." if where else "") + key
        if key not in obj or obj[key] is None:
            if required:
                errors[name] = ["This field is required."]
            continue
        v = obj[key]
        if kind is int and (not isinstance(v, int) or isinstance(v, bool)):
            errors[name] = ["A valid integer is required."]
        elif kind is str and not isinstance(v, str):
            errors[name] = ["Not a valid string."]
        elif kind is str and required and v == "":
            errors[name] = ["This field may not be blank."]
        elif kind is bool and not isinstance(v, bool):
            errors[name] = ["Must be a valid boolean."]
        elif kind is dict and not isinstance(v, dict):
            errors[name] = ["Expected a dictionary of items."]
        elif kind is list and not isinstance(v, list):
            errors[name] = ["Expected a list of items."]
        elif isinstance(kind, set) and v not in kind:
            errors[name] = ["\"%s\" is not a valid choice." % v]


ADDRESS = {"name": (str, False), "organization": (str, False), "street1": (str, True), "street2": (str, False),
           "city": (str, True), "state_code": (str, False), "postcode": (str, True), "country_code": (str, True),
           "phone_number": (str, True), "email": (str, False), "is_business": (bool, False),
           "title": ({"MR", "MISS", "MRS", "MS", "DR"}, False), "recipient_tax_id": (str, False)}
LINE_SPEC = {"page_count": (int, True), "pod_package_id": (str, True), "quantity": (int, True)}


def check_address(a, where, errors, job=False):
    spec = dict(ADDRESS)
    if job:
        spec["name"] = (str, True)
        spec["email"] = (str, True)
    check_fields(a, spec, where, errors)
    if isinstance(a, dict):
        phone = a.get("phone_number")
        if isinstance(phone, str) and not re.match(r"^\+?[\d\s\-.\/()]{8,20}$", phone):
            errors[where + ".phone_number"] = ["Enter a valid phone number."]
        cc = a.get("country_code")
        if isinstance(cc, str) and len(cc) != 2:
            errors[where + ".country_code"] = ["Ensure this field has exactly 2 characters."]


def check_sku(sku, where, errors):
    if not isinstance(sku, str) or not SKU.match(sku):
        errors[where] = ["Invalid pod_package_id \"%s\"." % sku]
        return None
    m = SKU.match(sku)
    return {"width": Decimal(m.group(1)) / 100, "height": Decimal(m.group(2)) / 100, "binding": m.group(5)}


def cover_size(sku, pages):
    """Points: paperback as bleed + back + spine + front + bleed, spine pages / 444 + 0.06 in;
    casewrap with its 0.875 in wrap and the hardcover spine table."""
    if sku["binding"] == "PB":
        spine, edge = Decimal(pages) / 444 + Decimal("0.06"), Decimal("0.125")
    elif sku["binding"] == "CW":
        steps = [Decimal(i) for m, i in CASEWRAP if pages <= m]
        if pages < 24 or not steps:
            raise Refusal(400, {"interior_page_count": ["Page count is out of range for this product."]})
        spine, edge = steps[0], Decimal("0.875")
    else:
        raise Refusal(400, {"pod_package_id": ["No cover dimensions for this binding."]})
    w = (2 * sku["width"] + spine + 2 * edge) * 72 + Decimal(str(control.get("cover_width_offset_pt", 0)))
    h = (sku["height"] + 2 * edge) * 72
    return w, h


def fetch(url, kind):
    """Downloads a file as Lulu does, and measures it with pdfinfo."""
    entry = {"url": url, "kind": kind}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers={"User-Agent": "lulu-mock"}), timeout=60) as r:
            data = r.read()
        entry["status"] = 200
    except urllib.error.HTTPError as e:
        entry["status"] = e.code
        data = None
    except Exception as e:
        entry["status"] = 0
        entry["error"] = str(e)
        data = None
    info = None
    if data is not None:
        entry["bytes"] = len(data)
        with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
            f.write(data)
            f.flush()
            r = subprocess.run(["pdfinfo", "-f", "1", "-l", "100000", f.name], capture_output=True, text=True)
        if r.returncode == 0:
            pages = int(re.search(r"^Pages:\s+(\d+)", r.stdout, re.M).group(1))
            sizes = set(re.findall(r"^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts", r.stdout, re.M))
            info = {"pages": pages, "sizes": sorted((float(w), float(h)) for w, h in sizes)}
    with lock:
        state["fetches"].append(entry)
    return entry, info


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body, headers=None):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.handle_any("GET")

    def do_POST(self):
        self.handle_any("POST")

    def do_PUT(self):
        self.handle_any("PUT")

    def handle_any(self, method):
        url = urllib.parse.urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if url.path.startswith("/__mock__/"):
            return self.mock_control(url.path, raw)
        if url.path.startswith("/files/") and args.files and method == "GET":
            return self.file(url.path[len("/files/"):])
        headers = {k.lower(): v for k, v in self.headers.items()}
        entry = {"method": method, "path": url.path, "query": urllib.parse.parse_qs(url.query), "headers": headers,
                 "body": raw.decode("utf-8", "replace"), "time": time.time()}
        try:
            status, body, extra = self.route(method, url, headers, raw)
        except Refusal as r:
            status, body, extra = r.status, r.body, {}
        entry["status"] = status
        with open(args.log, "a") as f:
            f.write(json.dumps(entry) + "\n")
        self.reply(status, body, extra)

    def scripted_failure(self, method, path, before):
        """A failure the test asked for: answered before the call is handled, or after (its effect kept)."""
        with lock:
            for rule in control.get("fail", []):
                if rule.get("method", method) == method and re.fullmatch(rule["path"], path) and rule.get("times", 1) > 0 \
                        and bool(rule.get("after", False)) != before:
                    rule["times"] = rule.get("times", 1) - 1
                    return rule
        return None

    def route(self, method, url, headers, raw):
        path = url.path
        failure = self.scripted_failure(method, path, before=True)
        if failure:
            # "echo": an error that repeats the request's credentials, as careless servers do.
            detail = "Rejected: Authorization was " + headers.get("authorization", "") if failure.get("echo") else "Service temporarily unavailable, try again later."
            return failure.get("status", 500), {"detail": detail}, {}
        if path == TOKEN_PATH:
            return self.token(method, headers, raw)
        token = (headers.get("authorization") or "")
        if not token.startswith("Bearer "):
            return 401, {"detail": "Authentication credentials were not provided."}, {"WWW-Authenticate": "Bearer"}
        with lock:
            t = state["tokens"].get(token[7:])
            if t is not None:
                t["uses"] += 1
        if t is None or t["expires"] < time.time() or ("expire_after_uses" in control and t["uses"] > control["expire_after_uses"]):
            return 401, {"detail": "Given token not valid for any token type"}, {"WWW-Authenticate": "Bearer"}
        if headers.get("accept") not in (None, "application/json", "*/*"):
            return 406, {"detail": "Could not satisfy the request Accept header."}, {}
        body = None
        if method in ("POST", "PUT"):
            if headers.get("content-type", "").split(";")[0].strip() != "application/json":
                return 415, {"detail": "Unsupported media type \"%s\" in request." % headers.get("content-type", "")}, {}
            try:
                body = json.loads(raw)
            except ValueError:
                return 400, {"detail": "JSON parse error"}, {}
        routes = [
            ("POST", r"/cover-dimensions/", self.cover_dimensions),
            ("POST", r"/validate-interior/", self.validate_interior),
            ("GET", r"/validate-interior/(\d+)/", self.read_validation),
            ("POST", r"/validate-cover/", self.validate_cover),
            ("GET", r"/validate-cover/(\d+)/", self.read_validation),
            ("POST", r"/shipping-options/", self.shipping_options),
            ("POST", r"/print-job-cost-calculations/", self.cost_calculation),
            ("POST", r"/print-jobs/", self.create_job),
            ("GET", r"/print-jobs/", self.list_jobs),
            ("GET", r"/print-jobs/(\d+)/", self.read_job),
            ("GET", r"/print-jobs/(\d+)/status/", self.read_status),
        ]
        for m, pattern, handler in routes:
            match = re.fullmatch(pattern, path)
            if match and m == method:
                status, answer = handler(body, url, *match.groups())
                after = self.scripted_failure(method, path, before=False)
                if after:
                    return after.get("status", 502), {"detail": "Bad gateway"}, {}
                return status, answer, {}
        return 404, {"detail": "Not found."}, {}

    def token(self, method, headers, raw):
        if method != "POST":
            return 405, {"error": "invalid_request", "error_description": "HTTP method not allowed"}, {}
        if headers.get("content-type", "").split(";")[0].strip() != "application/x-www-form-urlencoded":
            return 400, {"error": "invalid_request", "error_description": "Content type must be application/x-www-form-urlencoded"}, {}
        form = urllib.parse.parse_qs(raw.decode())
        if form.get("grant_type") != ["client_credentials"]:
            return 400, {"error": "unsupported_grant_type", "error_description": "Unsupported grant_type"}, {}
        expected = "Basic " + base64.b64encode(("%s:%s" % (args.key, args.secret)).encode()).decode()
        if headers.get("authorization") != expected:
            return 401, {"error": "unauthorized_client", "error_description": "Invalid client or Invalid client credentials"}, {}
        token = secrets.token_urlsafe(48)
        lifetime = int(control.get("token_lifetime", 3600))
        with lock:
            state["tokens"][token] = {"expires": time.time() + lifetime, "uses": 0}
        return 200, {"access_token": token, "expires_in": lifetime, "refresh_expires_in": 604800, "refresh_token": secrets.token_urlsafe(32),
                     "token_type": "bearer", "not-before-policy": 0, "session_state": secrets.token_hex(16)}, {}

    def cover_dimensions(self, body, url):
        errors = {}
        check_fields(body, {"pod_package_id": (str, True), "interior_page_count": (int, True), "unit": ({"pt", "mm", "inch"}, False)}, "", errors)
        sku = check_sku(body.get("pod_package_id"), "pod_package_id", errors) if isinstance(body, dict) else None
        field_errors(errors)
        w, h = cover_size(sku, body["interior_page_count"])
        unit = body.get("unit", "pt")
        scale = {"pt": Decimal(1), "mm": Decimal("25.4") / 72, "inch": Decimal(1) / 72}[unit]
        q = Decimal("0.001")
        return 201, {"width": str((w * scale).quantize(q)), "height": str((h * scale).quantize(q)), "unit": unit}

    def new_validation(self, kind, source, pod, pages):
        with lock:
            vid = state["next_validation"]
            state["next_validation"] += 1
        entry, info = fetch(source, kind)
        errors = list(control.get(kind + "_errors", []))
        if entry["status"] != 200:
            errors.append("Could not download the file (HTTP %s)." % entry["status"])
        elif info is None:
            errors.append("Invalid PDF file.")
        elif kind == "interior":
            if info["pages"] < 2:
                errors.append("Not enough pages - at least 2 pages are required.")
            if len(info["sizes"]) > 1:
                errors.append("Different sizes of pages.")
            if pod and info["sizes"]:
                w, h = info["sizes"][0]
                tw, th = float(pod["width"] + Decimal("0.25")) * 72, float(pod["height"] + Decimal("0.25")) * 72
                if abs(w - tw) > 1 or abs(h - th) > 1:
                    errors.append("Invalid page size: %.2f x %.2f pt, expected %.2f x %.2f pt." % (w, h, tw, th))
        else:
            cw, ch = cover_size(pod, pages)
            w, h = info["sizes"][0] if info["sizes"] else (0, 0)
            if info["pages"] != 1 or abs(w - float(cw)) > 1 or abs(h - float(ch)) > 1:
                errors.append("Invalid file size: %.2f x %.2f pt, expected %.2f x %.2f pt." % (w, h, cw, ch))
        record = {"id": vid, "source_url": source, "errors": errors or None, "kind": kind,
                  "page_count": info["pages"] if info and kind == "interior" else None,
                  "final": "ERROR" if errors else ("NORMALIZED" if pod or kind == "cover" else "VALIDATED"),
                  "polls": int(control.get("validation_polls", 1))}
        with lock:
            state["validations"][vid] = record
        return self.validation_view(record, first=True)

    def validation_view(self, r, first=False):
        running = "VALIDATING" if r["kind"] == "interior" else "NORMALIZING"
        if first:
            status = running
        elif r["polls"] > 1:
            r["polls"] -= 1
            status = running
        else:
            status = r["final"]
        out = {"id": r["id"], "source_url": r["source_url"], "errors": r["errors"] if status == "ERROR" else None, "status": status}
        if r["kind"] == "interior":
            out["page_count"] = r["page_count"] if status != running else None
            out["valid_pod_package_ids"] = None
        return 201 if first else 200, out

    def validate_interior(self, body, url):
        errors = {}
        check_fields(body, {"source_url": (str, True), "pod_package_id": (str, False)}, "", errors)
        pod = check_sku(body["pod_package_id"], "pod_package_id", errors) if isinstance(body, dict) and body.get("pod_package_id") else None
        field_errors(errors)
        return self.new_validation("interior", body["source_url"], pod, None)

    def validate_cover(self, body, url):
        errors = {}
        check_fields(body, {"source_url": (str, True), "pod_package_id": (str, True), "interior_page_count": (int, True)}, "", errors)
        pod = check_sku(body.get("pod_package_id"), "pod_package_id", errors) if isinstance(body, dict) else None
        field_errors(errors)
        return self.new_validation("cover", body["source_url"], pod, body["interior_page_count"])

    def read_validation(self, body, url, vid):
        with lock:
            r = state["validations"].get(int(vid))
        kind = "interior" if url.path.startswith("/validate-interior/") else "cover"
        if r is None or r["kind"] != kind:
            return 404, {"detail": "Not found."}
        return self.validation_view(r)

    def line_items(self, body, errors):
        items = body.get("line_items") if isinstance(body, dict) else None
        out = []
        if isinstance(items, list):
            if not items:
                errors["line_items"] = ["This list may not be empty."]
            for i, item in enumerate(items):
                check_fields(item, LINE_SPEC, "line_items[%d]" % i, errors)
                if isinstance(item, dict):
                    sku = check_sku(item.get("pod_package_id"), "line_items[%d].pod_package_id" % i, errors)
                    out.append((item, sku))
        return out

    def shipping_options(self, body, url):
        errors = {}
        check_fields(body, {"currency": ({"AUD", "CAD", "EUR", "GBP", "USD"}, False), "line_items": (list, True), "shipping_address": (dict, True)}, "", errors)
        items = self.line_items(body, errors)
        if isinstance(body, dict) and isinstance(body.get("shipping_address"), dict):
            check_fields(body["shipping_address"], {"country": (str, True), "state_code": (str, False), "city": (str, False),
                                                   "postcode": (str, False), "street1": (str, False), "street2": (str, False),
                                                   "is_business": (bool, False), "is_postbox": (bool, False), "name": (str, False),
                                                   "organization": (str, False), "phone_number": (str, False)}, "shipping_address", errors)
        field_errors(errors)
        copies = sum(i["quantity"] for i, _ in items)
        currency = body.get("currency") or "USD"
        options = []
        for n, (level, base, days) in enumerate([("MAIL", "4.99", 10), ("PRIORITY_MAIL", "7.99", 6), ("GROUND", "9.49", 5),
                                                 ("EXPEDITED", "19.99", 3), ("EXPRESS", "34.99", 2)]):
            options.append({"id": 100 + n, "level": level, "cost_excl_tax": money(Decimal(base) + Decimal("0.75") * (copies - 1)),
                            "currency": currency, "business_only": False, "home_only": False, "postbox_ok": level in ("MAIL", "PRIORITY_MAIL"),
                            "traceable": level != "MAIL", "transit_time": days, "shipping_buffer": 1,
                            "min_delivery_date": "2026-12-%02d" % (1 + days), "max_delivery_date": "2026-12-%02d" % (3 + days),
                            "min_dispatch_date": "2026-11-30", "max_dispatch_date": "2026-12-01", "total_days_min": days + 2, "total_days_max": days + 4})
        return 200, options

    def prices(self, items, level):
        """Printing per copy: a base by binding and colour, and cents per page; shipping as the
        options price it; tax at 6 %."""
        lines, printing = [], Decimal(0)
        for item, sku in items:
            base = {"PB": Decimal("2.50"), "CW": Decimal("9.75")}.get(sku["binding"], Decimal("3"))
            per_page = Decimal("0.07") if "FC" in item["pod_package_id"] else Decimal("0.012")
            unit = (base + per_page * item["page_count"]).quantize(CENT)
            total = unit * item["quantity"]
            tax = (total * Decimal("0.06")).quantize(CENT)
            lines.append({"quantity": item["quantity"], "cost_excl_discounts": money(unit), "total_cost_excl_discounts": money(total),
                          "total_cost_excl_tax": money(total), "total_cost_incl_tax": money(total + tax), "total_tax": money(tax),
                          "tax_rate": "0.060000", "discounts": [], "unit_tier_cost": None})
            printing += total
        copies = sum(i["quantity"] for i, _ in items)
        ship = Decimal({"MAIL": "4.99", "PRIORITY_MAIL": "7.99", "GROUND": "9.49", "GROUND_HD": "9.49", "GROUND_BUS": "9.49",
                        "EXPEDITED": "19.99", "EXPRESS": "34.99"}[level]) + Decimal("0.75") * (copies - 1)
        ship_tax = (ship * Decimal("0.06")).quantize(CENT)
        fee, fee_tax = Decimal("0.75"), Decimal("0.05")
        tax = sum(Decimal(l["total_tax"]) for l in lines) + ship_tax + fee_tax
        excl = printing + ship + fee
        return {"currency": "USD", "line_item_costs": lines,
                "shipping_cost": {"total_cost_excl_tax": money(ship), "total_cost_incl_tax": money(ship + ship_tax), "total_tax": money(ship_tax), "tax_rate": "0.060000"},
                "fulfillment_cost": {"total_cost_excl_tax": money(fee), "total_cost_incl_tax": money(fee + fee_tax), "total_tax": money(fee_tax), "tax_rate": "0.060000"},
                "fees": [{"currency": "USD", "fee_type": "FULFILLMENT_FEE", "sku": "FULFILLMENT_FEE", "tax_rate": "0.060000",
                          "total_cost_excl_tax": money(fee), "total_cost_incl_tax": money(fee + fee_tax), "total_tax": money(fee_tax)}],
                "total_cost_excl_tax": money(excl), "total_cost_incl_tax": money(excl + tax), "total_tax": money(tax), "total_discount_amount": "0.00"}

    def cost_calculation(self, body, url):
        errors = {}
        check_fields(body, {"line_items": (list, True), "shipping_address": (dict, True), "shipping_option": (set(LEVELS), True)}, "", errors)
        items = self.line_items(body, errors)
        if isinstance(body, dict) and isinstance(body.get("shipping_address"), dict):
            check_address(body["shipping_address"], "shipping_address", errors)
        field_errors(errors)
        answer = self.prices(items, body["shipping_option"])
        answer["shipping_address"] = body["shipping_address"]
        return 201, answer

    def create_job(self, body, url):
        errors = {}
        check_fields(body, {"contact_email": (str, True), "external_id": (str, False), "line_items": (list, True),
                            "shipping_address": (dict, True), "shipping_level": (set(LEVELS), True), "production_delay": (int, False)}, "", errors)
        items = []
        for i, item in enumerate(body.get("line_items") or [] if isinstance(body, dict) else []):
            where = "line_items[%d]" % i
            check_fields(item, {"external_id": (str, False), "printable_normalization": (dict, True), "quantity": (int, True),
                                "title": (str, True)}, where, errors)
            pn = item.get("printable_normalization") if isinstance(item, dict) else None
            if isinstance(pn, dict):
                check_fields(pn, {"cover": (dict, True), "interior": (dict, True), "pod_package_id": (str, True)}, where + ".printable_normalization", errors)
                for part in ("cover", "interior"):
                    if isinstance(pn.get(part), dict):
                        check_fields(pn[part], {"source_url": (str, True), "source_md5_sum": (str, False)}, "%s.printable_normalization.%s" % (where, part), errors)
                sku = check_sku(pn.get("pod_package_id"), where + ".printable_normalization.pod_package_id", errors)
                items.append((item, sku))
        if isinstance(body, dict) and isinstance(body.get("shipping_address"), dict):
            check_address(body["shipping_address"], "shipping_address", errors, job=True)
        if isinstance(body, dict) and isinstance(body.get("line_items"), list) and not body["line_items"]:
            errors["line_items"] = ["This list may not be empty."]
        field_errors(errors)
        # Lulu downloads the files to normalize them.
        pages = {}
        for item, sku in items:
            pn = item["printable_normalization"]
            fetch(pn["cover"]["source_url"], "cover")
            _, info = fetch(pn["interior"]["source_url"], "interior")
            pages[id(item)] = info["pages"] if info else 0
        with lock:
            jid = state["next_job"]
            state["next_job"] += 1
        priced = self.prices([({"pod_package_id": pn_sku(i), "page_count": pages[id(i)], "quantity": i["quantity"]}, s) for i, s in items],
                             body["shipping_level"])
        job = {"id": jid, "external_id": body.get("external_id"), "order_id": None, "contact_email": body["contact_email"],
               "date_created": now(), "date_modified": now(), "shipping_level": body["shipping_level"],
               "shipping_address": body["shipping_address"], "production_delay": body.get("production_delay", 60),
               "production_due_time": None, "tax_country": body["shipping_address"]["country_code"],
               "costs": {"line_item_costs": priced["line_item_costs"], "shipping_cost": priced["shipping_cost"],
                         "total_cost_excl_tax": priced["total_cost_excl_tax"], "total_cost_incl_tax": priced["total_cost_incl_tax"],
                         "total_tax": priced["total_tax"], "currency": "USD"},
               "line_items": [{"id": jid * 10 + n, "external_id": i.get("external_id"), "title": i["title"], "quantity": i["quantity"],
                               "printable_id": None, "printable_normalization": i["printable_normalization"], "page_count": pages[id(i)],
                               "status": {"name": "CREATED", "messages": {"info": "Line-item is currently being validated"}},
                               "tracking_id": None, "tracking_urls": []} for n, (i, _) in enumerate(items)],
               "status": {"name": "CREATED", "message": "Print-job is currently being validated", "changed": now()}}
        with lock:
            state["jobs"][jid] = job
        return 201, job

    def list_jobs(self, body, url):
        q = urllib.parse.parse_qs(url.query)
        search = (q.get("search") or [None])[0]
        with lock:
            jobs = list(state["jobs"].values())
        if search:
            jobs = [j for j in jobs if search in " ".join(str(x) for x in (j["id"], j.get("external_id") or "", j.get("order_id") or "", j["status"]["name"]))]
        if (q.get("exclude_line_items") or ["false"])[0] in ("true", "1", "yes"):
            jobs = [{k: v for k, v in j.items() if k != "line_items"} for j in jobs]
        # Paged as Django REST framework pages a list: newest first, page_size capped by the
        # server, an out-of-range page a 404.
        jobs.sort(key=lambda j: -j["id"])
        try:
            page = int((q.get("page") or ["1"])[0])
            size = min(int((q.get("page_size") or [str(control.get("page_size", 10))])[0]), control.get("max_page_size", 10))
        except ValueError:
            return 404, {"detail": "Invalid page."}
        if page < 1 or size < 1 or (page - 1) * size >= max(len(jobs), 1):
            return 404, {"detail": "Invalid page."}
        def link(n):
            query = dict((k, v[0]) for k, v in q.items())
            query.update({"page": str(n), "page_size": str(size)})
            return "http://%s%s?%s" % (self.headers.get("Host", "127.0.0.1"), url.path, urllib.parse.urlencode(query))
        more = page * size < len(jobs)
        return 200, {"count": len(jobs), "next": link(page + 1) if more else None, "previous": link(page - 1) if page > 1 else None,
                     "results": jobs[(page - 1) * size:page * size]}

    def read_job(self, body, url, jid):
        with lock:
            job = state["jobs"].get(int(jid))
        return (200, job) if job else (404, {"detail": "Not found."})

    def read_status(self, body, url, jid):
        with lock:
            job = state["jobs"].get(int(jid))
        return (200, job["status"]) if job else (404, {"detail": "Not found."})

    def file(self, name):
        path = os.path.join(args.files, os.path.basename(name))
        if not os.path.isfile(path):
            return self.reply(404, {"detail": "Not found."})
        data = open(path, "rb").read()
        self.send_response(200)
        self.send_header("Content-Type", "application/pdf")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def mock_control(self, path, raw):
        body = json.loads(raw or b"{}")
        if path == "/__mock__/control":
            with lock:
                control.clear()
                control.update(body)
            return self.reply(200, {"ok": True})
        if path == "/__mock__/seed":
            # Print jobs placed by someone else, with the given external ids.
            with lock:
                for external in body["external_ids"]:
                    jid = state["next_job"]
                    state["next_job"] += 1
                    state["jobs"][jid] = {"id": jid, "external_id": external, "order_id": None, "date_created": now(),
                                          "status": {"name": "CREATED", "message": "", "changed": now()}}
            return self.reply(200, {"ok": True})
        if path == "/__mock__/state":
            with lock:
                return self.reply(200, {"jobs": list(state["jobs"].values()), "fetches": state["fetches"],
                                        "tokens": list(state["tokens"]), "validations": list(state["validations"].values())})
        if path == "/__mock__/fetch":
            entry, info = fetch(body["url"], body.get("kind", "file"))
            return self.reply(200, {"status": entry["status"], "pages": info["pages"] if info else None})
        if path == "/__mock__/advance":
            with lock:
                job = state["jobs"][int(body["id"])]
                job["status"] = {"name": body["status"], "message": body.get("message", "Print-job status changed"), "changed": now()}
                if body["status"] == "SHIPPED":
                    for item in job["line_items"]:
                        item["status"] = {"name": "SHIPPED", "messages": {}}
                        item["tracking_id"] = "TRACK-%d" % item["id"]
                        item["tracking_urls"] = ["https://tracking.example/TRACK-%d" % item["id"]]
                payload = json.dumps({"topic": "PRINT_JOB_STATUS_CHANGED", "data": job}).encode()
            result = {"ok": True}
            if body.get("webhook"):
                secret = args.secret if body.get("signature", "good") == "good" else "not-" + args.secret
                mac = hmac.new(secret.encode(), payload, hashlib.sha256).hexdigest()
                request = urllib.request.Request(body["webhook"], data=payload, method="POST",
                                                 headers={"Content-Type": "application/json", "Lulu-HMAC-SHA256": mac})
                try:
                    with urllib.request.urlopen(request, timeout=30) as r:
                        result["webhookStatus"] = r.status
                except urllib.error.HTTPError as e:
                    result["webhookStatus"] = e.code
            return self.reply(200, result)
        return self.reply(404, {"detail": "no such control"})


def pn_sku(item):
    return item["printable_normalization"]["pod_package_id"]


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--key", required=True)
    parser.add_argument("--secret", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--files", help="a folder served at /files/NAME: where a shop would put its PDFs for Lulu to fetch")
    args = parser.parse_args()
    open(args.log, "a").close()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()
