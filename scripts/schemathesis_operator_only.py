"""Schemathesis check for the pass that fuzzes the operator routes as a signed-in user who is not
an operator (scripts/schemathesis.sh): whatever the request, it is refused, never served or even
looked at. 401 is right too when schemathesis left the credentials out, and 405 for the methods
a route does not have (its coverage phase tries both)."""

import schemathesis


@schemathesis.check
def refused_to_non_operators(ctx, response, case):
    if response.status_code not in (401, 403, 405) and response.status_code < 500:
        raise AssertionError(
            f"{case.method} {case.formatted_path} answered {response.status_code} to a non-operator"
            " (expected 403; 401 without credentials, 405 for another method)"
        )
