#!/usr/bin/env python3
"""Cut Stripe's OpenAPI document down to what Taskhub uses.

    python3 scripts/stripe_openapi_subset.py SPEC SOURCE > server/tests/fixtures/stripe-openapi-subset.json

SPEC is `openapi/spec3.json` (or `spec3.yaml`, the same document) from the
stripe/openapi repository; SOURCE says where it came from (repository, path,
commit) and is recorded in the output's `x-taskhub-source`.

Kept: the operations in OPERATIONS (their parameters, form request body and
200/default responses), the `event` schema for webhooks, and every schema they
reference, transitively, with these pruning rules:

1. Expandable fields (those carrying `x-expansionResources`) are
   `anyOf: [<id string>, {$ref: X}]`. Stripe returns the object only when the
   request asks for it with `expand[]`, so the `$ref` alternative is kept only
   for the expansions Taskhub requests (EXPANSIONS, as `schema.property`);
   elsewhere the field keeps its id-string alternative alone, and a fake that
   returns an object where Stripe would return an id fails validation.
2. A property named in PRUNED (as `schema.property`) keeps its own keywords but
   any `$ref` inside it is replaced by `{}` (anything): these are large nested
   objects Taskhub never reads and the fake never returns (they are nullable
   or optional in the spec).
3. Descriptions, titles, examples and vendor extensions (`x-*`) are dropped;
   only validation keywords and `format` remain.

The output is sorted and indented, so a regeneration diffs cleanly.
"""

import json
import sys

OPERATIONS = [
    ("post", "/v1/checkout/sessions"),
    ("get", "/v1/checkout/sessions/{session}"),
    ("post", "/v1/checkout/sessions/{session}/expire"),
    ("post", "/v1/transfers"),
    ("post", "/v1/refunds"),
    ("post", "/v1/accounts"),
    ("get", "/v1/accounts/{account}"),
    ("post", "/v1/account_links"),
    ("post", "/v1/identity/verification_sessions"),
    ("get", "/v1/identity/verification_sessions/{session}"),
]
EXTRA_SCHEMAS = ["event", "error"]
# `GET /v1/checkout/sessions/{id}?expand[]=payment_intent` (server/src/payments/stripe.rs).
EXPANSIONS = {"checkout.session.payment_intent"}
PRUNED = {
    # payment_intent: payment-method details, errors and next actions we never read.
    "payment_intent.last_payment_error",
    "payment_intent.next_action",
    "payment_intent.payment_method_options",
    "payment_intent.payment_method_configuration_details",
    "payment_intent.processing",
    "payment_intent.shipping",
    "payment_intent.amount_details",
    "payment_intent.automatic_payment_methods",
    "payment_intent.transfer_data",
    # checkout.session: per-method options and collected details we never read.
    "checkout.session.payment_method_options",
    "checkout.session.payment_method_configuration_details",
    "checkout.session.custom_fields",
    "checkout.session.custom_text",
    "checkout.session.customer_details",
    "checkout.session.shipping_details",
    "checkout.session.shipping_options",
    "checkout.session.shipping_cost",
    "checkout.session.shipping_address_collection",
    "checkout.session.total_details",
    "checkout.session.consent_collection",
    "checkout.session.invoice_creation",
    "checkout.session.currency_conversion",
    "checkout.session.line_items",
    "checkout.session.tax_id_collection",
    # account: onboarding details Stripe collects; we read capabilities and payouts_enabled.
    "account.company",
    "account.individual",
    "account.external_accounts",
    "account.requirements",
    "account.future_requirements",
    "account.settings",
    "account.business_profile",
    "account.tos_acceptance",
    # identity.verification_session: the person's verified data, which Taskhub never reads or keeps.
    "identity.verification_session.verified_outputs",
    # refund and transfer: nested objects we never read.
    "refund.next_action",
    "refund.destination_details",
    "transfer.reversals",
    # error: the objects an error may carry; we read type, code and message.
    "api_errors.payment_intent",
    "api_errors.payment_method",
    "api_errors.setup_intent",
    "api_errors.source",
}
KEEP = {
    "type", "properties", "required", "enum", "items", "anyOf", "oneOf", "allOf",
    "nullable", "$ref", "additionalProperties", "maxLength", "format",
}
OPERATION_KEYS = {"parameters", "requestBody", "responses", "operationId"}


