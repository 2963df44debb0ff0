/**
 * Scores graph_rag on the fifth held-out domain, arable farming (farming.ts,
 * farming-questions.ts), written before reading the pipeline and after products, shipping, rail,
 * clinical, film and software had all been used to tune it, through the held-out harness the other runners
 * use (../heldout/harness.ts: its header gives the procedure and the options), so the tables compare.
 *
 *   node --import tsx bench/rag/heldout5/run-heldout5.ts [--entities 10000] [--per-shape 72]
 *        [--variants text-only,vector-only,hybrid,full] [--mcp] [--misses]
 */

import { runHeldOut } from '../heldout/harness.js';
import { generateFarming, loadFarming } from './farming.js';
import { farmingQuestions } from './farming-questions.js';

await runHeldOut({
  name: 'farming',
  build(db, entities, perShape) {
    const world = generateFarming(entities);
    loadFarming(db, world);
    return farmingQuestions(db, world, perShape);
  },
});
