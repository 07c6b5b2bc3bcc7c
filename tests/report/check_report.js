// check_report.js - loads leakfind report pages in headless Chromium
// (Debian's chromium, driven by puppeteer-core) from disk with the network
// refused, and checks what they show against the fixtures' construction.
// usage: node check_report.js LEAKFIND OUT_DIR
// Prints "ok NAME" / "FAIL NAME: why" per check, then "N passed, M failed".
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const url = require('url');
const puppeteer = require('puppeteer-core');

const leakfind = path.resolve(process.argv[2]), outDir = path.resolve(process.argv[3]);
const repo = path.resolve(__dirname, '..', '..');
const shots = path.join(repo, 'build', 'report-screenshots');
fs.mkdirSync(outDir, { recursive: true });
fs.mkdirSync(shots, { recursive: true });
let passed = 0, failed = 0;
function check(name, ok, why) {
  if (ok) { passed++; console.log('ok   ' + name); }
  else { failed++; console.log('FAIL ' + name + (why ? ': ' + why : '')); }
}

function report(name, args) {
  const out = path.join(outDir, name + '.html');
  execFileSync(leakfind, ['report', ...args, '-o', out, '--no-progress'], { stdio: ['ignore', 'ignore', 'inherit'] });
  return out;
}

// Opens file in a fresh page: every request that is neither file: nor data:
// is refused and counted, and so is every script error.
async function open(browser, file, problems) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  await page.setRequestInterception(true);
  page.on('request', (r) => {
    const to = r.url();
    if (to.startsWith('file:') || to.startsWith('data:')) r.continue();
    else { problems.push('request ' + to); r.abort(); }
  });
  page.on('pageerror', (e) => problems.push('page error ' + e.message));
  page.on('console', (m) => { if (m.type() === 'error') problems.push('console ' + m.text()); });
  await page.goto(url.pathToFileURL(file).href, { waitUntil: 'load' });
  return page;
}

// The icicle's boxes one level below the zoomed node, largest first.
async function level(page, depth) {
  return page.$$eval('#icicle .cell[data-depth="' + depth + '"]:not(.small)', (cells) => cells.map((c) => ({
    index: Number(c.dataset.index), label: c.dataset.label, field: c.dataset.field, retained: Number(c.dataset.retained),
  })).sort((a, b) => b.retained - a.retained));
}

async function childRows(page) {
  return page.$$eval('#children tbody tr[data-index]', (rows) => rows.map((r) => ({
    label: r.cells[0].textContent, field: r.cells[1].textContent,
  })));
}

