#!/bin/sh
# Makes MainDatabase.sqlite (with its .key) and MainWorld.sqlite, the files MainFixtureTests migrates: a `--db` file
# and a world file (GET /_admin/worlds/NAME/file) of an accessdeck from before every code had one record (issue 46
# item 1; the committed ones were made by main at eef222d). Each holds live codes of both old tables (a change-phone
# code in otp_requests, a phone and an email sign-in code in sign_in_challenges) and a live link of every kind but
# email_add (which needs an account without an email; it is an email change's link in all else).
#
#   ACCESSDECK_FIXTURES=path/to/that/checkout/fixtures make-main-fixtures.sh path/to/accessdeck OUTPUT_DIR
set -eu
bin=$1
out=$2
port=${PORT:-18931}
rm -f "$out"/MainDatabase.sqlite* "$out"/MainWorld.sqlite
"$bin" serve --port $port --db "$out/MainDatabase.sqlite" --scenario default > "$out/serve.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for i in $(seq 1 100); do curl -sf localhost:$port/health >/dev/null && break; sleep 0.2; done
b=http://localhost:$port
device='{"device_name":"fixture","system_name":"Linux","system_version":"1","identifier":"fixture-1","public_key":"BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc="}'
make_world() {
  p=$1
  curl -s -X POST "$b$p/_admin/clock" -H 'Content-Type: application/json' -d '{"frozen":true}' >/dev/null
  tokens=$(curl -s -X POST "$b$p/_admin/session")
  at=$(echo "$tokens" | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
  grant=$(curl -s -X POST "$b$p/auth/reauth/password" -H 'Content-Type: application/json' -H "Authorization: Bearer $at" -d '{"password":"correct-horse-42"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["reauth_token"])')
  # A change-phone code (otp_requests) and two sign-in codes (sign_in_challenges), all live.
  curl -s -X POST "$b$p/auth/phone/request-otp" -H 'Content-Type: application/json' -H "Authorization: Bearer $at" -H "X-Reauth-Token: $grant" -d '{"phone":"+995511777001","purpose":"change_phone"}'; echo
  curl -s -X POST "$b$p/auth/sign-in/code" -H 'Content-Type: application/json' -d "{\"channel\":\"phone\",\"phone\":\"+995511777002\",\"device\":$device}"; echo
  curl -s -X POST "$b$p/auth/sign-in/code" -H 'Content-Type: application/json' -d "{\"channel\":\"email\",\"email\":\"fixture-signin@mail.com\",\"device\":$device}"; echo
  # A re-auth link, then an email change whose link is opened: a live revert link.
  curl -s -X POST "$b$p/auth/reauth/email" -H "Authorization: Bearer $at"; echo
  curl -s -X POST "$b$p/auth/email/request-change" -H 'Content-Type: application/json' -H "Authorization: Bearer $at" -H "X-Reauth-Token: $grant" -d '{"email":"jdoe-new@mail.com"}'; echo
  change=$(curl -s "$b$p/_admin/outbox" | python3 -c 'import json,sys; print([m for m in json.load(sys.stdin) if m.get("purpose")=="email_change"][-1]["token"])')
  curl -s -X POST "$b$p/auth/email/verify" -H 'Content-Type: application/json' -d "{\"token\":\"$change\"}" >/dev/null
  # A pending email change again (a live email_change link), a reset and a recovery link, a registration link.
  tokens=$(curl -s -X POST "$b$p/_admin/session")
  at=$(echo "$tokens" | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
  grant=$(curl -s -X POST "$b$p/auth/reauth/password" -H 'Content-Type: application/json' -H "Authorization: Bearer $at" -d '{"password":"correct-horse-42"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["reauth_token"])')
  curl -s -X POST "$b$p/auth/email/request-change" -H 'Content-Type: application/json' -H "Authorization: Bearer $at" -H "X-Reauth-Token: $grant" -d '{"email":"jdoe-third@mail.com"}'; echo
  curl -s -X POST "$b$p/_admin/clock/advance" -H 'Content-Type: application/json' -d '{"seconds":31}' >/dev/null
  curl -s -X POST "$b$p/auth/password/reset" -H 'Content-Type: application/json' -d '{"email":"jdoe-new@mail.com"}'; echo
  curl -s -X POST "$b$p/_admin/clock/advance" -H 'Content-Type: application/json' -d '{"seconds":31}' >/dev/null
  curl -s -X POST "$b$p/auth/recovery/start" -H 'Content-Type: application/json' -d "{\"email\":\"jdoe-new@mail.com\",\"device\":$device}"; echo
  curl -s -X POST "$b$p/auth/register" -H 'Content-Type: application/json' -d "{\"email\":\"fixture-new@mail.com\",\"password\":\"Tangerine-Stapler-9\",\"device\":$device}"; echo
}
make_world ""
curl -s -X POST "$b/_admin/worlds" -H 'Content-Type: application/json' -d '{"name":"fixture","scenario":"default"}'; echo
make_world "/w/fixture"
curl -s "$b/_admin/worlds/fixture/file" -o "$out/MainWorld.sqlite"
curl -s "$b/_admin/outbox" | python3 -c 'import json,sys; [print(m["kind"], m["purpose"], m["status"]) for m in json.load(sys.stdin)]'
kill -TERM $pid; wait $pid || true
trap - EXIT
# One file each: the WAL folded in, the lock file of the run gone.
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("PRAGMA wal_checkpoint(TRUNCATE)"); c.execute("PRAGMA journal_mode=DELETE"); c.close()' "$out/MainDatabase.sqlite"
rm -f "$out/MainDatabase.sqlite-wal" "$out/MainDatabase.sqlite-shm" "$out/MainDatabase.sqlite.lock"
rm -f "$out/serve.log"
