// harness.ts - run Chrome DevTools' own heap snapshot analysis headless under
// Node, as the reference that leakfind's V8 numbers are checked against.
//
// The snapshot is loaded by DevTools' HeapSnapshotLoader from text chunks and
// built into a JSHeapSnapshot exactly as the heap snapshot worker does
// (HeapSnapshotLoader.buildSnapshot -> JSHeapSnapshot.initialize), with the
// "secondary worker" (dominators, retained sizes) on a MessageChannel in this
// thread, as DevTools' own createJSHeapSnapshotForTesting does.
//
// Usage (after ./build.sh):
//   node dist/harness.mjs FILE.heapsnapshot            > nodes.tsv
//   node dist/harness.mjs --aggregates FILE.heapsnapshot > aggregates.tsv
//   node dist/harness.mjs --diff BASE.heapsnapshot CURRENT.heapsnapshot > diff.tsv
//   node dist/harness.mjs --load-only FILE.heapsnapshot   (for timing: load, initialize, one summary line)
//   node dist/harness.mjs --sites FILE.heapsnapshot    > sites.tsv   (allocation view: live objects per function)
// FILE may be gzip-compressed (.gz). Output columns: see the '#' header line.
// Strings are escaped: backslash, TAB, LF and CR as \\ \t \n \r.

import './polyfills.js';

import * as fs from 'node:fs';
import * as zlib from 'node:zlib';

import * as HeapSnapshotModel from
    'chrome-devtools-frontend/front_end/models/heap_snapshot/heap_snapshot.js';
import {JSHeapSnapshot} from
    'chrome-devtools-frontend/front_end/entrypoints/heap_snapshot_worker/HeapSnapshot.js';
import {SecondaryInitManager} from
    'chrome-devtools-frontend/front_end/entrypoints/heap_snapshot_worker/HeapSnapshot.js';
import {HeapSnapshotLoader} from
    'chrome-devtools-frontend/front_end/entrypoints/heap_snapshot_worker/HeapSnapshotLoader.js';

// The self sizes as written in the file: calculateShallowSizes() moves the
// sizes of single-owner 'array'/'hidden' nodes into their owner in place, so
// capture them just before it runs.
const rawSelfSizes = new WeakMap<object, Uint32Array>();
const originalCalculateShallowSizes = JSHeapSnapshot.prototype.calculateShallowSizes;
JSHeapSnapshot.prototype.calculateShallowSizes = function(this: JSHeapSnapshot): void {
  const sizes = new Uint32Array(this.nodeCount);
  for (let i = 0; i < this.nodeCount; i++) {
    sizes[i] = this.nodes.getValue(i * this.nodeFieldCount + this.nodeSelfSizeOffset);
  }
  rawSelfSizes.set(this, sizes);
  originalCalculateShallowSizes.call(this);
};

async function load(file: string): Promise<JSHeapSnapshot> {
  const dispatcher = {sendEvent(): void {}};
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const loader = new HeapSnapshotLoader(dispatcher as any);
  let stream: NodeJS.ReadableStream = fs.createReadStream(file, {highWaterMark: 1 << 20});
  if (file.endsWith('.gz')) {
    stream = stream.pipe(zlib.createGunzip());
  }
  // DevTools reads the file with a streaming TextDecoder and writes the text
  // chunks into the loader; do the same.
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of stream) {
    loader.write(decoder.decode(chunk as Uint8Array, {stream: true}));
  }
  loader.write(decoder.decode());
  loader.close();
  const channel = new MessageChannel();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  new SecondaryInitManager(channel.port2 as any);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const snapshot = await loader.buildSnapshot(channel.port1 as any);
  channel.port1.close();
  channel.port2.close();
  return snapshot;
}

