// Query (`leakfind query`, OQL-like): a text box, the result as a table
// whose object ids link to the object view; an error shows the query with
// a caret under the byte the server names.
(function () {
  'use strict';
  var el = LF.el, td = LF.td, count = LF.count;
  var ID = /^(0x[0-9a-f]+|@\d+)$/i;

  // The character offset of a UTF-8 byte offset in text.
  function charAt(text, at) {
    var bytes = 0;
    for (var i = 0; i < text.length; i++) {
      if (bytes >= at) return i;
      var c = text.codePointAt(i);
      bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
      if (c >= 0x10000) i++;
    }
    return text.length;
  }

  LF.views.query = function (route, main, gen) {
    var snap = route.snap, q = route.query.get('q') || '';
    var box = el('textarea', { id: 'query-text', rows: 3, cols: 100, spellcheck: 'false',
      placeholder: 'select * from com.acme.Listener where @retained > 1K order by @retained desc limit 100' });
    box.value = q;
    var run = el('button', { id: 'query-run' }, 'Run (Ctrl+Enter)');
    function submit() { LF.setQuery(route, { q: box.value }); }
    run.addEventListener('click', submit);
    box.addEventListener('keydown', function (e) { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); submit(); } });
    main.appendChild(box);
    main.appendChild(el('br'));
    main.appendChild(run);
    var out = el('div', { id: 'query-out' });
    main.appendChild(out);
    if (!q) return;
    var table = el('table', { 'class': 'data', id: 'query-result' }), thead = el('thead'), tbody = el('tbody');
    var shown = 0;
    function page() {
      LF.api('query', { snap: snap, q: q, from: shown, count: 100 }).then(function (r) {
        if (!LF.current(gen)) return;
        if (r.status === 400 && r.data && typeof r.data.at === 'number') {
          var pre = el('pre', { 'class': 'query-error' }), at = charAt(q, r.data.at);
          var line = q.slice(0, at).lastIndexOf('\n') + 1, end = q.indexOf('\n', at);
          pre.textContent = q.slice(line, end < 0 ? q.length : end) + '\n' + ' '.repeat(at - line) + '^ ' + r.data.error;
          out.appendChild(pre);
          return;
        }
        if (r.status !== 200) { LF.failed(out, r, 'query'); return; }
        var d = r.data;
        if (!shown) {
          LF.sortHeader(thead, d.columns.map(function (c) { return { title: c }; }));
          table.appendChild(thead);
          table.appendChild(tbody);
          out.appendChild(el('p', { 'class': 'note', id: 'query-total' }, LF.plural(d.total, 'row')));
          // what the CLI says on stderr: a text no object has, a value not kept
          (d.notes || []).forEach(function (n) { out.appendChild(el('p', { 'class': 'note query-note' }, n)); });
          out.appendChild(table);
        }
        d.rows.forEach(function (row) {
          var tr = el('tr');
          row.forEach(function (v, k) {
            var c = td('', typeof v === 'number' ? 'num' : 'name');
            if (typeof v === 'string' && (d.columns[k] === 'id' || ID.test(v))) c.appendChild(LF.link(['object', snap, v], v));
            else c.textContent = v === null ? '' : typeof v === 'number' ? count(v) : String(v);
            tr.appendChild(c);
          });
          tbody.appendChild(tr);
        });
        shown += d.rows.length;
        LF.moreRow(tbody, d.columns.length, shown, d.total, page);
      });
    }
    page();
  };
})();
