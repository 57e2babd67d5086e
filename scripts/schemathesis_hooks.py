"""Realistic data for scripts/contract-test.sh.

openapi.yaml marks phone numbers with `format: e164`. Random digits after a `+` are almost never a
number the backend accepts (it checks each country's length rule), so without this most generated
requests would stop at 422 and never reach the code and resend paths. These are valid numbers of a
few countries, built the way AccessCore's catalog checks them.
"""

import schemathesis
from hypothesis import strategies as st


def _numbers(prefix: str, digits: int) -> st.SearchStrategy[str]:
    return st.text(alphabet="0123456789", min_size=digits, max_size=digits).map(lambda rest: prefix + rest)


E164 = st.one_of(
    _numbers("+9955", 8),  # Georgia, mobile: 9 national digits
    _numbers("+1212", 7),  # United States, New York: 10 national digits
    _numbers("+1415", 7),  # United States, San Francisco
    _numbers("+447", 9),  # United Kingdom, mobile: 10 national digits
    _numbers("+4915", 9),  # Germany, mobile: 11 national digits
    _numbers("+336", 8),  # France, mobile: 9 national digits
    st.sampled_from(["+995511100000", "+995511200300", "+12125550100", "+447700900123"]),
)

schemathesis.openapi.format("e164", E164)
