"""C++ through its grammar pack: namespaces, classes, in-class and out-of-line methods."""

CODE = """\
#include <vector>
#include "fmt/core.h"
using namespace std;
using fmt::format_to;
namespace fs = std::filesystem;

FMT_BEGIN_NAMESPACE
namespace report {

/// Writes rows.
class Writer : public Base<int>, private io::Sink {
 public:
  Writer(int width);
  // Flushes what is buffered.
  void flush() { buffer_.clear(); this->reset(); io::sync(); }
  std::vector<int>& buffer_;
  template <typename T> T get() { return T(); }
};

/** Out of line, found where it is defined. */
void Writer::write(const Row& row) {
  auto* copy = new io::Row(row);
  emit(*copy);
}

Writer::Writer(int width) : width_(width) {}

int count = 0;
}  // namespace report
FMT_END_NAMESPACE
"""


def test_classes_methods_and_namespaces_nest_with_the_cpp_separator(packs):
    facts = packs.extract("cpp", CODE)
    symbols = packs.symbols(facts)

    assert {(s.kind, s.qualified_name) for s in facts.symbols} == {
        ("namespace", "report"),
        ("class", "report::Writer"),
        ("method", "report::Writer::flush"),
        ("field", "report::Writer::buffer_"),
        ("method", "report::Writer::get"),
        ("method", "report::Writer::write"),  # `void Writer::write(...)`: Writer is the qualifier
        ("method", "report::Writer::Writer"),
        ("variable", "report::count"),
    }
    assert symbols["report::Writer"].doc == "Writes rows."
    assert symbols["report::Writer::flush"].doc == "Flushes what is buffered."
    assert symbols["report::Writer::write"].doc == "Out of line, found where it is defined."
    assert symbols["report::Writer::write"].signature == "void Writer::write(const Row& row)"
    assert symbols["report::Writer::flush"].parent == facts.symbols.index(symbols["report::Writer"])


def test_base_classes_calls_and_constructor_calls(packs):
    facts = packs.extract("cpp", CODE)

    assert packs.bases(facts) == {
        ("extends", "report::Writer", "Base"),  # template arguments are cut
        ("extends", "report::Writer", "io::Sink"),
    }
    assert packs.calls(facts) >= {
        ("report::Writer::flush", "clear", "buffer_"),
        ("report::Writer::flush", "reset", "this"),
        ("report::Writer::flush", "sync", "io"),
        ("report::Writer::write", "Row", "io"),  # new io::Row(...) calls the class
        ("report::Writer::write", "emit", ""),
    }


def test_includes_and_using_directives_are_imports(packs):
    facts = packs.extract("cpp", CODE)

    assert packs.imports(facts) == {
        ("vector", "", "", ""),
        ("fmt/core.h", "", "", ""),
        ("std", "*", "", "std"),
        ("fmt", "format_to", "format_to", "fmt::format_to"),
        ("std::filesystem", "", "fs", "std::filesystem"),
    }


def test_the_cpp_pack_leaves_dot_h_to_c(packs):
    # Both grammars could parse a .h file; the C pack claims it, and a C++ project maps .h to
    # "cpp" in its own configuration.
    assert ".h" in packs.language("c").extensions
    assert ".h" not in packs.language("cpp").extensions
    assert {".cc", ".cpp", ".hpp"} <= set(packs.language("cpp").extensions)
