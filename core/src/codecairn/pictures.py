"""Pictures of a repository's architecture, for people: ``codecairn map PATH --html out.html`` (one
self-contained page — inline SVG, script and data, nothing fetched when it is viewed) and
``--mermaid`` (a diagram for a README).

The picture is the package graph the ``architecture`` tool reports: packages (directories) grouped
by their top-level directory, edges weighted by imports and calls, cycles between packages drawn
in red; a click on a package lists its top-ranked symbols. The layout is computed here, seeded,
so the same index gives the same picture.
"""

from __future__ import annotations

import html
import json
import math
from collections import defaultdict
from typing import Any

import numpy as np

from codecairn.hookspecs import ToolContext

MAX_PACKAGES = 80  # the largest packages drawn; the rest are counted in the caption
TOP_SYMBOLS = 12  # listed per package on click
MERMAID_PACKAGES = 30


async def package_map(ctx: ToolContext, depth: int | None = None) -> dict[str, Any]:
    """Everything a picture shows, as plain data: packages (largest first, bounded), weighted
    dependencies among them, cycles, and each package's top-ranked symbols."""
    packages, depth = await ctx.packages(depth)
    packages.sort(key=lambda p: (-p.lines, p.name))
    shown = packages[:MAX_PACKAGES]
    names = {p.name for p in shown}
    deps = [d for d in await ctx.package_dependencies(depth) if d.source in names and d.target in names]
    cycles = await ctx.package_cycles(depth, limit=50)
    in_cycle = {(c[i], c[(i + 1) % len(c)]) for c in cycles for i in range(len(c))}
    cyclic = {n for c in cycles for n in c}
    top: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for sym, score in await ctx.ranked_symbols(limit=20000):
        path = ctx.path_of(sym)
        package = _package_of(path, depth)
        if package in names and len(top[package]) < TOP_SYMBOLS:
            top[package].append({"name": sym.qualified_name, "kind": sym.kind, "path": path, "line": sym.start_line})
    # Groups: the directory after the part every package shares (golang.org/x/tools/{go,cmd,...}).
    split = [p.name.split("/") for p in shown if p.name != "."]
    common = 0
    while split and all(len(parts) > common + 1 for parts in split) and len({parts[common] for parts in split}) == 1:
        common += 1

    def group(name: str) -> str:
        parts = name.split("/")
        return "/".join(parts[: common + 1]) if name != "." else "."

    return {
        "root": ctx.root.name,
        "depth": depth,
        "packages": [
            {
                "name": p.name,
                "group": group(p.name),
                "files": p.files,
                "lines": p.lines,
                "symbols": p.symbols,
                "cycle": p.name in cyclic,
                "top": top.get(p.name, []),
            }  # fmt: skip
            for p in shown
        ],
        "omitted": len(packages) - len(shown),
        "edges": [
            {
                "from": d.source,
                "to": d.target,
                "imports": d.counts.get("imports", 0),
                "calls": d.counts.get("calls", 0),
                "weight": sum(d.counts.values()),
                "cycle": (d.source, d.target) in in_cycle
                or (d.source in cyclic and d.target in cyclic and _same_cycle(cycles, d.source, d.target)),
            }  # fmt: skip
            for d in sorted(deps, key=lambda d: (d.source, d.target))
        ],
        "cycles": cycles,
    }


def _same_cycle(cycles: list[list[str]], a: str, b: str) -> bool:
    return any(a in c and b in c for c in cycles)


def _package_of(path: str, depth: int | None) -> str:
    directory = path.rsplit("/", 1)[0] if "/" in path else "."
    if depth is None or directory == ".":
        return directory
    return "/".join(directory.split("/")[:depth])


# ---- layout ---------------------------------------------------------------------------------------


def layout(data: dict[str, Any], width: float = 1000.0, height: float = 700.0) -> dict[str, tuple[float, float]]:
    """Positions of the packages: groups on a circle, then a seeded force-directed pass (springs
    along dependencies, repulsion between all, a pull towards each package's group)."""
    packages = data["packages"]
    n = len(packages)
    if n == 0:
        return {}
    index = {p["name"]: i for i, p in enumerate(packages)}
    groups = sorted({p["group"] for p in packages})
    centre = np.array([width / 2, height / 2])
    radius = min(width, height) * 0.35
    group_at = {
        g: centre
        + (
            radius * np.array([math.cos(2 * math.pi * k / len(groups)), math.sin(2 * math.pi * k / len(groups))])
            if len(groups) > 1
            else 0
        )  # fmt: skip
        for k, g in enumerate(groups)
    }
    rng = np.random.default_rng(7)
    pos = np.array([group_at[p["group"]] for p in packages], dtype=float) + rng.normal(0, 30, (n, 2))
    anchor = np.array([group_at[p["group"]] for p in packages], dtype=float)
    edges = [(index[e["from"]], index[e["to"]], math.log1p(e["weight"])) for e in data["edges"]]
    k = math.sqrt(width * height / n) * 0.6
    for step in range(300):
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.linalg.norm(delta, axis=2) + 1e-6
        force = (delta / dist[..., None] * (k * k / dist)[..., None]).sum(axis=1)
        for a, b, w in edges:
            d = pos[a] - pos[b]
            length = np.linalg.norm(d) + 1e-6
            pull = d / length * (length * length / k) * 0.05 * w
            force[a] -= pull
            force[b] += pull
        force += (anchor - pos) * 0.05
        temperature = 20 * (1 - step / 300) + 0.5
        length = np.linalg.norm(force, axis=1) + 1e-6
        pos += force / length[:, None] * np.minimum(length, temperature)[:, None]
        pos[:, 0] = np.clip(pos[:, 0], 60, width - 60)
        pos[:, 1] = np.clip(pos[:, 1], 40, height - 40)
    return {p["name"]: (round(float(pos[i, 0]), 1), round(float(pos[i, 1]), 1)) for i, p in enumerate(packages)}


