"""Reads each runtime env with PyYAML's safe_load, as Ray does, and says where Berth's
reader (its answers, in the wire format of shared/src/validate/runtime_env.rs) differs:
a text one accepts and the other refuses, or a value read otherwise. Input on stdin:
{"texts": [...], "answers": [...]}; output: one line per difference, none when they agree.
"""
import json
import sys

import yaml

NULL, FALSE, TRUE, OTHER, NUMBER, SEQ, MAP = range(7)


def from_wire(items):
    items = iter(items)

    def value():
        item = next(items)
        if isinstance(item, str):
            return ("str", item)
        if item == NULL:
            return ("null",)
        if item in (FALSE, TRUE):
            return ("bool", item == TRUE)
        if item == OTHER:
            return ("other",)
        if item == NUMBER:
            next(items)
            return ("number",)
        if item == SEQ:
            return ("seq", [value() for _ in range(next(items))])
        if item == MAP:
            # As a Python dict: a key given twice keeps its last value.
            entries = {}
            for _ in range(next(items)):
                key = value()
                entries[json.dumps(key)] = value()
            return ("map", sorted(entries.items()))
        raise ValueError(item)

    docs = []
    while True:
        try:
            docs.append(value())
        except StopIteration:
            return docs


def from_python(value):
    if value is None:
        return ("null",)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, (int, float)):
        return ("number",)
    if isinstance(value, str):
        return ("str", value)
    if isinstance(value, list):
        return ("seq", [from_python(v) for v in value])
    if isinstance(value, dict):
        return ("map", sorted((json.dumps(from_python(k)), from_python(v)) for k, v in value.items()))
    return ("other",)


def main():
    given = json.load(sys.stdin)
    for text, answer in zip(given["texts"], given["answers"], strict=True):
        try:
            theirs = ("read", from_python(yaml.safe_load(text)))
        except yaml.YAMLError as error:
            mark = getattr(error, "problem_mark", None)
            where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "no place"
            theirs = ("refused", f"{where}: {getattr(error, 'problem', error)}")
        if answer[0] == "docs":
            docs = from_wire(answer[1:])
            ours = ("read", docs[0] if docs else ("null",))
        else:
            ours = ("refused", answer)
        if theirs[0] != ours[0] or (theirs[0] == "read" and theirs != ours):
            print(json.dumps({"text": text, "pyyaml": theirs, "berth": ours}, ensure_ascii=False))


main()
