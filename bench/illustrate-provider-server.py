#!/usr/bin/env python3
"""A loopback stand-in for the OpenAI, Gemini and OpenRouter image APIs, for tests and the benchmark.

Usage: illustrate-provider-server.py --control CONTROL.json --log REQUESTS.jsonl [--tls CERT.pem,KEY.pem]
Prints the port it listens on (127.0.0.1 only), then serves until killed: plain HTTP, or https with
--tls's certificate.

CONTROL.json is re-read on every request:
  {"latency": 0.1,                 seconds added before each answer
   "key": "sk-test-…",             the key a request must carry (401 / 400 API_KEY_INVALID otherwise)
   "gemini_case": "snake",         answer Gemini in snake_case instead of camelCase
   "hold_after": 2,                requests after the first 2 wait, unanswered, until a later CONTROL.json drops it
   "rules": [{"contains": "SCENE-03", "responses": [RESPONSE, …]}]}
The n-th request whose prompt contains a rule's text gets that rule's n-th response; once they run out,
or when no rule matches, it succeeds with a picture. A RESPONSE is {"status": 429, "headers": {…},
"json": {…}}, or {"kind": "noimage"} (200 without a picture, in the provider's shape), or
{"kind": "echo_key", "status": 401, "form": "whole"|"masked"|"base64"} (an error whose message repeats the
key, as some providers do: whole, as its ends around a mask, or inside base64), or a picture in the
provider's shape: {"kind": "success", "width": W, "height": H} (that size instead of the one asked for),
{"kind": "corrupt"} (a PNG whose signature, header and end are sound but whose image data is not deflate
data), {"kind": "bytes", "b64": "…"} (these bytes as the picture).
A picture that succeeds has the size asked for: OpenAI's `size`, the Gemini size of the `aspectRatio`
(Gemini) or `image_config.aspect_ratio` (OpenRouter), else 1024 × 1024.

A request with a field its endpoint does not know (for OpenAI, also `input_fidelity` to a model that does not
take it) gets the API's 400, as the real services answer.

Each request is logged as one JSON line: path, headers, prompt, images (mime type, size, sha256),
form fields, arrival and finish times, requests in flight on arrival, status sent.
"""
import base64, hashlib, signal, json, sys, threading, time, struct, zlib, argparse, re
from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler

LOCK = threading.Lock()
STATE = {"inflight": 0, "counts": {}, "arrivals": 0, "answered": 0}
STARTED_MS = int(time.time() * 1000) % 1000


# The fields each endpoint knows (OpenAI's edits take multipart, its generations JSON); like the real APIs, anything else is a 400 naming the field.
OPENAI_EDITS = {"model", "prompt", "n", "size", "quality", "output_format", "output_compression", "background",
                "moderation", "user", "mask", "input_fidelity", "partial_images", "stream"}
OPENAI_GENERATIONS = OPENAI_EDITS - {"mask", "input_fidelity"} | {"style", "response_format"}
# input_fidelity is known to these models only (the OpenAI SDK's list); gpt-image-1-mini rejects it.
INPUT_FIDELITY_MODELS = {"gpt-image-1", "gpt-image-1.5"}
GEMINI_TOP = {"contents", "generationConfig", "generation_config", "safetySettings", "safety_settings",
              "systemInstruction", "system_instruction", "tools", "toolConfig", "tool_config", "cachedContent", "cached_content"}
OPENROUTER_TOP = {"model", "models", "messages", "modalities", "image_config", "stream", "provider", "route", "usage",
                  "max_tokens", "temperature", "top_p", "seed", "user", "transforms", "reasoning", "response_format"}


def unknown_field(provider, multipart, fields):
    if provider == "openai":
        known = OPENAI_EDITS if multipart else OPENAI_GENERATIONS
        for name in sorted(fields):
            if name not in known or (name == "input_fidelity" and fields.get("model") not in INPUT_FIDELITY_MODELS):
                return (400, {"error": {"message": "Unknown parameter: '%s'." % name, "type": "invalid_request_error",
                                        "param": name, "code": "unknown_parameter"}})
    elif provider == "gemini":
        for name in sorted(fields):
            if name not in GEMINI_TOP:
                return (400, {"error": {"code": 400, "message": 'Invalid JSON payload received. Unknown name "%s": Cannot find field.' % name,
                                        "status": "INVALID_ARGUMENT"}})
    elif provider == "openrouter":
        for name in sorted(fields):
            if name not in OPENROUTER_TOP:
                return (400, {"error": {"code": 400, "message": "Unrecognized key: \"%s\"" % name}})
    return None


