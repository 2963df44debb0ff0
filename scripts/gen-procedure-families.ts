/** Writes procedures/families.generated.ts, the lazily loaded families' signatures (run: npx tsx scripts/gen-procedure-families.ts). */
import { writeFileSync } from 'node:fs';
import { renderFamilySignatures } from '../procedures/family-signatures-render.js';

writeFileSync(new URL('../procedures/families.generated.ts', import.meta.url), renderFamilySignatures());
