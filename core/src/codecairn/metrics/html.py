"""The report as one self-contained HTML page: the tables, and two charts (tokens saved per day,
tokens saved and used per tool) drawn as SVG by a small script from the report's JSON embedded in
the page. No network, no library: the page opens from a file, offline."""

from __future__ import annotations

import html
import json

from codecairn.metrics.report import Report, Row

STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:72em}
h1{font-size:1.4em}h2{font-size:1.1em;margin-top:2em}
table{border-collapse:collapse;margin:.5em 0}td,th{padding:.2em .7em;border-bottom:1px solid #ddd}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.figures{display:flex;gap:2em;flex-wrap:wrap}.figures div{background:#f4f6f8;padding:.6em 1em;border-radius:6px}
.figures b{display:block;font-size:1.4em}svg{background:#fafafa;border:1px solid #eee}
.note{color:#777}
"""

# Draws #chart-days (bars: tokens saved per day) and #chart-tools (bars: saved and used per tool)
# from the embedded JSON. Each bar is a <rect> with a <title>, so a reader can hover for the figure.
SCRIPT = r"""
(function(){
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const NS = 'http://www.w3.org/2000/svg';
  function el(name, attrs, text){const e=document.createElementNS(NS,name);
    for(const k in attrs)e.setAttribute(k,attrs[k]); if(text!==undefined)e.textContent=text; return e;}
  function bars(id, rows, series){
    const svg=document.getElementById(id); if(!svg||!rows.length)return;
    const W=760,H=240,L=70,B=60,T=10; svg.setAttribute('viewBox','0 0 '+W+' '+H);
    const max=Math.max(1,...rows.flatMap(r=>series.map(s=>r[s.key]||0)));
    const slot=(W-L-10)/rows.length, bw=Math.min(48,Math.max(2,slot*0.8/series.length));
    svg.appendChild(el('line',{x1:L,y1:H-B,x2:W-10,y2:H-B,stroke:'#999'}));
    svg.appendChild(el('text',{x:L-6,y:T+10,'text-anchor':'end','font-size':11},max.toLocaleString()));
    svg.appendChild(el('text',{x:L-6,y:H-B,'text-anchor':'end','font-size':11},'0'));
    rows.forEach((r,i)=>{
      series.forEach((s,j)=>{
        const v=r[s.key]||0, h=(H-B-T)*v/max, x=L+i*slot+(slot-bw*series.length)/2+j*bw;
        const rect=el('rect',{x:x,y:H-B-h,width:bw,height:h,fill:s.color,'class':'bar','data-value':v});
        rect.appendChild(el('title',{},r.key+': '+v.toLocaleString()+' '+s.label)); svg.appendChild(rect);
      });
      const label=r.key.length>14?r.key.slice(0,13)+'…':r.key;
      svg.appendChild(el('text',{x:L+i*slot+slot/2,y:H-B+14,'font-size':10,'text-anchor':'end',
        transform:'rotate(-35 '+(L+i*slot+slot/2)+' '+(H-B+14)+')'},label));
    });
    series.forEach((s,j)=>{svg.appendChild(el('rect',{x:L+j*140,y:H-14,width:10,height:10,fill:s.color}));
      svg.appendChild(el('text',{x:L+14+j*140,y:H-5,'font-size':11},s.label));});
    svg.setAttribute('data-drawn', rows.length);
  }
  bars('chart-days', data.days, [{key:'tokens_saved',label:'tokens saved',color:'#2a9d8f'}]);
  bars('chart-tools', data.tools, [{key:'tokens_saved',label:'tokens saved',color:'#2a9d8f'},
                                   {key:'tokens_used',label:'tokens used',color:'#e76f51'}]);
})();
"""


def _table(rows: list[Row], key: str, *, times: bool = False) -> str:
    if not rows:
        return "<p class=note>none</p>"
    heads = [key, "calls", "hits", "misses", "errors", "hit rate", "tokens used", "tokens saved"]
    heads += ["first", "last"] if times else []
    out = ["<table><tr>" + "".join(f"<th{'' if i == 0 else ' class=n'}>{h}</th>" for i, h in enumerate(heads))]
    out.append("</tr>")
    for r in rows:
        cells = [r.calls, r.hits, r.misses, r.errors]
        row = f"<tr><td>{html.escape(r.key)}</td>" + "".join(f"<td class=n>{c:,}</td>" for c in cells)
        row += f"<td class=n>{r.hit_rate:.0%}</td><td class=n>{r.tokens_used:,}</td><td class=n>{r.tokens_saved:,}</td>"
        if times:
            row += f"<td>{html.escape(r.first)}</td><td>{html.escape(r.last)}</td>"
        out.append(row + "</tr>")
    out.append("</table>")
    return "".join(out)


def render_html(report: Report) -> str:
    data = json.dumps(report.to_json(), ensure_ascii=False).replace("</", "<\\/")
    t = report.total
    period = f"{report.period[0]} … {report.period[1]} ({report.tz})" if report.period else "no calls recorded yet"
    parts = [
        "<!doctype html><html lang=en><head><meta charset=utf-8>",
        "<meta name=viewport content='width=device-width,initial-scale=1'>",
        f"<title>codecairn: tokens saved</title><style>{STYLE}</style></head><body>",
        "<h1>codecairn: what the index saved</h1>",
        f"<p class=note>{html.escape(report.source)} · {html.escape(period)} · tokens counted with "
        f"{html.escape(', '.join(report.tokenizers) or 'nothing')}</p>",
        "<div class=figures>",
        f"<div id=figure-saved><b>{t.tokens_saved:,}</b>tokens saved</div>",
        f"<div id=figure-used><b>{t.tokens_used:,}</b>tokens in answers</div>",
        f"<div id=figure-calls><b>{t.calls:,}</b>calls</div>",
        f"<div id=figure-hit-rate><b>{t.hit_rate:.0%}</b>hit rate</div>",
        "</div>",
        "<h2>Tokens saved per day</h2><svg id=chart-days width=760 height=240 role=img></svg>",
        "<h2>Per tool</h2><svg id=chart-tools width=760 height=240 role=img></svg>",
        _table(report.tools, "tool"),
        "<h2>Per session</h2>",
        _table(report.sessions, "session", times=True),
        "<h2>Per day</h2>",
        _table(report.days, "day"),
        "<h2>Files (by savings)</h2>",
        _table(report.files, "file"),
        "<h2>Symbols (by savings)</h2>",
        _table(report.symbols, "symbol"),
    ]
    if report.claude:
        parts.append("<h2>Claude Code sessions in the same period</h2><table><tr><th>session</th><th>project</th>")
        heads = ("messages", "input", "output", "cache write", "cache read")
        parts.append("<th>first</th><th>last</th>" + "".join(f"<th class=n>{h}</th>" for h in heads) + "</tr>")
        for c in report.claude:
            cells = (c.messages, c.input_tokens, c.output_tokens, c.cache_creation_input_tokens)
            parts.append(
                f"<tr><td>{html.escape(c.session_id)}</td><td>{html.escape(c.project)}</td>"
                f"<td>{html.escape(c.first)}</td><td>{html.escape(c.last)}</td>"
                + "".join(f"<td class=n>{v:,}</td>" for v in (*cells, c.cache_read_input_tokens))
                + "</tr>"
            )
        parts.append("</table>")
    parts += [f"<p class=note>{html.escape(n)}</p>" for n in report.notes]
    parts += [
        f"<script type=application/json id=report-data>{data}</script>",
        f"<script>{SCRIPT}</script></body></html>",
    ]
    return "\n".join(parts) + "\n"
