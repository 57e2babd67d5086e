"""Realistic data for scripts/contract-test.sh.

openapi.yaml marks phone numbers with `format: e164`. Random digits after a `+` are almost never a
number the backend accepts (it checks each country's length rule), so without this most generated
requests would stop at 422 and never reach the code and resend paths. These are valid numbers of a
few countries, built the way AccessCore's catalog checks them.
"""

from pathlib import Path

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


@schemathesis.hook
def before_call(context, case, kwargs):
    """`offline: refused` closes the port for up to 600 real seconds, the admin API included (its
    contract says so): the rest of the run could only fail to connect. The admin phase of
    scripts/contract-test.sh sends the other offline modes instead, which differ from it only in what a
    non-admin path gets; the refused listener is covered over real HTTP by FaultInjectionTests."""
    operation = context.operation
    if operation is None or operation.method.upper() != "POST" or operation.path != "/_admin/faults":
        return
    if isinstance(case.body, dict) and case.body.get("offline") == "refused":
        case.body["offline"] = "503"


# The scenarios the backend ships (fixtures/scenarios): a random name is only ever 404.
SCENARIOS = sorted(path.stem for path in (Path(__file__).resolve().parent.parent / "fixtures" / "scenarios").glob("*.json"))


@schemathesis.hook
def flatmap_body(context, body):
    """POST /_admin/scenario bodies with a generated name stay as they are half the time and name a real
    scenario otherwise, so the admin phase also loads scenarios rather than only learning they are unknown."""
    operation = context.operation
    if operation is None or operation.path != "/_admin/scenario" or not isinstance(body, dict):
        return st.just(body)
    if set(body) != {"name"} or not isinstance(body["name"], str):
        return st.just(body)
    return st.one_of(st.just(body), st.sampled_from(SCENARIOS).map(lambda name: {"name": name}))