def load(path):
    with open(path, encoding="utf-8") as file:
        if path.endswith((".yaml", ".yml")):
            import yaml

            loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
            return yaml.load(file, Loader=loader)
        return json.load(file)


def ref_name(ref):
    prefix = "#/components/schemas/"
    assert ref.startswith(prefix), ref
    return ref[len(prefix):]


class Subset:
    def __init__(self, spec):
        self.spec = spec
        self.schemas = {}
        self.queue = []

    def need(self, name):
        if name not in self.schemas and name not in self.queue:
            self.queue.append(name)

    def schema(self, node, owner=None, prune=False):
        """A cleaned copy of a schema node; `owner` names a component's property (`schema.property`)."""
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            if prune:
                return {}
            self.need(ref_name(node["$ref"]))
            return {"$ref": node["$ref"]}
        out = {}
        expandable = "x-expansionResources" in node
        for key, value in node.items():
            if key not in KEEP:
                continue
            if key == "properties":
                out[key] = {name: self.schema(prop, None, prune) for name, prop in value.items()}
            elif key in ("anyOf", "oneOf", "allOf"):
                options = value
                if expandable and owner not in EXPANSIONS:
                    options = [option for option in value if "$ref" not in option]
                out[key] = [self.schema(option, None, prune) for option in options]
            elif key in ("items", "additionalProperties"):
                out[key] = self.schema(value, None, prune)
            else:
                out[key] = value
        return out

    def component(self, name):
        cleaned = {}
        for key, value in self.spec["components"]["schemas"][name].items():
            if key == "properties":
                cleaned[key] = {
                    prop: self.schema(schema, f"{name}.{prop}", f"{name}.{prop}" in PRUNED)
                    for prop, schema in value.items()
                }
            elif key in KEEP:
                cleaned[key] = self.schema(value)
        return cleaned

    def operation(self, method, path):
        node = self.spec["paths"][path][method]
        out = {"operationId": node["operationId"]}
        out["parameters"] = [
            {
                "in": p["in"],
                "name": p["name"],
                "required": p.get("required", False),
                "schema": self.schema(p["schema"]),
            }
            for p in node.get("parameters", [])
        ]
        body = node.get("requestBody")
        if body:
            form = body["content"]["application/x-www-form-urlencoded"]
            out["requestBody"] = {
                "required": body.get("required", False),
                "content": {"application/x-www-form-urlencoded": {"schema": self.schema(form["schema"])}},
            }
        out["responses"] = {
            status: {"content": {"application/json": {"schema": self.schema(response["content"]["application/json"]["schema"])}}}
            for status, response in node["responses"].items()
            if status in ("200", "default")
        }
        return out

    def build(self, source):
        paths = {}
        for method, path in OPERATIONS:
            paths.setdefault(path, {})[method] = self.operation(method, path)
        for name in EXTRA_SCHEMAS:
            self.need(name)
        while self.queue:
            name = self.queue.pop(0)
            self.schemas[name] = self.component(name)
        return {
            "openapi": self.spec["openapi"],
            "info": {"title": self.spec["info"]["title"], "version": self.spec["info"]["version"]},
            "x-taskhub-source": source,
            "paths": paths,
            "components": {"schemas": self.schemas},
        }


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    subset = Subset(load(sys.argv[1])).build(sys.argv[2])
    json.dump(subset, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    keywords = set()

    def walk(node, in_properties=False):
        if isinstance(node, dict):
            for key, value in node.items():
                if not in_properties:
                    keywords.add(key)
                walk(value, key == "properties" and not in_properties)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for schema in subset["components"]["schemas"].values():
        walk(schema)
    for operations in subset["paths"].values():
        for operation in operations.values():
            for parameter in operation["parameters"]:
                walk(parameter["schema"])
            for content in [*operation.get("requestBody", {}).get("content", {}).values()] + [
                content for response in operation["responses"].values() for content in response["content"].values()
            ]:
                walk(content["schema"])
    print(f"{len(subset['components']['schemas'])} schemas; keywords: {sorted(keywords)}", file=sys.stderr)


if __name__ == "__main__":
    main()
