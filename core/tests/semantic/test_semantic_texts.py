"""What stands for a symbol: the sentence embedded (its doc summary, its qualified name as words) and the words
BM25 indexes."""

from __future__ import annotations

import pytest
from codecairn.semantic.texts import clean_doc, embedding_text, identifier_words, lexical_terms, query_terms


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


def test_a_symbol_is_described_by_its_doc_summary_then_its_qualified_name_as_words():
    text = embedding_text(
        "method",
        "getresponse",
        "http.client.HTTPConnection.getresponse",
        signature="def getresponse(self)",
        doc="Get the response from the server.",
        parent_name="HTTPConnection",
        parent_doc="HTTP connection to a server.",
    )

    assert text == "Get the response from the server. (http client connection get response)"


def test_a_method_without_doc_borrows_its_class_summary():
    assert embedding_text("method", "send", "smtplib.SMTP.send", parent_doc="An SMTP client class.") == (
        "smtplib smtp send: An SMTP client class."
    )
    assert embedding_text("function", "parse_header_line", "crate::http::parse_header_line") == (
        "crate http parse header line"
    )
    assert embedding_text("class", "Config") == "configuration"


def test_javadoc_tags_and_html_become_plain_words():
    doc = "Returns a {@link Encoder} that encodes using the <a href=x>Basic</a> type {@code base64} &amp; more."

    assert clean_doc(doc) == "Returns a Encoder that encodes using the Basic type base64 & more."
    assert clean_doc("See {@link java.util.List#add(Object) add}.") == "See add."
    assert clean_doc("See {@link Map#put(Object,Object)}.") == "See Map.put."


def test_a_long_doc_is_cut_at_a_word_and_whitespace_is_collapsed():
    text = embedding_text("function", "f", "m.f", doc="word   " * 100)

    assert "  " not in text
    assert len(text) < 230 and " wor " not in text


def test_queries_and_symbols_meet_on_the_same_stemmed_words():
    assert query_terms("Parsing the HTTP headers of requests") == ["pars", "http", "header", "request"]
    terms = lexical_terms("http.client.parse_headers", "parse_headers", "Parses only RFC2822 headers from a file.")

    assert terms["pars"] == 3 + 1  # the name's words weigh three times the doc's
    assert terms["header"] == 3 + 1
    assert terms["http"] == 1 and terms["client"] == 1
    assert "from" not in terms and "a" not in terms


def test_plurals_and_verb_forms_of_words_ending_in_y_or_ie_meet():
    # "cookies" finds Cookie; "copied" and "copies" find copy.
    assert query_terms("keep cookies") == ["keep", *lexical_terms("Cookie", "Cookie", "")]
    assert query_terms("copied copies copy") == ["copi"]
    assert query_terms("entities") == query_terms("entity")


def test_names_that_run_words_together_or_abbreviate_them_are_spelled_out():
    # "the directory where temporary files go" meets tempfile.gettempdir; "symbolic link" meets symlink_to
    assert embedding_text("function", "gettempdir", "tempfile.gettempdir", doc="Returns tempfile.tempdir as str.") == (
        "Returns tempfile.tempdir as str. (temporary file get directory)"
    )
    assert embedding_text("method", "symlink_to", "pathlib.Path.symlink_to") == "path library symbolic link to"
    assert embedding_text("method", "getCtx", "a.B.getCtx") == "a b get context"
    # a word that is already a word, or that splits into nothing known, stays as written
    assert embedding_text("function", "together", "m.together") == "m together"
    assert embedding_text("function", "mkdtemp", "tempfile.mkdtemp") == "temporary file mkdtemp"


def test_bm25_counts_the_words_a_name_spells_out_once_beside_the_name_as_written():
    terms = lexical_terms("tempfile.gettempdir", "gettempdir", "")

    assert terms["gettempdir"] == 3
    assert terms["temporari"] == 1 and terms["directori"] == 1
    assert query_terms("temporary directory") == ["temporari", "directori"]
