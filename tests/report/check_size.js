// check_size.js - a report's data block: how many dominator-tree objects it
// carries and whether "more" boxes account for the rest.
// usage: node check_size.js REPORT.html NODES MAX_BYTES [SKIPPED_HOPS]
//   NODES: the objects the tree must carry, exactly, or "<=N": at most N
// Prints "ok NAME" / "FAIL NAME: why" per check, then "N passed, M failed".
'use strict';
const fs = require('fs');
const [file, nodesArg, maxArg] = process.argv.slice(2);
const atMost = nodesArg.startsWith('<='), nodes = Number(atMost ? nodesArg.slice(2) : nodesArg);
const max = Number(maxArg), skipped = process.argv[5];
let passed = 0, failed = 0;
function check(name, ok, why) {
  if (ok) { passed++; console.log('ok   ' + name); }
  else { failed++; console.log('FAIL ' + name + (why !== undefined ? ': ' + why : '')); }
}
const html = fs.readFileSync(file, 'utf8');
const size = fs.statSync(file).size;
check('size: ' + file + ' is under ' + max + ' bytes', size < max, size);
const open = '<script type="application/json" id="report-data">';
const start = html.indexOf(open) + open.length, end = html.indexOf('</script>', start);
const data = JSON.parse(html.slice(start, end));
const rows = data.tree.rows;
const objects = rows.filter((r) => r[0] >= 0 && r[6] === 0).length;
const more = rows.filter((r) => r[6] > 0);
check('size: the tree carries ' + (atMost ? 'at most ' : 'exactly ') + nodes + ' objects',
  atMost ? objects <= nodes && objects > 0 : objects === nodes, objects);
// Dominator-tree siblings share nothing: a node's retained size is its own
// plus its children's, "more" boxes included.
const sum = new Map();
rows.forEach((r) => { if (r[0] >= 0) sum.set(r[0], (sum.get(r[0]) || 0) + r[4]); });
const bad = rows.filter((r, i) => sum.has(i) && r[4] - (r[3] || 0) !== sum.get(i));
check('size: each node\'s children, "more" boxes included, add up to its retained size less its own',
  bad.length === 0, JSON.stringify(bad.slice(0, 2)));
// Largest first: every child left out retains at most what the smallest
// object taken retains, so a "more" box's average does too. Not below a
// collection (column 8): its members go one by one or into their class's
// box by `dominators`' rule, whatever the budget.
const smallest = Math.min(...rows.filter((r) => r[0] >= 0 && r[6] === 0).map((r) => r[4]));
const larger = more.filter((r) => !rows[r[0]][8] && r[4] / r[6] > smallest);
check('size: the objects taken are the largest (no "more" box averages more than the smallest taken)',
  larger.length === 0, 'smallest taken ' + smallest + ', ' + JSON.stringify(larger.slice(0, 2)));
// What a node leaves out is at most 4 classes and one box for the rest.
const boxes = new Map();
more.forEach((r) => boxes.set(r[0], (boxes.get(r[0]) || 0) + 1));
check('size: at most 5 "more" boxes per node', Math.max(0, ...boxes.values()) <= 5, JSON.stringify([...boxes].slice(0, 3)));
// A suspect's path keeps its first 5 hops and last 35, one hop standing for
// the rest (a linked list's accumulation point is a million hops down).
const paths = (data.suspects ? data.suspects.items : []).map((x) => (x.path || []).length);
check('size: no suspect\'s path is longer than 41 hops', paths.every((n) => n <= 41), JSON.stringify(paths));
if (skipped !== undefined) {
  const p = data.suspects.items.length ? data.suspects.items[0].path : null;
  check('size: the first suspect\'s path is its first 5 hops, "\u2026 ' + skipped + ' more hops", its last 35',
    p && p.length === 41 && p[5][0] === '\u2026 ' + skipped + ' more hops' && p[5][1] === null &&
    p[4][1] !== null && p[6][1] !== null, p && JSON.stringify(p.slice(4, 7)));
}
console.log(passed + ' passed, ' + failed + ' failed');
process.exit(failed ? 1 : 0);
