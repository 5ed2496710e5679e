"""Checks of the HTML report for report-html.sh (each asserts; a failed assertion exits non-zero):

  report-html.py static PAGE            the file as written: self-contained (no src=, no link but to #...,
                                        a Content-Security-Policy that forbids fetching), two scripts
  report-html.py page DOM SUMMARY BYRANK ANALYZE  the page as Chromium rendered it (--dump-dom): its
                                        script ran without error; every summary table (SUMMARY: summary
                                        --format json --top 100) is there with the same rows and numbers, the
                                        spread table too (BYRANK: summary --by rank --format json), and
                                        analyze's findings (ANALYZE: analyze --format json) in their order;
                                        the bar charts show the tables' first totals; the timeline, memory
                                        and rank charts agree
  report-html.py sorted DOM KEY COLUMN asc|desc  table KEY is sorted by COLUMN (the page's #sort= address)
  report-html.py errors DOM             the page's script caught an error and said so
  report-html.py hostile DOM            no name from the trace ran script (body data-pwned) and each shows
  report-html.py png FILE W H           a PNG of W x H pixels, not blank
  report-html.py streams PAGE N         the timeline of N streams of three spans (report-gen streams): 32
                                        rows, then one of the other streams' spans
"""
import json
import struct
import sys
import zlib
from html.parser import HTMLParser


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.attrs = {}     # tag -> attrs of its first element (html, body)
        self.tables = {}    # data-key -> {"kv": bool, "headers": [...], "rows": [[(text, data-v, attrs)]]}
        self.svgs = []      # {"attrs", "rects": [attrs], "gs": [attrs]}
        self.scripts = 0
        self.text = []
        self.errors_text = ''
        self._table = self._cell = self._svg = None
        self._in_errors = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.attrs.setdefault(tag, a)
        if tag == 'script':
            self.scripts += 1
        elif tag == 'pre' and a.get('id') == 'errors':
            self._in_errors = True
            self.errors_hidden = 'hidden' in a
        elif tag == 'table' and 'data-key' in a:
            self._table = {'kv': 'kv' in a.get('class', ''), 'headers': [], 'rows': []}
            self.tables[a['data-key']] = self._table
        elif self._table is not None and tag == 'tr':
            self._table['rows'].append([])
        elif self._table is not None and tag in ('th', 'td'):
            self._cell = [tag, '', a]
        elif tag == 'svg':
            self._svg = {'attrs': a, 'rects': [], 'gs': []}
            self.svgs.append(self._svg)
        elif self._svg is not None and tag in ('rect', 'g', 'circle'):
            self._svg['rects' if tag == 'rect' else 'gs'].append(a)

    def handle_endtag(self, tag):
        if tag == 'pre':
            self._in_errors = False
        elif tag in ('th', 'td') and self._cell is not None:
            kind, text, a = self._cell
            self._cell = None
            row = self._table['rows'][-1]
            if kind == 'th' and not self._table['kv']:
                self._table['headers'].append(text)
            else:
                row.append((text, a.get('data-v'), a))
        elif tag == 'table':
            self._table = None
        elif tag == 'svg':
            self._svg = None

    def handle_data(self, data):
        self.text.append(data)
        if self._cell is not None:
            self._cell[1] += data
        if self._in_errors:
            self.errors_text += data


def parse(path):
    p = Page()
    p.feed(open(path, encoding='utf-8').read())
    p.close()
    for t in p.tables.values():  # the header row of a sortable table opened a row of its own
        t['rows'] = [r for r in t['rows'] if r]
    return p


def same(cell, want, where):
    text, v, _ = cell
    if isinstance(want, (int, float)) and not isinstance(want, bool):
        assert v is not None and float(v) == float(want), (where, cell, want)
        assert text.replace(',', '') == v, (where, cell)  # shown: the same number, digits grouped
    else:
        assert text == want, (where, cell, want)


def check_table(p, key, rows):
    assert key in p.tables, ('table missing', key, sorted(p.tables))
    t = p.tables[key]
    assert len(t['rows']) == len(rows), (key, len(t['rows']), len(rows))
    if rows:
        assert t['headers'] == list(rows[0].keys()), (key, t['headers'], list(rows[0].keys()))
    for i, (got, want) in enumerate(zip(t['rows'], rows)):
        for j, (name, value) in enumerate(want.items()):
            same(got[j], value, (key, i, name))


