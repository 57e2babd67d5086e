#!/usr/bin/env python3
"""Writes Sources/AccessCore/Resources/countries.json: every region libphonenumber knows,
with its ISO code, flag, English name, dial code and the lengths of a mobile number's
national significant number (what a person types after the dial code).

Run once when the sources update; the JSON is committed. `make countries` installs the
pinned PyPI packages (phonenumbers, pycountry) into .venv and runs this; the script itself
needs no network (phonenumbers ships its metadata), and the same pins give the same JSON.

Lengths are libphonenumber's national significant numbers, what follows the dial code. Seed
000's "UK: 10-11" is what a person types: 10 digits, or 11 with the trunk 0 in front
(Country.typedLengths in AccessCore); the UK's own numbers have 10, so GB stays [10].
"""
import json
import pathlib

import phonenumbers
import pycountry
from phonenumbers import PhoneMetadata

# Names people use in the seeds' copy (seed 001 shows "Russia", "Turkey") and elsewhere,
# where pycountry gives the formal one.
FRIENDLY_NAMES = {
    "RU": "Russia", "TR": "Turkey", "KR": "South Korea", "KP": "North Korea", "IR": "Iran",
    "SY": "Syria", "VE": "Venezuela", "BO": "Bolivia", "TZ": "Tanzania", "VN": "Vietnam",
    "LA": "Laos", "MD": "Moldova", "TW": "Taiwan", "FM": "Micronesia", "PS": "Palestine",
    "CD": "Congo (DRC)", "CG": "Congo", "BN": "Brunei", "CV": "Cape Verde", "CZ": "Czechia",
    "MK": "North Macedonia", "VA": "Vatican City", "SX": "Sint Maarten", "MF": "Saint Martin",
    "BQ": "Caribbean Netherlands", "FK": "Falkland Islands", "VG": "British Virgin Islands",
    "VI": "U.S. Virgin Islands", "KN": "Saint Kitts and Nevis", "CI": "Côte d'Ivoire",
    # Regions libphonenumber dials that pycountry does not list.
    "XK": "Kosovo", "AC": "Ascension Island", "TA": "Tristan da Cunha",
}


def country_name(region):
    if region in FRIENDLY_NAMES:
        return FRIENDLY_NAMES[region]
    country = pycountry.countries.get(alpha_2=region)
    if country is None:
        return None
    return getattr(country, "common_name", None) or country.name


def main():
    countries = []
    for region in sorted(phonenumbers.SUPPORTED_REGIONS):
        name = country_name(region)
        metadata = PhoneMetadata.metadata_for_region(region)
        if name is None or metadata is None:
            continue
        mobile = metadata.mobile.possible_length if metadata.mobile else ()
        lengths = [n for n in mobile if n > 0] or [n for n in metadata.general_desc.possible_length if n > 0]
        countries.append({
            "iso": region,
            "flag": "".join(chr(0x1F1E6 + ord(c) - ord("A")) for c in region),
            "name": name,
            "dial_code": "+%d" % phonenumbers.country_code_for_region(region),
            "lengths": sorted(set(lengths)),
            "national_prefix": metadata.national_prefix or None,
        })
    countries.sort(key=lambda c: c["name"])
    out = pathlib.Path(__file__).resolve().parent.parent / "Sources/AccessCore/Resources/countries.json"
    out.write_text(json.dumps({
        "source": "phonenumbers %s, pycountry" % phonenumbers.__version__,
        "countries": countries,
    }, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print("wrote %d countries to %s" % (len(countries), out))


if __name__ == "__main__":
    main()
