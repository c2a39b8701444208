"""`read` with a JSON pointer streams the document: the value it selects must be the one a parser of
the whole document gives (json.loads), whatever the chunks the file arrives in, and a document
that breaks anywhere — after the value too — is an error, not a value."""

from __future__ import annotations

import json

import pytest
from codecairn.files import jsonstream
from hypothesis import given, settings
from hypothesis import strategies as st

KEYS = st.sampled_from(["a", "b", "a/b", "t~n", "é", "\\", ""])  # few, so that members repeat
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-1000, 1000), st.text(max_size=4))


def members(values):  # a list of pairs, not a dict: duplicate names stay in the text
    return st.lists(st.tuples(KEYS, values), max_size=4)


DOCUMENTS = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), members(inner).map(lambda m: ("obj", m))),
    max_leaves=12,
)


def text_of(doc) -> str:
    if isinstance(doc, tuple) and doc[0] == "obj":
        return "{" + ", ".join(f"{json.dumps(k)}: {text_of(v)}" for k, v in doc[1]) + "}"
    if isinstance(doc, list):
        return "[" + ",".join(text_of(v) for v in doc) + "]"
    return json.dumps(doc, ensure_ascii=False)


def pointers(doc, prefix=""):
    """Every pointer into the document's text, duplicate names included (once each), and some that
    name nothing."""
    yield prefix
    yield prefix + "/zz"
    yield prefix + "/7"
    if isinstance(doc, tuple):
        seen = set()
        for key, value in doc[1]:
            if key not in seen:
                seen.add(key)
                yield from pointers(value, prefix + "/" + key.replace("~", "~0").replace("/", "~1"))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            yield from pointers(value, f"{prefix}/{i}")


def resolve(value, pointer: str):
    for token in jsonstream.pointer_tokens(pointer):
        if isinstance(value, dict):
            if token not in value:
                return KeyError
            value = value[token]
        elif isinstance(value, list):
            if not token.isdigit() or int(token) >= len(value):
                return KeyError
            value = value[int(token)]
        else:
            return KeyError
    return value


def trickle(data: bytes, size: int):
    """A reader handing out at most ``size`` bytes a call: chunk ends fall everywhere."""
    read = jsonstream.text_reader(data)
    return lambda _: read(size)


def selected(data: bytes, pointer: str, size: int = 3):
    try:
        return jsonstream.select(trickle(data, size), pointer, 1 << 20)
    except jsonstream.NotThere:
        return KeyError


@settings(max_examples=300, deadline=None)
@given(DOCUMENTS, st.integers(1, 9))
def test_a_selected_value_is_what_a_parser_of_the_whole_document_gives(doc, size) -> None:
    data = text_of(doc).encode()
    whole = json.loads(data)
    for pointer in pointers(doc):
        # (KeyError: named by an earlier member only, the later one of the same name lacking it)
        assert selected(data, pointer, size) == resolve(whole, pointer), (data, pointer)


def test_of_a_member_given_twice_the_last_counts_as_for_a_whole_document_read() -> None:
    data = b'{"a": {"x": 1}, "b": 2, "a": {"x": 3, "y": [4, 5]}}'
    assert selected(data, "/a/x") == 3
    assert selected(data, "/a/y/1") == 5
    assert selected(data, "/a") == {"x": 3, "y": [4, 5]}
    assert selected(b'{"a": 1, "a": 2, "a": 3}', "/a") == 3
    assert selected(b'{"a": {"x": 1}, "a": {"y": 2}}', "/a/x") is KeyError  # the last "a" has no x
    assert selected(b'{"a": [], "a": [7]}', "/a/0") == 7
    assert selected(b'{"a": "s", "a": {"b": 1}}', "/a/b") == 1


@pytest.mark.parametrize(
    "data, pointer, message",
    [
        (b'{"a": [1, 2', "/a/1", "expected ',' or ']'"),  # cut off after the value
        (b'{"a": 1, "b": tru}', "/a", "invalid literal (expected true)"),
        (b'{"a": 1} {"a": 2}', "/a", "unexpected text after the document"),
        (b"[1, 2, 3,]", "/0", "expected a value"),
        (b'{"a": 1, "b" 2}', "/a", "expected ':' after a member name"),
    ],
)
def test_a_document_broken_after_the_selected_value_is_an_error_not_a_value(data, pointer, message) -> None:
    with pytest.raises(jsonstream.JsonError) as caught:
        jsonstream.select(trickle(data, 4), pointer, 1 << 20)
    assert caught.value.message == message


def test_the_rest_of_a_large_document_is_read_not_held() -> None:
    """The selected value is held; what follows it is only checked (the budget is the value's)."""
    tail = ", ".join(f'"k{i}": "{"x" * 100}"' for i in range(20_000))  # ≈ 2.3 MB after the value
    data = ('{"small": [1, 2], ' + tail + "}").encode()
    assert jsonstream.select(trickle(data, 65536), "/small", max_bytes=16) == [1, 2]


def test_every_cut_of_a_document_is_a_json_error_where_it_ends() -> None:
    """A file cut short anywhere (being written, truncated) is said to be so — `{"a": ` raised a
    ValueError out of the scanner before."""
    data = b'{"a": [1, -2.5e3, true, null, "s\\u00e9"], "b": {"c": false}}'
    for end in range(len(data)):
        with pytest.raises(jsonstream.JsonError) as caught:
            jsonstream.check(jsonstream.text_reader(data[:end]))
        assert caught.value.offset <= end
        with pytest.raises(jsonstream.JsonError):
            jsonstream.select(trickle(data[:end], 2), "/b/c", 1 << 20)
    jsonstream.check(jsonstream.text_reader(data))
