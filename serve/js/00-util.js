// leakfind serve: the page. serve/js/*.js are joined in name order into one
// script, after report/common.js; they share the object LF. Everything is built with DOM calls and
// textContent (class names and strings from a heap can contain anything).
var LF = { views: {} };
(function () {
  'use strict';
  // The helpers the report's page draws with too (report/common.js, the
  // file before this one): numbers as the CLI writes them, el and svg.
  ['el', 'svg', 'bytes', 'count', 'pct', 'td'].forEach(function (k) { LF[k] = LFCommon[k]; });
  LF.plural = function (n, word) { return LF.count(n) + ' ' + word + (n === 1 ? '' : word.endsWith('ss') ? 'es' : 's'); };
  LF.clear = function (e) { while (e.firstChild) e.removeChild(e.firstChild); return e; };

  // The token comes with the page's URL; every request carries it.
  var token = new URLSearchParams(location.search).get('t') || '';

  // GET /api/NAME with params (null and undefined left out): resolves to
  // {status, data}; data is the parsed JSON, or {error} when it is not JSON.
  LF.api = function (name, params) {
    var q = new URLSearchParams();
    q.set('t', token);
    for (var k in params || {}) if (params[k] !== null && params[k] !== undefined && params[k] !== '') q.set(k, params[k]);
    return fetch('/api/' + name + '?' + q.toString(), { credentials: 'same-origin' }).then(function (r) {
      return r.text().then(function (text) {
        var data;
        try { data = JSON.parse(text); } catch (e) { data = { error: text || ('HTTP ' + r.status) }; }
        return { status: r.status, data: data };
      });
    }, function (e) { return { status: 0, data: { error: 'the server does not answer (' + e.message + '): is leakfind serve still running?' } }; });
  };

  // A hash link: #/VIEW/SNAP/ARG...?QUERY (the token stays in location.search).
  LF.href = function (parts, query) {
    var h = '#/' + parts.map(function (p) { return encodeURIComponent(String(p)); }).join('/');
    var q = new URLSearchParams();
    for (var k in query || {}) if (query[k] !== null && query[k] !== undefined && query[k] !== '') q.set(k, query[k]);
    var s = q.toString();
    return h + (s ? '?' + s : '');
  };
  LF.link = function (parts, text, query, cls) {
    return LF.el('a', { href: LF.href(parts, query), 'class': cls || '' }, text);
  };
  // An object: its id linked to the object view, then its label (and a V8
  // closure's place, a string's first characters).
  LF.objectCell = function (snap, o) {
    var span = LF.el('span', { 'class': 'obj' });
    if (o.id) span.appendChild(LF.link(['object', snap, o.id], o.id, null, 'id'));
    span.appendChild(document.createTextNode(' ' + (o.label || '(no class)')));
    if (o.place) span.appendChild(LF.el('span', { 'class': 'place' }, ' ' + o.place));
    if (o.preview !== undefined && o.preview !== null) span.appendChild(LF.el('span', { 'class': 'value' }, ' = "' + o.preview + '"'));
    return span;
  };
  LF.message = function (box, text, cls) {
    box.appendChild(LF.el('p', { 'class': cls || 'note' }, text));
  };
  // What an answer that failed says: 404 of a view this server does not
  // have yet is a message, not an error; nor is a 404 about the dump (it
  // has no allocation sites), which the server's sentence says.
  LF.failed = function (box, r, what) {
    if (r.status === 404 && r.data && r.data.error === 'no such view')
      LF.message(box, 'This leakfind serve has no ' + what + ' view (its /api answered 404): a newer leakfind has it.', 'missing');
    else if (r.status === 404 && r.data && r.data.error)
      LF.message(box, r.data.error, 'note');
    else
      LF.message(box, what + ': ' + (r.data && r.data.error ? r.data.error : 'HTTP ' + r.status), 'error');
  };
  // A "show N more" row under a paged table: calls more() when clicked.
  LF.moreRow = function (tbody, cols, shown, total, more) {
    if (shown >= total) return;
    var tr = LF.el('tr', { 'class': 'more-rows', tabindex: 0 });
    var c = LF.td('\u2026 show ' + LF.count(Math.min(100, total - shown)) + ' more (' + LF.count(total - shown) + ' not shown)');
    c.colSpan = cols;
    tr.appendChild(c);
    tr.addEventListener('click', function () { tr.remove(); more(); });
    tbody.appendChild(tr);
  };
  // A sortable header: th elements carrying data-sort; onSort(key) is called.
  LF.sortHeader = function (thead, cols, current, onSort) {
    var tr = LF.el('tr');
    cols.forEach(function (c) {
      var th = LF.el('th', { 'class': (c.num ? 'num ' : '') + (c.sort && c.sort === current ? 'sorted-desc' : '') }, c.title);
      if (c.sort) {
        th.setAttribute('data-sort', c.sort);
        th.addEventListener('click', function () { onSort(c.sort); });
      }
      tr.appendChild(th);
    });
    thead.appendChild(tr);
  };
})();