// planted_leak (fixtures/java/README.md): static final ArrayList<Leaked>
// PlantedLeak.LEAK = new ArrayList<>(1000) holding 1000 Leaked, each with its
// own byte[100]. Compressed oops: Leaked 16 bytes, byte[100] 16 + 100 -> 120,
// Object[1000] 16 + 4 x 1000 = 4016, ArrayList 24: the list retains
// 24 + 4016 + 1000 x (16 + 120) = 140040 bytes, its Object[] 140016.
async function plantedLeak(browser) {
  // --nodes above the dump's 11,196 reachable objects: every Leaked is in the page
  const file = report('planted', [path.join(repo, 'fixtures/java/dumps/planted_leak.hprof'), '--nodes', '12000']);
  const problems = [];
  const page = await open(browser, file, problems);
  const top = await level(page, 1);
  check('planted: the largest top owner is the ArrayList PlantedLeak.LEAK holds',
    top.length > 0 && top[0].label === 'java.util.ArrayList' && top[0].field === 'static field PlantedLeak.LEAK',
    JSON.stringify(top[0]));
  check('planted: it retains 140040 bytes', top.length > 0 && top[0].retained === 140040, top[0] && top[0].retained);
  await page.screenshot({ path: path.join(shots, 'planted-top.png'), fullPage: true });

  await page.click('#icicle .cell[data-index="' + top[0].index + '"]');
  const list = await level(page, 1);
  check('planted: zoomed into the list, its one child is the Object[] elementData',
    list.length === 1 && list[0].label === 'java.lang.Object[]' && list[0].field === 'elementData' &&
    list[0].retained === 140016, JSON.stringify(list));
  const crumbs = await page.$$eval('#crumbs .crumb', (c) => c.map((x) => x.textContent));
  check('planted: the path above reads top > ArrayList', crumbs.length === 2 && crumbs[1].startsWith('java.util.ArrayList'),
    JSON.stringify(crumbs));
  await page.screenshot({ path: path.join(shots, 'planted-list.png'), fullPage: true });

  await page.click('#icicle .cell[data-index="' + list[0].index + '"]');
  const held = await page.$eval('#children', (t) => Number(t.dataset.children));
  const rows = await childRows(page);
  check('planted: the Object[] holds 1000 objects', held === 1000, held);
  // an array's elements are what a collection holds: one row per class, with
  // their count and bytes, as `dominators` shows them (1000 x 136 B)
  const elements = await level(page, 1);
  check('planted: they are one row, 1,000 x Leaked, retaining 136000 bytes', rows.length === 1 &&
    elements.length === 1 && elements[0].label === '1,000 x Leaked' && elements[0].retained === 136000,
  JSON.stringify(elements));
  await page.screenshot({ path: path.join(shots, 'planted-array.png'), fullPage: true });

  await page.click('#crumbs .crumb[data-index="0"]');
  const back = await level(page, 1);
  check('planted: the path\'s first step zooms back out', back.length === top.length, back.length + ' vs ' + top.length);

  await suspects(page, 'planted', (x) => x.kind === 'object' && x.cls === 'java.util.ArrayList' &&
    x.accClass === 'Leaked' && x.accCount === 1000 && x.accBytes === 136000 && x.path.length === 1 &&
    x.path[0].startsWith('static field PlantedLeak.LEAK \u2192 java.util.ArrayList'),
  'the first suspect is the list, 1000 Leaked (136000 bytes) at the list itself (DESIGN 13: not its Object[]), path LEAK');
  await classTable(page);
  check('planted: no request left the disk, no script error', problems.length === 0, problems.join('; '));
  await page.close();
}

// The first suspect (expanded), as the page shows it.
async function suspects(page, name, want, what) {
  const first = await page.$$eval('#suspects details.suspect', (ds) => ds.slice(0, 1).map((d) => {
    const a = d.querySelector('p.accumulation');
    return { kind: d.dataset.kind, cls: d.dataset.class, open: d.open, summary: d.querySelector('summary').textContent,
      accClass: a && a.dataset.class, accCount: a && Number(a.dataset.count), accBytes: a && Number(a.dataset.bytes),
      path: Array.from(d.querySelectorAll('ol.path li')).map((li) => li.textContent) };
  }));
  const shown = await page.$eval('#suspects-section', (s) => !s.hidden);
  check(name + ': ' + what, shown && first.length === 1 && first[0].open && want(first[0]), JSON.stringify(first[0]));
}

async function classValues(page) {
  return page.$$eval('#classes tbody tr', (rows) => rows.map((r) => [r.cells[0].textContent].concat(JSON.parse(r.dataset.values))));
}

function ordered(rows, col, desc) {
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1][col], b = rows[i][col];
    if (desc ? a < b : a > b) return false;
  }
  return rows.length > 1;
}

async function classTable(page) {
  const leaked = (await classValues(page)).find((r) => r[0] === 'Leaked');
  check('planted: the class table counts 1000 Leaked', leaked && leaked[1] === 1000, JSON.stringify(leaked));
  await page.click('#classes th[data-col="1"]');
  check('classes: a click on count sorts by count, largest first', ordered(await classValues(page), 1, true));
  await page.click('#classes th[data-col="1"]');
  check('classes: a second click sorts smallest first', ordered(await classValues(page), 1, false));
  await page.click('#classes th[data-col="2"]');
  check('classes: a click on shallow sorts by shallow', ordered(await classValues(page), 2, true));
  await page.click('#classes th[data-col="0"]');
  check('classes: a click on class sorts by name', ordered(await classValues(page), 0, false));
}