function esc(s: string): string {
  return s.replace(/[\\\t\n\r]/g, c => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

class Out {
  #parts: string[] = [];
  #size = 0;
  line(fields: Array<string|number>): void {
    const s = fields.join('\t') + '\n';
    this.#parts.push(s);
    this.#size += s.length;
    if (this.#size > (1 << 22)) {
      this.flush();
    }
  }
  flush(): void {
    if (this.#parts.length) {
      fs.writeSync(1, this.#parts.join(''));
    }
    this.#parts = [];
    this.#size = 0;
  }
}

function printNodes(snapshot: JSHeapSnapshot): void {
  const out = new Out();
  const hasDetachedness = snapshot.nodeDetachednessAndClassIndexOffset !== -1;
  const raw = rawSelfSizes.get(snapshot) as Uint32Array;
  const cols = ['id', 'node_index', 'type', 'class_name', 'name', 'self_size', 'retained_size', 'dominator_id',
                'distance', 'raw_self_size'];
  if (hasDetachedness) {
    cols.push('detachedness');
  }
  out.line(['#' + cols[0], ...cols.slice(1)]);
  const node = snapshot.createNode(0);
  const dom = snapshot.createNode(0);
  for (let ordinal = 0; ordinal < snapshot.nodeCount; ordinal++) {
    node.nodeIndex = ordinal * snapshot.nodeFieldCount;
    dom.nodeIndex = node.dominatorIndex();
    const fields: Array<string|number> = [
      node.id(), node.nodeIndex, node.type(), esc(node.className()), esc(node.name()), node.selfSize(),
      node.retainedSize(), dom.id(), node.distance(), raw[ordinal],
    ];
    if (hasDetachedness) {
      fields.push(node.detachedness());
    }
    out.line(fields);
  }
  out.flush();
}

function sortedKeys(o: object): string[] {
  return Object.keys(o).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function printAggregates(snapshot: JSHeapSnapshot): void {
  const out = new Out();
  // What the Summary view asks for with the default "All objects" filter.
  const aggregates = snapshot.aggregatesWithFilter(new HeapSnapshotModel.HeapSnapshotModel.NodeFilter());
  out.line(['#class_key', 'class_name', 'count', 'self_size', 'max_ret', 'distance']);
  for (const key of sortedKeys(aggregates)) {
    const a = aggregates[key];
    out.line([esc(key), esc(a.name), a.count, a.self, a.maxRet, a.distance]);
  }
  out.line(['#total_size', snapshot.totalSize]);
  out.flush();
}

function printDiff(base: JSHeapSnapshot, current: JSHeapSnapshot): void {
  const out = new Out();
  // As HeapSnapshotDiffDataGrid.setBaseDataSource does.
  const interfaceDefinitions = current.interfaceDefinitions();
  const aggregatesForDiff = base.aggregatesForDiff(interfaceDefinitions);
  const diff = current.calculateSnapshotDiff(1, aggregatesForDiff);
  out.line(['#class_key', 'class_name', 'added_count', 'removed_count', 'count_delta', 'added_size',
            'removed_size', 'size_delta']);
  for (const key of sortedKeys(diff)) {
    const d = diff[key];
    out.line([esc(key), esc(d.name), d.addedCount, d.removedCount, d.countDelta, d.addedSize, d.removedSize,
              d.sizeDelta]);
  }
  out.flush();
}

// The Allocation view's top level (a snapshot written with allocation
// tracking): per function (name, script, line, column), the objects of its
// allocations still in the snapshot (liveCount, liveSize), summed over the
// function infos with the same place. DevTools counts objects of self size 0
// too, which the Summary (and leakfind) leaves out: live_count_sized counts
// the others, through the file's trace tree.
function printSites(snapshot: JSHeapSnapshot): void {
  const out = new Out();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const profile = (snapshot as any).profile;
  const meta = profile.snapshot.meta;
  const width = meta.trace_node_fields.length, idAt = meta.trace_node_fields.indexOf('id');
  const infoAt = meta.trace_node_fields.indexOf('function_info_index');
  const childrenAt = meta.trace_node_fields.indexOf('children');
  const f = meta.trace_function_info_fields, infoWidth = f.length;
  const keyOfInfo = (i: number): string => {
    const raw = profile.trace_function_infos;
    const at = i * infoWidth;
    return [esc(profile.strings[raw[at + f.indexOf('name')]]), esc(profile.strings[raw[at + f.indexOf('script_name')]]),
            raw[at + f.indexOf('line')], raw[at + f.indexOf('column')]].join('\t');
  };
  const keyOfTrace = new Map<number, string>();
  const stack: number[][] = [profile.trace_tree];
  while (stack.length) {
    const level = stack.pop() as number[];
    for (let i = 0; i < level.length; i += width) {
      keyOfTrace.set(level[i + idAt], keyOfInfo(level[i + infoAt]));
      stack.push(level[i + childrenAt] as unknown as number[]);
    }
  }
  const sized = new Map<string, number>();
  const node = snapshot.createNode(0);
  for (let ordinal = 0; ordinal < snapshot.nodeCount; ordinal++) {
    node.nodeIndex = ordinal * snapshot.nodeFieldCount;
    const key = keyOfTrace.get(node.traceNodeId());
    if (key !== undefined && node.selfSize() > 0) {
      sized.set(key, (sized.get(key) ?? 0) + 1);
    }
  }
  const live = new Map<string, number[]>();
  for (const t of snapshot.allocationTracesTops()) {
    const key = [esc(t.name), esc(t.scriptName), t.line, t.column].join('\t');
    const sum = live.get(key) ?? [0, 0];
    live.set(key, [sum[0] + t.liveCount, sum[1] + t.liveSize]);
  }
  out.line(['#function', 'script', 'line', 'column', 'live_count', 'live_size', 'live_count_sized']);
  for (const key of [...live.keys()].sort()) {
    const sum = live.get(key) as number[];
    out.line([key, sum[0], sum[1], sized.get(key) ?? 0]);
  }
  out.flush();
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  // Problems DevTools reports (e.g. nodes reachable only through weak edges)
  // go to console.warn; keep them on stderr.
  if (args[0] === '--aggregates' && args.length === 2) {
    printAggregates(await load(args[1]));
  } else if (args[0] === '--sites' && args.length === 2) {
    printSites(await load(args[1]));
  } else if (args[0] === '--load-only' && args.length === 2) {
    const t0 = performance.now();
    const snapshot = await load(args[1]);
    const seconds = (performance.now() - t0) / 1000;
    process.stdout.write(`nodes ${snapshot.nodeCount}\tedges ${snapshot.containmentEdges.length / snapshot.edgeFieldsCount}` +
                         `\ttotal_size ${snapshot.totalSize}\tload_and_initialize_s ${seconds.toFixed(2)}\n`);
  } else if (args[0] === '--diff' && args.length === 3) {
    const base = await load(args[1]);
    const current = await load(args[2]);
    printDiff(base, current);
  } else if (args.length === 1 && !args[0].startsWith('--')) {
    printNodes(await load(args[0]));
  } else {
    process.stderr.write(
        'usage: harness.mjs FILE | --aggregates FILE | --sites FILE | --diff BASE CURRENT | --load-only FILE   (FILE may be .gz)\n');
    process.exit(2);
  }
}

main().catch(e => {
  process.stderr.write(`harness: ${e?.stack ?? e}\n`);
  process.exit(1);
});
