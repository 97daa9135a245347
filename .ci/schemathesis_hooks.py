"""How the contract test writes and reads NDJSON, which Schemathesis does not know.

`openapi.yaml` describes an NDJSON body as an array of its lines: generated arrays are
sent one JSON value per line, and answers are read back into an array of their lines.
`.ci/run` loads this module through SCHEMATHESIS_HOOKS.
"""

import json

import schemathesis


@schemathesis.serializer("application/x-ndjson")
def write_ndjson(ctx, value):
    lines = value if isinstance(value, list) else [value]
    return {"data": "".join(json.dumps(line) + "\n" for line in lines).encode()}


@schemathesis.deserializer("application/x-ndjson")
def read_ndjson(ctx, response):
    return [json.loads(line) for line in response.content.decode().splitlines()]