// A holder that is no collection (a class of the program's own with 1000
// fields) keeps its children one by one: the table lists the first 25, then
// one row for the rest, and 200 when asked. Item k retains 1000 + k bytes,
// so the order is fixed.
async function manyChildren(browser) {
  const graph = path.join(outDir, 'many-children.txt');
  const lines = ['root\t1\tstatic field\tRegistry.ITEMS', 'node\t1\t16\tRegistry'];
  for (let k = 0; k < 1000; k++) {
    lines.push('node\t' + (10 + k) + '\t' + (1000 + k) + '\tItem');
    lines.push('edge\t1\t' + (10 + k) + '\tstrong\titem' + k);
  }
  fs.writeFileSync(graph, lines.join('\n') + '\n');
  const page = await open(browser, report('many-children', [graph]), []);
  await page.click('#icicle .cell[data-field="static field Registry.ITEMS"]');
  const rows = await childRows(page);
  check('children: the first 25 of 1000 are listed, largest first, then one row for the rest', rows.length === 25 &&
    rows[0].field === 'item999' && rows[24].field === 'item975' &&
    (await page.$eval('#children tr.more-rows', (r) => r.textContent)).startsWith('\u2026 975 more rows'),
  JSON.stringify(rows.slice(0, 2)));
  await page.click('#children tr.more-rows');
  const all = await childRows(page);
  check('children: clicking it lists 200', all.length === 200 &&
    (await page.$eval('#children tr.more-rows', (r) => r.textContent)) === '\u2026 800 more rows', all.length);
  await page.close();
}

// `leakfind dominators` on file: the rows that group a collection's members
// ("3,000 x Session") below the row that `at` picks, `below` levels down.
function dominatorGroups(file, at, below) {
  const tsv = execFileSync(leakfind, ['dominators', file, '--depth', '8', '--format', 'tsv', '--no-progress'],
    { encoding: 'utf8', maxBuffer: 1 << 26 });
  const rows = tsv.trim().split('\n').slice(1).map((l) => l.split('\t'));
  const start = rows.findIndex(at), depth = Number(rows[start] && rows[start][0]), groups = [];
  for (let i = start + 1; start >= 0 && i < rows.length && Number(rows[i][0]) > depth; i++)
    if (Number(rows[i][0]) === depth + below && /^[\d,]+ x /.test(rows[i][6].trim()))
      groups.push({ label: rows[i][6].trim(), retained: Number(rows[i][4]) });
  return groups;
}

// Zooms into the icicle's box whose field is `field`, then into its largest
// child `deeper` times; the boxes one level below, largest first.
async function zoomInto(page, field, deeper) {
  await page.click('#icicle .cell[data-field="' + field + '"]');
  for (let k = 0; k < deeper; k++)
    await page.click('#icicle .cell[data-index="' + (await level(page, 1))[0].index + '"]');
  return level(page, 1);
}

function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

// fixtures/java/src/MapSessions.java: a HashMap of 3,000 sessions in 1,000
// bucket chains of 3, a ConcurrentHashMap of 1,200 connections in 600 of 2.
// Below each table, one box per class of what the map holds, with the
// planted count and bytes (Session 240 B retained, Conn 144, a map's Node
// 32, a key 16), never a box per bucket; and what `dominators` prints.
async function mapSessionsJava(browser) {
  const dump = path.join(repo, 'fixtures/java/dumps/map_sessions.hprof.gz');
  const want = {
    SESSIONS: [{ label: '3,000 x MapSessions$Session', retained: 720000 },
      { label: '3,000 x java.util.HashMap$Node (entries)', retained: 96000 },
      { label: '3,000 x MapSessions$SessionKey', retained: 48000 }],
    CONNS: [{ label: '1,200 x MapSessions$Conn', retained: 172800 },
      { label: '1,200 x java.util.concurrent.ConcurrentHashMap$Node (entries)', retained: 38400 },
      { label: '1,200 x MapSessions$ConnKey', retained: 19200 }],
  };
  for (const nodes of [null, 12000]) {
    const name = 'map-sessions' + (nodes ? '-' + nodes : '');
    const problems = [];
    const page = await open(browser, report(name, [dump].concat(nodes ? ['--nodes', String(nodes)] : [])), problems);
    for (const field of ['SESSIONS', 'CONNS']) {
      const shown = (await zoomInto(page, 'static field MapSessions.' + field, 1)).map((c) => ({ label: c.label, retained: c.retained }));
      check(name + ': below ' + field + '\'s table, one box per class with the planted count and bytes',
        same(shown, want[field]), JSON.stringify(shown.slice(0, 4)));
      const heading = await page.$eval('#tree-section h3', (h) => h.textContent);
      const entries = field === 'SESSIONS' ? '9,000' : '3,600';
      check(name + ': the table below reads as what the collection holds, ' + entries + ' objects (entries, keys, values)',
        heading.startsWith('In the collection ') && heading.endsWith(': ' + entries + ' objects'), heading);
      const cli = dominatorGroups(dump, (r) => r[10] === 'static field MapSessions.' + field, 2);
      check(name + ': `dominators` shows these rows there too', same(cli, want[field]), JSON.stringify(cli));
      if (field === 'SESSIONS' && !nodes)
        await page.screenshot({ path: path.join(shots, 'map-sessions-table.png') });
      await page.click('#crumbs .crumb[data-index="0"]');
    }
    check(name + ': no request, no script error', problems.length === 0, problems.join('; '));
    await page.close();
  }
}

