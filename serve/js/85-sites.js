// Allocation sites as an icicle: one level of the call tree per request
// (/api/sites?site=N, 0 the top); a box's width is its retained bytes;
// clicking one goes down to its children, the crumbs go back up.
(function () {
  'use strict';
  var el = LF.el, td = LF.td, bytes = LF.bytes, count = LF.count;

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
      var total = rows.reduce(function (s, x) { return s + x.retained; }, 0) || 1;
      var box = el('div', { id: 'site-icicle', 'class': 'icicle' });
      var width = Math.max(main.clientWidth - 4, 600), x0 = 0;
      rows.forEach(function (x) {
        var w = width * x.retained / total;
        if (w < 2) return;
        var c = el('div', { 'class': 'cell', title: where(x) + '\nretained ' + bytes(x.retained) + ', ' + count(x.count) + ' objects' });
        c.style.left = x0 + 'px';
        c.style.width = w + 'px';
        c.style.background = hue(x['function'] || '');
        c.textContent = x['function'] + ' ' + bytes(x.retained);
        if (x.children) c.addEventListener('click', function () { down(x); });
        box.appendChild(c);
        x0 += w;
      });
      main.appendChild(box);
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
