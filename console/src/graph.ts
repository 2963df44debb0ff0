/**
 * The graph view: the nodes, relationships and paths found anywhere in a result's cells,
 * drawn with cytoscape (nodes coloured by label with a caption, relationships labelled with
 * their type). Click shows an element's properties; double-click asks `expand` for the
 * node's neighbours and adds them.
 */

import cytoscape, { type Core, type ElementDefinition } from 'cytoscape';
import fcose from 'cytoscape-fcose';
import type { Cell } from './api.js';
import { layoutGraph } from './layout.js';

cytoscape.use(fcose);

/** Past this many elements edges are drawn straight and unlabelled until zoomed in, which keeps panning smooth. */
const BULK_ELEMENTS = 1000;

export interface GNode {
  id: number;
  labels: string[];
  properties: Record<string, Cell>;
}

export interface GRel {
  id: number;
  type: string;
  start: number;
  end: number;
  properties: Record<string, Cell>;
}

const PALETTE = ['#4C8EDA', '#DA7194', '#57C7E3', '#F79767', '#8DCC93', '#C990C0', '#F16667', '#D9C8AE', '#ECB5C9', '#FFC454', '#6DCE9E', '#A5ABB6'];

function isObject(c: Cell): c is { [key: string]: Cell } {
  return typeof c === 'object' && c !== null && !Array.isArray(c);
}

function isNode(c: Cell): c is { [key: string]: Cell } {
  return isObject(c) && typeof c.id === 'number' && Array.isArray(c.labels) && isObject(c.properties);
}

function isRel(c: Cell): c is { [key: string]: Cell } {
  return isObject(c) && typeof c.id === 'number' && typeof c.type === 'string' && typeof c.start === 'number' && typeof c.end === 'number';
}

/** Every node and relationship in `cells`, at any depth (lists, maps, paths). */
export function collectGraph(cells: Cell[], nodes = new Map<number, GNode>(), rels = new Map<number, GRel>()): { nodes: Map<number, GNode>; rels: Map<number, GRel> } {
  const visit = (c: Cell): void => {
    if (isNode(c)) nodes.set(c.id as number, c as unknown as GNode);
    else if (isRel(c)) rels.set(c.id as number, c as unknown as GRel);
    else if (Array.isArray(c)) c.forEach(visit);
    else if (isObject(c)) Object.values(c).forEach(visit);
  };
  cells.forEach(visit);
  return { nodes, rels };
}

/** Each label's colour, given in the order labels are first drawn, so that the first dozen differ. */
const colours = new Map<string, string>();

export function labelColour(label: string | undefined): string {
  if (label === undefined) return PALETTE[PALETTE.length - 1];
  let colour = colours.get(label);
  if (colour === undefined) {
    colour = PALETTE[colours.size % (PALETTE.length - 1)];
    colours.set(label, colour);
  }
  return colour;
}

function caption(n: GNode): string {
  for (const key of ['name', 'title', 'caption', 'label', 'id']) {
    const v = n.properties[key];
    if (typeof v === 'string' || typeof v === 'number') return String(v);
  }
  return n.labels[0] ?? String(n.id);
}

function nodeElement(n: GNode): ElementDefinition {
  return { group: 'nodes', data: { id: 'n' + n.id, caption: caption(n), colour: labelColour(n.labels[0]), entity: n } };
}

function relElement(r: GRel): ElementDefinition {
  return { group: 'edges', data: { id: 'r' + r.id, source: 'n' + r.start, target: 'n' + r.end, type: r.type, entity: r } };
}

export interface GraphViewOptions {
  container: HTMLElement;
  /** Shows an element's labels or type and properties (null: nothing selected). */
  inspect(entity: GNode | GRel | null): void;
  /** The neighbours of a node, with the relationships to them. */
  expand(nodeId: number): Promise<Cell[]>;
  /** Where the colour key of the labels drawn goes. */
  legend: HTMLElement;
}

export class GraphView {
  readonly cy: Core;