def svg(p, cls, key=None):
    return [s for s in p.svgs if cls in s['attrs'].get('class', '').split() and
            (key is None or s['attrs'].get('data-key') == key)]


def page(dom, summary, byrank, analyze):
    p = parse(dom)
    assert p.attrs['body'].get('data-ok') == '1', p.attrs['body']
    assert 'data-errors' not in p.attrs['html'], (p.attrs['html'], p.errors_text)
    assert p.errors_hidden and not p.errors_text, p.errors_text
    s = json.load(open(summary))
    header = s.pop('header')
    kv = {r[0][0]: r[1] for r in [[c for c in row] for row in p.tables['header']['rows']]}
    for field, value in header.items():
        assert field in kv, ('header field missing', field)
        same(kv[field], value, ('header', field))
    assert len(kv) == len(header), (sorted(kv), sorted(header))
    for key, rows in s.items():
        check_table(p, key, rows)
    check_table(p, 'spread', json.load(open(byrank))['spread'])
    findings = json.load(open(analyze))['findings']
    assert findings, 'a trace with findings'
    rows = p.tables['findings']['rows']
    assert [r[0][0] for r in rows] == [f['rule'] for f in findings], (rows, findings)
    assert [int(r[2][1]) for r in rows] == [f['lost_ns'] for f in findings], (rows, findings)
    assert [r[1][0] for r in rows] == [f['where'] for f in findings], (rows, findings)
    assert len(s['gpu_kernels']) > 0 and len(s['nvtx']) > 0 and len(s['memory']) > 0, 'a trace of every part'

    # Bar charts: the first rows' totals, in order.
    for key in ('api', 'gpu_kernels', 'gpu_copies_time', 'nvtx'):
        rows = [r for r in s[key] if r[list(r)[1]] != ''][:12]
        bars = svg(p, 'bars', key)
        if not rows:
            assert not bars, key
            continue
        assert len(bars) == 1, (key, len(bars))
        got = [float(r['data-v']) for r in bars[0]['rects']]
        assert got == [float(r[list(r)[1]]) for r in rows], (key, got)

    # The timeline: a row per (process, device, stream), every span in one, their busy time the GPU tables'.
    tl = svg(p, 'timeline')
    assert len(tl) == 1
    tl = tl[0]
    streams = [g for g in tl['gs'] if g.get('class') == 'stream']
    assert int(tl['attrs']['data-streams']) == len(streams) > 0, tl['attrs']
    assert sum(int(g['data-spans']) for g in streams) == header['GPU spans'], streams
    busy = sum(float(g['data-busy']) for g in streams)
    gpu_total = sum(r[list(r)[1]] for k in ('gpu_kernels', 'gpu_copies_time') for r in s[k] if r[list(r)[1]] != '')
    assert busy == gpu_total, (busy, gpu_total)
    assert any('busy' in r.get('class', '') for r in tl['rects']), 'no busy span drawn'
    ranges = [r for r in tl['rects'] if r.get('class') == 'range']
    assert int(tl['attrs']['data-ranges']) == len(ranges) > 0, tl['attrs']
    instances = sum(r['Instances'] for r in s['nvtx'])
    assert len(ranges) + int(tl['attrs']['data-ranges-hidden']) == instances, (tl['attrs'], instances)

    # Device memory: the summary's peak, and the sites holding it add up to it.
    mem = svg(p, 'memory')
    assert len(mem) == 1
    total = [r for r in s['memory'] if r['Kind'] == 'total on device'][0]
    assert int(mem[0]['attrs']['data-peak']) == total['Peak Bytes'], (mem[0]['attrs'], total)
    assert int(mem[0]['attrs']['data-peak-time']) == total['Peak At (ns)'], (mem[0]['attrs'], total)
    sites = p.tables['peak_sites']['rows']
    assert sites and sum(int(r[0][1]) for r in sites) == total['Peak Bytes'], sites

    # Ranks: a bar per rank, their calls the header's.
    gpu, calls = svg(p, 'ranks', 'rank_gpu'), svg(p, 'ranks', 'rank_calls')
    assert len(gpu) == len(calls) == 1
    ranks = [int(r['data-rank']) for r in calls[0]['rects']]
    assert ranks == [int(x) for x in header['Ranks'].split(', ')], (ranks, header['Ranks'])
    assert sum(float(r['data-v']) for r in calls[0]['rects']) == header['Calls recorded'], calls[0]['rects']


