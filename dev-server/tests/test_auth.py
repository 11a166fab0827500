"""POST /connect/token grants and errors, JWT shape, bearer enforcement, token expiry, session cookie."""
import base64
import json

from devserver.app import Options

from .support import DEMO_FORM, ServerTestCase


def jwt_payload(token: str) -> dict:
    segments = token.split(".")
    padded = segments[1] + "=" * (-len(segments[1]) % 4)
    return json.loads(base64.urlsafe_b64decode(padded))


class TokenGrantTests(ServerTestCase):
    def test_password_grant_returns_bearer_jwt_with_refresh_token(self):
        answer = self.token()
        self.assertEqual(answer["token_type"], "Bearer")
        self.assertEqual(answer["expires_in"], 3600)
        self.assertTrue(answer["refresh_token"])
        segments = answer["access_token"].split(".")
        self.assertEqual(len(segments), 3)
        self.assertFalse(any("=" in segment for segment in segments))
        payload = jwt_payload(answer["access_token"])
        self.assertEqual(payload["sub"], "6f1c2a4e-0000-4000-8000-000000000001")
        self.assertEqual(payload["name"], "Demo User")
        self.assertEqual(payload["fullname"], "Demo User")
        self.assertEqual(payload["client_id"], "sclm-demo")
        self.assertEqual(payload["exp"] - payload["iat"], 3600)

    def test_client_credentials_grant_has_no_refresh_token(self):
        answer = self.token(grant_type="client_credentials", username="", password="")
        self.assertNotIn("refresh_token", answer)
        self.assertEqual(jwt_payload(answer["access_token"])["sub"], "sclm-demo")
        self.assertEqual(self.request("GET", "/v1/clients",
                                      headers={"Authorization": f"Bearer {answer['access_token']}"}).status, 200)

    def test_refresh_grant_issues_new_access_token_and_keeps_refresh_token_valid(self):
        first = self.token()
        form = {"grant_type": "refresh_token", "refresh_token": first["refresh_token"],
                "client_id": "sclm-demo", "client_secret": "demo-secret"}
        second = self.post_form("/connect/token", form).json()
        third = self.post_form("/connect/token", form).json()
        self.assertNotEqual(second["access_token"], first["access_token"])
        self.assertEqual(second["refresh_token"], first["refresh_token"])
        self.assertNotEqual(third["access_token"], second["access_token"])
        self.assertEqual(jwt_payload(third["access_token"])["sub"], jwt_payload(first["access_token"])["sub"])

    def test_basic_client_authentication_is_accepted(self):
        credentials = base64.b64encode(b"sclm-demo:demo-secret").decode()
        form = {key: value for key, value in DEMO_FORM.items() if not key.startswith("client_")}
        response = self.post_form("/connect/token", form, {"Authorization": f"Basic {credentials}"})
        self.assertEqual(response.status, 200)

    def test_errors(self):
        cases = [
            ({"password": "wrong"}, 400, "invalid_grant"),
            ({"username": "nobody@storyclm.test"}, 400, "invalid_grant"),
            ({"password": ""}, 400, "invalid_request"),
            ({"client_secret": "wrong"}, 401, "invalid_client"),
            ({"client_id": "other"}, 401, "invalid_client"),
            ({"grant_type": "implicit"}, 400, "unsupported_grant_type"),
            ({"grant_type": ""}, 400, "invalid_request"),
            ({"grant_type": "refresh_token", "refresh_token": "made-up"}, 400, "invalid_grant"),
        ]
        for overrides, status, error in cases:
            with self.subTest(overrides=overrides):
                response = self.post_form("/connect/token", {**DEMO_FORM, **overrides})
                self.assertEqual(response.status, status)
                self.assertEqual(response.json()["error"], error)
                self.assertNotIn(b"demo-pass", response.body)

    def test_session_cookie_is_set_on_first_token_response_only(self):
        first = self.post_form("/connect/token", DEMO_FORM)
        cookie = first.headers["Set-Cookie"]
        self.assertRegex(cookie, r"^sclm_session=[^;]+; HttpOnly; Path=/$")
        value = cookie.split(";")[0]
        again = self.post_form("/connect/token", DEMO_FORM, {"Cookie": value})
        self.assertEqual(again.status, 200)
        self.assertIsNone(again.headers["Set-Cookie"])
        self.assertEqual(self.stats()["sessionCookies"], {"issued": 1, "presented": 1, "unknown": 0})


