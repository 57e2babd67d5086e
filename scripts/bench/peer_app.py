"""The benchmark's peer: GET /me/auth-methods in Flask, doing the reference backend's token lookup
(HMAC-SHA256 of the bearer token under the database's key file, one indexed join) on the same SQLite file.
Run by scripts/bench-backend.sh under gunicorn; ACCESSDECK_DB names the database."""

import hashlib
import hmac
import json
import os
import sqlite3
import threading
import time
from datetime import datetime, timezone

from flask import Flask, Response, request

DATABASE = os.environ["ACCESSDECK_DB"]
LOOKUP = """
    SELECT users.* FROM sessions JOIN users ON users.id = sessions.user_id
    WHERE sessions.access_hash = ? AND sessions.revoked = 0 AND sessions.access_expires_at > ?
"""

app = Flask(__name__)
_local = threading.local()


def _connection():
    # One read-only connection per worker thread, like the backend's reader pool.
    if getattr(_local, "db", None) is None:
        db = sqlite3.connect(f"file:{DATABASE}?mode=ro", uri=True, check_same_thread=False)
        db.row_factory = sqlite3.Row
        # The HMAC key is not in the database: it is the key file beside it (StoreKey in the backend).
        with open(DATABASE + ".key", "rb") as key_file:
            _local.key = key_file.read()
        _local.db = db
    return _local.db, _local.key


def _error(status, code, message):
    body = json.dumps({"error": {"code": code, "message": message}})
    return Response(body, status=status, mimetype="application/json")


def _iso(unix):
    if unix is None:
        return None
    return datetime.fromtimestamp(unix, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


@app.get("/me/auth-methods")
def auth_methods():
    header = request.headers.get("Authorization", "")
    if not header.lower().startswith("bearer "):
        return _error(401, "unauthorized", "Your session has expired. Sign in again.")
    db, key = _connection()
    digest = hmac.new(key, b"\0" + header[7:].strip().encode(), hashlib.sha256).hexdigest()
    row = db.execute(LOOKUP, (digest, time.time())).fetchone()
    if row is None:
        return _error(401, "unauthorized", "Your session has expired. Sign in again.")
    body = {
        "user_id": row["id"],
        "role": row["role"],
        "phone": row["phone"],
        "email": row["email"],
        "has_password": row["password_hash"] is not None,
        "apple_linked": row["apple_subject"] is not None,
        "google_linked": row["google_subject"] is not None,
        "password_changed_at": _iso(row["password_changed_at"]),
    }
    return Response(json.dumps(body), mimetype="application/json")
