// leakfind report: draws the page from the JSON in #report-data. Everything
// is built with DOM calls and textContent (class names can contain anything).
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
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
  function bytes(n) {
    if (n === null || n === undefined) return '';
    var units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'], u = 0, v = n;
    while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
    return (u ? v.toFixed(1) : String(v)) + ' ' + units[u];
  }
  function count(n) { return Number(n).toLocaleString('en-US'); }
  function pct(part, whole) { return whole > 0 ? (100 * part / whole).toFixed(2) + '%' : ''; }
  function td(text, cls) { return el('td', cls ? { 'class': cls } : {}, text); }

  // ---- header and the dump's numbers (what `info` shows)
  document.getElementById('snapshots').textContent = data.snapshots.join('  \u2192  ');
  (function info() {
    var i = data.info, body = document.querySelector('#info tbody');
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
  })();

  // ---- the dominator tree as an icicle
  var ROW = ['parent', 'label', 'field', 'shallow', 'retained', 'id', 'more', 'value', 'members', 'cls'];
  var nodes = data.tree.rows.map(function (r, i) {
    var n = { index: i, kids: [] };
    ROW.forEach(function (k, j) { n[k] = r[j]; });
    return n;
  });
  nodes.forEach(function (n) { if (n.parent >= 0) nodes[n.parent].kids.push(n); });
  nodes.forEach(function (n) { n.kids.sort(function (a, b) { return b.retained - a.retained || a.index - b.index; }); });
  var heap = nodes.length ? nodes[0].retained : 0;
  var LEVELS = 8, ROW_HEIGHT = 22, MIN_WIDTH = 3;

  function title(n) {
    var t = n.label + (n.field ? '  [' + n.field + ']' : '') + (n.value != null ? '\n= ' + n.value : '') +
      '\nretained ' + bytes(n.retained) +
      ' (' + pct(n.retained, heap) + ' of the heap)';
    if (n.shallow !== null) t += ', shallow ' + bytes(n.shallow);
    if (n.id) t += '\nid ' + n.id;
    return t;
  }
  function hue(label) {
    var h = 0;
    for (var i = 0; i < label.length; i++) h = (h * 31 + label.charCodeAt(i)) % 360;
    return 'hsl(' + h + ',55%,78%)';
  }
  // A box of one class's objects ("3,000 x Session": what a collection
  // holds, or children left out) is coloured as its class; the rest grey.
  function cell(box, n, x, w, depth) {
    var c = el('div', { 'class': 'cell' + (n.cls ? ' group' : n.more ? ' more' : ''), 'data-index': n.index,
      'data-depth': depth, 'data-label': n.label, 'data-field': n.field, 'data-retained': n.retained, title: title(n) });
    c.style.left = x + 'px';
    c.style.top = depth * ROW_HEIGHT + 'px';
    c.style.width = w + 'px';
    if (!n.more || n.cls) c.style.background = hue(n.cls || n.label);
    c.appendChild(document.createTextNode(n.label));
    if (n.field) c.appendChild(el('span', { 'class': 'field' }, n.field));
    if (n.value != null) c.appendChild(el('span', { 'class': 'value' }, n.value));
    box.appendChild(c);
  }
  // Children narrower than MIN_WIDTH pixels are drawn as one hatched box.
  function small(box, rest, x, w, depth) {
    var c = el('div', { 'class': 'cell small', 'data-depth': depth, title: count(rest) + ' smaller objects' });
    c.style.left = x + 'px';
    c.style.top = depth * ROW_HEIGHT + 'px';
    c.style.width = w + 'px';
    box.appendChild(c);
  }
  var zoomed = 0;
  function render(index) {
    zoomed = index;
    var box = document.getElementById('icicle');
    box.textContent = '';
    var width = box.clientWidth || 1000, deepest = 0;
    var stack = [{ n: nodes[index], x: 0, w: width, depth: 0 }];
    while (stack.length) {
      var it = stack.pop();
      cell(box, it.n, it.x, it.w, it.depth);
      deepest = Math.max(deepest, it.depth);
      if (it.depth + 1 >= LEVELS || it.n.retained <= 0) continue;
      var x = it.x;
      for (var k = 0; k < it.n.kids.length; k++) {
        var kid = it.n.kids[k], w = it.w * kid.retained / it.n.retained;
        if (w < MIN_WIDTH) {
          var rest = it.n.kids.slice(k).reduce(function (s, q) { return s + q.retained; }, 0);
          var rw = it.w * rest / it.n.retained;
          if (rw >= 1) small(box, it.n.kids.length - k, x, rw, it.depth + 1);
          break;
        }
        stack.push({ n: kid, x: x, w: w, depth: it.depth + 1 });
        x += w;
      }
    }
    box.style.height = (deepest + 1) * ROW_HEIGHT + 'px';
    crumbs(index);
    children(index);
  }
  function crumbs(index) {
    var nav = document.getElementById('crumbs'), path = [];
    for (var i = index; i >= 0; i = nodes[i].parent) path.unshift(nodes[i]);
    nav.textContent = '';
    path.forEach(function (n, k) {
      if (k) nav.appendChild(el('span', { 'class': 'sep' }, '\u203a'));
      var c = el('span', { 'class': 'crumb', 'data-index': n.index }, n.label + (n.field ? ' (' + n.field + ')' : ''));
      c.addEventListener('click', function () { render(n.index); });
      nav.appendChild(c);
    });
  }
  // a top level of thousands of owners would push the rest of the page
  // away: the first rows, and the rest on request (at most 200)
  function children(index, limit) {
    var n = nodes[index], body = document.querySelector('#children tbody');
    limit = limit || 25;
    var total = n.kids.reduce(function (s, k) { return s + (k.more || 1); }, 0);
    // a collection's members are held through its entries and buckets
    document.getElementById('zoom-how').textContent = n.members ? 'In the collection' : 'Held directly by';
    document.getElementById('zoom-name').textContent = n.label + (n.field ? ' (' + n.field + ')' : '');
    document.getElementById('zoom-count').textContent = count(total) + (total === 1 ? ' object' : ' objects');
    document.getElementById('children').setAttribute('data-children', total);
    body.textContent = '';
    n.kids.slice(0, limit).forEach(function (k) {
      var tr = el('tr', { 'data-index': k.index });
      tr.appendChild(td(k.label + (k.value != null ? ' = ' + k.value : ''), 'name'));
      tr.appendChild(td(k.field, 'name'));
      tr.appendChild(td(bytes(k.retained), 'num'));
      tr.appendChild(td(pct(k.retained, n.retained), 'num'));
      if (!k.more) tr.addEventListener('click', function () { render(k.index); });
      body.appendChild(tr);
    });
    if (n.kids.length > limit) {
      var more = body.appendChild(el('tr', { 'class': 'more-rows' }, ''));
      more.appendChild(td('\u2026 ' + (n.kids.length - limit) + ' more rows' + (limit < 200 ? ' (click to show up to 200)' : '')));
      if (limit < 200) more.addEventListener('click', function () { children(index, 200); });
    }
  }
  document.getElementById('icicle').addEventListener('click', function (e) {
    var c = e.target.closest('.cell');
    if (!c || c.classList.contains('more') || c.classList.contains('group') || c.classList.contains('small')) return;
    var i = Number(c.getAttribute('data-index'));
    render(i === zoomed && nodes[i].parent >= 0 ? nodes[i].parent : i);
  });
  if (nodes.length) render(0);
  window.addEventListener('resize', function () { render(zoomed); });

  // ---- classes, sortable
  (function classes() {
    var rows = data.classes.rows.slice(), table = document.getElementById('classes');
    var body = table.querySelector('tbody'), key = 3, desc = true;
    function draw() {
      rows.sort(function (a, b) {
        var x = a[key], y = b[key], c = key === 0 ? (x < y ? -1 : x > y ? 1 : 0) : x - y;
        return desc ? -c : c;
      });
      body.textContent = '';
      rows.forEach(function (r) {
        var tr = el('tr');
        tr.appendChild(td(r[0], 'name'));
        tr.appendChild(td(count(r[1]), 'num'));
        tr.appendChild(td(bytes(r[2]), 'num'));
        tr.appendChild(td(bytes(r[3]), 'num'));
        tr.setAttribute('data-values', JSON.stringify(r.slice(1)));
        body.appendChild(tr);
      });
      table.querySelectorAll('th[data-col]').forEach(function (th) {
        th.className = (th.getAttribute('data-col') === '0' ? '' : 'num ') +
          (Number(th.getAttribute('data-col')) === key ? (desc ? 'sorted-desc' : 'sorted-asc') : '');
      });
    }
    table.querySelectorAll('th[data-col]').forEach(function (th) {
      th.addEventListener('click', function () {
        var k = Number(th.getAttribute('data-col'));
        desc = k === key ? !desc : k !== 0;
        key = k;
        draw();
      });
    });
    draw();
    if (data.classes.total > rows.length)
      document.getElementById('classes-note').textContent = 'The ' + rows.length + ' classes retaining the most of ' +
        count(data.classes.total) + '.';
  })();

  // ---- root kinds as bars: what each kind keeps alive as a whole (its
  // roots' shared memory included), beside the sum over its roots alone
  (function roots() {
    var box = document.getElementById('roots'), max = 0;
    data.rootKinds.forEach(function (r) { max = Math.max(max, r.only); });
    data.rootKinds.forEach(function (r) {
      var row = el('div', { 'class': 'bar-row', 'data-kind': r.kind, 'data-only': r.only, 'data-retained': r.retained });
      row.appendChild(el('div', { 'class': 'bar-label', title: r.kind }, r.kind));
      var track = el('div', { 'class': 'bar-track' }), bar = el('div', { 'class': 'bar' });
      bar.style.width = (max > 0 ? 100 * r.only / max : 0) + '%';
      track.appendChild(bar);
      row.appendChild(track);
      row.appendChild(el('div', { 'class': 'bar-value' }, bytes(r.only) + ' (' + pct(r.only, heap) + ')' +
        (r.shared ? ', reached by roots of two or more kinds' :
          ', ' + count(r.roots) + ' roots; ' + bytes(r.retained) + ' summed over the roots alone')));
      box.appendChild(row);
    });
  })();

  // ---- duplicate strings: a row per text, most wasted first
  (function strings() {
    if (!data.strings || !data.strings.length) return;
    document.getElementById('strings-section').hidden = false;
    var body = document.querySelector('#strings tbody');
    data.strings.forEach(function (g) {
      var tr = el('tr', { 'data-copies': g.copies, 'data-wasted': g.wasted });
      tr.appendChild(el('td', { 'class': 'num' }, count(g.copies)));
      tr.appendChild(el('td', { 'class': 'num' }, bytes(g.wasted)));
      tr.appendChild(el('td', { 'class': 'num' }, bytes(g.bytes)));
      tr.appendChild(el('td', {}, g.owner));
      tr.appendChild(el('td', { 'class': 'text' }, g.text));
      body.appendChild(tr);
    });
  })();

  // ---- memory evolution: one line per class, one point per snapshot
  function chart(series) {
    var W = 820, H = 320, L = 80, R = 20, T = 16, B = 40;
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
    var legend = document.getElementById('legend');
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
      var item = el('div', { 'class': 'legend-item' }), sw = el('span', { 'class': 'swatch' });
      sw.style.background = color;
      item.appendChild(sw);
      item.appendChild(document.createTextNode(c.name));
      legend.appendChild(item);
    });
    document.getElementById('chart').appendChild(root);
  }
  function growth(rows) {
    var body = document.querySelector('#growth tbody');
    rows.forEach(function (r) {
      var tr = el('tr');
      tr.appendChild(td(r[0], 'name'));
      tr.appendChild(td(r[1].join(', '), 'num'));
      tr.appendChild(td(r[2] === null ? '' : r[2].toFixed(2), 'num'));
      tr.appendChild(td(r[3] === null ? '' : r[3].toFixed(3), 'num'));
      tr.appendChild(td(r[4], r[4] === 'grows' ? 'verdict-grows' : ''));
      tr.appendChild(td(r[5], 'name'));
      tr.appendChild(td(r[6] ? r[6].join(', ') : '', 'num'));
      body.appendChild(tr);
    });
  }
  // ---- leak suspects: each finding, expandable to its path from a GC root
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
  function suspects(list) {
    var box = document.getElementById('suspects'), byId = {};
    nodes.forEach(function (n) { if (n.id) byId[n.id] = n.index; });
    if (!list.items.length) {
      box.appendChild(el('p', { 'class': 'note' }, 'No object or class retains ' +
        (100 * list.threshold).toFixed(0) + '% of the heap or more' + (data.series ? ', and nothing grows with the workload.' : '.')));
      return;
    }
    list.items.forEach(function (x, k) {
      var d = el('details', { 'class': 'suspect', 'data-kind': x.kind, 'data-class': x['class'] || '' });
      if (k === 0) d.open = true;
      var who = x.object ? x.object.label + ' ' + (x.object.id || '') : 'the GC roots';
      var head;
      if (x.kind === 'growth') {
        head = growthHeadline(x, who);
      } else {
        head = (x.kind === 'class' ? count(x.instances) + ' instances of ' + (x['class'] || '?') + ' retain ' : who + ' retains ') +
          bytes(x.retained) + ' (' + pct(x.retained, list.heap) + ' of the heap)';
      }
      d.appendChild(el('summary', {}, head));
      var a = x.accumulation;
      if (a) {
        var p = el('p', { 'class': 'accumulation', 'data-class': a['class'] || '', 'data-count': a.count, 'data-bytes': a.bytes },
          'Accumulation point: ' + a.point.label + ' ' + (a.point.id || '') +
          ' (retains ' + bytes(a.point.retained) + ')' + (a['class'] ? '; it holds ' + count(a.count) + ' ' + a['class'] +
          ', ' + bytes(a.bytes) : ''));
        if (a.point.id in byId) {
          var go = el('a', { href: '#tree-section', 'class': 'show' }, 'show in the tree');
          go.addEventListener('click', function () { render(byId[a.point.id]); });
          p.appendChild(document.createTextNode(' \u00b7 '));
          p.appendChild(go);
        }
        d.appendChild(p);
      }
      if (x.path) {
        var ol = el('ol', { 'class': 'path' });
        x.path.forEach(function (h) {
          ol.appendChild(el('li', {}, h[2] === null ? h[0] : (h[3] ? h[3] + ' \u2192 ' : '') + h[0] + ' ' +
            (h[1] || '') + ' (retains ' + bytes(h[2]) + ')'));
        });
        d.appendChild(el('div', { 'class': 'note' }, 'Shortest path from a GC root:'));
        d.appendChild(ol);
      }
      box.appendChild(d);
    });
  }
  if (data.suspects) {
    document.getElementById('suspects-section').hidden = false;
    suspects(data.suspects);
  }
  if (data.series) {
    document.getElementById('evolution-section').hidden = false;
    chart(data.series);
    if (data.series.growth) {
      document.getElementById('growth-section').hidden = false;
      growth(data.series.growth);
    }
  }
})();