// fixtures/java/series/src/CollectionSeries.java after 300 operations: each
// collection's planted class is one box of all its entries, at the
// collection (a TreeMap's and a LinkedHashMap's entries are the map's own
// children) or below its array, whatever bucket or tree depth they sit at.
async function collectionSeries(browser) {
  const dump = path.join(repo, 'fixtures/java/series/dumps/collections-300.hprof.gz');
  const page = await open(browser, report('collections-300', [dump]), []);
  const want = [['SESSIONS', 1, '300 x HmSession'], ['CONNS', 1, '600 x ChmConn'], ['LRU', 0, '300 x LruPage'],
    ['WEAK', 1, '300 x WVal'], ['ORDERS', 0, '300 x TreeVal'], ['EVENTS', 1, '900 x ListEvent'],
    ['MIXED', 1, '900 x java.util.UUID']];
  const got = [];
  for (const [field, deeper, label] of want) {
    const boxes = await zoomInto(page, 'static field Registry.' + field, deeper);
    const of = label.replace(/^\d+ x /, ' x ');
    got.push(field + ' ' + boxes.filter((b) => b.label.endsWith(of)).map((b) => b.label).join('+'));
    await page.click('#crumbs .crumb[data-index="0"]');
  }
  check('collections-300: one box per collection of its planted class, every entry counted',
    same(got, want.map(([field, _d, label]) => field + ' ' + label)), JSON.stringify(got));
  await page.close();
}

// fixtures/node/map_sessions.js: a Map of 3,000 Sessions, an object used as
// a dictionary of 1,200 Conns. Their sizes are V8's: the counts are checked.
async function mapSessionsV8(browser) {
  const dump = path.join(repo, 'fixtures/node/map_sessions.heapsnapshot.gz');
  for (const nodes of [null, 12000]) {
    const name = 'v8-map-sessions' + (nodes ? '-' + nodes : '');
    const problems = [];
    const page = await open(browser, report(name, [dump].concat(nodes ? ['--nodes', String(nodes)] : [])), problems);
    const table = await zoomInto(page, 'sessions', 1);
    const sessions = table.filter((c) => / x Session$/.test(c.label) || c.label === 'Session');
    check(name + ': below the Map\'s table, one box of 3,000 x Session', sessions.length === 1 &&
      sessions[0].label === '3,000 x Session', JSON.stringify(sessions.slice(0, 3)));
    const cliSessions = dominatorGroups(dump, (r) => r[7] === 'sessions', 2).filter((g) => / x Session$/.test(g.label));
    check(name + ': `dominators` shows 3,000 x Session there too, with the same bytes', cliSessions.length === 1 &&
      cliSessions[0].label === '3,000 x Session' && sessions.length === 1 && cliSessions[0].retained === sessions[0].retained,
    JSON.stringify(cliSessions));
    await page.click('#crumbs .crumb[data-index="0"]');
    const dict = await zoomInto(page, 'connsById', 0);
    const conns = dict.filter((c) => / x Conn$/.test(c.label) || c.label === 'Conn');
    check(name + ': below the dictionary, one box of 1,200 x Conn', conns.length === 1 && conns[0].label === '1,200 x Conn',
      JSON.stringify(conns.slice(0, 3)));
    const cliConns = dominatorGroups(dump, (r) => r[7] === 'connsById', 1).filter((g) => / x Conn$/.test(g.label));
    check(name + ': `dominators` shows 1,200 x Conn there too, with the same bytes', cliConns.length === 1 &&
      cliConns[0].label === '1,200 x Conn' && conns.length === 1 && cliConns[0].retained === conns[0].retained,
    JSON.stringify(cliConns));
    check(name + ': no request, no script error', problems.length === 0, problems.join('; '));
    await page.close();
  }
}