# ---- the page -------------------------------------------------------------------------------------

_PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#bab0ac",
            "#86bcb6"]  # fmt: skip

_STYLE = """
body{margin:0;font:13px system-ui,sans-serif;display:flex;height:100vh;color:#222}
#graph{flex:1;overflow:auto}#side{width:340px;border-left:1px solid #ddd;padding:12px;overflow:auto}
.edge{stroke:#999;stroke-opacity:.55;fill:none}.edge.cycle{stroke:#d62728;stroke-opacity:.9}
.node circle{stroke:#fff;stroke-width:2;cursor:pointer}.node.cycle circle{stroke:#d62728;stroke-width:3}
.node text{font-size:11px;pointer-events:none}.node.selected circle{stroke:#000;stroke-width:3}
.group{fill-opacity:.06;stroke-opacity:.35}.group-label{font-size:12px;font-weight:600;fill-opacity:.7}
h2{font-size:15px;margin:4px 0 8px}ol{padding-left:20px}li{margin:3px 0}code{font-size:11px;color:#555}
.legend{color:#666;font-size:12px}
"""

_SCRIPT = """
(function(){
  const data = JSON.parse(document.getElementById('map-data').textContent);
  const byName = new Map(data.packages.map(p => [p.name, p]));
  const side = document.getElementById('details');
  function show(name){
    const p = byName.get(name);
    if (!p) return;
    document.querySelectorAll('.node.selected').forEach(n => n.classList.remove('selected'));
    const node = document.querySelector('.node[data-package="' + CSS.escape(name) + '"]');
    if (node) node.classList.add('selected');
    const out = data.edges.filter(e => e.from === name).map(e => e.to);
    const inc = data.edges.filter(e => e.to === name).map(e => e.from);
    side.innerHTML = '';
    const h = document.createElement('h2'); h.textContent = p.name; side.appendChild(h);
    const facts = document.createElement('p');
    facts.textContent = p.files + ' files, ' + p.lines + ' lines, ' + p.symbols + ' symbols' +
      (p.cycle ? ' \u2014 in a dependency cycle' : '');
    side.appendChild(facts);
    const list = document.createElement('ol'); list.id = 'top-symbols';
    p.top.forEach(s => {
      const li = document.createElement('li');
      li.textContent = s.name + ' ';
      const c = document.createElement('code'); c.textContent = s.kind + ' ' + s.path + ':' + s.line;
      li.appendChild(c); list.appendChild(li);
    });
    const t = document.createElement('h2'); t.textContent = 'Top symbols'; side.appendChild(t);
    side.appendChild(list);
    [['Depends on', out], ['Used by', inc]].forEach(([label, names]) => {
      if (!names.length) return;
      const x = document.createElement('p'); x.textContent = label + ': ' + names.join(', '); side.appendChild(x);
    });
  }
  document.querySelectorAll('.node').forEach(n => n.addEventListener('click', () => show(n.dataset.package)));
  const wanted = new URLSearchParams(location.hash.slice(1)).get('select');
  if (wanted) {
    const node = document.querySelector('.node[data-package="' + CSS.escape(wanted) + '"]');
    if (node) node.dispatchEvent(new MouseEvent('click', {bubbles: true}));
  }
})();
"""


