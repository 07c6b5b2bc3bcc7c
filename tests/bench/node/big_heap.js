// big_heap.js - fills a V8 heap with objects of realistic shapes and writes a
// heap snapshot of about 1 GB (make bench, V8 stage).
//
// Shapes: class instances with a few fields, plain objects, arrays, strings
// (distinct and shared), closures with their contexts, Maps of records, a
// long linked list, objects behind WeakRefs and in a WeakMap.
//
// Run: node --max-old-space-size=12000 --expose-gc big_heap.js OUT.heapsnapshot [SCALE]
'use strict';
const v8 = require('v8');

const out = process.argv[2];
const scale = Number(process.argv[3] || 1);
if (!out) {
  console.error('usage: node big_heap.js OUT.heapsnapshot [SCALE]');
  process.exit(2);
}

class Customer {
  constructor(i) {
    this.id = i;
    this.name = 'customer-' + i;
    this.orders = [];
    this.address = {street: 'Main St ' + (i % 1000), zip: 10000 + (i % 90000)};
  }
}
class Order {
  constructor(i, customer) {
    this.id = i;
    this.customer = customer;
    this.lines = [i, i + 1, i + 2];
    this.total = i * 3;
  }
}
class ListNode {
  constructor(value, next) {
    this.value = value;
    this.next = next;
  }
}

const root = {customers: [], byName: new Map(), handlers: [], list: null, weak: [], cache: new WeakMap()};
const customers = Math.round(600000 * scale);
for (let i = 0; i < customers; i++) {
  const c = new Customer(i);
  root.customers.push(c);
  for (let k = 0; k < 2; k++) c.orders.push(new Order(i * 2 + k, c));
  if (i % 4 === 0) root.byName.set(c.name, {customer: c, seen: i});
  if (i % 8 === 0) {
    const local = {hits: 0, customer: c};
    root.handlers.push(() => local.hits++);
  }
  if (i % 16 === 0) root.weak.push(new WeakRef(c.address));
  if (i % 16 === 8) root.cache.set(c, {shadow: 'x' + i});
}
let head = null;
for (let i = 0; i < Math.round(1000000 * scale); i++) head = new ListNode(i, head);
root.list = head;
globalThis.benchRoot = root;

if (typeof gc === 'function') gc();
v8.writeHeapSnapshot(out);
