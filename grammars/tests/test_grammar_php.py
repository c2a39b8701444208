"""PHP through its grammar pack: namespaces, classes, traits, use imports."""

CODE = """\
<?php
declare(strict_types=1);

namespace Monolog\\Handler;

use Monolog\\Logger;
use Monolog\\Formatter\\LineFormatter as Formatter;
use Psr\\Log\\{LoggerInterface, LogLevel as Level};
require_once 'functions.php';

/**
 * Stores to any stream resource.
 * @author Jordi
 */
class StreamHandler extends AbstractProcessingHandler implements HandlerInterface, \\Countable
{
    use FormattableHandlerTrait;

    public const CHUNK_SIZE = 524288;
    protected $stream;

    public function __construct(private int $filePermission = 0644) {}

    /** Writes the record down to the log. */
    protected function write(array $record): void
    {
        $this->stream->fwrite($this->format($record));
        self::reset();
        $logger = new Logger('app');
        $copy = new \\Monolog\\LogRecord();
        strlen('x');
    }
}

interface HandlerInterface extends Countable {}
trait FormattableHandlerTrait { public function format(array $r) {} }
function register(): void {}
"""


def test_namespace_prefixes_every_definition_with_backslashes(packs):
    facts = packs.extract("php", CODE)
    symbols = packs.symbols(facts)

    assert {(s.kind, s.qualified_name) for s in facts.symbols} == {
        ("namespace", "Monolog\\Handler"),
        ("class", "Monolog\\Handler\\StreamHandler"),
        ("constant", "Monolog\\Handler\\StreamHandler\\CHUNK_SIZE"),
        ("property", "Monolog\\Handler\\StreamHandler\\stream"),
        ("method", "Monolog\\Handler\\StreamHandler\\__construct"),
        ("property", "Monolog\\Handler\\StreamHandler\\filePermission"),  # promoted: a class property
        ("method", "Monolog\\Handler\\StreamHandler\\write"),
        ("interface", "Monolog\\Handler\\HandlerInterface"),
        ("trait", "Monolog\\Handler\\FormattableHandlerTrait"),
        ("method", "Monolog\\Handler\\FormattableHandlerTrait\\format"),
        ("function", "Monolog\\Handler\\register"),
    }
    assert facts.module == "Monolog\\Handler"
    assert symbols["Monolog\\Handler\\StreamHandler"].doc == "Stores to any stream resource."
    assert symbols["Monolog\\Handler\\StreamHandler\\write"].doc == "Writes the record down to the log."


def test_extends_implements_and_traits(packs):
    facts = packs.extract("php", CODE)

    assert packs.bases(facts) == {
        ("extends", "Monolog\\Handler\\StreamHandler", "AbstractProcessingHandler"),
        ("implements", "Monolog\\Handler\\StreamHandler", "HandlerInterface"),
        ("implements", "Monolog\\Handler\\StreamHandler", "\\Countable"),
        ("implements", "Monolog\\Handler\\StreamHandler", "FormattableHandlerTrait"),
        ("extends", "Monolog\\Handler\\HandlerInterface", "Countable"),
    }


def test_calls_with_receivers_and_constructor_calls(packs):
    facts = packs.extract("php", CODE)
    write = "Monolog\\Handler\\StreamHandler\\write"

    assert packs.calls(facts) == {
        (write, "fwrite", "$this->stream"),
        (write, "format", "$this"),
        (write, "reset", "self"),
        (write, "Logger", ""),
        (write, "LogRecord", "\\Monolog"),
        (write, "strlen", ""),
    }


def test_use_statements_are_imports_matching_qualified_names(packs):
    facts = packs.extract("php", CODE)

    assert packs.imports(facts) == {
        ("Monolog", "Logger", "Logger", "Monolog\\Logger"),
        ("Monolog\\Formatter", "LineFormatter", "Formatter", "Monolog\\Formatter\\LineFormatter"),
        ("Psr\\Log", "LoggerInterface", "LoggerInterface", "Psr\\Log\\LoggerInterface"),
        ("Psr\\Log", "LogLevel", "Level", "Psr\\Log\\LogLevel"),
        ("functions.php", "", "", ""),
    }