// The Java leak series (fixtures/java/series/README.md): each operation keeps
// 2 LeakedSession and 1 LeakedToken in SessionRegistry.SESSIONS; dumps after
// 100, 200 and 300 operations.
async function series(browser) {
  const dumps = [100, 200, 300].map((n) => path.join(repo, 'fixtures/java/series/dumps/leak-' + n + '.hprof'));
  // the dump to look at first, then the earlier ones oldest first, as suspects takes them
  const file = report('series', [dumps[2], dumps[0], dumps[1], '--workload', '300,100,200']);
  const problems = [];
  const page = await open(browser, file, problems);
  const lines = await page.$$eval('#chart svg g.series', (gs) => gs.map((g) => ({
    name: g.dataset.name, points: Array.from(g.querySelectorAll('circle.point')).map((c) => Number(c.getAttribute('cy'))),
  })));
  const legend = await page.$$eval('#legend .legend-item', (l) => l.length);
  check('series: 8 classes on the chart, one legend entry each', lines.length === 8 && legend === 8, lines.length + ', ' + legend);
  check('series: one point per snapshot on every line', lines.every((l) => l.points.length === 3));
  const session = lines.find((l) => l.name === 'LeakedSession');
  check('series: LeakedSession is drawn and rises', session && session.points[0] > session.points[1] &&
    session.points[1] > session.points[2], JSON.stringify(session));
  check('series: so is LeakedToken', lines.some((l) => l.name === 'LeakedToken'));
  const growth = await page.$$eval('#growth tbody tr', (rows) => rows.map((r) => Array.from(r.cells).map((c) => c.textContent)));
  check('series: the growth table leads with LeakedSession 200, 400, 600, grows',
    growth.length > 0 && growth[0][0] === 'LeakedSession' && growth[0][1] === '200, 400, 600' && growth[0][4] === 'grows',
    JSON.stringify(growth[0]));
  check('series: its holder is SessionRegistry.SESSIONS', growth.length > 0 && growth[0][5].includes('SessionRegistry.SESSIONS'));
  // the headline: the class that leaks, its rate, the bytes of all that
  // grows per operation (2 x 32 + 16 = 80), where it is held, then the rest
  await suspects(page, 'series', (x) => x.kind === 'growth' && x.cls === 'LeakedSession' &&
    x.summary === 'LeakedSession +2.00 per unit of workload (80 B per unit in all) in static field ' +
      'SessionRegistry.SESSIONS (java.util.ArrayList); with it LeakedToken +1.00 (objects 200, 400, 600)',
  'the headline: LeakedSession +2.00 per operation, 80 B per operation in SessionRegistry.SESSIONS, then LeakedToken +1.00');
  await page.screenshot({ path: path.join(shots, 'series.png'), fullPage: true });
  check('series: no request left the disk, no script error', problems.length === 0, problems.join('; '));
  await page.close();
}

// fixtures/node/collections.js over 100, 200, 300 requests: its largest
// finding per request, 2 Recent of 40 bytes pushed on app.recent, leads with
// the class, its rate, its 80 bytes and the Array; Session (40 B and a
// 24-byte key string: 64 per request) in app.sessions among the others.
async function seriesV8(browser) {
  const dumps = [100, 200, 300].map((n) => path.join(repo, 'fixtures/node/collections_leak-' + n + '.heapsnapshot.gz'));
  const file = report('series-v8', [dumps[2], dumps[0], dumps[1], '--workload', '300,100,200']);
  const problems = [];
  const page = await open(browser, file, problems);
  const heads = await page.$$eval('#suspects details.suspect summary', (ss) => ss.map((x) => x.textContent));
  check('series-v8: the headline of Recent: 2 per request, 80 B, in app.recent', heads.some((h) =>
    h.startsWith('Recent +2.00 per unit of workload (80 B per unit) in (global) / app (Object) / recent (Array)')),
  JSON.stringify(heads));
  check('series-v8: the headline of Session: 1 per request, 64 B with its key, in app.sessions', heads.some((h) =>
    h.startsWith('Session +1.00 per unit of workload (64 B per unit in all) in (global) / app (Object) / sessions (Map)')),
  JSON.stringify(heads));
  check('series-v8: no request, no script error', problems.length === 0, problems.join('; '));
  await page.close();
}

