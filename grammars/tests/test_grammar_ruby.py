"""Ruby through its grammar pack: modules, classes, mixins, requires."""

CODE = """\
require "set"
require_relative "rack/utils"

module Rack
  # Wraps the environment of one request.
  class Request < Base
    include Enumerable
    extend Forwardable

    # The default port.
    DEFAULT_PORT = 80
    attr_reader :env, :params

    def self.build(env)
      new(env)
    end

    def call(env)
      status, headers = app.call(env)
      log(status)
      Utils::Parser.new(headers).run
    end
    alias_method :to_s, :inspect
  end

  class Rack::Response < ::Rack::Base; end
end
"""


def test_definitions_nest_with_double_colons(packs):
    facts = packs.extract("ruby", CODE)
    symbols = packs.symbols(facts)

    assert {(s.kind, s.qualified_name) for s in facts.symbols} == {
        ("module", "Rack"),
        ("class", "Rack::Request"),
        ("constant", "Rack::Request::DEFAULT_PORT"),
        ("property", "Rack::Request::env"),
        ("property", "Rack::Request::params"),
        ("method", "Rack::Request::build"),
        ("method", "Rack::Request::call"),
        ("method", "Rack::Request::to_s"),
        # `class Rack::Response` inside `module Rack` is Rack::Response, not Rack::Rack::Response
        ("class", "Rack::Response"),
    }
    assert symbols["Rack::Request"].doc == "Wraps the environment of one request."
    assert symbols["Rack::Request::DEFAULT_PORT"].doc == "The default port."
    assert symbols["Rack::Request::call"].signature == "def call(env)"
    assert symbols["Rack"].signature == "module Rack"


def test_superclass_and_mixins(packs):
    facts = packs.extract("ruby", CODE)

    assert packs.bases(facts) == {
        ("extends", "Rack::Request", "Base"),
        ("implements", "Rack::Request", "Enumerable"),
        ("implements", "Rack::Request", "Forwardable"),
        ("extends", "Rack::Response", "::Rack::Base"),
    }


def test_calls_but_not_local_variables(packs):
    facts = packs.extract("ruby", CODE)
    call_edges = packs.calls(facts)

    assert {
        ("Rack::Request::call", "call", "app"),
        ("Rack::Request::call", "log", ""),
        ("Rack::Request::call", "Parser", "Utils"),  # Utils::Parser.new calls the class
        ("Rack::Request::call", "run", "Utils::Parser.new(headers)"),
        ("Rack::Request::build", "new", ""),
    } <= call_edges
    # tags.scm would report every bare identifier as a call; local variables are not calls
    assert not {target for _, target, _ in call_edges} & {"env", "status", "headers"}


def test_requires_are_imports(packs):
    facts = packs.extract("ruby", CODE)

    assert [(i.module, i.kind, i.line) for i in facts.imports] == [
        ("set", "require", 1),
        ("rack/utils", "require_relative", 2),
    ]
