"""User storage backed by SQLite."""

import sqlite3
from dataclasses import dataclass


@dataclass
class User:
    id: int
    name: str
    email: str


class UserStore:
    """Reads and writes users in a SQLite database."""

    def __init__(self, path: str) -> None:
        self._db = sqlite3.connect(path)
        self._db.row_factory = sqlite3.Row

    def user(self, user_id: int) -> User | None:
        row = self._db.execute(
            "SELECT id, name, email FROM users WHERE id = ?", (user_id,)
        ).fetchone()
        if row is None:
            return None
        return User(row["id"], row["name"], row["email"])

    def users(self, limit: int = 50) -> list[User]:
        rows = self._db.execute(
            "SELECT id, name, email FROM users ORDER BY id LIMIT ?", (limit,)
        ).fetchall()
        return [User(r["id"], r["name"], r["email"]) for r in rows]

    def add(self, name: str, email: str) -> User:
        cur = self._db.execute(
            "INSERT INTO users (name, email) VALUES (?, ?)", (name, email)
        )
        self._db.commit()
        return User(cur.lastrowid, name, email)