def sorted_table(dom, key, column, order):
    p = parse(dom)
    assert p.attrs['body'].get('data-ok') == '1' and 'data-errors' not in p.attrs['html'], p.errors_text
    t = p.tables[key]
    col = t['headers'].index(column)
    vals = [float(r[col][1]) if r[col][1] is not None else r[col][0].lower() for r in t['rows']]
    assert len(vals) > 1, vals
    assert vals == sorted(vals, reverse=order == 'desc'), (column, order, vals)
    assert vals != sorted(vals, reverse=order != 'desc'), ('not a test of the order', vals)


def errors(dom):
    p = parse(dom)
    assert p.attrs['html'].get('data-errors') == '1', p.attrs['html']
    assert not p.errors_hidden and 'JavaScript error' in p.errors_text, p.errors_text


def hostile(dom):
    p = parse(dom)
    assert p.attrs['body'].get('data-ok') == '1' and 'data-errors' not in p.attrs['html'], p.errors_text
    assert 'data-pwned' not in p.attrs['body'], p.attrs['body']
    assert p.scripts == 2, p.scripts
    text = ''.join(p.text)
    for name in ('cuMemAlloc<script>document.body.dataset.pwned=1</script>',  # an API, in the api table
                 'step"><script>document.body.dataset.pwned=1</script>&lt;',  # an NVTX message
                 '</title></text><',  # a thread's name, cut to 16 characters in the timeline
                 'host\'"><img src=x onerror="document.body.dataset.pwned=1">'):
        assert name in text, name


class Resources(HTMLParser):
    """What a page would fetch: elements that load things, attributes that name a source, style that does."""
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found, self.scripts, self.style, self._in_style = [], 0, '', False

    def handle_starttag(self, tag, attrs):
        self.scripts += tag == 'script'
        self._in_style = tag == 'style'
        if tag in ('link', 'img', 'iframe', 'object', 'embed', 'audio', 'video', 'source', 'image', 'use'):
            self.found.append(tag)
        for name, value in attrs:
            if name in ('src', 'srcset', 'xlink:href', 'action', 'formaction', 'poster', 'background') or \
                    (name == 'href' and not (value or '').startswith('#')):
                self.found.append((tag, name, value))

    def handle_endtag(self, tag):
        self._in_style = False

    def handle_data(self, data):
        if self._in_style:
            self.style += data


def static(path):
    html = open(path, encoding='utf-8').read()
    assert html.startswith('<!DOCTYPE html>') and html.rstrip().endswith('</html>')
    assert "content=\"default-src 'none';" in html
    r = Resources()
    r.feed(html)
    r.close()
    assert r.scripts == 2, r.scripts
    assert not r.found, r.found
    assert 'url(' not in r.style and '@import' not in r.style and '@font-face' not in r.style, 'style fetches'


def png(path, width, height):
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
    w, h = struct.unpack('>II', data[16:24])
    assert (w, h) == (int(width), int(height)), (w, h)
    idat, i = b'', 8
    while i < len(data):
        n, kind = struct.unpack('>I4s', data[i:i + 8])
        if kind == b'IDAT':
            idat += data[i + 8:i + 8 + n]
        i += 12 + n
    pixels = zlib.decompress(idat)
    assert len(set(pixels)) > 32, 'a blank picture: %d distinct bytes' % len(set(pixels))


def streams(path, n):
    n = int(n)
    p = parse(path)
    tl = svg(p, 'timeline')[0]
    rows = [g for g in tl['gs'] if g.get('class') == 'stream']
    assert int(tl['attrs']['data-streams']) == len(rows) == 33, (tl['attrs'], len(rows))
    assert [g['data-stream'] for g in rows[:32]] == ['0x%x' % (0x100 + 0x10 * i) for i in range(32)], rows[:3]
    assert all(g['data-spans'] == '3' and g['data-busy'] == '1500' for g in rows[:32]), rows
    assert (rows[32]['data-device'], rows[32]['data-spans'], rows[32]['data-busy']) == \
        ('-2', str(3 * (n - 32)), str(1500 * (n - 32))), rows[32]
    busy = [r for r in tl['rects'] if 'busy' in r.get('class', '')]
    assert len(busy) <= 33 * 1000 and len(busy) >= 3 * 32, len(busy)


if __name__ == '__main__':
    {'page': page, 'streams': streams, 'sorted': sorted_table, 'errors': errors, 'hostile': hostile, 'static': static,
     'png': png}[sys.argv[1]](*sys.argv[2:])
