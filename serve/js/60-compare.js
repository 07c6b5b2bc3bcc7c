// Compare two snapshots (`leakfind diff`): /api/compare's rows by class or
// owner; for a series, also what grows over all of them (the overview's
// growth findings and chart), which needs no /api/compare.
(function () {
  'use strict';
  var el = LF.el, td = LF.td, bytes = LF.bytes, count = LF.count;

  function delta(v, f) { var d = v[1] - v[0]; return (d > 0 ? '+' : d < 0 ? '\u2212' : '') + f(Math.abs(d)); }

  LF.views.compare = function (route, main, gen) {
    var n = LF.snapshots.length;
    if (n < 2) { LF.message(main, 'Compare needs two snapshots or more: leakfind serve OLD.hprof NEW.hprof.'); return; }
    // #/compare/A/B: snapshot A against B; #/compare/B (the nav's link):
    // the one before B against B
    var a = route.args[0] !== undefined ? route.snap : Math.max(0, route.snap - 1);
    var b = route.args[0] !== undefined ? Math.min(Number(route.args[0]) || 0, n - 1) : route.snap;
    if (a === b) a = b > 0 ? b - 1 : 1;
    var by = route.query.get('by') || 'class', sort = route.query.get('sort') || 'bytes', filter = route.query.get('filter') || '';

    var growth = el('section', { id: 'compare-growth' });
    main.appendChild(growth);
    LF.overview(n - 1).then(function (r) {
      if (!LF.current(gen) || r.status !== 200 || !r.data.series) return;
      growth.appendChild(el('h2', {}, 'What grows over the ' + n + ' snapshots'));
      if (r.data.series.growth && r.data.series.growth.length) LF.growthTable(growth, b, r.data.series.growth);
      else LF.message(growth, 'Nothing grows with the workload.');
      LF.chart(growth, r.data.series);
    });

    var s = el('section', { id: 'compare-pair' });
    main.appendChild(s);
    s.appendChild(el('h2', {}, 'Snapshot ' + a + ' against ' + b));
    var bar = el('div', { 'class': 'toolbar' });
    function pick(value, onPick) {
      var sel = el('select');
      LF.snapshots.forEach(function (x) {
        var o = el('option', { value: x.index }, x.index + ': ' + x.path.replace(/^.*\//, ''));
        if (x.index === value) o.selected = true;
        sel.appendChild(o);
      });
      sel.addEventListener('change', function () { onPick(Number(sel.value)); });
      return sel;
    }
    function go(na, nb, q) {
      var query = { by: by, sort: sort, filter: filter };
      for (var k in q || {}) query[k] = q[k];
      location.hash = LF.href(['compare', na, nb], query);
    }
    bar.appendChild(pick(a, function (v) { go(v, b); }));
    bar.appendChild(document.createTextNode(' \u2192 '));
    bar.appendChild(pick(b, function (v) { go(a, v); }));
    var bySel = el('select', { id: 'compare-by' });
    ['class', 'owner'].forEach(function (k) {
      var o = el('option', { value: k }, 'by ' + k);
      if (k === by) o.selected = true;
      bySel.appendChild(o);
    });
    bySel.addEventListener('change', function () { go(a, b, { by: bySel.value }); });
    bar.appendChild(bySel);
    var input = el('input', { type: 'search', placeholder: 'filter', value: filter });
    input.addEventListener('change', function () { go(a, b, { filter: input.value }); });
    bar.appendChild(input);
    s.appendChild(bar);
    var table = el('table', { 'class': 'data', id: 'compare' }), thead = el('thead'), tbody = el('tbody');
    LF.sortHeader(thead, [{ title: by }, { title: 'count', num: 1, sort: 'count' }, { title: '\u0394 count', num: 1 },
      { title: 'shallow', num: 1, sort: 'bytes' }, { title: '\u0394 shallow', num: 1 }, { title: 'retained', num: 1 }, { title: '\u0394 retained', num: 1 }],
    sort, function (k) { go(a, b, { sort: k }); });
    table.appendChild(thead);
    table.appendChild(tbody);
    var shown = 0;
    function page() {
      LF.api('compare', { a: a, b: b, by: by, from: shown, count: 100, sort: sort, filter: filter }).then(function (r) {
        if (!LF.current(gen)) return;
        if (r.status !== 200) { LF.failed(s, r, 'compare'); return; }
        if (!table.parentNode) s.appendChild(table);
        r.data.rows.forEach(function (x) {
          var tr = el('tr', { 'data-label': x.label }), c = td('', 'name');
          if (x.cls !== null && x.cls !== undefined) c.appendChild(LF.link(['class', b, x.cls], x.label));
          else c.textContent = x.label;
          tr.appendChild(c);
          tr.appendChild(td(count(x.count[1]), 'num'));
          tr.appendChild(td(delta(x.count, count), 'num delta'));
          tr.appendChild(td(bytes(x.shallow[1]), 'num'));
          tr.appendChild(td(delta(x.shallow, bytes), 'num delta'));
          tr.appendChild(td(bytes(x.retained[1]), 'num'));
          tr.appendChild(td(delta(x.retained, bytes), 'num delta'));
          tbody.appendChild(tr);
        });
        shown += r.data.rows.length;
        LF.moreRow(tbody, 7, shown, r.data.total, page);
      });
    }
    page();
  };
})();