class BearerTests(ServerTestCase):
    def assert_rejected(self, headers: dict):
        response = self.request("GET", "/v1/clients", headers=headers)
        self.assertEqual(response.status, 401)
        self.assertEqual(response.headers["WWW-Authenticate"], 'Bearer error="invalid_token"')
        self.assertEqual(response.json()["error"], "invalid_token")

    def test_content_routes_need_a_valid_bearer_token(self):
        self.assert_rejected({})
        self.assert_rejected({"Authorization": "Bearer not-a-token"})
        self.assert_rejected({"Authorization": "Basic c2NsbS1kZW1vOmRlbW8tc2VjcmV0"})
        for path in ("/v1/clients/1", "/v1/presentations/101", "/v1/slides/10101", "/v1/mediafiles/1011",
                     "/v1/contentpackages/101", "/v1/nothing"):
            with self.subTest(path=path):
                self.assertEqual(self.request("GET", path).status, 401)
        self.assertEqual(self.get("/v1/clients").status, 200)

    def test_expire_access_tokens_keeps_refresh_working(self):
        answer = self.token()
        headers = {"Authorization": f"Bearer {answer['access_token']}"}
        self.assertEqual(self.request("GET", "/v1/clients", headers=headers).status, 200)
        self.control("expireTokens", which="access")
        self.assert_rejected(headers)
        refreshed = self.post_form("/connect/token", {"grant_type": "refresh_token",
                                                      "refresh_token": answer["refresh_token"],
                                                      "client_id": "sclm-demo", "client_secret": "demo-secret"})
        self.assertEqual(refreshed.status, 200)
        new_headers = {"Authorization": f"Bearer {refreshed.json()['access_token']}"}
        self.assertEqual(self.request("GET", "/v1/clients", headers=new_headers).status, 200)

    def test_expire_refresh_tokens_rejects_refresh_but_not_access(self):
        answer = self.token()
        self.control("expireTokens", which="refresh")
        refreshed = self.post_form("/connect/token", {"grant_type": "refresh_token",
                                                      "refresh_token": answer["refresh_token"],
                                                      "client_id": "sclm-demo", "client_secret": "demo-secret"})
        self.assertEqual((refreshed.status, refreshed.json()["error"]), (400, "invalid_grant"))
        headers = {"Authorization": f"Bearer {answer['access_token']}"}
        self.assertEqual(self.request("GET", "/v1/clients", headers=headers).status, 200)
        self.assertEqual(self.token()["token_type"], "Bearer")  # a new login still works

    def test_expire_all_tokens(self):
        answer = self.token()
        self.control("expireTokens")
        self.assert_rejected({"Authorization": f"Bearer {answer['access_token']}"})
        self.control("expireTokens", expect=400, which="some")


class ShortLifetimeTests(ServerTestCase):
    def options(self):
        return Options(quiet=True, access_token_lifetime=0, refresh_token_lifetime=0)

    def test_tokens_past_their_lifetime_are_rejected(self):
        answer = self.token()
        self.assertEqual(answer["expires_in"], 0)
        response = self.request("GET", "/v1/clients", headers={"Authorization": f"Bearer {answer['access_token']}"})
        self.assertEqual(response.status, 401)
        refreshed = self.post_form("/connect/token", {"grant_type": "refresh_token",
                                                      "refresh_token": answer["refresh_token"],
                                                      "client_id": "sclm-demo", "client_secret": "demo-secret"})
        self.assertEqual(refreshed.status, 400)
