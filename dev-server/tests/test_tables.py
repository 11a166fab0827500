"""The Tables store and its `/v1/tables/...` routes, through HTTP with a bearer token."""
import json
import unittest

from devserver.tables import TableError, TableStore

from .support import ServerTestCase


class TableStoreTests(unittest.TestCase):
    def test_demo_tables_are_per_client(self):
        store = TableStore()
        self.assertEqual([t["name"] for t in store.tables(1)], ["Contacts", "QuizAnswers"])
        self.assertEqual([t["name"] for t in store.tables(2)], ["Clinics"])

    def test_queries_filter_and_count(self):
        store = TableStore()
        self.assertEqual(store.count(1, "[specialty][eq][cardiology]"), {"count": 2})
        found = store.find(1, "[visits][gte][3]", 0, 100, "visits", -1)
        self.assertEqual([e["visits"] for e in found], [5, 3])

    def test_a_query_it_cannot_read_is_an_error(self):
        with self.assertRaises(TableError) as raised:
            TableStore().count(1, "name = 'x'")
        self.assertEqual(raised.exception.status, 400)

    def test_insert_update_delete_round_trip(self):
        store = TableStore()
        entry = store.insert(2, [{"question": "q1", "answer": "a"}])[0]
        self.assertTrue(entry["_id"])
        store.update(2, [{**entry, "answer": "b"}])
        self.assertEqual(store.find_by_id(2, entry["_id"])["answer"], "b")
        self.assertEqual(store.delete(2, [entry["_id"]])[0]["answer"], "b")
        with self.assertRaises(TableError) as raised:
            store.find_by_id(2, entry["_id"])
        self.assertEqual(raised.exception.status, 404)

    def test_an_unknown_table_is_404(self):
        with self.assertRaises(TableError) as raised:
            TableStore().count(99, None)
        self.assertEqual(raised.exception.status, 404)


class TableRouteTests(ServerTestCase):
    def test_routes_need_a_token(self):
        self.assertEqual(self.request("GET", "/v1/tables/1/count").status, 401)

    def test_every_route_answers_the_api_json(self):
        self.assertEqual([t["id"] for t in self.get_json("/v1/tables/1/tables")], [1, 2])
        self.assertEqual(self.get_json("/v1/tables/1/count?query=%5Bvisits%5D%5Bgt%5D%5B2%5D"), {"count": 2})
        json_headers = {**self.bearer(), "Content-Type": "application/json"}
        inserted = self.request("POST", "/v1/tables/2/insertmany", json.dumps([{"question": "q", "answer": "a"},
                                {"question": "r", "answer": "b"}]).encode(), json_headers).json()
        ids = [entry["_id"] for entry in inserted]
        query = "&".join(f"ids={i}" for i in ids)
        self.assertEqual(len(self.get_json(f"/v1/tables/2/findbyids?{query}")), 2)
        updated = self.request("PUT", "/v1/tables/2/update", json.dumps({**inserted[0], "answer": "c"}).encode(),
                               json_headers)
        self.assertEqual(updated.json()["answer"], "c")
        self.assertEqual(self.get_json(f"/v1/tables/2/findbyid/{ids[0]}")["answer"], "c")
        deleted = self.request("DELETE", f"/v1/tables/2/deletemany?{query}", headers=self.bearer())
        self.assertEqual(len(deleted.json()), 2)
        self.assertEqual(self.get_json("/v1/tables/2/find?skip=0&take=10"), [])

    def test_errors_carry_a_message(self):
        missing = self.get("/v1/tables/99/count")
        self.assertEqual(missing.status, 404)
        self.assertEqual(missing.json()["message"], "no table 99")
        self.assertEqual(self.request("POST", "/v1/tables/2/insert", b"[1]", self.bearer()).status, 400)
