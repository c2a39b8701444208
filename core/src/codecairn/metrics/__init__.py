"""Metrics: what every tool call cost and what it spared the agent, measured.

One record per tool call (record.py), taken by the server through one small hook
(recorder.py), counted with a real tokenizer off the event loop (tokens.py), appended to a
JSON Lines file beside the workspace's database that rotates by size (jsonl.py), and, when
``CODECAIRN_METRICS_DB_URL`` is set, copied to PostgreSQL (postgres.py). ``codecairn report``
reads them back (report.py, html.py; Claude Code's own session logs: claude_logs.py).

docs/metrics.md describes the record, the table and the report.
"""
