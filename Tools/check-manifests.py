#!/usr/bin/env python3
"""Validates ImageWall manifests against docs/manifest.schema.json, all in one process.

    python3 Tools/check-manifests.py SCHEMA MANIFEST...

Prints one line for each problem, `MANIFEST: /json/pointer: message`, and nothing for a
manifest that is valid. Besides the schema, a manifest must be strict JSON as ImageWall writes
it: UTF-8, no key twice in an object, no NaN or Infinity. Exit status: 0 when every manifest is
valid, 1 when one is not, 2 when the check cannot run (jsonschema missing, the schema invalid).
Uses only what Debian's python3-jsonschema (4.10) knows of draft 2020-12.
"""

import json
import sys

try:
    import jsonschema
except ImportError:
    print(
        "check-manifests: python3's jsonschema module is missing: install python3-jsonschema "
        "(make deps installs it)",
        file=sys.stderr,
    )
    sys.exit(2)


class NotStrict(ValueError):
    pass


def unique_keys(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise NotStrict(f"the key {key!r} is written twice in one object")
        seen[key] = value
    return seen


def no_constant(name):
    raise NotStrict(f"{name} is not JSON")


def load(path):
    with open(path, "rb") as file:
        text = file.read().decode("utf-8")
    return json.loads(text, object_pairs_hook=unique_keys, parse_constant=no_constant)


def pointer(path):
    return "/" + "/".join(str(part).replace("~", "~0").replace("/", "~1") for part in path)


def main(arguments):
    if len(arguments) < 2:
        print("usage: check-manifests.py SCHEMA MANIFEST...", file=sys.stderr)
        return 2
    try:
        schema = load(arguments[0])
        jsonschema.Draft202012Validator.check_schema(schema)
    except (OSError, ValueError, jsonschema.exceptions.SchemaError) as error:
        print(f"check-manifests: {arguments[0]}: not a usable schema: {error}", file=sys.stderr)
        return 2
    validator = jsonschema.Draft202012Validator(schema)
    failed = False
    for path in arguments[1:]:
        try:
            manifest = load(path)
        except (OSError, ValueError) as error:
            print(f"{path}: /: not strict JSON: {error}")
            failed = True
            continue
        for error in sorted(validator.iter_errors(manifest), key=lambda e: list(map(str, e.absolute_path))):
            print(f"{path}: {pointer(error.absolute_path)}: {error.message}")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
