// rules_check.mjs - an independent, plain re-implementation of the rules
// written down in docs/V8-NOTES.draft.md (not DevTools' code: a different
// dominator algorithm, set-based formulations), compared node by node with
// the harness output. If it agrees everywhere, the rules in the notes are
// complete for these snapshots.
//
//   node rules_check.mjs FILE.heapsnapshot[.gz] FILE.devtools.tsv[.gz] [FILE.devtools-aggregates.tsv]
//
// Checks: self size after the ownership transfer, dominator, retained size,
// distance, class name (plain objects' inferred interface names excepted:
// counted separately); with the aggregates file, the Summary rows (count,
// self, max_ret, distance), grouping by the class names DevTools printed.
import * as fs from 'node:fs';
import * as zlib from 'node:zlib';

const read = f => (f.endsWith('.gz') ? zlib.gunzipSync(fs.readFileSync(f)) : fs.readFileSync(f)).toString('utf8');
const [snapFile, tsvFile, aggFile] = process.argv.slice(2);
const snap = JSON.parse(read(snapFile));
const meta = snap.snapshot.meta;
const NF = meta.node_fields.length, EF = meta.edge_fields.length;
const nT = meta.node_fields.indexOf('type'), nName = meta.node_fields.indexOf('name'),
      nId = meta.node_fields.indexOf('id'), nSelf = meta.node_fields.indexOf('self_size'),
      nEc = meta.node_fields.indexOf('edge_count');
const eT = meta.edge_fields.indexOf('type'), eName = meta.edge_fields.indexOf('name_or_index'),
      eTo = meta.edge_fields.indexOf('to_node');
const nodeTypes = meta.node_types[nT], edgeTypes = meta.edge_types[eT];
const NT = t => nodeTypes.indexOf(t), ET = t => edgeTypes.indexOf(t);
const {nodes, edges, strings} = snap;
const N = nodes.length / NF, E = edges.length / EF;
const root = (snap.snapshot.root_index || 0) / NF;
const type = o => nodes[o * NF + nT], rawName = o => strings[nodes[o * NF + nName]], id = o => nodes[o * NF + nId];

// CSR of out-edges (ordinals) and in-edges.
const first = new Uint32Array(N + 1);
for (let o = 0, e = 0; o < N; o++) { first[o] = e; e += nodes[o * NF + nEc]; }
first[N] = E;
const to = new Uint32Array(E), et = new Uint8Array(E);
for (let e = 0; e < E; e++) { to[e] = edges[e * EF + eTo] / NF; et[e] = edges[e * EF + eT]; }
const from = new Uint32Array(E);
for (let o = 0; o < N; o++) for (let e = first[o]; e < first[o + 1]; e++) from[e] = o;
const WEAK = ET('weak'), SHORTCUT = ET('shortcut'), INTERNAL = ET('internal'), ELEMENT = ET('element'),
      HIDDEN_E = ET('hidden'), PROPERTY = ET('property');
const edgeName = e => (et[e] === ELEMENT || et[e] === HIDDEN_E) ? String(edges[e * EF + eName]) : strings[edges[e * EF + eName]];

