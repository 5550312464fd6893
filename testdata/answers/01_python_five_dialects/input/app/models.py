from dataclasses import dataclass, asdict

_ITEMS = {}


@dataclass
class Item:
    id: int
    name: str
    price_cents: int

    @classmethod
    def get(cls, item_id):
        return _ITEMS.get(item_id)

    def to_dict(self):
        return asdict(self)


def find_items(limit):
    return sorted(_ITEMS.values(), key=lambda item: item.id)[:limit]
