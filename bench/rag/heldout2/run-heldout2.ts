/**
 * Scores graph_rag on the second held-out domain, the clinical world (clinical.ts,
 * clinical-questions.ts), written after products, shipping and rail had all been used to tune
 * the pipeline, through the held-out harness the rail runner uses (../heldout/harness.ts: its
 * header gives the procedure and the options), so the tables compare.
 *
 *   node --import tsx bench/rag/heldout2/run-heldout2.ts [--entities 10000] [--per-shape 72]
 *        [--variants text-only,vector-only,hybrid,full] [--mcp] [--misses]
 */

import { runHeldOut } from '../heldout/harness.js';
import { generateClinical, loadClinical } from './clinical.js';
import { clinicalQuestions } from './clinical-questions.js';

await runHeldOut({
  name: 'clinical',
  build(db, entities, perShape) {
    const world = generateClinical(entities);
    loadClinical(db, world);
    return clinicalQuestions(db, world, perShape);
  },
});