  constructor(private readonly options: GraphViewOptions) {
    this.cy = cytoscape({
      container: options.container,
      wheelSensitivity: 0.3,
      style: [
        // Captions too small to read are not drawn (they would only cost frames).
        {
          selector: 'node',
          style: {
            'background-color': 'data(colour)',
            label: 'data(caption)',
            'font-size': 10,
            color: '#fff',
            'text-valign': 'center',
            'text-halign': 'center',
            'text-outline-width': 1.5,
            'text-outline-color': 'data(colour)',
            width: 44,
            height: 44,
            'text-max-width': '40px',
            'text-wrap': 'ellipsis',
            'min-zoomed-font-size': 7,
          },
        },
        { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#2563eb' } },
        { selector: 'node:locked', style: { 'border-width': 3, 'border-style': 'dashed', 'border-color': '#667085' } },
        {
          selector: 'edge',
          style: {
            width: 1.5,
            'line-color': '#98a2b3',
            'target-arrow-color': '#98a2b3',
            'target-arrow-shape': 'triangle',
            'curve-style': 'bezier',
            label: 'data(type)',
            'font-size': 8,
            color: '#667085',
            'text-rotation': 'autorotate',
            'text-background-color': '#ffffff',
            'text-background-opacity': 0.8,
            'min-zoomed-font-size': 7,
          },
        },
        // Many elements: straight edges (no curve to compute per frame) and no arrow until zoomed in.
        { selector: 'edge.bulk', style: { 'curve-style': 'straight', 'target-arrow-shape': 'none', 'text-background-opacity': 0 } },
      ],
    });
    this.cy.on('tap', 'node, edge', (e) => options.inspect(e.target.data('entity') as GNode | GRel));
    this.cy.on('tap', (e) => {
      if (e.target === this.cy) options.inspect(null);
    });
    this.cy.on('dbltap', 'node', (e) => void this.expand((e.target.data('entity') as GNode).id));
  }

  /** Replaces the drawing with the entities in `cells`. */
  show(cells: Cell[]): void {
    this.cy.elements().remove();
    this.add(cells);
  }

  /** Adds the entities in `cells` (those not drawn yet) and lays the graph out again. Returns how many elements were added. */
  add(cells: Cell[]): number {
    const { nodes, rels } = collectGraph(cells);
    const fresh: ElementDefinition[] = [];
    for (const n of nodes.values()) if (this.cy.getElementById('n' + n.id).empty()) fresh.push(nodeElement(n));
    this.cy.add(fresh);
    const edges: ElementDefinition[] = [];
    for (const r of rels.values()) {
      // A relationship whose end was not returned cannot be drawn.
      if (this.cy.getElementById('r' + r.id).empty() && !this.cy.getElementById('n' + r.start).empty() && !this.cy.getElementById('n' + r.end).empty()) edges.push(relElement(r));
    }
    this.cy.add(edges);
    this.layout();
    this.drawLegend();
    return fresh.length + edges.length;
  }

  /** Takes a node (and its relationships) off the drawing; the graph itself is untouched. */
  hide(nodeId: number): void {
    this.cy.getElementById('n' + nodeId).remove();
    this.drawLegend();
  }

  /** Pins a node where it is (layouts and drags leave it), or frees a pinned one; returns whether it is pinned now. */
  togglePin(nodeId: number): boolean {
    const n = this.cy.getElementById('n' + nodeId);
    if (n.locked()) n.unlock();
    else n.lock();
    return n.locked();
  }

  isPinned(nodeId: number): boolean {
    return this.cy.getElementById('n' + nodeId).locked();
  }

  private drawLegend(): void {
    const labels = new Set<string>();
    this.cy.nodes().forEach((n) => {
      for (const l of (n.data('entity') as GNode).labels) labels.add(l);
    });
    this.options.legend.replaceChildren(
      ...[...labels].sort().map((l) => {
        const chip = document.createElement('span');
        chip.className = 'legend-item';
        chip.dataset.label = l;
        chip.style.setProperty('--swatch', labelColour(l));
        chip.textContent = l;
        return chip;
      }),
    );
  }

  async expand(nodeId: number): Promise<number> {
    const added = this.add(await this.options.expand(nodeId));
    this.options.container.dataset.expanded = String(Number(this.options.container.dataset.expanded ?? '0') + 1);
    return added;
  }

  layout(): void {
    const bulk = this.cy.elements().length > BULK_ELEMENTS;
    this.cy.batch(() => {
      if (bulk) this.cy.edges().addClass('bulk');
      else this.cy.edges().removeClass('bulk');
    });
    const box = this.options.container.getBoundingClientRect();
    const done = layoutGraph(this.cy, box.height > 0 ? box.width / box.height : 16 / 9);
    this.options.container.dataset.components = String(done.components);
    this.fitReadable();
  }

  /** Call when the container becomes visible or changes size. */
  resize(): void {
    this.cy.resize();
    this.fitReadable();
  }

  fit(): void {
    this.fitReadable();
  }

  /** Fits the drawing, but a handful of nodes is not blown up past half again its size. */
  private fitReadable(): void {
    this.cy.fit(undefined, 30);
    if (this.cy.zoom() > 1.5) {
      this.cy.zoom(1.5);
      this.cy.center();
    }
  }
}
