/**
 * The `algo.*` procedures: graph algorithms callable as `CALL algo.<name>(config)`, each in
 * a stream form, a `.stats` form and (per-node algorithms) a `.write` form, generated from
 * one declaration per algorithm (`define.ts`). Each call projects the store into a CSR
 * (`csr.ts`) as the config selects it (`nodeLabels`, `relationshipTypes`, `direction`,
 * `weightProperty`), runs a kernel over typed arrays and yields rows. Per-node rows come in
 * ascending node-id order unless the algorithm's description says otherwise (searches: visit
 * order). Options, defaults, complexity and references: docs/ALGORITHMS.md.
 */

import type { ProcedureDef, ProcedureRegistry } from '../registry.js';
import { CENTRALITY } from './centrality.js';
import { COMMUNITY } from './community.js';
import { proceduresOf, type Algorithm } from './define.js';
import { LEARNING } from './learning.js';
import { PATHS } from './paths.js';
import { STRUCTURE } from './structure.js';

/** Every algorithm, grouped as the catalogue lists them. */
export const ALGORITHM_CATALOGUE: readonly Algorithm[] = [...CENTRALITY, ...COMMUNITY, ...PATHS, ...STRUCTURE, ...LEARNING];

export const ALGORITHMS: readonly ProcedureDef[] = ALGORITHM_CATALOGUE.flatMap(proceduresOf);

/** Registers every `algo.*` procedure. */
export function registerAlgorithms(registry: ProcedureRegistry): void {
  for (const p of ALGORITHMS) registry.register(p);
}
