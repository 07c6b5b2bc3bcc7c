// express_heap.js - a real Express app's heap, with what such apps keep: many
// routes with handler closures, middleware chains, sessions, a cache of
// rendered pages, and a request log that holds every request and response
// object (the leak). Requests are real HTTP over loopback from the same
// process, so the heap holds Node's own IncomingMessage, ServerResponse,
// header maps and sockets. Then v8.writeHeapSnapshot().
//
// At scale 1: about 180 MB, 1.7M nodes (make bench: tests/bench/v8_express.sh).
//
// Run: node --max-old-space-size=4000 --expose-gc express_heap.js OUT.heapsnapshot SCALE EXPRESS_DIR
// EXPRESS_DIR holds node_modules/express (tests/bench/node/express/package.json).
'use strict';
const http = require('http');
const v8 = require('v8');

const [out, scaleArg, expressDir] = process.argv.slice(2);
if (!out || !expressDir) {
  console.error('usage: node express_heap.js OUT.heapsnapshot SCALE EXPRESS_DIR');
  process.exit(2);
}
const scale = Number(scaleArg || 1);
const express = require(require.resolve('express', {paths: [expressDir]}));

const ROUTERS = Math.max(1, Math.round(40 * scale));
const ROUTES_PER_ROUTER = 25;
const REQUESTS = Math.round(14000 * scale);
const SESSIONS = Math.round(6000 * scale);
const CONCURRENCY = 16;

// The app's state: what a long-running service accumulates.
const state = {
  sessions: new Map(),      // sid -> session
  rendered: new Map(),      // url -> html (never evicted)
  requestLog: [],           // every request and its response: the leak
  metrics: new Map(),       // route -> counters
};

function parseCookies(req, res, next) {
  const cookies = {};
  for (const part of (req.headers.cookie || '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) cookies[part.slice(0, eq).trim()] = decodeURIComponent(part.slice(eq + 1).trim());
  }
  req.cookies = cookies;
  next();
}

function session(req, res, next) {
  const sid = req.cookies.sid || 'anon';
  let s = state.sessions.get(sid);
  if (!s) {
    s = {id: sid, createdAt: Date.now(), views: 0, user: {name: 'user ' + sid, roles: ['reader']},
         cart: [], flash: [], csrf: 'csrf-' + sid + '-' + Math.random().toString(36).slice(2)};
    state.sessions.set(sid, s);
  }
  s.views++;
  if (s.views % 3 === 0) s.cart.push({sku: 'sku-' + (s.views * 7919 % 100000), qty: s.views % 5 + 1});
  if (s.views % 5 === 0) s.flash.push('visited ' + req.originalUrl);
  req.session = s;
  next();
}

function requestLogger(req, res, next) {
  const entry = {req, res, at: Date.now(), id: req.headers['x-request-id'], timing: {start: process.hrtime.bigint()}};
  state.requestLog.push(entry);
  res.on('finish', () => { entry.timing.end = process.hrtime.bigint(); entry.status = res.statusCode; });
  next();
}

function render(title, session, rows) {
  let html = '<!doctype html><html><head><title>' + title + '</title></head><body><h1>' + title + '</h1>';
  html += '<p>Welcome back, ' + session.user.name + ' (' + session.views + ' views)</p><ul>';
  for (const r of rows) html += '<li data-id="' + r.id + '">' + r.label + ': ' + r.price + '</li>';
  return html + '</ul><form><input type="hidden" name="csrf" value="' + session.csrf + '"></form></body></html>';
}

// One route's handler: a closure over its own configuration.
function makeHandler(routerIndex, routeIndex) {
  const config = {name: 'route-' + routerIndex + '-' + routeIndex, ttl: 1000 * (routeIndex + 1),
                  fields: ['id', 'label', 'price'], template: 'Item list ' + routerIndex + '/' + routeIndex};
  const counters = {hits: 0, bytes: 0};
  state.metrics.set(config.name, counters);
  return function handler(req, res) {
    counters.hits++;
    const key = req.originalUrl;
    let html = state.rendered.get(key);
    if (!html) {
      const rows = [];
      const n = 3 + (Number(req.params.id) % 6);
      for (let k = 0; k < n; k++)
        rows.push({id: req.params.id + '-' + k, label: config.template + ' #' + k, price: (k * 3.25 + routeIndex).toFixed(2)});
      html = render(config.template + ' ' + req.params.id, req.session, rows);
      state.rendered.set(key, html);
    }
    counters.bytes += html.length;
    if (req.method === 'POST') req.session.lastPost = req.body;
    res.set('x-route', config.name).type('html').send(html);
  };
}

const app = express();
app.use(express.json());
app.use(parseCookies);
app.use(session);
app.use(requestLogger);
for (let r = 0; r < ROUTERS; r++) {
  const router = express.Router();
  router.use((req, res, next) => { req.routerIndex = r; next(); });
  for (let k = 0; k < ROUTES_PER_ROUTER; k++) {
    const h = makeHandler(r, k);
    router.get('/res' + k + '/:id', h);
    router.post('/res' + k + '/:id', h);
  }
  app.use('/api/v' + r, router);
}

const agents = ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36', 'curl/8.4.0', 'okhttp/4.12.0',
                'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) Safari/605.1.15'];
function requestOne(port, agent, i) {
  return new Promise((resolve, reject) => {
    const r = i * 2654435761 % 4294967296;
    const post = i % 7 === 0;
    const body = post ? JSON.stringify({item: i, note: 'note ' + i, tags: ['a' + (i % 13), 'b' + (i % 17)]}) : null;
    const headers = {'cookie': 'sid=s' + (r % SESSIONS) + '; theme=dark', 'user-agent': agents[i % agents.length],
                     'accept': 'text/html,application/json', 'x-request-id': 'req-' + i};
    if (post) headers['content-type'] = 'application/json';
    const req = http.request({port, agent, method: post ? 'POST' : 'GET', headers,
                              path: '/api/v' + (r % ROUTERS) + '/res' + (i % ROUTES_PER_ROUTER) + '/' + (r % 5000)},
                             res => { res.resume(); res.on('end', resolve); });
    req.on('error', reject);
    req.end(body);
  });
}

async function main() {
  const server = http.createServer(app);
  await new Promise(resolve => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  const agent = new http.Agent({keepAlive: true, maxSockets: CONCURRENCY});
  let next = 0;
  const worker = async () => { while (next < REQUESTS) await requestOne(port, agent, next++); };
  await Promise.all(Array.from({length: CONCURRENCY}, worker));
  agent.destroy();
  globalThis.expressBench = {app, server, state};
  if (typeof gc === 'function') gc();
  v8.writeHeapSnapshot(out);
  server.close();
  console.error(`${REQUESTS} requests, ${state.sessions.size} sessions, ${state.rendered.size} pages: ${out}`);
}
main().then(() => process.exit(0), e => { console.error(e); process.exit(1); });
