// common.js - what leakfind report's page and leakfind serve's page draw
// alike, in one place: the Makefile puts this file first in each page's one
// inline script (before report/report.js; before serve/js/*.js). Numbers
// as the CLI writes them, the dump's numbers, root kinds as bars, the chart
// of live bytes per class, a leak suspect's headline. Everything is built
// with DOM calls and textContent (class names can contain anything).
var LFCommon = (function () {
  'use strict';
  var SVG = 'http://www.w3.org/2000/svg';
  var COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function svg(tag, attrs) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  }
  // Numbers as the CLI prints them: bytes in KiB/MiB with one decimal,
  // counts with thousands separators.
  function bytes(n) {
    if (n === null || n === undefined) return '';
    var units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'], u = 0, v = n;
    while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
    return (u ? oneDecimal(v) : String(v)) + ' ' + units[u];
  }
  // One decimal as C's printf("%.1f") gives it (the CLI's): a tie goes to
  // the even digit (6.25 KiB is "6.2"), where toFixed would round it up.
  // v is bytes / 1024^u, exact in binary, and so is v * 10.
  function oneDecimal(v) {
    var t = v * 10, f = Math.floor(t), d = t - f;
    if (d > 0.5 || (d === 0.5 && f % 2 === 1)) f++;
    return (f / 10).toFixed(1);
  }
  function count(n) { return n === null || n === undefined ? '' : Number(n).toLocaleString('en-US'); }
  function pct(part, whole) { return whole > 0 ? (100 * part / whole).toFixed(2) + '%' : ''; }
  function td(text, cls) { return el('td', cls ? { 'class': cls } : {}, text); }

  // The dump's numbers (what `info` shows), a row each into tbody.
  function infoRows(body, i) {
    var rows = [['format', i.format], ['objects', count(i.objects)], ['references', count(i.references)],
      ['roots', count(i.roots)], ['classes', count(i.classes)], ['shallow bytes', bytes(i.shallowBytes)],
      ['reachable objects', count(i.reachableObjects)], ['reachable bytes', bytes(i.reachableBytes)],
      ['unreachable objects', count(i.unreachableObjects)], ['unreachable bytes', bytes(i.unreachableBytes)]];
    i.unreachableClasses.forEach(function (c, k) {
      rows.push(['unreachable class ' + (k + 1), count(c.count) + ' objects, ' + bytes(c.bytes) + ': ' + c['class']]);
    });
    rows.forEach(function (r) {
      var tr = el('tr');
      tr.appendChild(el('th', {}, r[0]));
      tr.appendChild(td(r[1], 'name'));
      body.appendChild(tr);
    });
  }

  // Root kinds as bars: what each kind keeps alive as a whole (its roots'
  // shared memory included), its share of heap, then detail(kind)'s words.
  function rootBars(box, kinds, heap, detail) {
    var max = 0;
    kinds.forEach(function (r) { max = Math.max(max, r.only); });
    kinds.forEach(function (r) {
      var row = el('div', { 'class': 'bar-row', 'data-kind': r.kind, 'data-only': r.only, 'data-retained': r.retained });
      row.appendChild(el('div', { 'class': 'bar-label', title: r.kind }, r.kind));
      var track = el('div', { 'class': 'bar-track' }), bar = el('div', { 'class': 'bar' });
      bar.style.width = (max > 0 ? 100 * r.only / max : 0) + '%';
      track.appendChild(bar);
      row.appendChild(track);
      row.appendChild(el('div', { 'class': 'bar-value' }, bytes(r.only) + ' (' + pct(r.only, heap) + ')' + detail(r)));
      box.appendChild(row);
    });
  }

  // An SVG line chart of live bytes per class, one point per snapshot,
  // against the workload, height pixels high; each class's colour and
  // name go into legend as a .legend-item.
  function chart(series, legend, height) {
    var W = 820, H = height, L = 80, R = 20, T = 16, B = 40;
    var xs = series.workload, xmin = Math.min.apply(null, xs), xmax = Math.max.apply(null, xs), ymax = 0;
    series.classes.forEach(function (c) { c.bytes.forEach(function (b) { ymax = Math.max(ymax, b); }); });
    if (xmax === xmin) xmax = xmin + 1;
    if (ymax === 0) ymax = 1;
    function px(x) { return L + (W - L - R) * (x - xmin) / (xmax - xmin); }
    function py(y) { return H - B - (H - T - B) * y / ymax; }
    var root = svg('svg', { width: W, height: H, viewBox: '0 0 ' + W + ' ' + H });
    var axis = svg('g', { 'class': 'axis' });
    axis.appendChild(svg('line', { x1: L, y1: H - B, x2: W - R, y2: H - B }));
    axis.appendChild(svg('line', { x1: L, y1: T, x2: L, y2: H - B }));
    for (var t = 0; t <= 4; t++) {
      var yv = ymax * t / 4, label = svg('text', { x: L - 6, y: py(yv) + 4, 'text-anchor': 'end' });
      label.textContent = bytes(Math.round(yv));
      axis.appendChild(label);
      axis.appendChild(svg('line', { x1: L - 3, y1: py(yv), x2: L, y2: py(yv) }));
    }
    xs.forEach(function (x) {
      var label = svg('text', { x: px(x), y: H - B + 16, 'text-anchor': 'middle' });
      label.textContent = String(x);
      axis.appendChild(label);
    });
    var name = svg('text', { x: (L + W - R) / 2, y: H - 6, 'text-anchor': 'middle' });
    name.textContent = 'workload';
    axis.appendChild(name);
    root.appendChild(axis);
    series.classes.forEach(function (c, k) {
      var color = COLORS[k % COLORS.length], g = svg('g', { 'class': 'series', 'data-name': c.name });
      var points = c.bytes.map(function (b, i) { return px(xs[i]) + ',' + py(b); }).join(' ');
      g.appendChild(svg('polyline', { points: points, fill: 'none', stroke: color, 'stroke-width': 2 }));
      c.bytes.forEach(function (b, i) {
        var dot = svg('circle', { 'class': 'point', cx: px(xs[i]), cy: py(b), r: 3.5, fill: color });
        var tip = svg('title');
        tip.textContent = c.name + ': ' + bytes(b) + ' at ' + xs[i];
        dot.appendChild(tip);
        g.appendChild(dot);
      });
      root.appendChild(g);
      var item = el('span', { 'class': 'legend-item' }), sw = el('span', { 'class': 'swatch' });
      sw.style.background = color;
      item.appendChild(sw);
      item.appendChild(document.createTextNode(c.name));
      legend.appendChild(item);
    });
    return root;
  }

  // ---- a leak suspect's headline
  function rate(r) { return r === null || r === undefined ? '?' : '+' + r.toFixed(2); }
  // a few bytes per unit are whole bytes; more read as KiB, MiB
  function bytesPerUnit(b) { return bytes(b < 1024 ? Math.round(b) : b); }
  // What leaks first: the finding's first class (its order puts the class
  // that leaks before what it holds), its rate and the bytes of everything
  // the finding grows by, per unit of workload, and where it is held; then
  // the other classes.
  function growthHeadline(x, who) {
    var lead = x.grows.length ? x.grows[0] : { 'class': x['class'], rate: x.rate };
    var rest = x.grows.slice(1).map(function (g) { return g['class'] + ' ' + rate(g.rate); });
    var held = x.heldBy === 'finaliser' ? ', held only by Gc.finalise registrations' : '';
    var perUnit = x.bytesRate === null || x.bytesRate === undefined ? '' :
      ' (' + bytesPerUnit(x.bytesRate) + ' per unit' + (rest.length ? ' in all' : '') + ')';
    return lead['class'] + ' ' + rate(lead.rate) + ' per unit of workload' + perUnit + ' in ' + (x.holder || who) + held +
      (rest.length ? '; with it ' + rest.join(', ') : '') + ' (objects ' + x.counts.map(count).join(', ') + ')';
  }
  // What finding x of a suspects list (heap: its heap's bytes) says first.
  function suspectHeadline(x, heap) {
    var who = x.object ? x.object.label + ' ' + (x.object.id || '') : 'the GC roots';
    if (x.kind === 'growth') return growthHeadline(x, who);
    return (x.kind === 'class' ? count(x.instances) + ' instances of ' + (x['class'] || '?') + ' retain ' : who + ' retains ') +
      bytes(x.retained) + ' (' + pct(x.retained, heap) + ' of the heap)';
  }
  // What piles up at an accumulation point a: "300 entries -> Session", "300
  // elements -> A and 2 other classes" (a list of mixed classes), "600 Recent".
  function pilesUp(a) {
    var others = a.others ? ' and ' + a.others + ' other class' + (a.others > 1 ? 'es' : '') : '';
    return count(a.count) + (a.entries ? ' entries \u2192 ' : a.elements && others ? ' elements \u2192 ' : ' ') +
      a['class'] + others;
  }
  // What an empty suspects list says (series: the snapshots are a series).
  function noSuspects(list, series) {
    return 'No object or class retains ' + (100 * (list ? list.threshold : 0.1)).toFixed(0) + '% of the heap or more' +
      (list && list.aside ? ' (' + list.aside + ', aside)' : '') +
      (series ? ', and nothing grows with the workload.' : '.');
  }

  return { el: el, svg: svg, bytes: bytes, count: count, pct: pct, td: td, infoRows: infoRows, rootBars: rootBars,
    chart: chart, suspectHeadline: suspectHeadline, pilesUp: pilesUp, noSuspects: noSuspects };
})();
