/**
 * The APOC core subset: one registration line per family module.
 */

import type { ProcedureRegistry } from '../registry.js';
import { registerApocCreate } from './create.js';
import { registerApocCypher } from './cypher.js';
import { registerApocGraphAlgo } from './graph-algo.js';
import { registerApocIo } from './io.js';
import { registerApocMerge } from './merge.js';
import { registerApocMeta } from './meta.js';
import { registerApocMetaGraph } from './meta-graph.js';
import { registerApocPath } from './path.js';
import { registerApocRefactor } from './refactor.js';

export function registerApocProcedures(registry: ProcedureRegistry): void {
  registerApocPath(registry);
  registerApocCreate(registry);
  registerApocMerge(registry);
  registerApocRefactor(registry);
  registerApocCypher(registry);
  registerApocMeta(registry);
  registerApocMetaGraph(registry);
  registerApocIo(registry);
  registerApocGraphAlgo(registry);
}
