// One object: its header, `inspect`'s rows by section, its referrers
// (paged), its shortest path(s) to the GC roots and where it was allocated.
(function () {
  'use strict';
  var el = LF.el, td = LF.td, bytes = LF.bytes, count = LF.count;
  var SECTIONS = { field: 'Fields', 'static': 'Static fields', element: 'Elements', context: 'Context',
    entry: 'Entries', collection: 'Collection members', edge: 'References' };

  function section(main, title, id) {
    var s = el('section', { id: id });
    s.appendChild(el('h2', {}, title));
    main.appendChild(s);
    return s;
  }
  function header(box, snap, d) {
    var o = d.object, t = el('table', { 'class': 'data', id: 'object-head' }), body = el('tbody');
    var head = d.rows.filter(function (r) { return r.section === 'object'; })[0] || {};
    var dom = d.rows.filter(function (r) { return r.section === 'dominator'; })[0];
    t.setAttribute('data-shallow', o.shallow);
    t.setAttribute('data-retained', o.retained);
    function row(k, v) {
      var tr = el('tr', { 'data-key': k }), c = td('', 'name');
      tr.appendChild(el('th', {}, k));
      if (typeof v === 'string') c.textContent = v; else c.appendChild(v);
      tr.appendChild(c);
      body.appendChild(tr);
    }
    row('id', o.id);
    row('class', o.label + (head.kind ? ' (' + head.kind + ')' : ''));
    if (head.location || o.place) row('defined at', head.location || o.place);
    if (o.preview !== undefined && o.preview !== null) row('value', '"' + o.preview + '"');
    row('shallow', bytes(o.shallow));
    // an unreachable object has no place in the dominator tree: it retains nothing
    if (d.reachable) row('retained', bytes(o.retained) + ' (' + LF.pct(o.retained, LF.snapshots[snap].reachable) + ' of the reachable heap)');
    if (d.root) row('GC root', d.root);
    if (dom) row('immediate dominator', dom.id ? LF.objectCell(snap, { id: dom.id, label: dom['class'] }) : dom.kind || '');
    var links = el('span');
    if (d.reachable) {
      links.appendChild(LF.link(['tree', snap, o.id], 'in the dominator tree (' + (o.children === 1 ? '1 child' : count(o.children) + ' children') + ')'));
      links.appendChild(document.createTextNode(' \u00b7 '));
    }
    links.appendChild(LF.link(['class', snap, o.cls], 'all instances of ' + o.label));
    row('see', links);
    if (!d.reachable) row('reachable', 'no: no strong path from a GC root reaches it (garbage at the next GC)');
    t.appendChild(body);
    box.appendChild(t);
  }
  function inspectRows(main, snap, d) {
    var notes = d.rows.filter(function (r) { return r.section === 'note'; });
    if (!d.fieldNames) LF.message(main, 'This format names no fields: the references below are unnamed.', 'note field-names');
    notes.forEach(function (r) { LF.message(main, r.value, 'note'); });
    var order = [], groups = {};
    d.rows.forEach(function (r) {
      if (r.section === 'object' || r.section === 'dominator' || r.section === 'note') return;
      if (!groups[r.section]) { groups[r.section] = []; order.push(r.section); }
      groups[r.section].push(r);
    });
    order.forEach(function (name) {
      var s = section(main, (SECTIONS[name] || name) + ' (' + count(groups[name].length) + ')', 'section-' + name);
      var t = el('table', { 'class': 'data inspect', 'data-section': name }), thead = el('thead'), body = el('tbody');
      LF.sortHeader(thead, [{ title: 'name' }, { title: 'kind' }, { title: 'value or object' }, { title: 'shallow', num: 1 },
        { title: 'retained', num: 1 }]);
      groups[name].forEach(function (r) {
        var tr = el('tr', { 'data-name': r.name === null ? '' : r.name, 'data-id': r.id || '' });
        if (r.id) { tr.setAttribute('data-shallow', r.shallow); tr.setAttribute('data-retained', r.retained); }
        tr.appendChild(td(r.name !== null ? r.name : r.index !== null ? '[' + r.index + ']' : '', 'name field'));
        tr.appendChild(td(r.kind || '', 'kind'));
        var v = td('', 'name ref');
        if (r.id) v.appendChild(LF.objectCell(snap, { id: r.id, label: r['class'], place: r.location }));
        if (r.value !== null) v.appendChild(el('span', { 'class': 'value' }, (r.id ? ' = ' : '') + r.value));
        tr.appendChild(v);
        tr.appendChild(td(bytes(r.shallow), 'num'));
        tr.appendChild(td(bytes(r.retained), 'num'));
        body.appendChild(tr);
      });
      t.appendChild(thead);
      t.appendChild(body);
      s.appendChild(t);
    });
  }
  function referrers(box, snap, id, gen) {
    var t = el('table', { 'class': 'data', id: 'referrers' }), thead = el('thead'), body = el('tbody');
    LF.sortHeader(thead, [{ title: 'held by' }, { title: 'through' }, { title: 'retained', num: 1 }]);
    t.appendChild(thead);
    t.appendChild(body);
    box.appendChild(t);
    var shown = 0;
    function page() {
      LF.api('referrers', { snap: snap, id: id, from: shown, count: 100 }).then(function (r) {
        if (!LF.current(gen)) return;
        if (r.status !== 200) { LF.failed(box, r, 'referrers'); return; }
        if (!r.data.total) LF.message(box, 'No object refers to it (a GC root holds it).');
        r.data.rows.forEach(function (x) {
          var tr = el('tr', { 'data-id': x.object.id }), c = td('', 'name');
          c.appendChild(LF.objectCell(snap, x.object));
          tr.appendChild(c);
          tr.appendChild(td((x.field || '') + (x.weak ? ' (weak)' : ''), 'name field'));
          tr.appendChild(td(bytes(x.object.retained), 'num'));
          body.appendChild(tr);
        });
        shown += r.data.rows.length;
        LF.moreRow(body, 3, shown, r.data.total, page);
      });
    }
    page();
  }
  // One path as a list: the root first, then each hop's field and object. A
  // long one comes with its middle left out ({elided: N}): the numbers go
  // on after it as they would have.
  function pathList(snap, hops) {
    var ol = el('ol', { 'class': 'path' }), number = 0;
    hops.forEach(function (h) {
      if (h.elided) {
        ol.appendChild(el('li', { 'class': 'elided' }, '\u2026 ' + LF.count(h.elided) + ' more hops \u2026'));
        number += h.elided;
        return;
      }
      var li = el('li', { 'data-id': h.object.id, value: ++number });
      var how = h.root !== undefined ? h.root : (h.field === '' ? '(unnamed reference)' : h.field) + (h.weak ? ' (weak)' : '');
      li.appendChild(el('span', { 'class': h.root !== undefined ? 'root' : 'field' }, how));
      li.appendChild(document.createTextNode(' \u2192 '));
      li.appendChild(LF.objectCell(snap, h.object));
      li.appendChild(el('span', { 'class': 'note' }, ' retains ' + bytes(h.object.retained)));
      ol.appendChild(li);
    });
    return ol;
  }
  function paths(box, route, id, gen) {
    var snap = route.snap, strongOnly = route.query.get('weak') !== '1', all = route.query.get('all') === '1';
    var bar = el('div', { 'class': 'toolbar' });
    var w = el('input', { type: 'checkbox', id: 'exclude-weak' }), a = el('input', { type: 'checkbox', id: 'all-paths' });
    w.checked = strongOnly;
    a.checked = all;
    var lw = el('label'), la = el('label');
    lw.appendChild(w);
    lw.appendChild(document.createTextNode(' exclude weak/soft references '));
    la.appendChild(a);
    la.appendChild(document.createTextNode(' all paths (up to 10 disjoint)'));
    bar.appendChild(lw);
    bar.appendChild(la);
    box.appendChild(bar);
    w.addEventListener('change', function () { LF.setQuery(route, { weak: w.checked ? '' : '1' }); });
    a.addEventListener('change', function () { LF.setQuery(route, { all: a.checked ? '1' : '' }); });
    var out = el('div', { id: 'paths' });
    box.appendChild(out);
    LF.api('paths', { snap: snap, id: id, weak: strongOnly ? null : 1, all: all ? 1 : null }).then(function (r) {
      if (!LF.current(gen)) return;
      if (r.status !== 200) { LF.failed(out, r, 'paths'); return; }
      var d = r.data;
      (d.strong || []).forEach(function (p, k) {
        if (d.strong.length > 1) out.appendChild(el('h3', {}, 'Path ' + (k + 1)));
        out.appendChild(pathList(snap, p));
      });
      if ((!d.strong || !d.strong.length) && d.weakOnly && d.weakOnly.length) {
        LF.message(out, 'No strong path: it is held only through weak references (untick "exclude weak/soft" to follow them), this way:', 'note weak-only');
        // weakOnly is a list of paths, like strong
        (Array.isArray(d.weakOnly[0]) ? d.weakOnly : [d.weakOnly]).forEach(function (p) { out.appendChild(pathList(snap, p)); });
      } else if (!d.strong || !d.strong.length) LF.message(out, 'No path from a GC root.');
    });
  }
  function site(box, frames) {
    var ol = el('ol', { 'class': 'frames', id: 'site' });
    frames.forEach(function (f) {
      // a frame without a file (caml_program, native code) is its name alone
      ol.appendChild(el('li', {}, f['function'] + (f.file ? ' (' + f.file + (f.line ? ':' + f.line : '') + (f.column ? ':' + f.column : '') + ')' : '')));
    });
    box.appendChild(ol);
  }

  LF.views.object = function (route, main, gen) {
    var snap = route.snap, id = route.args[0];
    LF.api('object', { snap: snap, id: id }).then(function (r) {
      if (!LF.current(gen)) return;
      if (r.status !== 200) { LF.failed(main, r, 'object ' + id); return; }
      var d = r.data;
      main.appendChild(el('h2', { id: 'object-title' }, d.object.label + ' ' + d.object.id));
      var cols = el('div', { 'class': 'columns' });
      main.appendChild(cols);
      var left = el('div'), right = el('div');
      cols.appendChild(left);
      cols.appendChild(right);
      header(left, snap, d);
      var p = section(right, 'Shortest path from the GC roots', 'path-section');
      paths(p, route, id, gen);
      if (d.site) site(section(main, 'Allocated at', 'site-section'), d.site);
      inspectRows(main, snap, d);
      referrers(section(main, 'Referrers', 'referrers-section'), snap, id, gen);
    });
  };
})();
