// The overview: what `leakfind report` shows first (suspects with their
// holders and paths, the dump's numbers, root kinds, top classes), each
// object a link into the explorer; for a series, the growth and its chart.
(function () {
  'use strict';
  var el = LF.el, td = LF.td, bytes = LF.bytes, count = LF.count;

  function section(main, title, id) {
    var s = el('section', { id: id });
    s.appendChild(el('h2', {}, title));
    main.appendChild(s);
    return s;
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
      LF.message(box, LFCommon.noSuspects(list, series));
      return;
    }
    list.items.forEach(function (x, k) {
      var d = el('details', { 'class': 'suspect', 'data-kind': x.kind, 'data-class': x['class'] || '' });
      if (k < 2) d.open = true;
      d.appendChild(el('summary', {}, LFCommon.suspectHeadline(x, list.heap)));
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
          (a['class'] ? '; it holds ' + LFCommon.pilesUp(a) + ', ' + bytes(a.bytes) : '')));
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
    LFCommon.infoRows(body, i);
    t.appendChild(body);
    box.appendChild(t);
  }
  function rootKinds(box, kinds, heap) {
    LFCommon.rootBars(box, kinds, heap, function (r) {
      return r.shared ? ', shared by kinds' : ', ' + LF.plural(r.roots, 'root');
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
    var legend = el('div', { 'class': 'legend' }), svg = LFCommon.chart(series, legend, 300);
    svg.setAttribute('id', 'chart');
    box.appendChild(svg);
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
