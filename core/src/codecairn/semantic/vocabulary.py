"""The words identifiers are made of, and the abbreviations programmers write for them.

A symbol's name is the strongest clue to what it does, but names run words together and shorten
them: ``gettempdir``, ``mkdtemp``, ``symlink_to``, ``getboolean``, ``ctx``. The embedding model and
BM25 meet a question's words ("the directory where temporary files go") only when the name is
spelled out: ``gettempdir`` → "get temporary directory", ``symlink_to`` → "symbolic link to",
``fd`` → "file descriptor".

* ``WORDS``: words that are separate parts (snake_case or camelCase) of identifiers in many
  projects. A run-together word that is not itself one of them is split into the fewest of them
  (two to four), or left as it is. Made by ``benchmarks/semantic/make_vocabulary.py`` from
  corpora that no question set asks about (Django, Guava, Jackson, TypeScript, Go's and Rust's
  standard libraries, three.js): not fitted to the questions it is measured on.
* ``ABBREVIATIONS``: the short forms every programmer reads without thinking, each with one
  meaning in code (``mod`` — module or modulo — ``cur`` and ``fn`` are left out).
"""

from __future__ import annotations

from functools import lru_cache

ABBREVIATIONS = {
    "addr": "address", "arg": "argument", "args": "arguments", "attr": "attribute", "attrs": "attributes",
    "auth": "authentication", "buf": "buffer", "calc": "calculate", "cfg": "configuration",
    "cmd": "command", "cmp": "compare", "conf": "configuration", "config": "configuration",
    "conn": "connection", "ctx": "context", "db": "database", "del": "delete", "dest": "destination",
    "dict": "dictionary", "dir": "directory", "dirs": "directories", "doc": "document",
    "dst": "destination", "dt": "datetime", "env": "environment", "err": "error", "exc": "exception",
    "exe": "executable", "exec": "execute", "expr": "expression", "ext": "extension",
    "fd": "file descriptor", "fmt": "format", "func": "function", "hdr": "header", "idx": "index",
    "img": "image", "info": "information", "init": "initialize", "int": "integer", "iter": "iterate",
    "len": "length", "lib": "library", "max": "maximum", "mem": "memory", "min": "minimum",
    "mk": "make", "msg": "message", "num": "number", "obj": "object", "opt": "option",
    "opts": "options", "param": "parameter", "params": "parameters", "perm": "permission",
    "perms": "permissions", "pkg": "package", "pos": "position", "prev": "previous", "proc": "process",
    "prog": "program", "ptr": "pointer", "recv": "receive", "ref": "reference",
    "regex": "regular expression", "repr": "representation", "req": "request", "resp": "response",
    "rm": "remove", "seq": "sequence", "sep": "separator", "sock": "socket", "src": "source",
    "std": "standard", "stderr": "standard error", "stdin": "standard input",
    "stdout": "standard output", "str": "string", "symlink": "symbolic link", "sync": "synchronize",
    "sys": "system", "temp": "temporary", "tmp": "temporary", "ts": "timestamp", "tz": "timezone",
    "util": "utility", "val": "value", "var": "variable", "vars": "variables", "ver": "version",
}  # fmt: skip

