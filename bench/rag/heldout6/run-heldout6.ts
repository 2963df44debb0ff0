/**
 * Scores graph_rag on the sixth held-out domain, observational astronomy (observatory.ts,
 * observatory-questions.ts), written before reading the pipeline and after products, shipping, rail,
 * clinical, film, software and farming had all been used to tune it, through the held-out harness
 * the other runners use (../heldout/harness.ts: its header gives the procedure and the options), so
 * the tables compare.
 *
 *   node --import tsx bench/rag/heldout6/run-heldout6.ts [--entities 10000] [--per-shape 72]
 *        [--variants text-only,vector-only,hybrid,full] [--mcp] [--misses]
 */

import { runHeldOut } from '../heldout/harness.js';
import { generateObservatory, loadObservatory } from './observatory.js';
import { observatoryQuestions } from './observatory-questions.js';

await runHeldOut({
  name: 'observatory',
  build(db, entities, perShape) {
    const world = generateObservatory(entities);
    loadObservatory(db, world);
    return observatoryQuestions(db, world, perShape);
  },
});
