/**
 * Strongly connected components by Tarjan's algorithm (1972), iterative (an explicit call
 * stack of node and edge cursor), so deep graphs cannot overflow the JavaScript stack.
 * O(n + m). A component's id is its smallest dense index (smallest node id), as for WCC.
 */

import { CHECK_MASK, type Deadline } from './deadline.js';
import type { Csr } from './csr.js';

/** The smallest member of each dense index's strongly connected component. */
export function stronglyConnected(csr: Csr, deadline: Deadline): Int32Array {
  const { n, offsets, targets } = csr;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack = new Int32Array(n);
  const callNode = new Int32Array(n);
  const callEdge = new Int32Array(n);
  const component = new Int32Array(n);
  let sp = 0;
  let next = 0;
  let visits = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] >= 0) continue;
    let depth = 0;
    callNode[0] = root;
    callEdge[0] = offsets[root];
    index[root] = low[root] = next++;
    stack[sp++] = root;
    onStack[root] = 1;
    while (depth >= 0) {
      if ((++visits & CHECK_MASK) === 0) deadline();
      const v = callNode[depth];
      const e = callEdge[depth];
      if (e < offsets[v + 1]) {
        callEdge[depth] = e + 1;
        const w = targets[e];
        if (index[w] < 0) {
          index[w] = low[w] = next++;
          stack[sp++] = w;
          onStack[w] = 1;
          depth++;
          callNode[depth] = w;
          callEdge[depth] = offsets[w];
        } else if (onStack[w] === 1 && index[w] < low[v]) {
          low[v] = index[w];
        }
        continue;
      }
      if (low[v] === index[v]) {
        // Pop the component; name it after its smallest member.
        let min = v;
        let k = sp;
        do {
          k--;
          if (stack[k] < min) min = stack[k];
        } while (stack[k] !== v);
        for (let j = k; j < sp; j++) {
          component[stack[j]] = min;
          onStack[stack[j]] = 0;
        }
        sp = k;
      }
      depth--;
      if (depth >= 0) {
        const parent = callNode[depth];
        if (low[v] < low[parent]) low[parent] = low[v];
      }
    }
  }
  return component;
}
