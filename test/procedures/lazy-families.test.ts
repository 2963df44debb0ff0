import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderFamilySignatures } from '../../procedures/family-signatures-render.js';
import { ProcedureRegistry, procedureSignature, type ProcedureDef } from '../../procedures/registry.js';
import { registerAlgorithms } from '../../procedures/algo/index.js';
import { registerApocProcedures } from '../../procedures/apoc/index.js';
import { Database } from '../../src/index.js';

describe('lazily loaded procedure families', () => {
  it('families.generated.ts is the rendering of the families (regenerate: npx tsx scripts/gen-procedure-families.ts)', () => {
    const file = readFileSync(new URL('../../procedures/families.generated.ts', import.meta.url), 'utf8');
    expect(file).toBe(renderFamilySignatures());
  });

  it('a database lists each of their procedures with the signature, mode and description of its code', () => {
    const eager = new ProcedureRegistry();
    registerAlgorithms(eager);
    registerApocProcedures(eager);
    const db = new Database();
    for (const def of eager.list()) {
      const listed = db.procedures.get(def.name);
      expect(listed, def.name).toBeDefined();
      expect(procedureSignature(listed!, true)).toBe(procedureSignature(def, true));
      expect([listed!.mode, listed!.access, listed!.description]).toEqual([def.mode, def.access, def.description]);
    }
    db.close();
  });

  it('the vector and full-text procedures are listed with the signature, mode, description and row-filter flag of their code', () => {
    const db = new Database();
    for (const name of ['db.index.vector.queryNodes', 'db.index.vector.createNodeIndex', 'db.create.setVectorProperty', 'db.index.fulltext.queryNodes', 'db.index.fulltext.listAvailableAnalyzers']) {
      expect(db.procedures.get(name), name).toBeDefined();
    }
    expect(db.procedures.get('db.index.vector.queryNodes')?.acceptsRowFilter).toBe(true);
    expect(db.procedures.get('db.index.fulltext.queryNodes')?.acceptsRowFilter).toBeUndefined();
    db.close();
  });
});

describe('a catalogue source', () => {
  const def = (name: string, description: string): ProcedureDef => ({ name, description, mode: 'read', inputs: [], outputs: [], invoke: () => [] });

  it('loads on the first lookup of a name not registered, or the first listing, once; a procedure registered by name wins over it', () => {
    const registry = new ProcedureRegistry();
    let loads = 0;
    registry.registerSource(() => {
      loads++;
      return [def('lazy.a', 'from the source'), def('both', 'from the source')];
    });
    registry.register(def('both', 'registered'));
    expect(registry.get('both')?.description).toBe('registered');
    expect(loads).toBe(0);
    expect(registry.get('lazy.a')?.description).toBe('from the source');
    expect(registry.get('missing')).toBeUndefined();
    expect(() => registry.require('missing')).toThrow(/no procedure with the name `missing`/);
    expect(registry.list().map((d) => [d.name, d.description])).toEqual([
      ['both', 'registered'],
      ['lazy.a', 'from the source'],
    ]);
    expect(loads).toBe(1);
  });
});
