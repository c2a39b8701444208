"""What is embedded for a symbol: identifiers as words, the enclosing class and module, the doc line."""

from __future__ import annotations

import pytest
from codecairn.semantic.texts import embedding_text, identifier_words


@pytest.mark.parametrize(
    ("identifier", "words"),
    [
        ("parseHttpHeader", ["parse", "http", "header"]),
        ("snake_case", ["snake", "case"]),
        ("HTTPServer", ["http", "server"]),
        ("getHTTPResponse", ["get", "http", "response"]),
        ("XMLParser", ["xml", "parser"]),
        ("IPv4Address", ["ipv4", "address"]),
        ("md5_hexdigest", ["md5", "hexdigest"]),
        ("b64decode", ["b64", "decode"]),
        ("__init__", ["init"]),
        ("_rmtree_safe_fd", ["rmtree", "safe", "fd"]),
        ("MAX_RETRIES", ["max", "retries"]),
        ("x", ["x"]),
    ],
)
def test_identifiers_are_split_into_lowercase_words(identifier, words):
    assert identifier_words(identifier) == words


def test_a_symbol_is_described_by_its_doc_line_then_its_kind_and_qualified_name():
    text = embedding_text(
        "method",
        "getresponse",
        "http.client.HTTPConnection.getresponse",
        signature="def getresponse(self)",
        doc="Get the response from the server.",
        parent_name="HTTPConnection",
    )

    assert text == "Get the response from the server. (method http.client.HTTPConnection.getresponse)"


def test_a_symbol_without_doc_is_described_by_its_kind_and_qualified_name():
    assert embedding_text("function", "parse_header_line", "crate::http::parse_header_line") == (
        "function crate::http::parse_header_line"
    )
    assert embedding_text("class", "Config") == "class Config"


def test_a_long_doc_line_is_cut_and_whitespace_is_collapsed():
    text = embedding_text("function", "f", "m.f", doc="word   " * 100)

    assert "  " not in text
    assert len(text) < 230
