/**
 * The graph view's layout, readable from a handful of nodes to a few thousand: the drawing is
 * split into its connected components; each one of some size is laid out by fcose (a spectral
 * placement refined by forces, far faster than cytoscape's cose): in full when small, with
 * few refinement rounds when big but sparse (tree-like), by its spectral placement alone when
 * big and dense (forces would take seconds there); each small one is put on a ring by hand, and the components are packed in rows, largest first, in the
 * viewport's proportions. Handing fcose a thousand small components at once costs it
 * seconds, and its cost grows fast with a component's relationships; a ring costs nothing.
 */

import type { Collection, Core, LayoutOptions, NodeCollection, Position } from 'cytoscape';

/** Components up to this many nodes go on a ring. */
const RING_NODES = 3;
/** fcose runs for the largest components at most; smaller ones past these get rings. */
const MAX_FORCE_RUNS = 40;
/** Up to this many nodes and relationships a component gets fcose in full. */
const FULL_MAX_NODES = 2000;
const FULL_MAX_EDGES = 1500;
/** Bigger, a component this sparse (relationships per node) and this small gets a short refinement; otherwise the spectral placement alone. */
const SPARSE_EDGES_PER_NODE = 1.2;
const SHORT_MAX_NODES = 6000;
/** Space between packed components, and around a node. */
const GAP = 40;
const NODE = 44;

/** fcose's options for a component of `nodes` nodes and `edges` relationships, laid out where it is (the packing places it). */
function forceLayout(nodes: number, edges: number): LayoutOptions {
  const full = nodes <= FULL_MAX_NODES && edges <= FULL_MAX_EDGES;
  const short = !full && edges <= SPARSE_EDGES_PER_NODE * nodes && nodes <= SHORT_MAX_NODES;
  const options = {
    name: 'fcose',
    quality: full || short ? 'default' : 'draft',
    animate: false,
    randomize: true,
    fit: false,
    nodeSeparation: 90,
    nodeRepulsion: () => 20000,
    idealEdgeLength: () => 130,
    numIter: short ? 150 : nodes > 500 ? 1000 : 2500,
    tile: true,
    tilingPaddingVertical: 20,
    tilingPaddingHorizontal: 20,
  };
  return options as unknown as LayoutOptions;
}

interface Placed {
  /** Positions relative to the component's top-left corner. */
  at: Map<string, Position>;
  width: number;
  height: number;
}

/** A small component on a ring (a pair side by side, a single node alone). */
function ring(nodes: NodeCollection): Placed {
  const n = nodes.length;
  const at = new Map<string, Position>();
  if (n === 1) {
    at.set(nodes[0].id(), { x: NODE / 2, y: NODE / 2 });
    return { at, width: NODE, height: NODE };
  }
  const r = Math.max(45, (n * (NODE + 30)) / (2 * Math.PI));
  nodes.forEach((node, i) => {
    const angle = Math.PI + (2 * Math.PI * i) / n;
    at.set(node.id(), { x: r + NODE / 2 + r * Math.cos(angle), y: r + NODE / 2 + r * Math.sin(angle) });
  });
  const ys = [...at.values()].map((p) => p.y);
  const top = Math.min(...ys) - NODE / 2;
  for (const p of at.values()) p.y -= top;
  return { at, width: 2 * r + NODE, height: Math.max(...ys) - Math.min(...ys) + NODE };
}

/** A component laid out by fcose, read back relative to its corner. */
function forced(component: Collection): Placed {
  const nodes = component.nodes();
  component.layout(forceLayout(nodes.length, component.edges().length)).run();
  let x1 = Infinity;
  let y1 = Infinity;
  let x2 = -Infinity;
  let y2 = -Infinity;
  nodes.forEach((node) => {
    const p = node.position();
    x1 = Math.min(x1, p.x);
    y1 = Math.min(y1, p.y);
    x2 = Math.max(x2, p.x);
    y2 = Math.max(y2, p.y);
  });
  const at = new Map<string, Position>();
  nodes.forEach((node) => {
    const p = node.position();
    at.set(node.id(), { x: p.x - x1 + NODE / 2, y: p.y - y1 + NODE / 2 });
  });
  return { at, width: x2 - x1 + NODE, height: y2 - y1 + NODE };
}

/** Lays out every node of `cy` but the pinned (locked) ones; returns how many components were forced. */
export function layoutGraph(cy: Core, aspect: number): { components: number; forced: number } {
  const components = cy
    .elements()
    .components()
    .sort((a, b) => b.nodes().length - a.nodes().length);
  const placed: Placed[] = [];
  let forceRuns = 0;
  for (const component of components) {
    const nodes = component.nodes();
    if (nodes.length > RING_NODES && forceRuns < MAX_FORCE_RUNS) {
      placed.push(forced(component));
      forceRuns++;
    } else placed.push(ring(nodes));
  }
  // Shelf packing: rows as wide as a box of the whole area in the viewport's proportions.
  const area = placed.reduce((sum, p) => sum + (p.width + GAP) * (p.height + GAP), 0);
  const rowWidth = Math.max(placed[0]?.width ?? 0, Math.sqrt(area * Math.max(0.3, aspect)));
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  const positions = new Map<string, Position>();
  for (const p of placed) {
    if (x > 0 && x + p.width > rowWidth) {
      x = 0;
      y += rowHeight + GAP;
      rowHeight = 0;
    }
    for (const [id, q] of p.at) positions.set(id, { x: x + q.x, y: y + q.y });
    x += p.width + GAP;
    rowHeight = Math.max(rowHeight, p.height);
  }
  cy.batch(() => {
    cy.nodes().forEach((node) => {
      const p = positions.get(node.id());
      // A pinned node stays where the user left it.
      if (p !== undefined && !node.locked()) node.position(p);
    });
  });
  return { components: components.length, forced: forceRuns };
}
