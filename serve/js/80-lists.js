// Duplicate strings (`leakfind strings`) and threads (`leakfind threads`):
// a table each, paged where the server pages.
(function () {
  'use strict';
  var el = LF.el, td = LF.td, bytes = LF.bytes, count = LF.count;

  LF.views.strings = function (route, main, gen) {
    var snap = route.snap;
    main.appendChild(el('h2', {}, 'Duplicate strings (most wasted first)'));
    var table = el('table', { 'class': 'data', id: 'strings' }), thead = el('thead'), tbody = el('tbody');
    LF.sortHeader(thead, [{ title: 'copies', num: 1 }, { title: 'wasted', num: 1 }, { title: 'all copies', num: 1 },
      { title: 'one of them' }, { title: 'text' }]);
    table.appendChild(thead);
    table.appendChild(tbody);
    var shown = 0;
    function page() {
      LF.api('strings', { snap: snap, from: shown, count: 100 }).then(function (r) {
        if (!LF.current(gen)) return;
        if (r.status !== 200) { LF.failed(main, r, 'strings'); return; }
        if (!table.parentNode) main.appendChild(table);
        r.data.rows.forEach(function (s) {
          var tr = el('tr'), id = td('', 'name');
          tr.appendChild(td(count(s.count), 'num'));
          tr.appendChild(td(bytes(s.wasted), 'num'));
          tr.appendChild(td(bytes(s.bytes), 'num'));
          if (s.id) id.appendChild(LF.link(['object', snap, s.id], s.id));
          tr.appendChild(id);
          tr.appendChild(td(s.text, 'text'));
          tbody.appendChild(tr);
        });
        shown += r.data.rows.length;
        if (!r.data.total) LF.message(main, 'No text is held by two string objects or more.');
        LF.moreRow(tbody, 5, shown, r.data.total, page);
      });
    }
    page();
  };

  LF.views.threads = function (route, main, gen) {
    var snap = route.snap;
    LF.api('threads', { snap: snap }).then(function (r) {
      if (!LF.current(gen)) return;
      if (r.status !== 200) { LF.failed(main, r, 'threads'); return; }
      main.appendChild(el('h2', {}, 'Threads (' + count(r.data.rows.length) + ')'));
      if (!r.data.rows.length) LF.message(main, 'This snapshot records no threads.');
      r.data.rows.forEach(function (t) {
        var d = el('details', { 'class': 'thread', 'data-id': t.id });
        var s = el('summary');
        if (t.id) s.appendChild(LF.link(['object', snap, t.id], String(t.id)));
        s.appendChild(document.createTextNode(' ' + (t.name || '(unnamed)') + ': retains ' + bytes(t.retained) +
          ', ' + LF.plural(t.frames.length, 'frame')));
        d.appendChild(s);
        var ol = el('ol', { 'class': 'frames' });
        t.frames.forEach(function (f) {
          ol.appendChild(el('li', {}, f['function'] + (f.file ? ' (' + f.file + (f.line ? ':' + f.line : '') + ')' : '')));
        });
        d.appendChild(ol);
        main.appendChild(d);
      });
    });
  };
})();