// Rule: page-owned = reachable over non-weak edges from the root's shortcut
// targets and its element targets that are synthetic "(Document DOM trees)".
const SYNTH = NT('synthetic');
const page = new Uint8Array(N);
{
  const stack = [];
  for (let e = first[root]; e < first[root + 1]; e++) {
    const t = to[e];
    if (et[e] === SHORTCUT || (et[e] === ELEMENT && type(t) === SYNTH && rawName(t) === '(Document DOM trees)')) {
      if (!page[t]) { page[t] = 1; stack.push(t); }
    }
  }
  while (stack.length) {
    const o = stack.pop();
    for (let e = first[o]; e < first[o + 1]; e++) {
      if (et[e] === WEAK || page[to[e]]) continue;
      page[to[e]] = 1; stack.push(to[e]);
    }
  }
}
// Rule: essential edges.
const wm = /^\d+( \/ part of key \(.*? @\d+\) -> value \(.*? @\d+\) pair in WeakMap \(table @(\d+)\))$/;
const essential = new Uint8Array(E);
for (let e = 0; e < E; e++) {
  const s = from[e], t = to[e];
  if (et[e] === WEAK || s === t) continue;
  if (et[e] === INTERNAL) { const m = edgeName(e).match(wm); if (m && id(s) === Number(m[2])) continue; }
  if (s !== root && (et[e] === SHORTCUT || (page[t] && !page[s]))) continue;
  essential[e] = 1;
}
// Rule: G' = essential edges + root -> every non-root node with no essential in-edge.
const hasEssIn = new Uint8Array(N);
for (let e = 0; e < E; e++) if (essential[e]) hasEssIn[to[e]] = 1;
const succ = o => {
  const r = [];
  for (let e = first[o]; e < first[o + 1]; e++) if (essential[e]) r.push(to[e]);
  if (o === root) for (let v = 0; v < N; v++) if (v !== root && !hasEssIn[v]) r.push(v);
  return r;
};
// Dominators of G' by semi-NCA (Georgiadis): semidominators as in
// Lengauer-Tarjan with path compression, then each idom is the nearest
// ancestor of the DFS parent whose DFS number is at most the semidominator.
const preds = Array.from({length: N}, () => []);
const succs = new Array(N);
for (let o = 0; o < N; o++) { succs[o] = succ(o); for (const t of succs[o]) preds[t].push(o); }
const dfn = new Int32Array(N).fill(-1), vertex = [], parent = new Int32Array(N).fill(-1);
{
  const stack = [[root, 0]]; dfn[root] = 0; vertex.push(root);
  while (stack.length) {
    const top = stack[stack.length - 1];
    if (top[1] < succs[top[0]].length) {
      const t = succs[top[0]][top[1]++];
      if (dfn[t] < 0) { dfn[t] = vertex.length; vertex.push(t); parent[t] = top[0]; stack.push([t, 0]); }
    } else stack.pop();
  }
}
const semi = new Int32Array(N), label = new Int32Array(N), anc = new Int32Array(N).fill(-1);
for (let o = 0; o < N; o++) { semi[o] = dfn[o]; label[o] = o; }
const evalv = v => {
  if (anc[v] < 0) return v;
  const path = [];
  for (let x = v; anc[anc[x]] >= 0; x = anc[x]) path.push(x);
  for (let i = path.length - 1; i >= 0; i--) {
    const x = path[i];
    if (semi[label[anc[x]]] < semi[label[x]]) label[x] = label[anc[x]];
    anc[x] = anc[anc[x]];
  }
  return label[v];
};
for (let i = vertex.length - 1; i >= 1; i--) {
  const w = vertex[i];
  for (const v of preds[w]) {
    if (dfn[v] < 0) continue;
    const u = evalv(v);
    if (semi[u] < semi[w]) semi[w] = semi[u];
  }
  anc[w] = parent[w];
}
const idom = new Int32Array(N).fill(-1); idom[root] = root;
for (let i = 1; i < vertex.length; i++) {
  const w = vertex[i];
  let x = parent[w];
  while (dfn[x] > semi[w]) x = idom[x];
  idom[w] = x;
}
let unreachable = 0;
for (let o = 0; o < N; o++) if (idom[o] === -1) { idom[o] = root; unreachable++; }  // Rule: not in G' -> root.

