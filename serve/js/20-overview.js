// The overview: what `leakfind report` shows first (suspects with their
// holders and paths, the dump's numbers, root kinds, top classes), each
// object a link into the explorer; for a series, the growth and its chart.
(function () {
  'use strict';
  var el = LF.el, td = LF.td, bytes = LF.bytes, count = LF.count, pct = LF.pct;
  var COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];

  function section(main, title, id) {
    var s = el('section', { id: id });
    s.appendChild(el('h2', {}, title));
    main.appendChild(s);
    return s;
  }
  function rate(r) { return r === null || r === undefined ? '?' : '+' + r.toFixed(2); }
  // as the report: the finding's first class, its rate and bytes per unit
  function growthHeadline(x, who) {
    var lead = x.grows.length ? x.grows[0] : { 'class': x['class'], rate: x.rate };
    var rest = x.grows.slice(1).map(function (g) { return g['class'] + ' ' + rate(g.rate); });
    var held = x.heldBy === 'finaliser' ? ', held only by Gc.finalise registrations' : '';
    var perUnit = x.bytesRate === null || x.bytesRate === undefined ? '' :
      ' (' + bytes(x.bytesRate < 1024 ? Math.round(x.bytesRate) : x.bytesRate) + ' per unit' + (rest.length ? ' in all' : '') + ')';
    return lead['class'] + ' ' + rate(lead.rate) + ' per unit of workload' + perUnit + ' in ' + (x.holder || who) + held +
      (rest.length ? '; with it ' + rest.join(', ') : '') + ' (objects ' + x.counts.map(count).join(', ') + ')';
  }
  // A suspect's object: links to the object view and to the tree at it.
  function objectLinks(snap, o) {
    var span = el('span', { 'class': 'links' });
    span.appendChild(LF.link(['object', snap, o.id], o.label + ' ' + o.id, null, 'object-link'));
    span.appendChild(document.createTextNode(' \u00b7 '));
    span.appendChild(LF.link(['tree', snap, o.id], 'in the tree', null, 'tree-link'));
    return span;
  }
  function suspects(box, snap, list, series) {
    if (!list || !list.items.length) {
      LF.message(box, 'No object or class retains ' + (100 * (list ? list.threshold : 0.1)).toFixed(0) +
        '% of the heap or more' + (series ? ', and nothing grows with the workload.' : '.'));
      return;
    }
    list.items.forEach(function (x, k) {
      var d = el('details', { 'class': 'suspect', 'data-kind': x.kind, 'data-class': x['class'] || '' });
      if (k < 2) d.open = true;
      var who = x.object ? x.object.label + ' ' + (x.object.id || '') : 'the GC roots';
      var head = x.kind === 'growth' ? growthHeadline(x, who) :
        (x.kind === 'class' ? count(x.instances) + ' instances of ' + (x['class'] || '?') + ' retain ' : who + ' retains ') +
        bytes(x.retained) + ' (' + pct(x.retained, list.heap) + ' of the heap)';
      d.appendChild(el('summary', {}, head));
      if (x.object && x.object.id) {
        // a growth's object holds what grows; an object suspect is itself
        // the object; a class suspect names its largest instance
        var p0 = el('p', {}, x.kind === 'growth' ? 'Held by ' : x.kind === 'class' ? 'Its largest instance: ' : 'The object: ');
        p0.appendChild(objectLinks(snap, x.object));
        d.appendChild(p0);
      }
      var a = x.accumulation;
      if (a) {
        var p = el('p', { 'class': 'accumulation' }, 'Accumulation point: ');
        if (a.point.id) p.appendChild(objectLinks(snap, a.point)); else p.appendChild(document.createTextNode(a.point.label));
        p.appendChild(document.createTextNode(' (retains ' + bytes(a.point.retained) + ')' +
          (a['class'] ? '; it holds ' + count(a.count) + ' ' + a['class'] + ', ' + bytes(a.bytes) : '')));
        d.appendChild(p);
      }
      if (x.path) {
        d.appendChild(el('div', { 'class': 'note' }, 'Shortest path from a GC root:'));
        var ol = el('ol', { 'class': 'path' });
        x.path.forEach(function (h) {
          var li = el('li');
          if (h[3]) li.appendChild(el('span', { 'class': 'field' }, h[3] + ' \u2192 '));
          if (h[1]) li.appendChild(LF.link(['object', snap, h[1]], h[0] + ' ' + h[1]));
          else li.appendChild(document.createTextNode(h[0]));
          if (h[2] !== null) li.appendChild(document.createTextNode(' (retains ' + bytes(h[2]) + ')'));
          ol.appendChild(li);
        });
        d.appendChild(ol);
      }
      box.appendChild(d);
    });
  }
  function info(box, i) {
    var t = el('table', { 'class': 'data', id: 'info' }), body = el('tbody');
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
    t.appendChild(body);
    box.appendChild(t);
  }
  function rootKinds(box, kinds, heap) {
    var max = 0;
    kinds.forEach(function (r) { max = Math.max(max, r.only); });
    kinds.forEach(function (r) {
      var row = el('div', { 'class': 'bar-row', 'data-kind': r.kind });
      row.appendChild(el('div', { 'class': 'bar-label', title: r.kind }, r.kind));
      var track = el('div', { 'class': 'bar-track' }), bar = el('div', { 'class': 'bar' });
      bar.style.width = (max > 0 ? 100 * r.only / max : 0) + '%';
      track.appendChild(bar);
      row.appendChild(track);
      row.appendChild(el('div', { 'class': 'bar-value' }, bytes(r.only) + ' (' + pct(r.only, heap) + ')' +
        (r.shared ? ', shared by kinds' : ', ' + LF.plural(r.roots, 'root'))));
      box.appendChild(row);
    });
  }
  function topClasses(box, snap, classes) {
    var t = el('table', { 'class': 'data', id: 'top-classes' }), head = el('thead'), body = el('tbody');
    LF.sortHeader(head, [{ title: 'class' }, { title: 'count', num: 1 }, { title: 'shallow', num: 1 }, { title: 'retained', num: 1 }]);
    classes.rows.forEach(function (r) {
      var tr = el('tr'), c = td('', 'name');
      c.appendChild(LF.link(['classes', snap], r[0], { filter: r[0] }));
      tr.appendChild(c);
      tr.appendChild(td(count(r[1]), 'num'));
      tr.appendChild(td(bytes(r[2]), 'num'));
      tr.appendChild(td(bytes(r[3]), 'num'));
      body.appendChild(tr);
    });
    t.appendChild(head);
    t.appendChild(body);
    box.appendChild(t);
    box.appendChild(el('p', { 'class': 'note' }, 'The ' + classes.rows.length + ' classes retaining the most of ' +
      count(classes.total) + '; all of them in Classes.'));
  }

  // An SVG line chart of live bytes per class over the snapshots.
  LF.chart = function (box, series) {
    var W = 820, H = 300, L = 80, R = 20, T = 16, B = 40;
    var xs = series.workload, xmin = Math.min.apply(null, xs), xmax = Math.max.apply(null, xs), ymax = 0;
    series.classes.forEach(function (c) { c.bytes.forEach(function (b) { ymax = Math.max(ymax, b); }); });
    if (xmax === xmin) xmax = xmin + 1;
    if (ymax === 0) ymax = 1;
    function px(x) { return L + (W - L - R) * (x - xmin) / (xmax - xmin); }
    function py(y) { return H - B - (H - T - B) * y / ymax; }
    var root = LF.svg('svg', { width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, id: 'chart' });
    var axis = LF.svg('g', { 'class': 'axis' });
    axis.appendChild(LF.svg('line', { x1: L, y1: H - B, x2: W - R, y2: H - B }));
    axis.appendChild(LF.svg('line', { x1: L, y1: T, x2: L, y2: H - B }));
    for (var t = 0; t <= 4; t++) {
      var yv = ymax * t / 4, label = LF.svg('text', { x: L - 6, y: py(yv) + 4, 'text-anchor': 'end' });
      label.textContent = bytes(Math.round(yv));
      axis.appendChild(label);
    }
    xs.forEach(function (x) {
      var label = LF.svg('text', { x: px(x), y: H - B + 16, 'text-anchor': 'middle' });
      label.textContent = String(x);
      axis.appendChild(label);
    });
    var name = LF.svg('text', { x: (L + W - R) / 2, y: H - 6, 'text-anchor': 'middle' });
    name.textContent = 'workload';
    axis.appendChild(name);
    root.appendChild(axis);
    var legend = el('div', { 'class': 'legend' });
    series.classes.forEach(function (c, k) {
      var color = COLORS[k % COLORS.length], g = LF.svg('g', { 'class': 'series', 'data-name': c.name });
      g.appendChild(LF.svg('polyline', { points: c.bytes.map(function (b, i) { return px(xs[i]) + ',' + py(b); }).join(' '),
        fill: 'none', stroke: color, 'stroke-width': 2 }));
      c.bytes.forEach(function (b, i) {
        var dot = LF.svg('circle', { cx: px(xs[i]), cy: py(b), r: 3.5, fill: color }), tip = LF.svg('title');
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
    box.appendChild(root);
    box.appendChild(legend);
  };
  // The growth findings of a series: class, counts, slope, fit, holder.
  LF.growthTable = function (box, snap, rows) {
    var t = el('table', { 'class': 'data', id: 'growth' }), head = el('thead'), body = el('tbody');
    LF.sortHeader(head, [{ title: 'class' }, { title: 'counts' }, { title: 'slope', num: 1 }, { title: 'r2', num: 1 },
      { title: 'verdict' }, { title: 'holder' }]);
    rows.forEach(function (r) {
      var tr = el('tr', { 'data-class': r[0], 'data-verdict': r[4] }), c = td('', 'name');
      c.appendChild(LF.link(['classes', snap], r[0], { filter: r[0] }));
      tr.appendChild(c);
      tr.appendChild(td(r[1].map(count).join(', '), 'num'));
      tr.appendChild(td(r[2] === null ? '' : r[2].toFixed(2), 'num'));
      tr.appendChild(td(r[3] === null ? '' : r[3].toFixed(3), 'num'));
      tr.appendChild(td(r[4], r[4] === 'grows' ? 'verdict-grows' : ''));
      tr.appendChild(td(r[5], 'name holder'));
      body.appendChild(tr);
    });
    t.appendChild(head);
    t.appendChild(body);
    box.appendChild(t);
  };

  LF.views.overview = function (route, main, gen) {
    LF.overview(route.snap).then(function (r) {
      if (!LF.current(gen)) return;
      if (r.status !== 200) { LF.failed(main, r, 'overview'); return; }
      var d = r.data, snap = route.snap, heap = d.info.reachableBytes;
      suspects(section(main, 'Leak suspects', 'suspects'), snap, d.suspects, d.series);
      if (d.series) {
        var s = section(main, 'Memory over the snapshots', 'evolution');
        LF.chart(s, d.series);
        if (d.series.growth && d.series.growth.length) {
          s.appendChild(el('h3', {}, 'What grows with the workload'));
          LF.growthTable(s, snap, d.series.growth);
        }
      }
      var cols = el('div', { 'class': 'columns' });
      main.appendChild(cols);
      info(section(cols, 'The snapshot', 'info-section'), d.info);
      var rk = section(cols, 'Root kinds', 'roots');
      rootKinds(rk, d.rootKinds, heap);
      topClasses(section(main, 'Top classes', 'classes-section'), snap, d.classes);
    });
  };
})();