def html_page(data: dict[str, Any]) -> str:
    """One self-contained HTML page: inline SVG, style, script and data; no network at view time."""
    width, height = 1000.0, 700.0
    pos = layout(data, width, height)
    groups = sorted({p["group"] for p in data["packages"]})
    colour = {g: _PALETTE[i % len(_PALETTE)] for i, g in enumerate(groups)}
    parts = [f'<svg id="map" xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
             f'viewBox="0 0 {width:.0f} {height:.0f}">']  # fmt: skip
    parts.append('<defs><marker id="arrow" viewBox="0 0 10 10" refX="22" refY="5" markerWidth="8" markerHeight="8" markerUnits="userSpaceOnUse" '
                 'orient="auto"><path d="M0,0L10,5L0,10z" fill="#999"/></marker></defs>')  # fmt: skip
    for g in groups:
        members = [pos[p["name"]] for p in data["packages"] if p["group"] == g]
        xs, ys = [x for x, _ in members], [y for _, y in members]
        x0, y0, x1, y1 = min(xs) - 30, min(ys) - 30, max(xs) + 30, max(ys) + 30
        parts.append(f'<g class="group-box" data-group="{html.escape(g)}"><rect class="group" x="{x0:.1f}" '
                     f'y="{y0:.1f}" width="{x1 - x0:.1f}" height="{y1 - y0:.1f}" rx="14" fill="{colour[g]}" '
                     f'stroke="{colour[g]}"/><text class="group-label" x="{x0 + 8:.1f}" y="{y0 + 14:.1f}" '
                     f'fill="{colour[g]}">{html.escape(g)}</text></g>')  # fmt: skip
    for e in data["edges"]:
        (x0, y0), (x1, y1) = pos[e["from"]], pos[e["to"]]
        w = 0.8 + 1.4 * math.log1p(e["weight"])
        title = f"{e['from']} \u2192 {e['to']}: {e['imports']} imports, {e['calls']} calls"
        parts.append(f'<line class="edge{" cycle" if e["cycle"] else ""}" x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}" '
                     f'stroke-width="{w:.1f}" marker-end="url(#arrow)" data-from="{html.escape(e["from"])}" '
                     f'data-to="{html.escape(e["to"])}"><title>{html.escape(title)}</title></line>')  # fmt: skip
    biggest = max((p["lines"] for p in data["packages"]), default=1) or 1
    for p in data["packages"]:
        x, y = pos[p["name"]]
        r = 6 + 16 * math.sqrt(p["lines"] / biggest)
        label = p["name"].rsplit("/", 1)[-1] if p["name"] != "." else "."
        parts.append(f'<g class="node{" cycle" if p["cycle"] else ""}" data-package="{html.escape(p["name"])}" '
                     f'transform="translate({x},{y})"><circle r="{r:.1f}" fill="{colour[p["group"]]}"/>'
                     f'<text x="{r + 3:.1f}" y="4">{html.escape(label)}</text><title>{html.escape(p["name"])}: '
                     f'{p["lines"]} lines</title></g>')  # fmt: skip
    parts.append("</svg>")
    caption = (f'{len(data["packages"])} packages, {len(data["edges"])} dependencies, '
               f'{len(data["cycles"])} cycle(s)') + (f', {data["omitted"]} smaller packages not drawn'
                                                      if data["omitted"] else "")  # fmt: skip
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(data['root'])}: architecture map</title><style>{_STYLE}</style></head><body>"
        f'<div id="graph">{"".join(parts)}</div>'
        f'<div id="side"><h2>{html.escape(data["root"])}</h2><p class="legend">{html.escape(caption)}. '
        "Circles are packages (directories), sized by lines and coloured by top-level directory; arrows are "
        "dependencies (imports and calls), thicker for more; red marks dependency cycles. Click a package.</p>"
        '<div id="details"></div></div>'
        f'<script type="application/json" id="map-data">{payload}</script><script>{_SCRIPT}</script>'
        "</body></html>"
    )


def mermaid(data: dict[str, Any], most: int = MERMAID_PACKAGES) -> str:
    """A Mermaid flowchart of the largest packages, one subgraph per top-level directory."""
    shown = data["packages"][:most]
    names = {p["name"] for p in shown}
    ident = {p["name"]: f"p{i}" for i, p in enumerate(shown)}
    lines = ["flowchart LR"]
    by_group: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for p in shown:
        by_group[p["group"]].append(p)
    for g, members in sorted(by_group.items()):
        lines.append(f'  subgraph g_{_safe(g)}["{_label(g)}"]')
        for p in members:
            lines.append(f'    {ident[p["name"]]}["{_label(p["name"])}<br/>{p["lines"]} lines"]')
        lines.append("  end")
    cyclic_links = []
    link = 0
    for e in data["edges"]:
        if e["from"] in names and e["to"] in names:
            label = ", ".join(f"{e[k]} {k}" for k in ("imports", "calls") if e[k])
            arrow = f'-- "{label}" -->' if label else "-->"
            lines.append(f"  {ident[e['from']]} {arrow} {ident[e['to']]}")
            if e["cycle"]:
                cyclic_links.append(str(link))
            link += 1
    if cyclic_links:
        lines.append(f"  linkStyle {','.join(cyclic_links)} stroke:#d62728,stroke-width:2px")
    cyclic = [ident[p["name"]] for p in shown if p["cycle"]]
    if cyclic:
        lines.append("  classDef cycle stroke:#d62728,stroke-width:2px")
        lines.append(f"  class {','.join(cyclic)} cycle")
    return "\n".join(lines) + "\n"


def _safe(text: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in text)


def _label(text: str) -> str:
    return text.replace('"', "'")
