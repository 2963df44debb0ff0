import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderFamilySignatures } from '../../procedures/family-signatures-render.js';
import { ProcedureRegistry, procedureSignature } from '../../procedures/registry.js';
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
});
