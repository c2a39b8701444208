"""The schema, as a list of migrations. The database's ``user_version`` says how many have run.

Only structure is stored: paths, hashes, symbols, edges, imports, exports, vectors, memories.
Never source text (signatures and first doc lines are declaration metadata, not bodies) — with one
deliberate exception, the edit history (4): to undo an edit, the file's state before it must be kept
somewhere. It is kept compressed, bounded, never exported in a shared snapshot, and only for files
an agent edited through codecairn.
"""

MIGRATIONS: list[str] = [
    # 1: the structural index
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE files (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,          -- root-relative, '/' separated
        language TEXT NOT NULL,
        size INTEGER NOT NULL,
        mtime_ns INTEGER NOT NULL,
        hash TEXT NOT NULL,                 -- blake2b of the content
        lines INTEGER NOT NULL,
        module TEXT NOT NULL DEFAULT '',
        extractor TEXT NOT NULL DEFAULT '',
        partial INTEGER NOT NULL DEFAULT 0,
        generation INTEGER NOT NULL
    );
    CREATE TABLE symbols (
        id INTEGER PRIMARY KEY,
        file_id INTEGER NOT NULL,
        parent_id INTEGER,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        qualified_name TEXT NOT NULL,
        start_line INTEGER NOT NULL, start_col INTEGER NOT NULL,
        end_line INTEGER NOT NULL, end_col INTEGER NOT NULL,
        signature TEXT NOT NULL DEFAULT '',
        doc TEXT NOT NULL DEFAULT '',
        modifiers TEXT NOT NULL DEFAULT ''  -- space separated
    );
    CREATE INDEX symbols_file ON symbols(file_id);
    CREATE INDEX symbols_parent ON symbols(parent_id);
    CREATE TABLE edges (
        id INTEGER PRIMARY KEY,
        file_id INTEGER NOT NULL,
        kind TEXT NOT NULL,                 -- extends | implements | calls | references | returns
        source_id INTEGER,                  -- the symbol it occurs in (NULL: file level)
        target TEXT NOT NULL,               -- as written
        receiver TEXT NOT NULL DEFAULT '',
        receiver_type TEXT NOT NULL DEFAULT '',
        line INTEGER NOT NULL,
        target_id INTEGER,                  -- resolved symbol, NULL when unresolved
        resolution TEXT                     -- exact | import | inherited | name-only | NULL
    );
    CREATE INDEX edges_file ON edges(file_id);
    CREATE INDEX edges_source ON edges(source_id);
    CREATE INDEX edges_target_id ON edges(target_id);
    CREATE INDEX edges_target ON edges(target);
    CREATE TABLE imports (
        file_id INTEGER NOT NULL,
        module TEXT NOT NULL, name TEXT NOT NULL, alias TEXT NOT NULL,
        line INTEGER NOT NULL, kind TEXT NOT NULL, target TEXT NOT NULL
    );
    CREATE INDEX imports_file ON imports(file_id);
    CREATE TABLE exports (
        file_id INTEGER NOT NULL,
        name TEXT NOT NULL, line INTEGER NOT NULL, kind TEXT NOT NULL,
        source TEXT NOT NULL, alias TEXT NOT NULL
    );
    CREATE INDEX exports_file ON exports(file_id);
    """,
    # 2: location memory (codecairn.memory): where agents found something, anchored to the code's
    # structure so it can be found again. Hashes of the remembered lines, never the lines.
    """
    CREATE TABLE memories (
        id INTEGER PRIMARY KEY,
        reason TEXT NOT NULL,
        tags TEXT NOT NULL DEFAULT '',         -- newline separated
        created_at REAL NOT NULL,
        path TEXT NOT NULL,                    -- last known place, root-relative
        start_line INTEGER NOT NULL,
        end_line INTEGER NOT NULL,
        state TEXT NOT NULL,                   -- current | moved | orphaned
        origin_path TEXT NOT NULL,             -- where it was remembered
        origin_start INTEGER NOT NULL,
        origin_end INTEGER NOT NULL,
        symbol TEXT NOT NULL DEFAULT '',       -- anchor: innermost enclosing symbol ('' = file level)
        symbol_kind TEXT NOT NULL DEFAULT '',
        symbol_name TEXT NOT NULL DEFAULT '',
        parent_name TEXT NOT NULL DEFAULT '',
        fingerprint TEXT NOT NULL DEFAULT '',  -- hash of the symbol's structure, not its text
        offset_start INTEGER NOT NULL,         -- lines from the symbol's first line
        offset_end INTEGER NOT NULL,
        lines_hash TEXT NOT NULL,              -- hash of the remembered lines, whitespace-trimmed
        first_line_hash TEXT NOT NULL,
        line_count INTEGER NOT NULL,
        file_hash TEXT NOT NULL DEFAULT '',    -- the file's content hash when last placed
        generation INTEGER NOT NULL DEFAULT 0, -- index generation when last placed
        edited INTEGER NOT NULL DEFAULT 0      -- 1: the lines changed inside a surviving symbol
    );
    CREATE INDEX memories_path ON memories(path);
    """,
    # 3: semantic vectors, keyed by a hash of (model, embedded text): a symbol whose text did not
    # change keeps its vector across re-indexing, whatever its row id becomes.
    """
    CREATE TABLE embeddings (
        hash TEXT PRIMARY KEY,
        model TEXT NOT NULL,
        vector BLOB NOT NULL
    );
    """,
    # 4: the edit history (codecairn.files, the edit tools): one entry per write, one row per file it
    # changed, with the file's state before it (zstd) so the entry can be undone. Bounded by count and
    # bytes, oldest evicted first (store/history.py).
    """
    CREATE TABLE history (
        id INTEGER PRIMARY KEY,
        created_at REAL NOT NULL,
        tool TEXT NOT NULL,
        size INTEGER NOT NULL,                 -- bytes of before-states kept (compressed)
        undoes INTEGER,                        -- the entry this one reverted
        undone_by INTEGER                      -- the entry that reverted this one
    );
    CREATE TABLE history_files (
        entry_id INTEGER NOT NULL,
        position INTEGER NOT NULL,             -- order within the entry
        root TEXT NOT NULL,                    -- the declared root's real path
        path TEXT NOT NULL,                    -- root-relative
        sha256_before TEXT NOT NULL,           -- '' when the file did not exist
        sha256_after TEXT NOT NULL,            -- '' when the write deleted it
        mode INTEGER,                          -- its permissions before
        before BLOB,                           -- zstd of its bytes before (NULL: it did not exist)
        kept INTEGER NOT NULL DEFAULT 1,       -- 0: the before-state was too large to keep (no undo)
        PRIMARY KEY (entry_id, position)
    );
    CREATE INDEX history_files_path ON history_files(root, path);
    """,
    # 5: the graph as query_graph shows it (store/console.py): stable, documented views over the
    # tables, with paths and qualified names joined in. The tables may change shape; these do not.
    """
    CREATE VIEW graph_files AS
        SELECT id, path, language, module, lines, size AS size_bytes, partial FROM files;
    CREATE VIEW graph_symbols AS
        SELECT s.id, s.kind, s.name, s.qualified_name, f.path, s.file_id, s.parent_id,
               s.start_line, s.end_line, s.signature, s.doc
        FROM symbols s JOIN files f ON f.id = s.file_id;
    CREATE VIEW graph_edges AS
        SELECT e.id, e.kind, e.source_id, src.qualified_name AS source, e.target_id,
               tgt.qualified_name AS target, e.target AS written, e.receiver, f.path, e.line, e.resolution
        FROM edges e JOIN files f ON f.id = e.file_id
        LEFT JOIN symbols src ON src.id = e.source_id
        LEFT JOIN symbols tgt ON tgt.id = e.target_id;
    CREATE VIEW graph_imports AS
        SELECT i.file_id, f.path, i.module, i.name, i.alias, i.line, i.kind, i.target
        FROM imports i JOIN files f ON f.id = i.file_id;
    CREATE VIEW graph_routes AS
        SELECT r.id, substr(r.name, 1, instr(r.name, ' ') - 1) AS method,
               substr(r.name, instr(r.name, ' ') + 1) AS pattern,
               h.target_id AS handler_id, hs.qualified_name AS handler, h.target AS handler_written,
               r.modifiers AS framework, f.path, r.start_line AS line
        FROM symbols r JOIN files f ON f.id = r.file_id
        LEFT JOIN edges h ON h.source_id = r.id AND h.kind = 'routes_to'
        LEFT JOIN symbols hs ON hs.id = h.target_id
        WHERE r.kind = 'route';
    """,
    # 6: indexes a graph walk reads without touching the table (store/graph.py): the ends of the
    # edges around a symbol, both ways, and the unresolved edges by written name.
    """
    DROP INDEX IF EXISTS edges_source;
    DROP INDEX IF EXISTS edges_target_id;
    CREATE INDEX IF NOT EXISTS edges_out ON edges(source_id, kind, target_id, resolution, file_id, line);
    CREATE INDEX IF NOT EXISTS edges_in ON edges(target_id, kind, source_id, resolution, file_id, line);
    CREATE INDEX IF NOT EXISTS edges_unresolved ON edges(target, kind, file_id, line) WHERE target_id IS NULL;
    """,
    # 7: the whole-index graph answers (architecture's packages, dependencies, hotspots, map...) of
    # the current generation, as JSON, so a restarted server answers them at once (query/graph_index.py).
    """
    CREATE TABLE graph_answers (
        key TEXT PRIMARY KEY,                  -- which answer (its arguments)
        generation INTEGER NOT NULL,           -- the index generation it was computed from
        value TEXT NOT NULL                    -- JSON
    );
    """,
    # 8: the calls through a parameter (model.PARAMETER), looked up by the tail of their mark when
    # what a function is passed changes (store/reads.py's calls_through_parameters).
    """
    CREATE INDEX IF NOT EXISTS edges_through_parameter ON edges(receiver_type)
        WHERE substr(receiver_type, 1, 1) = '@';
    """,
    # 9: edges_in holds the resolved edges only (what every read through it asks for; Store.EDGE_INDEXES).
    """
    DROP INDEX IF EXISTS edges_in;
    CREATE INDEX edges_in ON edges(target_id, kind, source_id, resolution, file_id, line) WHERE target_id IS NOT NULL;
    """,
    # 10: the views say "none" as NULL everywhere (an agent's `WHERE doc IS NULL` found nothing: the
    # tables keep '' for an absent signature, doc, receiver or alias).
    """
    DROP VIEW graph_symbols;
    CREATE VIEW graph_symbols AS
        SELECT s.id, s.kind, s.name, s.qualified_name, f.path, s.file_id, s.parent_id,
               s.start_line, s.end_line, NULLIF(s.signature, '') AS signature, NULLIF(s.doc, '') AS doc
        FROM symbols s JOIN files f ON f.id = s.file_id;
    DROP VIEW graph_edges;
    CREATE VIEW graph_edges AS
        SELECT e.id, e.kind, e.source_id, src.qualified_name AS source, e.target_id,
               tgt.qualified_name AS target, e.target AS written, NULLIF(e.receiver, '') AS receiver, f.path,
               e.line, e.resolution
        FROM edges e JOIN files f ON f.id = e.file_id
        LEFT JOIN symbols src ON src.id = e.source_id
        LEFT JOIN symbols tgt ON tgt.id = e.target_id;
    DROP VIEW graph_imports;
    CREATE VIEW graph_imports AS
        SELECT i.file_id, f.path, i.module, i.name, NULLIF(i.alias, '') AS alias, i.line,
               NULLIF(i.kind, '') AS kind, NULLIF(i.target, '') AS target
        FROM imports i JOIN files f ON f.id = i.file_id;
    """,
]

SCHEMA_VERSION = len(MIGRATIONS)
