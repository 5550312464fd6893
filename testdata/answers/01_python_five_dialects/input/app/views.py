from flask import Blueprint, jsonify, request

from app.models import Item, find_items

bp = Blueprint("items", __name__)


class ItemView:
    """Lists and fetches items."""

    def list(self):
        limit = int(request.args.get("limit", 20))
        items = find_items(limit=limit)
        return jsonify([item.to_dict() for item in items])

    def get(self, item_id):
        item = Item.get(item_id)
        if item is None:
            return jsonify({"error": "not found"}), 404
        return jsonify(item.to_dict())


view = ItemView()
bp.add_url_rule("/items", view_func=view.list)
bp.add_url_rule("/items/<int:item_id>", view_func=view.get)
