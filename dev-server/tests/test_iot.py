"""StoryIoT publish: HMAC-SHA512 signature (computed here independently), expiration, size limit,
duplicate s-m-id counting, injected failures, and GET /_control/iot."""
import base64
import datetime
import hashlib
import hmac
import json
import urllib.parse

from .support import ServerTestCase

HUB, KEY, SECRET = "sclm-demo-hub", "demo-iot-key", "demo-iot-secret"


def sign(expiration: str, secret: str = SECRET, key: str = KEY) -> str:
    digest = hmac.new(secret.encode(), ("key=" + key + "expiration=" + expiration).encode(), hashlib.sha512).digest()
    return base64.b64encode(digest).decode().replace("+", "-").replace("/", "_")


def future(seconds: int = 180, fmt: str = "%Y-%m-%dT%H:%M:%SZ") -> str:
    moment = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=seconds)
    return moment.strftime(fmt)


class PublishTests(ServerTestCase):
    def publish(self, body, entity: str | None = "e-1", expiration: str | None = None, signature: str | None = None,
                key: str = KEY, hub: str = HUB, headers: dict | None = None):
        expiration = expiration or future()
        query = urllib.parse.urlencode({"key": key, "expiration": expiration,
                                        "signature": signature if signature is not None else sign(expiration)})
        meta = {"Content-Type": "application/json", "s-m-eid": "story.content.customevent", "s-m-uid": "user-1",
                "s-m-cud": "u", "s-m-lt": "2024-05-01T10:00:00.0000000", "s-m-tz": "3", **(headers or {})}
        if entity:
            meta["s-m-id"] = entity
        payload = body if isinstance(body, bytes) else json.dumps(body).encode()
        return self.request("POST", f"/{hub}/publish/?{query}", payload, meta)

    def received(self) -> dict:
        return self.request("GET", "/_control/iot").json()

    def test_fixed_signature_vector(self):
        # Independent of the server's code: Python's hmac over the documented string.
        self.assertEqual(sign("2024-01-01T00:00:00Z")[:16], base64.b64encode(hmac.new(
            b"demo-iot-secret", b"key=demo-iot-keyexpiration=2024-01-01T00:00:00Z", hashlib.sha512).digest()
        ).decode().replace("+", "-").replace("/", "_")[:16])

    def test_valid_publish_is_recorded_with_metadata_headers(self):
        body = {"id": "e-1", "key": "brand", "value": "cardiora", "sessionId": "s-1"}
        response = self.publish(body)
        self.assertEqual(response.status, 200, response.body)
        answer = response.json()
        self.assertEqual(set(answer), {"Path", "Topic", "Metadata", "Hash", "Lenght", "Id", "Ticks"})
        payload = json.dumps(body).encode()
        self.assertEqual(answer["Lenght"], len(payload))
        self.assertEqual(answer["Hash"], "base64;sha512;" + base64.b64encode(hashlib.sha512(payload).digest()).decode())
        self.assertEqual(answer["Metadata"]["s-m-eid"], "story.content.customevent")
        received = self.received()
        self.assertEqual(len(received["messages"]), 1)
        message = received["messages"][0]
        self.assertEqual(message["body"], body)
        self.assertEqual(message["headers"], {"s-m-eid": "story.content.customevent", "s-m-uid": "user-1",
                                              "s-m-cud": "u", "s-m-lt": "2024-05-01T10:00:00.0000000",
                                              "s-m-tz": "3", "s-m-id": "e-1"})
        self.assertEqual((received["duplicates"], received["rejected"]), (0, 0))

    def test_expiration_formats_with_offsets_and_long_fractions(self):
        for index, expiration in enumerate([future(fmt="%Y-%m-%dT%H:%M:%S.%f0Z"),
                                            (datetime.datetime.now(datetime.timezone(datetime.timedelta(hours=3)))
                                             + datetime.timedelta(minutes=3)).isoformat(timespec="seconds")]):
            with self.subTest(expiration=expiration):
                self.assertEqual(self.publish({"n": index}, entity=f"x-{index}", expiration=expiration).status, 200)

    def test_bad_signatures_and_expirations_are_401(self):
        expiration = future()
        cases = {
            "wrong secret": dict(expiration=expiration, signature=sign(expiration, secret="other")),
            "signed for another expiration": dict(expiration=expiration, signature=sign(future(999))),
            "expired": dict(expiration=future(-5), signature=sign(future(-5))),
            "not a date": dict(expiration="tomorrow", signature=sign("tomorrow")),
            "unknown key": dict(expiration=expiration, signature=sign(expiration, key="other"), key="other"),
            "missing signature": dict(expiration=expiration, signature=""),
        }
        for name, arguments in cases.items():
            with self.subTest(name):
                self.assertEqual(self.publish({"a": 1}, **arguments).status, 401)
        received = self.received()
        self.assertEqual((received["messages"], received["rejected"]), ([], len(cases)))

    def test_unknown_hub_is_404(self):
        self.assertEqual(self.publish({"a": 1}, hub="other-hub").status, 404)

    def test_body_limit_is_256_kb(self):
        filler = 256 * 1024 - len(json.dumps({"pad": ""}))
        self.assertEqual(self.publish({"pad": "x" * filler}, entity="fits").status, 200)
        self.assertEqual(self.publish({"pad": "x" * (filler + 1)}, entity="too-big").status, 500)

    def test_malformed_json_is_rejected(self):
        self.assertEqual(self.publish(b"{oops", entity="bad").status, 400)

    def test_duplicate_entity_ids_are_acknowledged_once_stored(self):
        first = self.publish({"v": 1}, entity="same")
        second = self.publish({"v": 1}, entity="same")
        self.assertEqual((first.status, second.status), (200, 200))
        self.assertEqual(second.json()["Id"], first.json()["Id"])
        self.publish({"v": 3}, entity="other")
        received = self.received()
        self.assertEqual([m["body"]["v"] for m in received["messages"]], [1, 3])
        self.assertEqual((received["duplicates"], received["updates"]), (1, 0))

    def test_a_changed_body_for_a_stored_entity_replaces_it_in_place(self):
        first = self.publish({"v": 1}, entity="same")
        self.publish({"v": 3}, entity="other")
        second = self.publish({"v": 2}, entity="same", headers={"s-m-lt": "2024-05-01T11:00:00.0000000"})
        self.assertEqual(second.status, 200)
        self.assertNotEqual(second.json()["Id"], first.json()["Id"])
        received = self.received()
        self.assertEqual([m["body"]["v"] for m in received["messages"]], [2, 3])
        self.assertEqual(received["messages"][0]["headers"]["s-m-lt"], "2024-05-01T11:00:00.0000000")
        self.assertEqual((received["duplicates"], received["updates"]), (0, 1))

    def test_iot_fail_ratio_fails_every_other_publish(self):
        self.control("iotFail", ratio=0.5, status=503)
        statuses = [self.publish({"n": n}, entity=f"r-{n}").status for n in range(6)]
        self.assertEqual(statuses, [200, 503, 200, 503, 200, 503])
        self.assertEqual(self.received()["failed"], 3)
        self.control("reset")
        self.assertEqual(self.publish({"n": 9}, entity="r-1").status, 200)

    def test_iot_fail_count(self):
        self.control("iotFail", count=2, status=500)
        statuses = [self.publish({"n": n}, entity=f"c-{n}").status for n in range(3)]
        self.assertEqual(statuses, [500, 500, 200])
        self.control("iotFail", expect=400, ratio=1.5)

    def test_clear_iot_forgets_received_messages(self):
        self.publish({"v": 1})
        self.control("clearIot")
        self.assertEqual(self.received(), {"messages": [], "duplicates": 0, "updates": 0, "rejected": 0, "failed": 0})
