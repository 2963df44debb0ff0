/**
 * The procedure families whose code loads on first call (the graph algorithms and APOC: about
 * fifty modules that a query calling neither never needs). Their names, signatures and
 * descriptions come from families.generated.ts, so SHOW PROCEDURES, dbms.procedures, the
 * planner's argument checks and completion work without them; the first call of any member
 * loads its family (src/lazy-module.ts).
 */

import { LazyModule } from '../src/lazy-module.js';
import { ProcedureError } from '../src/errors.js';
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

/** The lazily loaded procedures' signatures (a 57 kB module), themselves loaded on the first lookup or listing of the catalogue. */
export const familySignatures = new LazyModule(import.meta.url, './families.generated.js', () => import('./families.generated.js'));

let families: readonly LazyFamily[] | undefined;

function allFamilies(): readonly LazyFamily[] {
  families ??= [
    family(familySignatures.get().ALGO_SIGNATURES, () => algo.get().registerAlgorithms),
    family(familySignatures.get().APOC_SIGNATURES, () => apoc.get().registerApocProcedures),
  ];
  return families;
}

/**
 * Each of `signatures` as a procedure whose calls (and, for one that filters its own rows,
 * whose planning hooks) go to the definition of the same name in `procedures()`, which the
 * first such use builds, loading the code behind it.
 */
export function lazyProcedures(signatures: readonly ProcedureSignature[], procedures: () => Map<string, ProcedureDef>): ProcedureDef[] {
  return signatures.map((signature) => {
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
    return def;
  });
}

/** Registers every lazy family's procedures by signature, the signatures on the catalogue's first lookup; each family's code loads on the first call of one of them. */
export function registerLazyFamilies(registry: ProcedureRegistry): void {
  registry.registerSource(() => allFamilies().flatMap((f) => lazyProcedures(f.signatures, f.procedures)));
}
