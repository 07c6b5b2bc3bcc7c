// check_page.js - drives `leakfind serve`'s page in headless Chromium
// (Debian's chromium through puppeteer-core) the way a person would: clicks
// from the overview to the leak, and checks what each view shows against
// the fixtures' construction (their programs and READMEs, not leakfind's
// output). Every request must stay on the server's origin; every console
// error or page error fails. Saves a screenshot of each view (1280x800).
// usage: node check_page.js SHOTS_DIR NAME=URL...  (names: example, java,
//        node, dotnet, ocaml; the URLs leakfind serve printed)
// Prints "ok NAME" / "FAIL NAME: why" per check, then "N passed, M failed".
'use strict';
const fs = require('fs');
const path = require('path');
const puppeteer = require(path.join(__dirname, '..', 'report', 'node_modules', 'puppeteer-core'));

const shots = path.resolve(process.argv[2]);
const urls = {};
process.argv.slice(3).forEach((a) => { const i = a.indexOf('='); urls[a.slice(0, i)] = a.slice(i + 1); });
fs.mkdirSync(shots, { recursive: true });
let passed = 0, failed = 0;
function check(name, ok, why) {
  if (ok) { passed++; console.log('ok   ' + name); }
  else { failed++; console.log('FAIL ' + name + (why !== undefined ? ': ' + why : '')); }
}
function same(name, expected, actual) {
  check(name, JSON.stringify(expected) === JSON.stringify(actual), 'expected ' + JSON.stringify(expected) + ', got ' + JSON.stringify(actual));
}

