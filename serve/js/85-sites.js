// Allocation sites as an icicle: /api/sites answers one level of the call
// tree (site=N, 0 the top); the icicle asks for LEVELS levels below the
// site shown, each box as wide as its retained bytes; clicking a box makes
// it the top, the crumbs go back up.
(function () {
  'use strict';
  var el = LF.el, td = LF.td, bytes = LF.bytes, count = LF.count;
  var LEVELS = 4, ROW = 24, MIN_WIDTH = 24;

  function where(x) { return x['function'] + (x.file ? ' (' + x.file + (x.line ? ':' + x.line : '') + ')' : ''); }
  function hue(label) {
    var h = 0;
    for (var i = 0; i < label.length; i++) h = (h * 31 + label.charCodeAt(i)) % 360;
    return 'hsl(' + h + ',55%,78%)';
  }

  LF.views.sites = function (route, main, gen) {
    var snap = route.snap, site = route.args[0] || '0';
    // the way down is kept in the query (trail=0,5,9) so a link shows it
    var trail = (route.query.get('trail') || '').split(',').filter(Boolean);
    LF.api('sites', { snap: snap, site: site }).then(function (r) {
      if (!LF.current(gen)) return;
      if (r.status !== 200) { LF.failed(main, r, 'sites'); return; }
      var rows = r.data.rows, crumbs = el('nav', { 'class': 'crumbs', id: 'site-crumbs' });
      crumbs.appendChild(LF.link(['sites', snap, 0], 'all sites'));
      trail.forEach(function (t, k) {
        var parts = t.split(':');
        crumbs.appendChild(el('span', { 'class': 'sep' }, ' \u203a '));
        crumbs.appendChild(LF.link(['sites', snap, parts[0]], parts.slice(1).join(':') || parts[0], { trail: trail.slice(0, k).join(',') }));
      });
      main.appendChild(crumbs);
      if (!rows.length) { LF.message(main, site === '0' ? 'This snapshot records no allocation sites.' : 'No callee below this site.'); return; }
      var box = el('div', { id: 'site-icicle', 'class': 'icicle' });
      main.appendChild(box);
      var width = Math.max(box.clientWidth - 2, 600);
      // one row of boxes under a parent box x0..x0+w, then their children
      function level(rows, x0, w, depth) {
        var total = rows.reduce(function (s, x) { return s + x.retained; }, 0) || 1;
        box.style.height = Math.max(parseInt(box.style.height || '0', 10), (depth + 1) * ROW + 2) + 'px';
        rows.forEach(function (x) {
          var bw = w * x.retained / total, left = x0;
          x0 += bw;
          if (bw < 2) return;
          var c = el('div', { 'class': 'cell', 'data-site': x.site, 'data-depth': depth,
            title: where(x) + '\nretained ' + bytes(x.retained) + ', ' + LF.plural(x.count, 'object') });
          c.style.left = left + 'px';
          c.style.top = depth * ROW + 'px';
          c.style.width = bw + 'px';
          c.style.background = hue(x['function'] || '');
          c.textContent = x['function'] + ' ' + bytes(x.retained);
          c.addEventListener('click', function () { if (x.children) down(x); });
          box.appendChild(c);
          if (x.children && depth + 1 < LEVELS && bw >= MIN_WIDTH)
            LF.api('sites', { snap: snap, site: x.site }).then(function (k) {
              if (LF.current(gen) && k.status === 200) level(k.data.rows, left, bw, depth + 1);
            });
        });
      }
      level(rows, 0, width, 0);
      function down(x) {
        location.hash = LF.href(['sites', snap, x.site], { trail: trail.concat([x.site + ':' + x['function']]).join(',') });
      }
      var t = el('table', { 'class': 'data', id: 'sites' }), thead = el('thead'), tbody = el('tbody');
      LF.sortHeader(thead, [{ title: 'site' }, { title: 'objects', num: 1 }, { title: 'shallow', num: 1 },
        { title: 'retained', num: 1 }, { title: 'callees', num: 1 }]);
      rows.forEach(function (x) {
        var tr = el('tr', { 'data-site': x.site }), c = td('', 'name');
        if (x.children) {
          var a = el('a', { href: LF.href(['sites', snap, x.site], { trail: trail.concat([x.site + ':' + x['function']]).join(',') }) }, where(x));
          c.appendChild(a);
        } else c.textContent = where(x);
        tr.appendChild(c);
        tr.appendChild(td(count(x.count), 'num'));
        tr.appendChild(td(bytes(x.shallow), 'num'));
        tr.appendChild(td(bytes(x.retained), 'num'));
        tr.appendChild(td(count(x.children), 'num'));
        tbody.appendChild(tr);
      });
      t.appendChild(thead);
      t.appendChild(tbody);
      main.appendChild(t);
    });
  };
})();