WORDS = frozenset(
    """
    abc abcdef abort above abs absent absolute abstract accept accepted accepts access accessible accessor
    account acquire act action actions activate activation active actor actual adapter adapters add added
    addition additional addr address addresses adds adjacent admin advance advanced aes after again against age
    aggregate algorithm alias aliases align aligned alignment alive all alloc allocate allocator allow allowed
    allows alpha already also alt alternate alternative always ambient ambiguous ancestor anchor and android
    angle annotated annotation annotations anonymous another answer any api app append application apply approx
    arbitrary arc archive are area arg args argument arguments argv aria arithmetic arr array arrays ascending
    ascii assert assertion assign assignable assigned assignment associated assume asterisk async atomic atomics
    att attach attached attachment attr attrib attribute attributes attrs audio auth author authorization auto
    available average avg avoid await aware axis back backed backend background backward backwards bad bar bare
    barrier base based basic basics batch baz before begin beginning behavior below best between big bin binary
    bind binding bindings bit bitmap bits bitwise black blank blend blob block blocked blocking blocks blue bmp
    body bogus bool boolean border both bottom bound boundary bounded bounding bounds box brackets branch break
    bridge broadcast broken browser bucket buf buffer buffered buffers bug build builder building built builtin
    bulk bundle bus busy but byte bytes cache cached caching calc call callable callback callbacks called caller
    calling calls camel can cancel canceled cancellation cancelled candidate candidates cannot canonical cant
    cap capabilities capability capacity capture captured car card case cases cast cat catalog catch category
    cause ceil cell center cfg chain chained change changed changes channel char character characters chars
    charset check checked checker checking checks child children choose chunk chunks circular city class classes
    classify clause clean cleanup clear client clip clone close closed closes closest closing closure cls cmd
    cmp coalesce code codec codes coerce col collapse collect collection collections collector collision
    collisions colon color colors column columns combinations combine combined comma command commands comment
    comments commit common comp comparable compare comparison compat compatibility compatible compilation
    compile compiled compiler complete completed completion complex component components composed composite
    compound compress compressed compute concat concrete concurrency concurrent cond condition conditional
    config configs configuration configure configured conflict conflicting conflicts connect connected
    connection connections consistent console const constant constants constraint constraints construct
    constructor constructors consume consumer contained container containing contains content contents context
    contexts contiguous continue control controller conversion conversions convert converter cookie coordinate
    coords copied copies copy core correct correctly cos count counter country counts cover coverage cpu crc
    create created creation creator credentials cross crypto css ctype cull cur currency current cursor curve
    custom cycle cyclic dash data database dataset datatype date day days dead debug dec decimal decl
    declaration declare declared declaring decode decoded decoder decoding decorator decrement dedup deep def
    default defaults deferred define defined defines definition del delay delayed delegate delete deleted
    deleting deletion delimiter delta demote denied deny dep dependencies dependency dependent deprecated
    deprecation depth deque derive derived des desc descending description descriptor descriptors desired dest
    destination destroy detach detached detail details detect detected detection dev device diagnostic dict did
    diff difference different digit digits dim dimension dir direct direction directive directories directory
    dirs disable disabled disallow disallowed discard disconnected discovery disjoint disk dispatch dispatcher
    display disposition dist distance div doc docs document does doesnt dog dom domain done dont dot dotted
    double down drain draw driver drop dropped dry dst dummy dump dup duplicate duplicates dups duration during
    dynamic eac each early echo edge edit effect effective effects eight elapsed elem element elements else
    embedded emit empty enable enabled enclosing encode encoded encoder encoding end endian ending ends enough
    ensure enter entity entries entry enum enumerate enums env environment eof equal equality equals equivalent
    erase err error errors escape escaped escapes escaping eval evaluate even event events exact example
    exceeded exceeds except exception exceptions exclude excluded excludes exclusion exclusive exe exec execute
    execution exhaustive exist existent existing exists exit exp expand expect expected expensive expiration
    expire expired explicit explicitly exponent exponential export expr expression ext extend extended extension
    extensions external extra extract factor factory fail failed failing fails failure failures fake fallback
    false family far fast feature features feed fetch fff ffff field fields file filename files filesystem fill
    filled filter filtered filters final finalize find finish finished finite first five fix fixed flag flags
    flat flatten flip float floats floor flow flush fmt folder follow font foo for forbidden force forced form
    format formats formatted formatter formatting forward forwarded found four fractional frag fragment frame
    frames free frequency fresh from front full fully func function functions future gain gap gather gen general
    generate generated generation generator generators generic generics geometry get getter gid git given global
    globals gone good got graph greater green grid group grouped groups grow guard guess guid half hand handle
    handled handler handlers handles handling has hash hashed hasher have head header headers heap height hello
    help helper helpers hex hidden hide hierarchy high higher highest hint hints history hmac holder hole hook
    hooks horizontal host hours html http https icon ident identical identifier identity idle ids idx ignorable
    ignore ignored ignores illegal image images img immediate immediately immutable impl implementation
    implemented implements implicit implicitly import imported imports inactive inc incl include included
    includes inclusion inclusive incoming incompatible incomplete inconsistent incorrect increment indent index
    indexed indexes indicator indices indirect inet inf infer inference infinite infinity info information infos
    inherit inheritance inherited init initial initialize initialized initializer inline inlined inner input
    inputs insecure insensitive insert insertion inside inspect install installed instance instances instantiate
    instantiated instruction int integer integers integral integration integrity interface interfaces
    intermediate internal interrupt interrupted intersect intersection intersects interval into intrinsic ints
    inv invalid invalidate inventory inverse invocation invoke iso isolate isolated issue item items iter
    iterable iterate iteration iterations iterator java join joined json just keep keeping kernel key keyboard
    keys keyword keywords kind kinds known label labeled labels lang language large last later latest layer
    layers layout lazy leading leaf leak least leave left legacy legend len length lengths less letter letters
    level levels lexical lhs lib library libs license light like likes limit line linear lines link linked links
    list listen listener lists literal literals little live load loaded loader loading loc local locale
    localized locals locate location locations lock locked locks log logged logger logging logical login logs
    long longer look lookup lookups loop loops loss lost low lower lowercase lru mac main major make malformed
    managed manager manifest manual many map mapped mapping mappings maps mark marked marker marks mask masked
    match matched matcher matches matching math matrix max maximum may maybe mean measure media median medium
    mem member members membership memory menu merge merged message messages meta metadata method methods mid
    middle millis mime min minimal minimum minus minutes misc mismatch mismatched missing mix mixed mixin mkdir
    mock mod mode model modified modifier modify module modules monitor monotonic month more most mouse move msg
    mtime mul multi multiline multiple multiply must mutable mutate mutation name named names namespace nan nano
    nanos native natural navigable nearest need needed needs neg negative negotiation neq nested nesting network
    never new newline newlines next node nodes non none nonempty nonexistent nonzero noop nop nor norm normal
    normalize normalized not note notes nothing notification notify now nth null nullable nulls num number
    numbers numeric obj object objects octal odd off offline offset offsets oid old omit once one only open
    opened opener operation operations operator operators ops opt optimized option optional options opts ord
    order ordered ordering orders ordinal orig origin original other our out outer outgoing output outputs
    outside over overflow overlap overlapping overlaps overridden override overrides overwrite own owned owner
    pack package packages packed pad padded padding page pair pairs parallel param parameter parameterized
    parameters params parens parent parents parse parsed parser parsing part partial partially partition
    partitioned parts pass passed password past patch path paths pattern patterns pause payload payment peek
    peer pending per percent perf perform performance period perm permission permissions permitted phase
    physical picture pinned pipe pipeline pixel pkg place placeholder plain platform plus point pointer points
    policy poll poly polygon pool pop populate populated port pos position positions positive possible post
    potential pow power powers pre precision predicate preferred prefetch prefix prefixed preload prepare
    prepend presence present preserve preserved preserves pretty prev prevents previous pri primary primitive
    primitives print printer prior priority private problem process processed processing processor product
    profile program programs progress proj project promise promote promotion prop propagate properties property
    props protected protection protocol provider proxy pseudo ptr public publisher punctuation push put quad
    qualifier quality queries query question queue queued queuing quota quote quoted quotes race raise rand
    random range ranges rate ratio raw reached read readable reader readers reading readonly reads ready real
    really reason receive receiver recent record recorded recorder recording recovery rect recursion recursive
    red redirect redirects reduce redundant ref reference referenced references reflect refresh refs reg regex
    regexp region register registered registration registry regular reject rejected rejects rel related relative
    release relevant reload rem remainder remaining remote removal remove removed removes rename renamed
    renaming render rendering repeat repeated replace replacement replacements replica report reporter reporting
    req request requested requests require required requires res reserved reset resize resolution resolve
    resolved resolver resource resources response rest restart restore restricted restriction result results
    resume ret retain retrieve return returned returning returns reuse rev reverse reversed rgb rgba rhs right
    ring role root roots rot rotate rotation round rounding roundtrip router row rows rpc rtc rule rules run
    runner running runs runtime safe safety same sample samples sanitize sanity sat save saved saw scalar scale
    scan scenario schedule schema scheme scope scoped screen script scroll search sec second secondary seconds
    secret section secure security seed seek seen seg segment segments sel select selected selection selector
    self semicolon send sender sendfile sensitive sent sep separate separator separators seq sequence serial
    serializable serialization serialize serialized serializer server service services session set sets settable
    setter setting settings setup shader shadow shape share shared sharing shift shim short should show shuffle
    shut shutdown sibling side sig sign signal signature signatures signed silent simple simplify sin since
    single singleton sink sip site size sized sizes skip skipped skipping slash sleep slice slope slot slow
    small smart snap snapshot socket soft some something sort sorted source sources space spaces span spawn spec
    special specific specification specified speed split sqrt square src stable stack stale standalone standard
    star start started starting starts stat state statement states static stats status std stderr stdin stdout
    step still stop storage store stored str strategy stream streaming streams strength strict stride string
    strings strip strong struct structural structure structured stub style sub subclass subject submit
    subscription subset substitute substitution subtract subtype succeeds success successful successfully such
    suffix suite sum summary sun super support supported supports suppress suppressed surface surrogate suspend
    swap switch sym symbol symbolic symbols symlink sync syntax sys system tab table tables tabs tag tagged tags
    tail take target targets task temp template ten term terminal terminated terminator test testing tests text
    texture than that the then thing third this thread threaded threads three threshold through throw time timed
    timeout timeouts timer times timestamp timestamps timezone timing tiny title tls tmp toggle token tokens
    tolerance too tools top topology total trace track tracked tracker tracking trailing trans transaction
    transfer transform transformation transformed transformer transient transition transitive translate
    transport traverse tree trees triangle trigger trim trimmed trip triple trivial true trunc truncate trusted
    try tuple twice two type typed types uid uint unable unary unavailable unbounded uncaught unchecked
    undefined under underlying underscore unexpected unicode uniform uninitialized union unique unit units unix
    unknown unmatched unmodified unnamed unordered unpack unreachable unrelated unresolved unsafe unset unsigned
    unsupported until untyped unused unwrap update updated updates upgrade upload upper uppercase uri url usage
    use used user username users uses using utc util utils uuid val valid validate validation validator validity
    value values vanilla var variable variables variadic variance variant vars vec vector vectors vendor verbose
    verified verify version vertex vertical very via video view views violation virtual visibility visible visit
    visitor void volume wait waiter waiting walk want warn warning was watch way weak web weight weighted weird
    well when where which while white whitespace whole wide width wildcard will win window windows with within
    without word words work worker working works world wrap wrapped wrapper wrappers wrapping write writer
    writes written wrong xml xor xxx year yield zero zeros zip zone
    """.split()
)