// A page on url: requests to another origin are refused and counted, and
// so are console errors and script errors.
// mock(URL) may answer a request itself: {status, body} (see mocked()).
async function open(browser, url, problems, mock) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  const origin = new URL(url).origin;
  await page.setRequestInterception(true);
  page.on('request', (r) => {
    const answer = mock && new URL(r.url()).origin === origin ? mock(new URL(r.url())) : null;
    if (answer) r.respond({ status: answer.status, contentType: 'application/json', body: JSON.stringify(answer.body) });
    else if (new URL(r.url()).origin === origin) r.continue();
    else { problems.push('request to another origin: ' + r.url()); r.abort(); }
  });
  page.on('pageerror', (e) => problems.push('page error ' + e.message));
  // Chromium logs a 404 as an error; the views another branch adds
  // (compare, query, strings, threads, sites) answer 404 until it is merged
  // and the page says so: those are expected, and a query's 400 (its
  // documented error answer), nothing else.
  page.on('console', (m) => {
    const where = (m.location() && m.location().url) || '';
    const expected = (/status of 404/.test(m.text()) && /\/api\/(compare|query|strings|threads|sites)\?/.test(where)) ||
      (/status of 400/.test(m.text()) && /\/api\/query\?/.test(where)); // a query's error is a 400
    if (m.type() === 'error' && !expected)
      problems.push('console ' + m.text() + ' ' + where);
  });
  await page.goto(url, { waitUntil: 'networkidle0' });
  return page;
}
async function shot(page, name) {
  await page.screenshot({ path: path.join(shots, name + '.png') });
}
// Goes to a view by its hash and waits for selector.
async function go(page, url, hash, selector) {
  await page.goto(url.replace(/#.*$/, '') + hash, { waitUntil: 'networkidle0' });
  await page.waitForSelector(selector, { timeout: 10000 });
}
// Clicks the link at selector (to #/object/SNAP/ID) and waits until that
// object's view has drawn its path (the view before it had one too).
async function openObject(page, selector) {
  const id = await page.$eval(selector, (a) => decodeURIComponent(a.getAttribute('href')).split('/').pop());
  await page.click(selector);
  await page.waitForFunction((id) => {
    const t = document.querySelector('#object-title');
    return t && t.textContent.endsWith(' ' + id) && document.querySelector('#paths ol.path li, #paths p');
  }, { timeout: 10000 }, id);
  return id;
}
async function text(page, selector) { return page.$eval(selector, (e) => e.textContent.trim()); }
async function pathHops(page) {
  await page.waitForSelector('#paths ol.path li', { timeout: 10000 });
  return page.$$eval('#paths ol.path li', (lis) => lis.map((li) => li.querySelector('.root, .field').textContent));
}

// fixtures/example/make_example.sh: the ArrayList 0x1001 in static field
// com.acme.Registry.listeners, its Object[] 0x1002 (elementData), 300
// Listeners of 32 B each owning a byte[1040]: 1,072 B each, 321,600 B in
// all; Listener i is node 4096 + 3 + 2i, element [i].
async function example(browser, url, problems) {
  const page = await open(browser, url, problems);
  await page.waitForSelector('.suspect');
  await shot(page, 'overview');
  const piles = await text(page, '.suspect p.accumulation');
  check('example: the list holds its 300 Listeners, 321,600 B', piles.includes('it holds 300 com.acme.Listener, 314.1 KiB'), piles);
  same('example: the first suspect is the list 0x1001', '0x1001',
    await page.$eval('.suspect a.tree-link', (a) => decodeURIComponent(a.getAttribute('href')).split('/').pop()));
  // from the overview to the Registry list in the tree
  await Promise.all([page.waitForSelector('#tree tr[data-id="0x1002"]'), page.click('.suspect a.tree-link')]);
  same('example: the tree opens at 0x1001', '#/tree/0/0x1001', await page.evaluate(() => location.hash));
  same('example: 0x1001 holds 0x1002 through elementData', 'elementData',
    await page.$eval('#tree tr[data-id="0x1002"] td.field', (e) => e.textContent));
  // expand it: the collection's 300 members, a page at a time
  await page.click('#tree tr[data-id="0x1002"] .twisty');
  await page.waitForSelector('#tree tr.collection');
  check('example: elementData is a collection of 300 members', /^300 members/.test(await text(page, '#tree tr.collection')),
    await text(page, '#tree tr.collection'));
  const members = await page.$$eval('#tree tr[data-kind="obj"][data-depth="2"]', (rows) => rows.map((r) => r.dataset.label));
  check('example: its first page is 50 com.acme.Listener', members.length === 50 && members.every((l) => l === 'com.acme.Listener'),
    members.length + ' rows: ' + members.slice(0, 3).join(', '));
  check('example: a "show more" row for the other 250', /250 not shown/.test(await text(page, '#tree tr.more-rows')));
  // group by class at that node: one group, 300 x 1,072 B
  await page.click('#tree tr[data-id="0x1002"] button.group-toggle');
  await page.waitForSelector('#tree tr[data-kind="group"]');
  const group = await page.$$eval('#tree tr[data-kind="group"]', (rows) => rows.map((r) => [r.dataset.label, Number(r.dataset.count), Number(r.dataset.retained)]));
  same('example: group by class: 300 com.acme.Listener retaining 300 x 1072', [['com.acme.Listener', 300, 300 * 1072]], group);
  await page.click('#tree tr[data-kind="group"] .twisty');
  await page.waitForSelector('#tree tr[data-kind="obj"][data-depth="3"]');
  await shot(page, 'tree');
  // the keyboard: down from the group row selects its first Listener, Enter opens it
  await page.focus('#tree');
  const first = await page.$eval('#tree tr[data-kind="obj"][data-depth="3"]', (r) => r.dataset.id);
  await page.evaluate(() => { document.querySelector('#tree tr[data-kind="group"]').click(); });
  await page.keyboard.press('ArrowDown');
  await Promise.all([page.waitForSelector('#paths ol.path li'), page.keyboard.press('Enter')]);
  same('example: Enter opens the selected Listener', '#/object/0/' + first, await page.evaluate(() => location.hash));
  const i = (parseInt(first, 16) - 4099) / 2;
  same('example: its path: the static field, elementData, [' + i + ']',
    ['static field com.acme.Registry.listeners', 'elementData', '[' + i + ']'], await pathHops(page));
  same('example: its header: 32 B shallow, 1072 retained, shown 1.0 KiB', [32, 1072, '1.0 KiB'], await page.$eval('#object-head',
    (t) => [Number(t.dataset.shallow), Number(t.dataset.retained), t.querySelector('tr[data-key="retained"] td').textContent.split(' (')[0]]));
  await shot(page, 'object');
  // "all paths": the array is its only referrer, so the one path again
  await page.click('#all-paths');
  await page.waitForFunction(() => /all=1/.test(location.hash) && document.querySelector('#paths ol.path li'));
  same('example: all paths to the Listener: the one through elementData', ['static field com.acme.Registry.listeners', 'elementData', '[' + i + ']'],
    await pathHops(page));
  // Session i (node 0x125e + 3i) is held only by WeakReference i's referent,
  // in SessionCache.INSTANCE's array entries: no strong path; unticking
  // "exclude weak" follows the weak reference
  await go(page, url, '#/object/0/0x125e', '#paths .weak-only');
  const weakPath = ['static field com.acme.SessionCache.INSTANCE', 'entries', '[0]', 'referent (weak)'];
  same('example: Session 0x125e: no strong path, the weak one shown', weakPath, await pathHops(page));
  await page.click('#exclude-weak');
  await page.waitForFunction(() => /weak=1/.test(location.hash) && document.querySelector('#paths ol.path li') && !document.querySelector('#paths .weak-only'));
  same('example: unticked, the path follows the weak reference', weakPath, await pathHops(page));
  await shot(page, 'object-weak');
  // the tree's top sorted by shallow (click on the column): the thread (120 B)
  // first, then Config (40), the list and the cache (24 each), Registry (16)
  await go(page, url, '#/tree/0', '#tree tr[data-kind="obj"]');
  await page.click('#tree th[data-sort="shallow"]');
  // the view is drawn anew for the new order: wait for the new table (its
  // shallow column marked), or the old table's rows may be read as it goes
  await page.waitForFunction(() => /sort=shallow/.test(location.hash) && document.querySelector('#tree th[data-sort="shallow"].sorted-desc') &&
    document.querySelectorAll('#tree tr[data-kind="obj"]').length === 5);
  same('example: the GC roots\' objects by shallow size',
    ['java.lang.Thread', 'com.acme.Config', 'com.acme.SessionCache', 'java.util.ArrayList', 'com.acme.Registry'], // the tie by name
    await page.$$eval('#tree tr[data-kind="obj"]', (rows) => rows.map((r) => r.dataset.label)).then((l) => [l[0], l[1]].concat(l.slice(2, 4).sort(), l[4])));
  // the keyboard: the first row selected; right expands the thread (it
  // dominates its frame buffer only: Config is also held by the Registry and
  // a JNI global), down, left goes back to the parent, left collapses
  await page.focus('#tree');
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('#tree tr[data-depth="1"]');
  same('example: \u2192 expands the thread: its frame buffer', ['0x12f4'],
    await page.$$eval('#tree tr[data-depth="1"]', (rows) => rows.map((r) => r.dataset.id)));
  await page.keyboard.press('ArrowDown');
  same('example: \u2193 selects the buffer', '0x12f4', await page.$eval('#tree tr.selected', (r) => r.dataset.id));
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  same('example: \u2190 \u2190 back to the thread, collapsed', ['0x12f3', 0], [await page.$eval('#tree tr.selected', (r) => r.dataset.id),
    (await page.$$('#tree tr[data-depth="1"]')).length]);
  // "/" focuses the tree's filter; a filter narrows the top rows
  await go(page, url, '#/tree/0?filter=Thread', '#tree tbody tr');
  const top = await page.$$eval('#tree tr[data-kind="obj"]', (rows) => rows.map((r) => r.dataset.label));
  same('example: tree filter Thread: the request-handler thread only', ['java.lang.Thread'], top);
  await page.click('#tree tr[data-id="0x12f3"] .twisty');
  await page.waitForSelector('#tree tr[data-depth="1"]');
  same('example: below the match, its 64 KiB frame buffer (not filtered)', ['0x12f4 byte[]', '<frame 0: com.acme.Handler.serve (Handler.java:42)>', '64.0 KiB'],
    await page.$eval('#tree tr[data-depth="1"]', (r) => [r.cells[0].textContent.trim(), r.cells[1].textContent, r.cells[3].textContent]));
  await go(page, url, '#/tree/0?filter=NoSuchClass', '#tree tr.tree-error');
  check('example: a filter that matches nothing says so', /no object here has a class matching "NoSuchClass"/.test(await text(page, '#tree tr.tree-error')));
  await go(page, url, '#/tree/0?filter=Thread', '#tree tr[data-kind="obj"]');
  await page.keyboard.press('/');
  same('example: "/" focuses the filter', 'tree-filter', await page.evaluate(() => document.activeElement.id));
  // a pasted link opens the same view: the classes filtered
  await go(page, url, '#/classes/0?filter=Listener', '#classes tbody tr[data-label]');
  const rows = await page.$$eval('#classes tbody tr[data-label]', (rs) => rs.map((r) => [r.dataset.label, Number(r.dataset.count)]));
  same('example: #/classes/0?filter=Listener: 300 com.acme.Listener', [['com.acme.Listener', 300]], rows);
  await shot(page, 'classes');
  await Promise.all([page.waitForSelector('#instances tbody tr[data-id]'), page.click('#classes tbody tr[data-label] a')]);
  check('example: the class lists 300 instances', /300 instances/.test(await text(page, '#class-title')), await text(page, '#class-title'));
  // a page of 100, then "show more" adds the next 100
  same('example: 100 instances, 200 not shown', [100, true], [(await page.$$('#instances tbody tr[data-id]')).length,
    /200 not shown/.test(await text(page, '#instances tr.more-rows'))]);
  await page.click('#instances tr.more-rows');
  await page.waitForFunction(() => document.querySelectorAll('#instances tbody tr[data-id]').length === 200);
  check('example: "show more" adds the next 100', true);
  await shot(page, 'class');
  // the other views draw; app.lfs has no allocation sites, and the sites
  // view says so (a note, not an error)
  for (const v of ['query', 'strings', 'threads', 'sites']) {
    await go(page, url, '#/' + v + '/0' + (v === 'query' ? '?q=' + encodeURIComponent('select * from com.acme.Listener limit 3') : ''), 'main#view > *');
    await page.waitForFunction(() => document.querySelector('main#view').children.length > (location.hash.startsWith('#/query') ? 3 : 0));
    await new Promise((r) => setTimeout(r, 300));
    check('example: the ' + v + ' view draws (or says the server lacks it)',
      await page.$eval('main#view', (m) => m.querySelectorAll('.error').length === 0 && m.textContent.length > 10),
      await text(page, 'main#view'));
    if (v === 'query') // make_example.sh: 300 Listener, the first 3 asked for
      same('example: the query view counts its 3 rows', '3 rows', await text(page, '#query-total'));
    if (v === 'sites')
      check('example: the sites view says the text graph has no allocation sites',
        /has no allocation sites/.test(await text(page, 'main#view')), await text(page, 'main#view'));
    await shot(page, v + '-example');
  }
  // one row is "1 row": the count of the 300 Listener
  await go(page, url, '#/query/0?q=' + encodeURIComponent('select count() from com.acme.Listener'), 'main#view > *');
  await page.waitForFunction(() => document.querySelector('#query-total') && document.querySelector('#query tbody tr, main#view tbody tr'));
  same('example: a one-row answer says "1 row", its count 300', ['1 row', '300'],
    [await text(page, '#query-total'), await page.$eval('main#view tbody td', (c) => c.textContent)]);
  await page.close();
}

// fixtures/java/series (LeakSeries.java): 2 LeakedSession per operation in
// the static ArrayList SessionRegistry.SESSIONS, after 100, 200, 300.
async function java(browser, url, problems) {
  const page = await open(browser, url, problems);
  await page.waitForSelector('#chart');
  check('java series: the overview draws the chart of LeakedSession', await page.$('#chart g.series[data-name="LeakedSession"]') !== null);
  await shot(page, 'overview-series');
  // the growth's holder: SessionRegistry.SESSIONS after 300 operations holds
  // 3 x 300 = 900 elements in its Object[1000] (16 + 4 x 1000 = 4,016 B),
  // which retains 4,016 + 300 x 80 = 28,016 B
  await openObject(page, '.suspect[data-kind="growth"] a.object-link');
  same('java series: SESSIONS: size 900, elementData an Object[] of 4016 B retaining 28016 B',
    [['size', 'int', '900'], ['elementData', 'object', 'java.lang.Object[] 4016 28016']],
    await page.$$eval('#section-field tr[data-name="size"], #section-field tr[data-name="elementData"]', (rows) => rows.map((r) =>
      [r.dataset.name, r.cells[1].textContent, r.dataset.id ? r.cells[2].textContent.split(' ').slice(1).join(' ') + ' ' + r.dataset.shallow + ' ' + r.dataset.retained
        : r.cells[2].textContent])));
  same('java series: SESSIONS is the root static field SessionRegistry.SESSIONS', 'static field SessionRegistry.SESSIONS', (await pathHops(page))[0]);
  await shot(page, 'object-java');
  await go(page, url, '#/compare/1/2', '#growth tr[data-class="LeakedSession"]');
  const g = await page.$eval('#growth tr[data-class="LeakedSession"]', (r) => [r.cells[1].textContent, r.dataset.verdict, r.querySelector('.holder').textContent]);
  same('java series: compare: LeakedSession 200, 400, 600, grows', ['200, 400, 600', 'grows'], g.slice(0, 2));
  check('java series: held by static field SessionRegistry.SESSIONS', /^static field SessionRegistry\.SESSIONS\b/.test(g[2]), g[2]);
  await page.waitForSelector('#compare-pair table#compare tbody tr, #compare-pair .missing');
  const pair = await page.$$eval('#compare tr[data-label="LeakedSession"] td', (tds) => tds.map((t) => t.textContent));
  if (pair.length) same('java series: 1 -> 2: LeakedSession 600, +200', ['600', '+200'], pair.slice(1, 3));
  else check('java series: without /api/compare the view says so', (await text(page, '#compare-pair .missing')).includes('compare'));
  await shot(page, 'compare');
  // the snapshot selector: the oldest holds 200
  await go(page, url, '#/classes/2?filter=LeakedSession', '#classes tbody tr[data-label]');
  await Promise.all([page.waitForFunction(() => location.hash.startsWith('#/classes/0')), page.select('#snapshot', '0')]);
  await page.waitForSelector('#classes tbody tr[data-label]');
  same('java series: snapshot 0 has 200 LeakedSession', 200,
    await page.$eval('#classes tbody tr[data-label="LeakedSession"]', (r) => Number(r.dataset.count)));
  await page.close();
}

// fixtures/node/closure_place.js: globalThis.handler is the closure onChange,
// its "(" at line 18, column 27 of closure_place.js.
async function node(browser, url, problems) {
  const page = await open(browser, url, problems);
  // the global object holds most of this small heap (the runtime's
  // modules), but it is the script's scope, no suspect: none is, and the
  // overview says the global was set aside
  await page.waitForSelector('#suspects p');
  const none = await text(page, '#suspects');
  check('v8: no suspect, the global object set aside', /^Leak suspects\s*No object or class retains 10% of the heap or more \(the global object, the script's scope, aside\)\.$/.test(none) &&
    (await page.$('.suspect')) === null, none);
  await shot(page, 'overview-v8');
  // the tree's top as `dominators` shows it: V8's synthetic root levels
  // skipped, the global object first, held by the root entry
  await go(page, url, '#/tree/0', '#tree tr[data-kind="obj"][data-depth="0"]');
  const first = await page.$eval('#tree tr[data-kind="obj"][data-depth="0"]', (r) => r.textContent);
  check('v8: the tree starts at the global object, held by (root)', /global/.test(first) && /\(root\)/.test(first), first);
  await shot(page, 'tree-v8');
  const global = await page.$eval('#tree tr[data-kind="obj"][data-depth="0"]', (r) => r.dataset.id);
  await go(page, url, '#/object/0/' + encodeURIComponent(global), 'tr[data-name="handler"]');
  const place = await page.$eval('tr[data-name="handler"] .place', (e) => e.textContent);
  check('v8: global.handler is onChange at closure_place.js:18:27', /^ onChange @ \S*closure_place\.js:18:27$/.test(place), place);
  await openObject(page, 'tr[data-name="handler"] a.id');
  const head = await text(page, '#object-head');
  check('v8: the closure\'s header says where it was defined', /defined atonChange @ \S*closure_place\.js:18:27/.test(head), head);
  const hops = await pathHops(page);
  same('v8: its path ends in the property handler', 'handler', hops[hops.length - 1]);
  await shot(page, 'object-v8');
  await page.close();
}

// fixtures/dotnet (Leaky/Program.cs): 300 operations, each a Listener
// subscribed to the static event Bus.Changed and never removed.
async function dotnet(browser, url, problems) {
  const page = await open(browser, url, problems);
  await go(page, url, '#/classes/0?filter=Acme.Listener', '#classes tbody tr[data-label]');
  same('.gcdump: 300 Acme.Listener', 300, await page.$eval('#classes tbody tr[data-label="Acme.Listener"]', (r) => Number(r.dataset.count)));
  await Promise.all([page.waitForSelector('#instances tbody tr[data-id] a.id'), page.click('#classes tbody tr[data-label="Acme.Listener"] a')]);
  await openObject(page, '#instances tbody tr[data-id] a.id');
  same('.gcdump: the path to a Listener starts at static field Changed', 'static field Changed', (await pathHops(page))[0]);
  check('.gcdump: the page says this format names no fields', (await page.$('.field-names')) !== null &&
    /names no fields/.test(await text(page, '.field-names')));
  await shot(page, 'object-gcdump');
  // and a CacheEntry, in the static Dictionary Cache.Entries
  await go(page, url, '#/classes/0?filter=Acme.CacheEntry', '#classes tbody tr[data-label="Acme.CacheEntry"]');
  same('.gcdump: 300 Acme.CacheEntry', 300, await page.$eval('#classes tbody tr[data-label="Acme.CacheEntry"]', (r) => Number(r.dataset.count)));
  await Promise.all([page.waitForSelector('#instances tbody tr[data-id] a.id'), page.click('#classes tbody tr[data-label="Acme.CacheEntry"] a')]);
  await openObject(page, '#instances tbody tr[data-id] a.id');
  same('.gcdump: the path to a CacheEntry starts at static field Entries', 'static field Entries', (await pathHops(page))[0]);
  await page.close();
}

// fixtures/ocaml/typed.ml: 100 sessions (Typed.session, 32 B each) in the
// global Hashtbl Typed.sessions; 100 more request_log per snapshot.
async function ocaml(browser, url, problems) {
  const page = await open(browser, url, problems);
  await go(page, url, '#/classes/2?filter=Typed.session', '#classes tbody tr[data-label]');
  const r = await page.$eval('#classes tbody tr[data-label="Typed.session"]', (t) => [Number(t.dataset.count), t.cells[2].textContent]);
  same('ocaml: 100 Typed.session of 32 B: 3.1 KiB', [100, '3.1 KiB'], r);
  await go(page, url, '#/classes/0?filter=Typed.request_log', '#classes tbody tr[data-label]');
  same('ocaml: snapshot 0 holds 100 Typed.request_log', 100,
    await page.$eval('#classes tbody tr[data-label="Typed.request_log"]', (t) => Number(t.dataset.count)));
  await go(page, url, '#/classes/2?filter=Typed.session', '#classes tbody tr[data-label]');
  await Promise.all([page.waitForSelector('#instances tbody tr[data-id] a.id'), page.click('#classes tbody tr[data-label="Typed.session"] a')]);
  await openObject(page, '#instances tbody tr[data-id] a.id');
  check('ocaml: the object is a Typed.session', /^Typed\.session /.test(await text(page, '#object-title')), await text(page, '#object-title'));
  same('ocaml: its path starts at the global Typed.sessions', 'global Typed.sessions', (await pathHops(page))[0]);
  await shot(page, 'object-ocaml');
  await page.close();
}

// The views of endpoints another branch adds (compare, query, strings,
// threads, sites), drawn from answers of the documented shape that the test
// gives itself (the server answers 404 until that branch is merged). The
// values are the fixtures': the example's thread "request-handler" holds a
// 64 KiB frame buffer (120 + 65,552 B) at Handler.serve (Handler.java:42);
// the series' LeakedSession, 32 B, 400 after 200 operations, 600 after 300.
// The strings row, the sites and the query's row are made up (the example
// has no duplicate string and records no site): the page only draws them.
async function mocked(browser, urls, problems) {
  const answers = {
    threads: () => ({ rows: [{ id: '0x12f3', name: 'request-handler', retained: 65672,
      frames: [{ 'function': 'com.acme.Handler.serve', file: 'Handler.java', line: 42 }] }] }),
    strings: () => ({ rows: [{ text: 'made up <b>&amp;', count: 3, bytes: 168, wasted: 112, id: '0x12f6' }], total: 1 }),
    sites: (q) => ({ site: Number(q.get('site')), rows: q.get('site') === '0' ?
      [{ site: 1, 'function': 'com.acme.Registry.add', file: 'Registry.java', line: 12, count: 300, shallow: 9600, retained: 321600, children: 1 },
        { site: 2, 'function': 'com.acme.Handler.serve', file: 'Handler.java', line: 42, count: 1, shallow: 65552, retained: 65552, children: 0 }] :
      [{ site: 3, 'function': 'com.acme.Listener.<init>', file: 'Listener.java', line: 7, count: 300, shallow: 9600, retained: 321600, children: 0 }] }),
    query: (q) => q.get('q').includes('Nope') ? { status: 400, body: { error: "no class matches 'Nope'", at: 14 } } :
      { columns: ['id', 'class', 'retained'], rows: [['0x1003', 'com.acme.Listener', 1072]], total: 1 },
    compare: (q) => ({ a: Number(q.get('a')), b: Number(q.get('b')), total: 1,
      rows: [{ label: 'LeakedSession', cls: null, count: [400, 600], shallow: [12800, 19200], retained: [12800, 19200] }] }),
  };
  function mock(u) {
    const m = u.pathname.match(/^\/api\/(\w+)$/);
    if (!m || !answers[m[1]]) return null;
    const a = answers[m[1]](u.searchParams);
    return a.status ? a : { status: 200, body: a };
  }
  let page = await open(browser, urls.example, problems, mock);
  const rows = async (sel) => page.$$eval(sel, (rs) => rs.map((r) => Array.from(r.cells).map((c) => c.textContent)));
  await go(page, urls.example, '#/threads/0', 'details.thread');
  same('mocked threads: request-handler retains 64.1 KiB at Handler.serve (Handler.java:42)',
    ['0x12f3 request-handler: retains 64.1 KiB, 1 frame', 'com.acme.Handler.serve (Handler.java:42)'],
    await page.$eval('details.thread', (d) => [d.querySelector('summary').textContent, d.querySelector('li').textContent]));
  await shot(page, 'threads');
  await go(page, urls.example, '#/strings/0', '#strings tbody tr');
  same('mocked strings: a row, its copy linked, the text as text', [['3', '112 B', '168 B', '0x12f6', 'made up <b>&amp;']], await rows('#strings tbody tr'));
  await shot(page, 'strings');
  await go(page, urls.example, '#/sites/0', '#site-icicle .cell');
  await page.waitForSelector('#site-icicle .cell[data-depth="1"]');
  same('mocked sites: two boxes on top, Registry.add\'s callee under it, widths as retained',
    [['1', '0', 321600 / (321600 + 65552)], ['2', '0', 65552 / (321600 + 65552)], ['3', '1', 321600 / (321600 + 65552)]].map((r) => [r[0], r[1], r[2].toFixed(3)]),
    await page.$$eval('#site-icicle .cell', (cs) => {
      const W = cs[0].parentNode.clientWidth - 2;
      return cs.map((c) => [c.dataset.site, c.dataset.depth, (parseFloat(c.style.width) / W).toFixed(3)]);
    }));
  await shot(page, 'sites');
  await page.click('#site-icicle .cell[data-site="1"]');
  await page.waitForSelector('#sites tr[data-site="3"]');
  check('mocked sites: a click goes down to the callees, the crumbs name the caller',
    /com\.acme\.Registry\.add/.test(await text(page, '#site-crumbs')), await text(page, '#site-crumbs'));
  await shot(page, 'sites-down');
  await go(page, urls.example, '#/query/0?q=' + encodeURIComponent('select * from com.acme.Listener'), '#query-result tbody tr');
  same('mocked query: the id cell links to the object', '#/object/0/0x1003',
    await page.$eval('#query-result tbody a', (a) => a.getAttribute('href')));
  await shot(page, 'query');
  await go(page, urls.example, '#/query/0?q=' + encodeURIComponent('select * from Nope'), 'pre.query-error');
  same('mocked query error: a caret under byte 14', 'select * from Nope\n              ^ no class matches \'Nope\'',
    await text(page, 'pre.query-error'));
  await page.close();
  page = await open(browser, urls.java, problems, mock);
  await go(page, urls.java, '#/compare/1/2', '#compare tbody tr');
  same('mocked compare 1 -> 2: LeakedSession 600 (+200), 18.8 KiB (+6.2 KiB)', [['LeakedSession', '600', '+200', '18.8 KiB', '+6.2 KiB', '18.8 KiB', '+6.2 KiB']],
    await rows('#compare tbody tr'));
  await shot(page, 'compare-mocked');
  await page.close();
}

// fixtures/ocaml/sites.ml: records of 7 fields (64 B) built in Sites.plant
// at sites.ml line 18, column 5, called from the module's body (line 27,
// column 5); one word in 25 sampled, so some of the 5,000 carry their site.
async function ocamlSites(browser, url, problems) {
  const page = await open(browser, url, problems);
  await go(page, url, '#/classes/0?filter=' + encodeURIComponent('block(tag 0, 7 fields)'), '#classes tbody tr[data-label]');
  await Promise.all([page.waitForSelector('#instances tbody tr[data-id]'), page.click('#classes tbody tr[data-label] a')]);
  // the instances page lists ids; the first with a recorded site is looked
  // up through the same API the page uses
  const id = await page.evaluate(async () => {
    const t = new URLSearchParams(location.search).get('t');
    for (const r of document.querySelectorAll('#instances tbody tr[data-id]')) {
      const o = await (await fetch('/api/object?t=' + t + '&id=' + r.dataset.id)).json();
      if (o.site) return r.dataset.id;
    }
    return null;
  });
  check('ocaml sites: one of the first 100 records was sampled', id !== null);
  await openObject(page, '#instances tbody tr[data-id="' + id + '"] a.id');
  await page.waitForSelector('#site li');
  same('ocaml sites: allocated at Sites.plant (sites.ml:18:5), called from Sites (sites.ml:27:5)',
    ['Sites.plant (sites.ml:18:5)', 'Sites (sites.ml:27:5)'], (await page.$$eval('#site li', (l) => l.map((x) => x.textContent))).slice(0, 2));
  await shot(page, 'object-site');
  await page.close();
}

// tests/report/hostile.txt: class and field names with </script>, <!--,
// an entity and quotes; they stay text in every view.
async function hostile(browser, url, problems) {
  const page = await open(browser, url, problems);
  await page.waitForSelector('.suspect');
  await go(page, url, '#/tree/0', '#tree tr[data-kind="obj"]');
  await page.click('#tree tr[data-kind="obj"] .twisty');
  await page.waitForSelector('#tree tr[data-depth="1"]');
  same('hostile: the tree shows the names as text', [['</script><script>document.title="pwned"</script>', 'static field Hostile.X'], ['<!--&amp;"q"\\', '</script>']],
    await page.$$eval('#tree tr[data-kind="obj"]', (rows) => rows.slice(0, 2).map((r) => [r.dataset.label, r.cells[1].textContent])));
  await go(page, url, '#/classes/0', '#classes tbody tr[data-label]');
  await go(page, url, '#/object/0/2', '#paths ol.path li');
  same('hostile: no script ran', 'leakfind: object', await page.title());
  await page.close();
}

// fixtures/java/series/src/CollectionSeries.java after 300 operations: the
// HashMap in static field Registry.SESSIONS has one entry per operation, a
// Long key and an HmSession value: below its table, 600 members, and 300
// entry objects (HashMap$Node, or $TreeNode where colliding keys treeify).
async function collections(browser, url, problems) {
  const page = await open(browser, url, problems);
  await go(page, url, '#/classes/0?filter=HmSession', '#classes tbody tr[data-label="HmSession"]');
  await Promise.all([page.waitForSelector('#instances tbody tr[data-id] a.id'), page.click('#classes tbody tr[data-label="HmSession"] a')]);
  await openObject(page, '#instances tbody tr[data-id] a.id');
  same('collections: an HmSession is held from static field Registry.SESSIONS, then table',
    ['static field Registry.SESSIONS', 'table'], (await pathHops(page)).slice(0, 2));
  const table = await page.$eval('#paths ol.path li:nth-child(2)', (li) => li.dataset.id);
  await go(page, url, '#/tree/0/' + table, '#tree tr.collection');
  const note = await text(page, '#tree tr.collection');
  check('collections: the table holds 600 members; its structure 300 HashMap entries',
    /^600 members; its structure: 300 java\.util\.HashMap\$(Tree)?Node \(/.test(note), note);
  await page.click('#tree tr[data-depth="0"] button.group-toggle');
  await page.waitForSelector('#tree tr[data-kind="group"]');
  same('collections: its members by class: 300 HmSession, 300 java.lang.Long', [['HmSession', 300], ['java.lang.Long', 300]],
    (await page.$$eval('#tree tr[data-kind="group"]', (rows) => rows.map((r) => [r.dataset.label, Number(r.dataset.count)]))).sort());
  await shot(page, 'tree-collection');
  await page.close();
}

(async () => {
  const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu'] });
  const runs = { example, java, node, dotnet, ocaml, ocamlsites: ocamlSites, hostile, collections };
  async function run(name, f) {
    const problems = [];
    try { await f(problems); }
    catch (e) { check(name + ': the scenario runs to its end', false, e.message.split('\n')[0]); }
    same(name + ': no console error, no request elsewhere', [], problems);
  }
  try {
    for (const name of Object.keys(urls)) await run(name, (problems) => runs[name](browser, urls[name], problems));
    if (urls.example && urls.java) await run('mocked', (problems) => mocked(browser, urls, problems));
  } finally {
    await browser.close();
  }
  console.log(passed + ' passed, ' + failed + ' failed');
  process.exit(failed ? 1 : 0);
})();
