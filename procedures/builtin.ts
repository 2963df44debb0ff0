/**
 * Built-in procedures every database has: schema introspection under `db.*` and the
 * procedure/function listings under `dbms.*`. Algorithm and replication procedures
 * register themselves from their own modules as they arrive.
 */

import type { ProcedureRegistry } from './registry.js';
import { functionCatalogue } from '../functions/registry.js';
import { registerAlgorithms } from './algo/index.js';

export function registerBuiltinProcedures(registry: ProcedureRegistry): void {
  registerAlgorithms(registry);
  registry.register({
    name: 'db.labels',
    inputs: [],
    outputs: [{ name: 'label', type: 'STRING?' }],
    mode: 'read',
    description: 'Lists every node label in use.',
    *invoke(ctx) {
      for (const l of ctx.graph.labels()) yield [l];
    },
  });
  registry.register({
    name: 'db.relationshipTypes',
    inputs: [],
    outputs: [{ name: 'relationshipType', type: 'STRING?' }],
    mode: 'read',
    description: 'Lists every relationship type in use.',
    *invoke(ctx) {
      for (const t of ctx.graph.relationshipTypes()) yield [t];
    },
  });
  registry.register({
    name: 'db.propertyKeys',
    inputs: [],
    outputs: [{ name: 'propertyKey', type: 'STRING?' }],
    mode: 'read',
    description: 'Lists every property key in use.',
    *invoke(ctx) {
      for (const k of ctx.graph.propertyKeys()) yield [k];
    },
  });
  registry.register({
    name: 'dbms.procedures',
    inputs: [],
    outputs: [
      { name: 'name', type: 'STRING?' },
      { name: 'signature', type: 'STRING?' },
      { name: 'description', type: 'STRING?' },
      { name: 'mode', type: 'STRING?' },
    ],
    mode: 'read',
    description: 'Lists every registered procedure with its signature.',
    *invoke() {
      for (const p of registry.list()) {
        const sig = `${p.name}(${p.inputs.map((i) => `${i.name} :: ${i.type}`).join(', ')}) :: (${p.outputs.map((o) => `${o.name} :: ${o.type}`).join(', ')})`;
        yield [p.name, sig, p.description, p.mode.toUpperCase()];
      }
    },
  });
  registry.register({
    name: 'dbms.functions',
    inputs: [],
    outputs: [
      { name: 'name', type: 'STRING?' },
      { name: 'category', type: 'STRING?' },
      { name: 'description', type: 'STRING?' },
    ],
    mode: 'read',
    description: 'Lists every built-in function.',
    *invoke() {
      for (const f of functionCatalogue()) yield [f.name, f.category, f.description];
    },
  });
}
