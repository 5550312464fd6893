def test_limit_not_a_number(client):
    resp = client.get("/items?limit=ten")
    assert resp.status_code == 400
