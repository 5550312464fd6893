from app.models import Item, _ITEMS


def setup_function():
    _ITEMS.clear()
    _ITEMS[1] = Item(1, "pen", 150)


def test_get(client):
    resp = client.get("/items/1")
    assert resp.status_code == 200