_KNOWN = WORDS | ABBREVIATIONS.keys()
_SHORTEST_SPLIT = 5  # letters: a shorter word is left as it is
_MOST_PARTS = 4


@lru_cache(maxsize=65536)  # the same words recur in thousands of names; every text is rebuilt at load
def spelled_out(word: str) -> tuple[str, ...]:
    """One lower-case word of an identifier as the words it stands for: ``gettempdir`` →
    ("get", "temporary", "directory"), ``ctx`` → ("context",), ``parse`` → ("parse",)."""
    parts = _split(word) if len(word) >= _SHORTEST_SPLIT and word not in _KNOWN and word.isalpha() else None
    out: list[str] = []
    for part in parts or (word,):
        out.extend(ABBREVIATIONS.get(part, part).split())
    return tuple(out)


@lru_cache(maxsize=65536)
def _split(word: str, parts: int = 1) -> tuple[str, ...] | None:
    """``word`` as the fewest known words, or None."""
    if parts > 1 and word in _KNOWN:
        return (word,)
    if parts >= _MOST_PARTS:
        return None
    best: tuple[str, ...] | None = None
    for at in range(2, len(word) - 1):
        head = word[:at]
        if head in _KNOWN:
            rest = _split(word[at:], parts + 1)
            if rest is not None and (best is None or len(rest) + 1 < len(best)):
                best = (head, *rest)
    return best
