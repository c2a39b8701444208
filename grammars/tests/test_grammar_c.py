"""C through its grammar pack: what an agent learns about a C file."""

CODE = """\
#include <stdio.h>
#include "zlib.h"

#define CHUNK 16384
#define MIN(a, b) ((a) < (b) ? (a) : (b))

/* A compression stream. */
struct stream {
    unsigned char *next_in;
    struct window { int bits; } win;
};

typedef struct stream *stream_ptr;
enum level { FAST = 1, BEST = 9 };

int inflate(stream_ptr s, int flush);   /* a prototype is not a definition */

/* ======================================================================
 * Compresses as much as possible.
 */
int deflate(stream_ptr s, int flush)
{
    int n = MIN(flush, CHUNK);
    s->next_in = fill(s, n);
    return checksum(s) + s->vtable->finish(s);
}

static const char *const messages[2] = {"ok", "error"};
"""


def test_definitions_have_kinds_qualified_names_and_whole_ranges(packs):
    facts = packs.extract("c", CODE)
    symbols = packs.symbols(facts)

    assert {(s.kind, s.qualified_name) for s in facts.symbols} == {
        ("macro", "CHUNK"),
        ("macro", "MIN"),
        ("struct", "stream"),
        ("field", "stream.next_in"),
        ("struct", "stream.window"),
        ("field", "stream.window.bits"),
        ("field", "stream.win"),
        ("type", "stream_ptr"),
        ("enum", "level"),
        ("enum_member", "level.FAST"),
        ("enum_member", "level.BEST"),
        ("function", "deflate"),
        ("variable", "messages"),
    }
    deflate = symbols["deflate"]
    assert (deflate.start_line, deflate.end_line) == (21, 26)  # the whole definition, body included
    assert deflate.signature == "int deflate(stream_ptr s, int flush)"
    assert deflate.doc == "Compresses as much as possible."  # the ruler line is skipped
    assert symbols["stream"].doc == "A compression stream."
    assert symbols["stream.window"].parent == facts.symbols.index(symbols["stream"])
    assert facts.extractor == "tags" and not facts.partial


def test_calls_are_name_only_edges_from_the_enclosing_function(packs):
    facts = packs.extract("c", CODE)

    assert packs.calls(facts) == {
        ("deflate", "MIN", ""),
        ("deflate", "fill", ""),
        ("deflate", "checksum", ""),
        ("deflate", "finish", "s->vtable"),
    }
    assert {r.line for r in facts.relations if r.target == "fill"} == {24}


def test_includes_are_imports_of_paths(packs):
    facts = packs.extract("c", CODE)

    assert [(i.module, i.kind, i.line, i.target) for i in facts.imports] == [
        ("stdio.h", "include", 1, ""),
        ("zlib.h", "include", 2, ""),
    ]


def test_a_macro_line_does_not_hide_the_rest_of_the_file(packs):
    # tree-sitter parses C before the preprocessor: a line holding only a macro glues itself to
    # the next declaration. Such lines are blanked and the file parsed again.
    code = "BEGIN_DECLS\n\nint visible(void) { return 1; }\n\nstruct later { int x; };\nEND_DECLS\n"
    facts = packs.extract("c", code)

    assert {(s.kind, s.name, s.start_line) for s in facts.symbols} >= {
        ("function", "visible", 3),
        ("struct", "later", 5),
    }


def test_kr_definitions_behind_macros_are_still_found(packs):
    # zlib style: a K&R definition whose return type hides behind a macro leaves the file in error;
    # the function is still listed, and the answer says the facts are partial.
    code = "int ZEXPORT inflateEnd(strm)\nz_streamp strm;\n{\n    return release(strm);\n}\n"
    facts = packs.extract("c", code)

    assert facts.partial
    assert ("function", "inflateEnd") in {(s.kind, s.name) for s in facts.symbols}
