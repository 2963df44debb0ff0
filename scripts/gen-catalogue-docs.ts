/** Writes docs/PROCEDURES.md and docs/FUNCTIONS.md from the registries (run: npx tsx scripts/gen-catalogue-docs.ts). */
import { writeFileSync } from 'node:fs';
import { renderFunctionsDoc, renderProceduresDoc } from '../procedures/catalogue-docs.js';

writeFileSync(new URL('../docs/PROCEDURES.md', import.meta.url), renderProceduresDoc());
writeFileSync(new URL('../docs/FUNCTIONS.md', import.meta.url), renderFunctionsDoc());
