#!/usr/bin/env python3
"""The JSON documents of --format json and their schemas (doc/schema/).

  json_schema.py validate FILE...   each file against the schema its
                                    "schema" field names; exit 1 on the
                                    first that does not validate
  json_schema.py doc [--check]      write the field lists of doc/formats.md
                                    from the schemas (--check: exit 1 when
                                    the doc differs, writing nothing)

The schemas are the reference: doc/formats.md's field lists are generated
from them, and the tests validate every JSON document they write against
them (python3-jsonschema, Debian's).
"""
import json
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMAS = os.path.join(TOP, "doc", "schema")
DOC = os.path.join(TOP, "doc", "formats.md")
NAMES = ("egprof-diff", "egprof-rank-stats", "egprof-callpath", "egprof-lines-diff")


def load_schema(name):
    with open(os.path.join(SCHEMAS, name + ".schema.json")) as f:
        return json.load(f)


def validate(paths):
    import jsonschema

    for path in paths:
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print("%s: not JSON: %s" % (path, e), file=sys.stderr)
            return 1
        name = doc.get("schema") if isinstance(doc, dict) else None
        if name not in NAMES:
            print("%s: no known \"schema\" field (%r)" % (path, name), file=sys.stderr)
            return 1
        schema = load_schema(name)
        validator = jsonschema.Draft202012Validator(schema)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
        if errors:
            for e in errors[:5]:
                where = "/".join(str(p) for p in e.absolute_path) or "(top)"
                print("%s: %s: %s" % (path, where, e.message), file=sys.stderr)
            return 1
    return 0


def type_of(p):
    if "const" in p:
        return json.dumps(p["const"])
    if "enum" in p:
        return ", ".join(json.dumps(v) for v in p["enum"])
    t = p.get("type", "")
    if isinstance(t, list):
        return " or ".join(t)
    if t == "array":
        return "array of %s" % p["items"].get("type", "")
    return t


def cell(text):
    return text.replace("|", "\\|")


def table(props):
    out = ["| field | type | meaning |", "|---|---|---|"]
    for name, p in props.items():
        if p.get("type") == "object" or (p.get("type") == "array" and
                                          p["items"].get("type") == "object"):
            continue
        out.append("| `%s` | %s | %s |" % (name, cell(type_of(p)), cell(p.get("description", ""))))
    return out


def markdown(name):
    s = load_schema(name)
    out = ["`%s`, version %d (`doc/schema/%s.schema.json`): %s." %
           (name, s["properties"]["version"]["const"], name, s["description"]), ""]
    out += ["Header:", ""] + table(s["properties"]) + [""]
    seen = {}
    for key, p in s["properties"].items():
        if p.get("type") == "object":
            text = json.dumps(p, sort_keys=True)
            if text in seen:
                out[seen[text]] = out[seen[text]].replace(":", ", `%s`:" % key, 1)
                continue
            seen[text] = len(out)
            out += ["`%s`: %s." % (key, p.get("description", "")), ""]
            out += table(p["properties"]) + [""]
    for key, p in s["properties"].items():
        if p.get("type") == "array" and p["items"].get("type") == "object":
            out += ["`%s`: %s, each %s." % (key, p.get("description", ""),
                                              p["items"].get("description", "")), ""]
            out += table(p["items"]["properties"]) + [""]
    return out


BEGIN = "<!-- generated from doc/schema/%s.schema.json by scripts/json_schema.py doc: do not edit -->"
END = "<!-- end of the generated %s fields -->"


def doc(check):
    with open(DOC) as f:
        text = f.read()
    new = text
    for name in NAMES:
        begin, end = BEGIN % name, END % name
        pattern = re.compile(re.escape(begin) + ".*?" + re.escape(end), re.S)
        body = "\n".join([begin, ""] + markdown(name) + [end])
        if not pattern.search(new):
            print("%s: no block for %s (a line %s ... %s)" % (DOC, name, begin, end),
                  file=sys.stderr)
            return 1
        new = pattern.sub(lambda m: body, new)
    if new == text:
        return 0
    if check:
        print("%s is not what the schemas say: run scripts/json_schema.py doc" % DOC,
              file=sys.stderr)
        return 1
    with open(DOC, "w") as f:
        f.write(new)
    return 0


def main(argv):
    if len(argv) >= 2 and argv[1] == "validate":
        return validate(argv[2:])
    if len(argv) >= 2 and argv[1] == "doc":
        return doc("--check" in argv[2:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
