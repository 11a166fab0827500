"""StoryIoT publish endpoint (docs/analytics.md): signature check, 256 KB limit,
de-duplication by `s-m-id` (a repeat is counted, a changed body replaces the stored message), injected
failures, and what was received for `GET /_control/iot`."""
import base64
import hashlib
import hmac
import json
import secrets
import threading
import time

from .util import Answer, parse_iso8601, wire_date

DEMO_HUB = "sclm-demo-hub"
DEMO_KEY = "demo-iot-key"
DEMO_SECRET = "demo-iot-secret"
MAX_BODY = 256 * 1024
_TICKS_AT_EPOCH = 621355968000000000  # .NET ticks (100 ns since 0001-01-01) at 1970-01-01


def signature(secret: str, key: str, expiration: str) -> str:
    """base64(HMAC-SHA512(secret, "key=<key>expiration=<expiration>")) with + → - and / → _."""
    digest = hmac.new(secret.encode(), f"key={key}expiration={expiration}".encode(), hashlib.sha512).digest()
    return base64.b64encode(digest).decode("ascii").replace("+", "-").replace("/", "_")


class IotHub:
    """One hub with one key/secret pair. Thread-safe."""

    def __init__(self, hub: str = DEMO_HUB, key: str = DEMO_KEY, secret: str = DEMO_SECRET, clock=time.time):
        self.hub, self.key, self.secret = hub, key, secret
        self._clock = clock
        self._lock = threading.Lock()
        self.clear()
        self.set_failures(ratio=0.0, count=0, status=503)

    def clear(self) -> None:
        """Forgets received messages and counters (keeps injected failures)."""
        with self._lock:
            self._messages: list[dict] = []
            self._by_entity: dict[str, dict] = {}
            self._duplicates = 0
            self._updates = 0
            self._rejected = 0
            self._failed = 0

    def set_failures(self, ratio: float, count: int, status: int) -> None:
        """Fails `count` publishes, then `ratio` of them (0.5 = every other one), with `status`."""
        if not 0.0 <= ratio <= 1.0 or count < 0 or not 400 <= status <= 599:
            raise ValueError("iotFail needs ratio in 0..1 or a count >= 0, and a 4xx/5xx status")
        with self._lock:
            self._fail_ratio, self._fail_count, self._fail_status, self._fail_credit = ratio, count, status, 0.0

    def publish(self, hub: str, query: dict[str, str], headers: dict[str, str], body: bytes) -> Answer:
        """Handles `POST /{hub}/publish/?key=&expiration=&signature=`; headers have lower-case names."""
        if hub != self.hub:
            return Answer(404, {"error": f"unknown hub {hub!r}"})
        problem = self._authorization_problem(query)
        if problem:
            return self._reject(401, problem)
        if len(body) > MAX_BODY:
            return self._reject(500, f"message body is {len(body)} bytes; the limit is {MAX_BODY}")
        try:
            document = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as error:
            return self._reject(400, f"message body is not JSON: {error}")
        metadata = {name: value for name, value in sorted(headers.items()) if name.startswith("s-m-")}
        with self._lock:
            if self._should_fail():
                self._failed += 1
                return Answer(self._fail_status, {"error": "injected failure (iotFail)"})
            entity = metadata.get("s-m-id")
            stored = self._by_entity.get(entity) if entity else None
            if stored and stored["body"] == document:
                self._duplicates += 1
                return Answer(200, stored["response"])
            now = self._clock()
            response = {"Path": None, "Topic": self.hub, "Metadata": metadata,
                        "Hash": "base64;sha512;" + base64.b64encode(hashlib.sha512(body).digest()).decode("ascii"),
                        "Lenght": len(body), "Id": secrets.token_hex(16),
                        "Ticks": _TICKS_AT_EPOCH + int(now * 10_000_000)}
            message = {"id": response["Id"], "receivedAt": wire_date(now), "headers": metadata, "body": document,
                       "response": response}
            if stored:  # the same entity with another body: an update (s-m-cud "u"), the latest one wins
                self._updates += 1
                self._messages[self._messages.index(stored)] = message
            else:
                self._messages.append(message)
            if entity:
                self._by_entity[entity] = message
        return Answer(200, response)

    def snapshot(self) -> dict:
        with self._lock:
            messages = [{key: value for key, value in m.items() if key != "response"} for m in self._messages]
            return {"messages": messages, "duplicates": self._duplicates, "updates": self._updates,
                    "rejected": self._rejected, "failed": self._failed}

    def _authorization_problem(self, query: dict[str, str]) -> str | None:
        key, expiration, signed = query.get("key", ""), query.get("expiration", ""), query.get("signature", "")
        if not key or not expiration or not signed:
            return "key, expiration and signature query parameters are required"
        if not hmac.compare_digest(key.encode(), self.key.encode()):
            return "unknown key"
        try:
            expires = parse_iso8601(expiration)
        except ValueError:
            return f"expiration {expiration!r} is not an ISO-8601 date-time"
        if expires <= self._clock():
            return f"the signature expired at {expiration}"
        expected = signature(self.secret, key, expiration)
        if not hmac.compare_digest(signed.rstrip("=").encode(), expected.rstrip("=").encode()):
            return "signature mismatch"
        return None

    def _reject(self, status: int, reason: str) -> Answer:
        with self._lock:
            self._rejected += 1
        return Answer(status, {"error": reason})

    def _should_fail(self) -> bool:
        if self._fail_count > 0:
            self._fail_count -= 1
            return True
        self._fail_credit += self._fail_ratio
        if self._fail_credit >= 1.0 - 1e-9:
            self._fail_credit -= 1.0
            return True
        return False