// fixtures/dotnet/Leaky "named": System.String grows by 200 a snapshot,
// half of it the keys "user-N" under ByName, half the numbers "N" that
// formatting them caches (s_smallNumberCache); a Profile grows at ByName
// alone. The growth table's row names one holder and says there is another:
// ByName, as the two count alike and the keys are the longer strings.
async function seriesHolders(browser) {
  const dumps = [1, 2, 3].map((n) => path.join(repo, 'fixtures/dotnet/dumps/named.' + n + '.gcdump'));
  const file = report('series-holders', [dumps[2], dumps[0], dumps[1], '--workload', '3,1,2']);
  const problems = [];
  const page = await open(browser, file, problems);
  const growth = await page.$$eval('#growth tbody tr', (rows) => rows.map((r) => Array.from(r.cells).map((c) => c.textContent)));
  const row = (name) => growth.find((g) => g[0] === name) || [];
  check('series-holders: System.String grows under ByName and 1 more holder',
    /^static field ByName \(.*\) \(and 1 more holder\)$/.test(row('System.String')[5] || ''), JSON.stringify(row('System.String')));
  check('series-holders: Acme.Profile under ByName alone', /^static field ByName \(.*\)$/.test(row('Acme.Profile')[5] || '') &&
    !row('Acme.Profile')[5].includes('more holder'), JSON.stringify(row('Acme.Profile')));
  // a holder wider than its cell wraps between words: the dictionary's
  // class, 67 characters, moves down whole (it was cut at "Acme.Prof|ile>")
  const lines = await page.$$eval('#growth tbody td.name', (cells) => cells.map((c) => {
    const text = c.firstChild, words = [];
    let at = 0;
    for (const w of text.textContent.split(' ')) {
      const r = document.createRange();
      r.setStart(text, at);
      r.setEnd(text, at + w.length);
      const tops = Array.from(r.getClientRects()).map((q) => Math.round(q.top));
      words.push([w, new Set(tops).size, tops[0]]);
      at += w.length + 1;
    }
    return words;
  }));
  // the case itself: Profile's holder takes two lines at this width (the
  // String row's ByName, before it, takes a third for "(and 1 more holder)")
  const profile = lines.find((ws) => ws.some(([w]) => w === 'ByName') && !ws.some(([w]) => w === 'more')) || [];
  const split = lines.flat().filter(([, n]) => n > 1).map(([w]) => w);
  check('series-holders: the holders wrap between words, never inside one',
    new Set(profile.map(([, , top]) => top)).size === 2 && split.length === 0,
    'split: ' + split.join(' ') + '; ' + JSON.stringify(profile));
  check('series-holders: no request, no script error', problems.length === 0, problems.join('; '));
  await page.close();
}

// fixtures/graphs/make_mixed_list.sh: a list of 300 listeners of three
// classes, 616, 536 and 512 bytes each with its array: its elements are one
// group, 300 and 166,400 B (162.5 KiB), named by A, which retains most.
async function mixedList(browser) {
  const problems = [];
  const page = await open(browser, report('mixed-list', [path.join(repo, 'fixtures/graphs/mixed_list.txt')]), problems);
  const text = await page.$eval('#suspects details.suspect p.accumulation', (p) => p.textContent);
  check('mixed list: the list holds all of its elements, of three classes',
    text.includes('it holds 300 elements \u2192 A and 2 other classes, 162.5 KiB'), text);
  check('mixed list: no request, no script error', problems.length === 0, problems.join('; '));
  await page.close();
}

