/**
 * The procedure families whose code loads on first call (the graph algorithms and APOC: about
 * fifty modules that a query calling neither never needs). Their names, signatures and
 * descriptions come from families.generated.ts, so SHOW PROCEDURES, dbms.procedures, the
 * planner's argument checks and completion work without them; the first call of any member
 * loads its family (src/lazy-module.ts).
 */

import { LazyModule } from '../src/lazy-module.js';
import { ProcedureError } from '../src/errors.js';
import { ALGO_SIGNATURES, APOC_SIGNATURES } from './families.generated.js';
import { ProcedureRegistry, type ProcedureDef, type ProcedureSignature } from './registry.js';

interface LazyFamily {
  readonly signatures: readonly ProcedureSignature[];
  /** The family's procedures by name, built once from its module (the definitions hold no state). */
  readonly procedures: () => Map<string, ProcedureDef>;
}

function family(signatures: readonly ProcedureSignature[], register: () => (registry: ProcedureRegistry) => void): LazyFamily {
  let byName: Map<string, ProcedureDef> | undefined;
  return {
    signatures,
    procedures() {
      if (byName === undefined) {
        const registry = new ProcedureRegistry();
        register()(registry);
        byName = new Map(registry.list().map((def) => [def.name, def]));
      }
      return byName;
    },
  };
}

const algo = new LazyModule(import.meta.url, './algo/index.js', () => import('./algo/index.js'));
const apoc = new LazyModule(import.meta.url, './apoc/index.js', () => import('./apoc/index.js'));

const FAMILIES: readonly LazyFamily[] = [
  family(ALGO_SIGNATURES, () => algo.get().registerAlgorithms),
  family(APOC_SIGNATURES, () => apoc.get().registerApocProcedures),
];

/**
 * Registers each of `signatures` as a procedure whose calls (and, for one that filters its own
 * rows, whose planning hooks) go to the definition of the same name in `procedures()`, which
 * the first such use builds, loading the code behind it.
 */
export function registerLazily(registry: ProcedureRegistry, signatures: readonly ProcedureSignature[], procedures: () => Map<string, ProcedureDef>): void {
  for (const signature of signatures) {
    const name = signature.name;
    const loaded = (): ProcedureDef => {
      const def = procedures().get(name);
      if (def === undefined) throw new ProcedureError(`There is no procedure with the name \`${name}\` registered`, 'ProcedureNotFound', 'runtime');
      return def;
    };
    const def: ProcedureDef = { ...signature, invoke: (ctx, args) => loaded().invoke(ctx, args) };
    if (signature.acceptsRowFilter === true) {
      def.rowFilterSubject = (args) => loaded().rowFilterSubject?.(args);
      def.describeRowFilter = (args, selectivity) => loaded().describeRowFilter?.(args, selectivity);
    }
    registry.register(def);
  }
}

/** Registers every lazy family's procedures by signature; each family's code loads on the first call of one of them. */
export function registerLazyFamilies(registry: ProcedureRegistry): void {
  for (const f of FAMILIES) registerLazily(registry, f.signatures, f.procedures);
}