// Rule: shallow sizes: hidden/array/'system / ExternalStringData' natives with
// exactly one owner (a self-owning node reaching them through such nodes over
// non-weak edges) move their size into it, unless the owner is synthetic or the
// root. Only when the root has a non-synthetic child.
const self = new Float64Array(N);
for (let o = 0; o < N; o++) self[o] = nodes[o * NF + nSelf];
let hasUserRoots = false;
for (let e = first[root]; e < first[root + 1]; e++) if (type(to[e]) !== SYNTH) hasUserRoots = true;
if (hasUserRoots) {
  const HID = NT('hidden'), ARR = NT('array'), NAT = NT('native');
  const ownable = o => type(o) === HID || type(o) === ARR || (type(o) === NAT && rawName(o) === 'system / ExternalStringData');
  const owner = new Int32Array(N).fill(-1);  // -1 none, -2 many
  for (let o = 0; o < N; o++) {
    if (ownable(o)) continue;
    const stack = [o]; const mark = new Set([o]);
    while (stack.length) {
      const x = stack.pop();
      for (let e = first[x]; e < first[x + 1]; e++) {
        const t = to[e];
        if (et[e] === WEAK || !ownable(t) || mark.has(t)) continue;
        mark.add(t); stack.push(t);
        owner[t] = owner[t] === -1 ? o : (owner[t] === o ? o : -2);
      }
    }
  }
  for (let o = 0; o < N; o++) {
    const w = owner[o];
    if (w < 0 || type(w) === SYNTH || w === root) continue;
    self[w] += self[o]; self[o] = 0;
  }
}
// Retained sizes: sum over the dominator tree.
const retained = Float64Array.from(self);
{
  const depth = new Int32Array(N).fill(-1); depth[root] = 0;
  const d = o => { const path = []; while (depth[o] < 0) { path.push(o); o = idom[o]; } let k = depth[o]; while (path.length) depth[path.pop()] = ++k; };
  for (let o = 0; o < N; o++) d(o);
  const byDepth = [...Array(N).keys()].sort((a, b) => depth[b] - depth[a]);
  for (const o of byDepth) if (o !== root) retained[idom[o]] += retained[o];
}
// Distances: BFS from user roots (non-synthetic root children) at 1, then from
// the root at 100000000 (0 without user roots); weak edges never, plus the
// three filters. One filter state across both passes.
const dist = new Int32Array(N).fill(-5);
{
  const pending = new Set();
  const NATIVE_CTX = 'system / NativeContext', HID = NT('hidden'), ARR = NT('array');
  const filter = (s, e) => {
    if (type(s) === HID && edgeName(e) === 'sloppy_function_map' && rawName(s) === NATIVE_CTX) return false;
    if (type(s) === ARR && rawName(s) === '(map descriptors)') { const i = parseInt(edgeName(e), 10); return i < 2 || i % 3 !== 1; }
    if (et[e] === INTERNAL) {
      const m = edgeName(e).match(wm);
      if (m) { if (!pending.delete(m[1])) { pending.add(m[1]); return false; } }
    }
    return true;
  };
  const bfs = q => {
    for (let i = 0; i < q.length; i++) {
      const s = q[i];
      for (let e = first[s]; e < first[s + 1]; e++) {
        if (et[e] === WEAK || dist[to[e]] !== -5 || !filter(s, e)) continue;
        dist[to[e]] = dist[s] + 1; q.push(to[e]);
      }
    }
  };
  const q = [];
  for (let e = first[root]; e < first[root + 1]; e++) if (type(to[e]) !== SYNTH) { dist[to[e]] = 1; q.push(to[e]); }
  bfs(q);
  dist[root] = q.length ? 100000000 : 0;
  bfs([root]);
}
// Class names (without the inferred "{a, b}" interface names of plain Objects).
const className = o => {
  const t = nodeTypes[type(o)];
  if (t === 'hidden') return '(system)';
  if (t === 'code') return '(compiled code)';
  if (t === 'closure') return 'Function';
  if (t === 'regexp') return 'RegExp';
  if (t === 'object' || t === 'native') {
    let n = rawName(o);   // (a detached native's name gets "Detached " first; none here is checked)
    if (n.startsWith('<')) { const sp = n.indexOf(' '); if (sp !== -1) n = n.substring(0, sp) + '>'; }
    return n;
  }
  return '(' + t + ')';
};

