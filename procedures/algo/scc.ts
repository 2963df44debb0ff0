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
      const v = callNode[depth];
      // Scan v's row until an unvisited neighbour (descend) or the end (finish v).
      let e = callEdge[depth];
      const end = offsets[v + 1];
      let lowV = low[v];
      let child = -1;
      while (e < end) {
        const w = targets[e++];
        const iw = index[w];
        if (iw < 0) {
          child = w;
          break;
        }
        if (iw < lowV && onStack[w] === 1) lowV = iw;
      }
      low[v] = lowV;
      visits += e - callEdge[depth] + 1;
      if (visits > CHECK_MASK) {
        visits = 0;
        deadline();
      }
      callEdge[depth] = e;
      if (child >= 0) {
        index[child] = low[child] = next++;
        stack[sp++] = child;
        onStack[child] = 1;
        depth++;
        callNode[depth] = child;
        callEdge[depth] = offsets[child];
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