# Gemini's pictures for each aspect ratio (about 1K), which OpenRouter passes on.
GEMINI_SIZES = {"1:1": (1024, 1024), "2:3": (832, 1248), "3:2": (1248, 832), "3:4": (864, 1184), "4:3": (1184, 864),
                "4:5": (896, 1152), "5:4": (1152, 896), "9:16": (768, 1344), "16:9": (1344, 768), "21:9": (1536, 672)}


def asked_size(provider, fields):
    """The picture size the request asks for, from the fields the provider takes."""
    def field(name):
        v = fields.get(name)
        if isinstance(v, str) and v.startswith("{"):
            try:
                return json.loads(v)
            except ValueError:
                return None
        return v
    if provider == "openai":
        m = re.fullmatch(r"(\d+)x(\d+)", str(fields.get("size", "")))
        return (int(m.group(1)), int(m.group(2))) if m else (1024, 1024)
    if provider == "gemini":
        config = field("generationConfig") or field("generation_config") or {}
        image = config.get("imageConfig") or config.get("image_config") or {}
        return GEMINI_SIZES.get(image.get("aspectRatio") or image.get("aspect_ratio"), (1024, 1024))
    if provider == "openrouter":
        config = field("image_config") or {}
        return GEMINI_SIZES.get(config.get("aspect_ratio"), (1024, 1024))
    return (1024, 1024)


def png_chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)


