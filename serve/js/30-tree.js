// The dominator tree, expanded lazily: each node's children are fetched
// from /api/children a page at a time ("show N more"), optionally grouped
// by class (a group row expands to that class's children, cls=N). The
// visible rows are redrawn from the model after every change: a few hundred
// rows at most, and one code path for the keyboard and the mouse.
(function () {
  'use strict';
  var el = LF.el, td = LF.td, bytes = LF.bytes, count = LF.count;
  var PAGE = 50;

  LF.views.tree = function (route, main, gen) {
    var snap = route.snap, top = route.args[0] || 'root';
    var sort = route.query.get('sort') || 'retained', filter = route.query.get('filter') || '';
    var reachable = LF.snapshots[snap].reachable;
    var state = { rows: [], sel: 0 };

    var bar = el('div', { 'class': 'toolbar' });
    var input = el('input', { type: 'search', id: 'tree-filter', placeholder: 'filter by class (/)', value: filter });
    input.addEventListener('change', function () { LF.setQuery(route, { filter: input.value }); });
    bar.appendChild(input);
    var groupTop = el('label', {}, ' ');
    var groupBox = el('input', { type: 'checkbox', id: 'tree-group' });
    groupTop.appendChild(groupBox);
    groupTop.appendChild(document.createTextNode(' group the top by class'));
    bar.appendChild(groupTop);
    if (top !== 'root') bar.appendChild(LF.link(['tree', snap], 'back to the GC roots', { sort: sort, filter: filter }));
    bar.appendChild(el('span', { 'class': 'note' }, ' keys: \u2191 \u2193 move, \u2192 expand, \u2190 collapse, Enter opens, / filter'));
    main.appendChild(bar);
    var table = el('table', { 'class': 'data tree', id: 'tree', tabindex: 0 }), thead = el('thead'), tbody = el('tbody');
    LF.sortHeader(thead, [{ title: 'object', sort: 'class' }, { title: 'field or root' }, { title: 'shallow', num: 1, sort: 'shallow' },
      { title: 'retained', num: 1, sort: 'retained' }, { title: '% reachable', num: 1 }, { title: '' }], sort,
    function (k) { LF.setQuery(route, { sort: k }); });
    table.appendChild(thead);
    table.appendChild(tbody);
    main.appendChild(table);

    // A node of the model: an object, a class group or a "more" row.
    function objNode(o, field, depth) { return { kind: 'obj', obj: o, field: field, depth: depth, open: false, kids: null }; }

    // Fetches a page of node's children (from its kids.length) and appends.
    function load(node) {
      // the filter narrows the top level only: below it, a match's own
      // children are shown whatever their class
      var params = { snap: snap, count: PAGE, sort: sort, filter: node.depth === (top === 'root' ? -1 : 0) && node.kind === 'obj' ? filter : null };
      if (node.kind === 'group') { params.id = node.parentId; params.cls = node.cls; }
      else params.id = node.obj ? node.obj.id : 'root';
      if (node.group) params.group = 'class';
      params.from = node.kids ? node.kids.filter(function (k) { return k.kind !== 'more'; }).length : 0;
      node.loading = true;
      return LF.api('children', params).then(function (r) {
        node.loading = false;
        if (!LF.current(gen)) return;
        if (r.status !== 200) { node.error = r.data.error || 'HTTP ' + r.status; draw(); return; }
        var d = r.data, kids = (node.kids || []).filter(function (k) { return k.kind !== 'more'; });
        if (d.collection) node.collection = d.collection;
        if (d.groups) d.groups.forEach(function (g) {
          kids.push({ kind: 'group', parentId: params.id, cls: g.cls, label: g.label, n: g.count, shallow: g.shallow,
            retained: g.retained, depth: node.depth + 1, open: false, kids: null });
        });
        if (d.rows) d.rows.forEach(function (x) { kids.push(objNode(x.object, x.field !== undefined ? x.field : x.root, node.depth + 1)); });
        if (kids.length < d.total) kids.push({ kind: 'more', node: node, left: d.total - kids.length, depth: node.depth + 1 });
        node.kids = kids;
        node.total = d.total;
        if (!d.total && params.filter) node.error = 'no object here has a class matching "' + filter + '"';
        draw();
      });
    }
    function expand(node) {
      if (node.kind === 'more') { load(node.node); return; }
      if (node.kind === 'obj' && !node.obj.children && node.obj.id !== 'root') return;
      node.open = true;
      if (!node.kids) load(node); else draw();
    }
    function collapse(node) { node.open = false; draw(); }
    function toggleGroup(node) { node.group = !node.group; node.kids = null; node.open = true; load(node); }

    function visible() {
      var out = [];
      function walk(n) {
        out.push(n);
        if (n.open && n.kids) n.kids.forEach(walk);
      }
      state.roots.forEach(walk);
      return out;
    }
    function labelCell(n) {
      var c = td('', 'name');
      c.style.paddingLeft = (4 + 16 * n.depth) + 'px';
      var can = n.kind === 'group' || (n.kind === 'obj' && n.obj.children > 0);
      var tw = el('span', { 'class': 'twisty' }, can ? (n.open ? '\u25be' : '\u25b8') : '\u00a0');
      if (can) tw.addEventListener('click', function (e) { e.stopPropagation(); if (n.open) collapse(n); else expand(n); });
      c.appendChild(tw);
      if (n.kind === 'obj') c.appendChild(LF.objectCell(snap, n.obj));
      else c.appendChild(el('span', { 'class': 'group-label' }, count(n.n) + ' \u00d7 ' + n.label));
      return c;
    }
    function row(n, i) {
      var tr = el('tr', { 'data-kind': n.kind, 'data-depth': n.depth });
      if (i === state.sel) tr.className = 'selected';
      if (n.kind === 'more') {
        tr.className += ' more-rows';
        var c = td('\u2026 show ' + count(Math.min(PAGE, n.left)) + ' more (' + count(n.left) + ' not shown)');
        c.colSpan = 6;
        c.style.paddingLeft = (20 + 16 * n.depth) + 'px';
        tr.appendChild(c);
        tr.addEventListener('click', function () { state.sel = i; load(n.node); });
        return tr;
      }
      tr.appendChild(labelCell(n));
      if (n.kind === 'obj') {
        tr.setAttribute('data-id', n.obj.id);
        tr.setAttribute('data-label', n.obj.label);
        tr.appendChild(td(n.field, 'name field'));
        tr.appendChild(td(bytes(n.obj.shallow), 'num'));
        tr.appendChild(td(bytes(n.obj.retained), 'num'));
        tr.appendChild(td(LF.pct(n.obj.retained, reachable), 'num'));
      } else {
        tr.setAttribute('data-cls', n.cls);
        tr.setAttribute('data-label', n.label);
        tr.setAttribute('data-count', n.n);
        tr.setAttribute('data-retained', n.retained);
        tr.appendChild(td('by class', 'name field'));
        tr.appendChild(td(bytes(n.shallow), 'num'));
        tr.appendChild(td(bytes(n.retained), 'num'));
        tr.appendChild(td(LF.pct(n.retained, reachable), 'num'));
      }
      var act = td('', 'actions');
      if (n.kind === 'obj' && n.obj.children > 1) {
        var g = el('button', { 'class': 'group-toggle', title: 'group this node\'s children by class' }, n.group ? 'ungroup' : 'by class');
        g.addEventListener('click', function (e) { e.stopPropagation(); state.sel = i; toggleGroup(n); });
        act.appendChild(g);
      }
      tr.appendChild(act);
      tr.addEventListener('click', function () { state.sel = i; draw(); });
      tr.addEventListener('dblclick', function () { if (n.open) collapse(n); else expand(n); });
      return tr;
    }
    // Under an expanded collection: how many members, and what it is made of.
    function collectionRow(n) {
      var tr = el('tr', { 'class': 'collection' });
      var parts = n.collection.structure.map(function (s) { return count(s.count) + ' ' + s.label + ' (' + bytes(s.shallow) + ')'; });
      var c = td(count(n.collection.members) + ' members' + (parts.length ? '; its structure: ' + parts.join(', ') : ''), 'note');
      c.colSpan = 6;
      c.style.paddingLeft = (24 + 16 * n.depth) + 'px';
      tr.appendChild(c);
      return tr;
    }
    function draw() {
      state.rows = visible();
      if (state.sel >= state.rows.length) state.sel = state.rows.length - 1;
      LF.clear(tbody);
      if (top === 'root' && rootNode.error) {
        var tr = el('tr', { 'class': 'tree-error' }), c = td(rootNode.error, 'error');
        c.colSpan = 6;
        tr.appendChild(c);
        tbody.appendChild(tr);
      }
      state.rows.forEach(function (n, i) {
        tbody.appendChild(row(n, i));
        if (n.open && n.collection && n.kind === 'obj') tbody.appendChild(collectionRow(n));
        if (n.error) {
          var tr = el('tr'), c = td(n.error, 'error');
          c.colSpan = 6;
          tr.appendChild(c);
          tbody.appendChild(tr);
        }
      });
      var s = tbody.querySelector('tr.selected');
      if (s && s.scrollIntoView && document.activeElement === table) s.scrollIntoView({ block: 'nearest' });
    }

    table.addEventListener('keydown', function (e) {
      var n = state.rows[state.sel];
      if (e.key === 'ArrowDown') state.sel = Math.min(state.sel + 1, state.rows.length - 1);
      else if (e.key === 'ArrowUp') state.sel = Math.max(state.sel - 1, 0);
      else if (e.key === 'ArrowRight' && n) { if (n.kind === 'more') load(n.node); else expand(n); }
      else if (e.key === 'ArrowLeft' && n) {
        if (n.open) { collapse(n); return; }
        for (var i = state.sel - 1; i >= 0; i--) if (state.rows[i].depth < n.depth) { state.sel = i; break; }
      } else if (e.key === 'Enter' && n) {
        if (n.kind === 'obj') location.hash = LF.href(['object', snap, n.obj.id]);
        else if (n.kind === 'group') LF.views.openClass(snap, n.cls);
        else load(n.node);
        return;
      } else return;
      e.preventDefault();
      draw();
    });
    // "/" focuses the filter from anywhere in the view
    document.addEventListener('keydown', function slash(e) {
      if (!LF.current(gen)) { document.removeEventListener('keydown', slash); return; }
      if (e.key === '/' && document.activeElement !== input) { e.preventDefault(); input.focus(); }
    });

    // The top: the GC roots' objects (id=root), or one object opened.
    var rootNode = { kind: 'obj', obj: { id: 'root', label: 'GC roots', children: 1 }, depth: -1, open: true, kids: null };
    groupBox.addEventListener('change', function () { rootNode.group = groupBox.checked; rootNode.kids = null; load(rootNode); });
    if (top === 'root') {
      state.roots = [];
      Object.defineProperty(state, 'roots', { get: function () { return rootNode.kids || []; } });
      load(rootNode).then(function () {
        table.focus();
        // one root object (V8's synthetic root): open it, it is all there is
        var k = rootNode.kids || [];
        if (k.length === 1 && !filter && k[0].kind === 'obj' && k[0].obj.children) expand(k[0]);
      });
    } else {
      groupTop.hidden = true;
      LF.api('children', { snap: snap, id: top, count: PAGE, sort: sort, filter: filter }).then(function (r) {
        if (!LF.current(gen)) return;
        if (r.status !== 200) { LF.failed(main, r, 'tree at ' + top); return; }
        var n = objNode(r.data.parent, '', 0);
        state.roots = [n];
        n.open = true;
        load(n).then(function () { table.focus(); });
        // the field column of the top row: its GC root, when it is one
        LF.api('object', { snap: snap, id: top }).then(function (o) {
          if (LF.current(gen) && o.status === 200 && o.data.root) { n.field = o.data.root; draw(); }
        });
      });
    }
  };
})();