// Compare with the harness output.
const tsv = read(tsvFile).split('\n');
const cols = tsv[0].slice(1).split('\t');
const c = name => cols.indexOf(name);
let bad = {self: 0, dom: 0, ret: 0, dist: 0, cls: 0}, plainObjects = 0, detached = 0, lines = 0;
const examples = [];
for (const line of tsv.slice(1)) {
  if (!line) continue;
  const f = line.split('\t');
  const o = Number(f[c('node_index')]) / NF; lines++;
  const chk = (k, mine, theirs) => {
    if (String(mine) !== theirs) { bad[k]++; if (examples.length < 8) examples.push(`${k} @${id(o)}: mine ${mine} devtools ${theirs}`); }
  };
  chk('self', self[o], f[c('self_size')]);
  chk('dom', id(idom[o]), f[c('dominator_id')]);
  chk('ret', retained[o], f[c('retained_size')]);
  chk('dist', dist[o], f[c('distance')]);
  if (nodeTypes[type(o)] === 'object' && rawName(o) === 'Object') plainObjects++;
  else if (f[c('class_name')].startsWith('Detached ')) detached++;
  else chk('cls', className(o), f[c('class_name')]);
}
// Summary rows: nodes with self > 0; key = location of 'object' nodes + class
// name; max_ret = sum of retained sizes of the class's nodes that have no
// dominator-tree ancestor of the same key with self > 0.
let aggBad = 0;
if (aggFile) {
  const cls = new Array(N);
  for (const line of tsv.slice(1)) {
    if (!line) continue;
    const f = line.split('\t');
    cls[Number(f[c('node_index')]) / NF] = f[c('class_name')];
  }
  const loc = new Map();
  const LF = meta.location_fields || [];
  for (let i = 0; i < (snap.locations || []).length; i += LF.length) {
    const l = snap.locations;
    loc.set(l[i + LF.indexOf('object_index')] / NF,
            `${l[i + LF.indexOf('script_id')]},${l[i + LF.indexOf('line')]},${l[i + LF.indexOf('column')]}`);
  }
  const OBJ = NT('object');
  const key = o => (type(o) === OBJ && loc.has(o) ? loc.get(o) : '') + ',' + cls[o];
  const agg = new Map();
  for (let o = 0; o < N; o++) {
    if (!self[o]) continue;
    const k = key(o);
    let a = agg.get(k);
    if (!a) agg.set(k, a = {count: 0, self: 0, maxRet: 0, dist: Infinity});
    a.count++; a.self += self[o]; a.dist = Math.min(a.dist, dist[o]);
  }
  // Top-most nodes of each key on their dominator-tree path.
  const kids = Array.from({length: N}, () => []);
  for (let o = 0; o < N; o++) if (o !== root) kids[idom[o]].push(o);
  const onPath = new Map();
  const stack = [[root, 0]];
  const enter = o => { if (self[o]) { const k = key(o); if (!onPath.get(k)) agg.get(k).maxRet += retained[o]; onPath.set(k, (onPath.get(k) || 0) + 1); } };
  const leave = o => { if (self[o]) { const k = key(o); onPath.set(k, onPath.get(k) - 1); } };
  enter(root);
  while (stack.length) {
    const top = stack[stack.length - 1];
    if (top[1] < kids[top[0]].length) { const ch = kids[top[0]][top[1]++]; enter(ch); stack.push([ch, 0]); }
    else { leave(top[0]); stack.pop(); }
  }
  const theirs = read(aggFile).split('\n').filter(l => l && l[0] !== '#').map(l => l.split('\t'));
  for (const [k, , count, selfSum, maxRet, d] of theirs) {
    const a = agg.get(k);
    if (!a || a.count !== +count || a.self !== +selfSum || a.maxRet !== +maxRet || a.dist !== +d) {
      aggBad++;
      if (examples.length < 12) examples.push(`aggregate ${k}: mine ${JSON.stringify(a)} devtools ${count} ${selfSum} ${maxRet} ${d}`);
    }
  }
  if (theirs.length !== agg.size) aggBad++;
}
bad.aggregates = aggBad;
console.log(`${snapFile}: ${lines} nodes (${N} in file), ${unreachable} outside G'; mismatches ` +
            Object.entries(bad).map(([k, v]) => `${k}=${v}`).join(' ') +
            `; class not checked: ${plainObjects} plain Objects, ${detached} Detached natives`);
for (const x of examples) console.log('  ' + x);
process.exit(Object.values(bad).some(v => v) || lines !== N ? 1 : 0);