def png(w, h, seed, corrupt=False):
    """One colour, from `seed`, at any size: a 1-bit palette picture, so even a large one is made at once."""
    r, g, b = (seed * 53) % 256, (seed * 97) % 256, (seed * 193) % 256
    data = zlib.compress((b"\x00" + bytes((w + 7) // 8)) * h)
    if corrupt:
        # A zlib header, then bytes that are no deflate block: libpng meets them only when it inflates.
        data = b"\x78\x9c" + bytes((i * 37 + 11) % 256 for i in range(64)) * 8
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 1, 3, 0, 0, 0)) + \
        png_chunk(b"PLTE", bytes([r, g, b])) + png_chunk(b"IDAT", data) + png_chunk(b"IEND", b"")


def parse_multipart(body, content_type):
    m = re.search(r'boundary="?([^";]+)"?', content_type)
    if not m:
        return {}, []
    boundary = b"--" + m.group(1).encode()
    fields, files = {}, []
    for part in body.split(boundary)[1:]:
        if part.startswith(b"--"):
            break
        head, _, data = part.lstrip(b"\r\n").partition(b"\r\n\r\n")
        data = data[:-2] if data.endswith(b"\r\n") else data
        headers = {}
        for line in head.decode("utf-8", "replace").split("\r\n"):
            k, _, v = line.partition(":")
            headers[k.strip().lower()] = v.strip()
        disp = headers.get("content-disposition", "")
        name = re.search(r'name="([^"]*)"', disp)
        name = name.group(1) if name else ""
        if "filename=" in disp:
            files.append({"name": name, "mime": headers.get("content-type"), "size": len(data),
                          "sha256": hashlib.sha256(data).hexdigest()})
        else:
            fields[name] = data.decode("utf-8", "replace")
    return fields, files


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "provider-server"

    def log_message(self, *args):
        pass

    def do_POST(self):
        arrival = time.time()
        with LOCK:
            STATE["inflight"] += 1
            inflight = STATE["inflight"]
        self.counted = True
        try:
            self.handle_request(arrival, inflight)
        finally:
            self.leave()

    def do_GET(self):
        # No API here answers GET; it is logged all the same, so a test sees any request that arrives.
        headers = {k.lower(): v for k, v in self.headers.items()}
        data = json.dumps({"error": {"message": "not found", "code": 404}}).encode()
        self.send_response(404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        now = time.time()
        record = {"provider": "unknown", "path": self.path, "headers": headers, "prompt": "", "images": [], "fields": {},
                  "arrival": now, "finish": now, "inflight": 0, "status": 404}
        with LOCK:
            with open(self.server.log_path, "a") as log:
                log.write(json.dumps(record) + "\n")

    def leave(self):
        # Called before the answer goes out: a client may send its next request the instant it reads
        # this one, and that must not count as one more in flight.
        with LOCK:
            if self.counted:
                STATE["inflight"] -= 1
                self.counted = False

    def handle_request(self, arrival, inflight):
        control = json.load(open(self.server.control_path))
        with LOCK:
            STATE["arrivals"] += 1
            number = STATE["arrivals"]
        # A client stopped mid-run (killed, or waiting on other work) is tested by holding its later calls.
        while "hold_after" in control and number > control["hold_after"]:
            time.sleep(0.05)
            control = json.load(open(self.server.control_path))
        length = int(self.headers.get("content-length", 0))
        body = self.rfile.read(length)
        headers = {k.lower(): v for k, v in self.headers.items()}
        path = self.path
        provider = "openai" if path.startswith("/v1/images") else "gemini" if ":generateContent" in path else \
            "openrouter" if path.endswith("/chat/completions") else "unknown"
        prompt, images, fields, reject = "", [], {}, None
        if provider == "openai" and "multipart/form-data" in headers.get("content-type", ""):
            fields, files = parse_multipart(body, headers["content-type"])
            prompt = fields.get("prompt", "")
            images = files
            for f in files:
                if f["mime"] not in ("image/png", "image/jpeg", "image/webp"):
                    reject = (400, {"error": {"message": "Invalid file: unsupported mimetype ('%s')" % f["mime"],
                                              "type": "invalid_request_error", "code": "unsupported_file_mimetype"}})
                if not re.fullmatch(r"image(\[\d*\])?", f["name"]):
                    reject = (400, {"error": {"message": "unexpected file field " + f["name"], "type": "invalid_request_error"}})
            if "model" not in fields:
                reject = (400, {"error": {"message": "model is required", "type": "invalid_request_error"}})
        else:
            try:
                doc = json.loads(body or b"{}")
            except ValueError:
                doc = {}
            fields = {k: v for k, v in doc.items() if k not in ("contents", "messages", "prompt")}
            if provider == "openai":
                prompt = doc.get("prompt", "")
            elif provider == "gemini":
                for c in doc.get("contents", []):
                    for p in c.get("parts", []):
                        if "text" in p:
                            prompt += p["text"]
                        inline = p.get("inlineData") or p.get("inline_data")
                        if inline:
                            data = base64.b64decode(inline["data"])
                            images.append({"mime": inline.get("mimeType") or inline.get("mime_type"), "size": len(data),
                                           "sha256": hashlib.sha256(data).hexdigest()})
            elif provider == "openrouter":
                for m in doc.get("messages", []):
                    content = m.get("content")
                    if isinstance(content, str):
                        prompt += content
                        continue
                    for p in content or []:
                        if p.get("type") == "text":
                            prompt += p.get("text", "")
                        elif p.get("type") == "image_url":
                            url = p["image_url"]["url"]
                            mm = re.match(r"data:([^;]+);base64,(.*)", url, re.S)
                            data = base64.b64decode(mm.group(2)) if mm else b""
                            images.append({"mime": mm.group(1) if mm else None, "size": len(data),
                                           "sha256": hashlib.sha256(data).hexdigest()})

        reject = reject or unknown_field(provider, "multipart/form-data" in headers.get("content-type", ""), fields)
        key = control.get("key")
        given = headers.get("x-goog-api-key") if provider == "gemini" else headers.get("authorization", "").removeprefix("Bearer ")
        response = None
        if reject:
            response = {"status": reject[0], "json": reject[1]}
        elif key is not None and given != key:
            response = {"status": 400, "json": {"error": {"code": 400, "message": "API key not valid. Please pass a valid API key.",
                        "status": "INVALID_ARGUMENT", "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID"}]}}} \
                if provider == "gemini" else {"status": 401, "json": {"error": {"message": "Incorrect API key provided.", "type": "invalid_request_error", "code": "invalid_api_key"}}}
        else:
            for rule in control.get("rules", []):
                if rule["contains"] in prompt:
                    with LOCK:
                        n = STATE["counts"].get(rule["contains"], 0)
                        STATE["counts"][rule["contains"]] = n + 1
                    if n < len(rule["responses"]):
                        response = rule["responses"][n]
                    break

        time.sleep(control.get("latency", 0))
        # Each of a server's first 256 answers a colour of its own (the colour is the seed modulo
        # 256; two pictures answered in the same millisecond were once the same picture), and
        # another server's likely other colours (its start in milliseconds moves them all).
        with LOCK:
            STATE["answered"] += 1
            seed = STATE["answered"] + STARTED_MS
        status, out_headers, payload = self.answer(provider, response, control, given, seed, asked_size(provider, fields))
        data = json.dumps(payload).encode()
        self.leave()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in out_headers.items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()
        record = {"provider": provider, "path": path, "headers": headers, "prompt": prompt, "images": images,
                  "fields": fields, "arrival": arrival, "finish": time.time(), "inflight": inflight, "status": status}
        with LOCK:
            with open(self.server.log_path, "a") as log:
                log.write(json.dumps(record) + "\n")

    def answer(self, provider, response, control, given, seed, size):
        kind = response.get("kind") if response else "success"
        if kind == "success":
            w, h = (response.get("width", size[0]), response.get("height", size[1])) if response else size
            return 200, {}, self.success(provider, control, png(w, h, seed))
        if kind == "corrupt":
            return 200, {}, self.success(provider, control, png(size[0], size[1], seed, corrupt=True))
        if kind == "bytes":
            return 200, {}, self.success(provider, control, base64.b64decode(response["b64"]))
        if response.get("kind") == "noimage":
            if provider == "gemini":
                return 200, {}, {"candidates": [{"content": {"role": "model", "parts": [{"text": "I can't draw that."}]}, "finishReason": "STOP"}]}
            if provider == "openrouter":
                return 200, {}, {"choices": [{"message": {"role": "assistant", "content": "no"}, "finish_reason": "stop"}]}
            return 200, {}, {"data": []}
        if response.get("kind") == "echo_key":
            form = response.get("form", "whole")
            shown = {"whole": given,
                     "masked": given[:8] + "*" * max(0, len(given) - 12) + given[-4:],
                     "base64": base64.b64encode(("Authorization: Bearer " + given).encode()).decode()}[form]
            return response.get("status", 401), {}, {"error": {"message": "Incorrect API key provided: %s." % shown, "code": "invalid_api_key"}}
        return response.get("status", 500), response.get("headers", {}), response.get("json", {})

    def success(self, provider, control, picture):
        b64 = base64.b64encode(picture).decode()
        mime = "image/jpeg" if picture.startswith(b"\xff\xd8") else "image/png"
        if provider == "openai":
            return {"created": 1, "data": [{"b64_json": b64}], "usage": {"input_tokens": 10, "output_tokens": 10}}
        if provider == "gemini":
            if control.get("gemini_case") == "snake":
                return {"candidates": [{"content": {"role": "model", "parts": [{"text": "Here it is."},
                        {"inline_data": {"mime_type": mime, "data": b64}}]}, "finish_reason": "STOP"}]}
            return {"candidates": [{"content": {"role": "model", "parts": [{"text": "Here it is."},
                    {"inlineData": {"mimeType": mime, "data": b64}}]}, "finishReason": "STOP", "index": 0}],
                    "usageMetadata": {"candidatesTokenCount": 1290}}
        return {"id": "gen-1", "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "",
                "images": [{"type": "image_url", "image_url": {"url": "data:%s;base64,%s" % (mime, b64)}}]}}], "usage": {"cost": 0.0391}}


def main():
    # Started from a multi-threaded process, this may inherit a mask that blocks SIGTERM and SIGINT.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    ap = argparse.ArgumentParser()
    ap.add_argument("--control", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--tls")
    a = ap.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if a.tls:
        import ssl
        cert, key = a.tls.split(",")
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        # The handshake happens as each connection is accepted; one that fails is dropped.
        server.socket = context.wrap_socket(server.socket, server_side=True)
        server.handle_error = lambda request, address: None
    server.daemon_threads = True
    server.control_path, server.log_path = a.control, a.log
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