// Names that would end the data's <script> block if they were not escaped.
// fixtures/graphs/root_kinds.txt works out what each kind of root keeps
// alive as a whole: static field 1,980 B, thread 230, system class 80, JNI
// global 50, and 400 reached by two kinds.
async function rootKinds(browser) {
  const file = report('root-kinds', [path.join(repo, 'fixtures/graphs/root_kinds.txt')]);
  const problems = [];
  const page = await open(browser, file, problems);
  const bars = await page.$$eval('#roots .bar-row', (rows) => rows.map((r) => r.dataset.kind + ' ' + r.dataset.only));
  const want = ['static field 1980', 'thread 230', 'system class 80', 'JNI global 50', '(several kinds) 400'];
  check('root kinds: each kind\'s bar is what it keeps alive as a whole, then what kinds share',
    JSON.stringify(bars) === JSON.stringify(want), JSON.stringify(bars));
  const text = await page.$eval('#roots .bar-row .bar-value', (v) => v.textContent);
  check('root kinds: the static fields\' bar also says the sum over the roots alone',
    /5 roots; 1\.4 KiB summed over the roots alone/.test(text), text);
  check('root kinds: no string texts in a text graph, no strings section',
    await page.$eval('#strings-section', (x) => x.hidden), 'shown');
  check('root kinds: no request, no script error', problems.length === 0, problems.join('; '));
  await page.close();
}

// fixtures/java/src/DupStrings.java: 1,000 copies of "session-state:INVALID"
// (63,936 B wasted), 200 of a UTF-16 text (14,328 B wasted), both held by
// their lists' Object[].
async function dupStrings(browser) {
  const file = report('dup-strings', [path.join(repo, 'fixtures/java/dumps/dup_strings.hprof.gz')]);
  const problems = [];
  const page = await open(browser, file, problems);
  const rows = await page.$$eval('#strings tbody tr', (trs) => trs.slice(0, 2).map((r) =>
    [r.dataset.copies, r.dataset.wasted, r.cells[3].textContent, r.cells[4].textContent].join(' ')));
  check('strings: the two planted texts first, copies and bytes wasted',
    JSON.stringify(rows) === JSON.stringify(['1000 63936 java.lang.Object[] session-state:INVALID',
      '200 14328 java.lang.Object[] na\u00efve-\u00fcn\u00efcode-\u20ac']), JSON.stringify(rows));
  // the tree shows a string's text beside it: BIG, 'x' 100,000 times, cut
  // at the preview's 40 characters
  const big = await page.$$eval('#icicle .cell', (cs) => cs.filter((c) => c.dataset.field === 'static field DupStrings.BIG')
    .map((c) => c.dataset.label + ' ' + (c.querySelector('.value') || {}).textContent));
  check('strings: the tree shows DupStrings.BIG\'s text, cut after 40 characters',
    big.length === 1 && big[0] === 'java.lang.String ' + 'x'.repeat(40) + ' [... 99960 more chars]', JSON.stringify(big));
  check('strings: no request, no script error', problems.length === 0, problems.join('; '));
  await page.close();
}

async function hostile(browser) {
  const file = report('hostile', [path.join(__dirname, 'hostile.txt')]);
  const problems = [];
  const page = await open(browser, file, problems);
  const names = (await classValues(page)).map((r) => r[0]);
  const title = await page.title();
  check('hostile: names with </script> and <!-- stay text',
    names.includes('</script><script>document.title="pwned"</script>') && names.includes('<!--&amp;"q"\\') &&
    title === 'leakfind report', JSON.stringify(names) + ' title ' + title);
  const fields = (await level(page, 2)).map((c) => c.field);
  check('hostile: so does a field named </script>', fields.includes('</script>'), JSON.stringify(fields));
  check('hostile: no request, no script error', problems.length === 0, problems.join('; '));
  await page.close();
}

(async () => {
  const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--allow-file-access-from-files'] });
  try {
    await plantedLeak(browser);
    await manyChildren(browser);
    await mapSessionsJava(browser);
    await mapSessionsV8(browser);
    await collectionSeries(browser);
    await series(browser);
    await seriesV8(browser);
    await seriesHolders(browser);
    await hostile(browser);
    await rootKinds(browser);
    await dupStrings(browser);
    await mixedList(browser);
  } catch (e) {
    check('no exception', false, e.stack);
  } finally {
    await browser.close();
  }
  console.log(passed + ' passed, ' + failed + ' failed');
  process.exit(failed ? 1 : 0);
})();
