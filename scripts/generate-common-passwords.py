#!/usr/bin/env python3
"""Writes Sources/AccessCore/Resources/common-passwords.txt: the list Django's
CommonPasswordValidator rejects (django/contrib/auth/common-passwords.txt.gz), one password
a line, in Django's order. PasswordRules.isCommon in AccessCore reads it (seed 000's
"not in common-list"; issue 12 asks for Django's list rather than a hand-picked dozen).

Run once when Django's list changes; the text file is committed. `make common-passwords`
installs the pinned Django from PyPI into .venv and runs this; the script itself needs no
network (the list ships inside the package), and the same pin gives the same file.

Django stores the entries lowercased and compares `password.lower().strip()` against the
stripped lines; the script writes them stripped and refuses a list that is not lowercase,
so the Swift side can compare the same way without touching the entries.
"""
import gzip
import pathlib

import django
from django.contrib.auth import password_validation


def main():
    source = pathlib.Path(password_validation.__file__).resolve().parent / "common-passwords.txt.gz"
    with gzip.open(source, "rt", encoding="utf-8") as f:
        passwords = [line.strip() for line in f]
    passwords = [p for p in dict.fromkeys(passwords) if p]
    not_lowercase = [p for p in passwords if p != p.lower()]
    if not_lowercase or any("\n" in p or "\r" in p for p in passwords):
        raise SystemExit("Django's list has entries this script does not expect: %r" % not_lowercase[:5])
    out = pathlib.Path(__file__).resolve().parent.parent / "Sources/AccessCore/Resources/common-passwords.txt"
    out.write_text("".join(p + "\n" for p in passwords), encoding="utf-8")
    print("wrote %d passwords from Django %s to %s" % (len(passwords), django.__version__, out))


if __name__ == "__main__":
    main()
