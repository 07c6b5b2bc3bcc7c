// The router: the hash names the view (#/VIEW/SNAP/ARG...?QUERY) so that a
// pasted link opens the same view; the header carries the views' links and
// the snapshot selector.
(function () {
  'use strict';
  var el = LF.el;
  var NAV = [['overview', 'Overview'], ['tree', 'Dominator tree'], ['classes', 'Classes'], ['compare', 'Compare'],
    ['query', 'Query'], ['strings', 'Strings'], ['threads', 'Threads'], ['sites', 'Sites']];

  LF.parse = function () {
    var h = location.hash.replace(/^#\/?/, ''), q = '';
    var i = h.indexOf('?');
    if (i >= 0) { q = h.slice(i + 1); h = h.slice(0, i); }
    var parts = h ? h.split('/').map(decodeURIComponent) : [];
    var newest = LF.snapshots.length - 1;
    var snap = parts.length > 1 && /^\d+$/.test(parts[1]) ? Math.min(Number(parts[1]), newest) : newest;
    return { view: parts[0] || 'overview', snap: snap, args: parts.slice(2), query: new URLSearchParams(q) };
  };
  // Changes one part of the current query and goes there (filters, sorts).
  LF.setQuery = function (route, changes) {
    var q = {};
    route.query.forEach(function (v, k) { q[k] = v; });
    for (var k in changes) q[k] = changes[k];
    location.hash = LF.href([route.view, route.snap].concat(route.args), q);
  };

  function header(route) {
    var head = LF.clear(document.getElementById('top'));
    head.appendChild(el('h1', {}, 'leakfind'));
    var nav = el('nav');
    NAV.forEach(function (n) {
      var a = LF.link([n[0], route.snap], n[1], null, 'nav' + (route.view === n[0] ||
        (n[0] === 'classes' && route.view === 'class') ? ' current' : ''));
      a.setAttribute('data-view', n[0]);
      nav.appendChild(a);
    });
    head.appendChild(nav);
    var snaps = LF.snapshots;
    if (snaps.length > 1) {
      var sel = el('select', { id: 'snapshot', title: 'the snapshot every view shows' });
      snaps.forEach(function (s) {
        var o = el('option', { value: s.index }, s.index + ': ' + s.path.replace(/^.*\//, '') + ' (' + LF.bytes(s.reachable) + ')');
        if (s.index === route.snap) o.selected = true;
        sel.appendChild(o);
      });
      sel.addEventListener('change', function () {
        location.hash = LF.href([route.view === 'class' || route.view === 'object' ? 'overview' : route.view, sel.value]);
      });
      head.appendChild(sel);
    } else {
      head.appendChild(el('span', { 'class': 'path' }, snaps[0].path));
    }
  }

  var generation = 0;
  // Views call LF.current(gen) before drawing an answer: a view the user
  // has left since the request does not draw over the new one.
  LF.current = function (gen) { return gen === generation; };
  function show() {
    var route = LF.parse();
    header(route);
    var main = LF.clear(document.getElementById('view'));
    main.setAttribute('data-view', route.view);
    var view = LF.views[route.view];
    generation++;
    if (!view) { LF.message(main, 'No view named "' + route.view + '".', 'error'); return; }
    document.title = 'leakfind: ' + route.view;
    view(route, main, generation);
  }
  LF.refresh = show;

  // The overview of the newest snapshot says how many there are; every view
  // needs that first.
  function start() {
    LF.api('overview').then(function (r) {
      if (r.status !== 200) {
        LF.failed(document.getElementById('view'), r, 'overview');
        return;
      }
      LF.snapshots = r.data.snapshots;
      LF.overviews = {};
      LF.overviews[LF.snapshots.length - 1] = r.data;
      window.addEventListener('hashchange', show);
      show();
    });
  }
  // The overview of a snapshot, fetched once.
  LF.overview = function (snap) {
    if (LF.overviews[snap]) return Promise.resolve({ status: 200, data: LF.overviews[snap] });
    return LF.api('overview', { snap: snap }).then(function (r) {
      if (r.status === 200) LF.overviews[snap] = r.data;
      return r;
    });
  };
  document.addEventListener('DOMContentLoaded', start);
})();
