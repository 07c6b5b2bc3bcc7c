// leakfind report: draws the page from the JSON in #report-data. Everything
// is built with DOM calls and textContent (class names can contain anything).
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var C = LFCommon, el = C.el, bytes = C.bytes, count = C.count, pct = C.pct, td = C.td;

  // ---- header and the dump's numbers (what `info` shows)
  document.getElementById('snapshots').textContent = data.snapshots.join('  \u2192  ');
  C.infoRows(document.querySelector('#info tbody'), data.info);

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
  C.rootBars(document.getElementById('roots'), data.rootKinds, heap, function (r) {
    return r.shared ? ', reached by roots of two or more kinds' :
      ', ' + count(r.roots) + ' roots; ' + bytes(r.retained) + ' summed over the roots alone';
  });

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
    document.getElementById('chart').appendChild(C.chart(series, document.getElementById('legend'), 320));
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
      // the slope is the class's: several holders may share it
      var more = r[7] > 1 ? ' (and ' + (r[7] - 1) + ' more holder' + (r[7] > 2 ? 's' : '') + ')' : '';
      tr.appendChild(td(r[5] + more, 'name'));
      tr.appendChild(td(r[6] ? r[6].join(', ') : '', 'num'));
      body.appendChild(tr);
    });
  }
  // ---- leak suspects: each finding, expandable to its path from a GC root
  function suspects(list) {
    var box = document.getElementById('suspects'), byId = {};
    nodes.forEach(function (n) { if (n.id) byId[n.id] = n.index; });
    if (!list.items.length) {
      box.appendChild(el('p', { 'class': 'note' }, C.noSuspects(list, data.series)));
      return;
    }
    list.items.forEach(function (x, k) {
      var d = el('details', { 'class': 'suspect', 'data-kind': x.kind, 'data-class': x['class'] || '' });
      if (k === 0) d.open = true;
      d.appendChild(el('summary', {}, C.suspectHeadline(x, list.heap)));
      var a = x.accumulation;
      if (a) {
        var p = el('p', { 'class': 'accumulation', 'data-class': a['class'] || '', 'data-count': a.count, 'data-bytes': a.bytes },
          'Accumulation point: ' + a.point.label + ' ' + (a.point.id || '') +
          ' (retains ' + bytes(a.point.retained) + ')' + (a['class'] ? '; it holds ' + C.pilesUp(a) + ', ' + bytes(a.bytes) : ''));
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
