// Classes: the histogram (filter, sortable columns, paged); one class: its
// instances, largest retained first, each a link to the object view.
(function () {
  'use strict';
  var el = LF.el, td = LF.td, bytes = LF.bytes, count = LF.count;
  var PAGE = 100;

  LF.views.openClass = function (snap, cls) { location.hash = LF.href(['class', snap, cls]); };

  LF.views.classes = function (route, main, gen) {
    var snap = route.snap, sort = route.query.get('sort') || 'retained', filter = route.query.get('filter') || '';
    var bar = el('div', { 'class': 'toolbar' });
    var input = el('input', { type: 'search', id: 'class-filter', placeholder: 'filter: part of a class name', value: filter });
    input.addEventListener('change', function () { LF.setQuery(route, { filter: input.value }); });
    bar.appendChild(input);
    var note = el('span', { 'class': 'note', id: 'class-total' });
    bar.appendChild(note);
    main.appendChild(bar);
    var table = el('table', { 'class': 'data', id: 'classes' }), thead = el('thead'), tbody = el('tbody');
    LF.sortHeader(thead, [{ title: 'class', sort: 'class' }, { title: 'count', num: 1, sort: 'count' },
      { title: 'shallow', num: 1, sort: 'shallow' }, { title: 'retained', num: 1, sort: 'retained' }, { title: 'loader', sort: 'loader' }],
    sort, function (k) { LF.setQuery(route, { sort: k }); });
    table.appendChild(thead);
    table.appendChild(tbody);
    main.appendChild(table);
    var shown = 0;
    function page() {
      // the server sorts by retained, shallow, count or class; by loader
      // the page sorts each page it gets (by class name on the server)
      var serverSort = sort === 'loader' ? 'class' : sort;
      LF.api('classes', { snap: snap, from: shown, count: PAGE, sort: serverSort, filter: filter }).then(function (r) {
        if (!LF.current(gen)) return;
        if (r.status !== 200) { LF.failed(main, r, 'classes'); return; }
        var rows = r.data.rows.slice();
        if (sort === 'loader') rows.sort(function (a, b) { return (a.loader || '') < (b.loader || '') ? -1 : (a.loader || '') > (b.loader || '') ? 1 : 0; });
        rows.forEach(function (c) {
          var tr = el('tr', { 'data-cls': c.cls, 'data-label': c.label, 'data-count': c.count, 'data-retained': c.retained });
          var name = td('', 'name');
          name.appendChild(LF.link(['class', snap, c.cls], c.label));
          tr.appendChild(name);
          tr.appendChild(td(count(c.count), 'num'));
          tr.appendChild(td(bytes(c.shallow), 'num'));
          tr.appendChild(td(bytes(c.retained), 'num'));
          tr.appendChild(td(c.loader || '', 'name loader'));
          tbody.appendChild(tr);
        });
        shown += rows.length;
        note.textContent = ' ' + LF.plural(r.data.total, 'class') + (filter ? ' matching "' + filter + '"' : '') +
          '; reachable ' + bytes(r.data.reachable);
        LF.moreRow(tbody, 5, shown, r.data.total, page);
      });
    }
    page();
  };

  LF.views['class'] = function (route, main, gen) {
    var snap = route.snap, cls = route.args[0];
    var h = el('h2', { id: 'class-title' }, 'Class ' + cls);
    main.appendChild(h);
    var table = el('table', { 'class': 'data', id: 'instances' }), thead = el('thead'), tbody = el('tbody');
    LF.sortHeader(thead, [{ title: 'instance' }, { title: 'shallow', num: 1 }, { title: 'retained', num: 1 }, { title: '' }]);
    table.appendChild(thead);
    table.appendChild(tbody);
    main.appendChild(table);
    var shown = 0;
    function page() {
      LF.api('instances', { snap: snap, cls: cls, from: shown, count: PAGE }).then(function (r) {
        if (!LF.current(gen)) return;
        if (r.status !== 200) { LF.failed(main, r, 'instances'); return; }
        var c = r.data['class'];
        h.textContent = c.label + ': ' + count(c.count) + ' instances, shallow ' + bytes(c.shallow) + ', retained ' + bytes(c.retained);
        r.data.rows.forEach(function (x) {
          var tr = el('tr', { 'data-id': x.object.id }), name = td('', 'name');
          name.appendChild(LF.objectCell(snap, x.object));
          tr.appendChild(name);
          tr.appendChild(td(bytes(x.object.shallow), 'num'));
          tr.appendChild(td(bytes(x.object.retained), 'num'));
          tr.appendChild(td(x.reachable ? '' : 'unreachable', 'note'));
          tbody.appendChild(tr);
        });
        shown += r.data.rows.length;
        LF.moreRow(tbody, 4, shown, r.data.total, page);
      });
    }
    page();
  };
})();
