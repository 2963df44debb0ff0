/**
 * Scores graph_rag on the third held-out domain, film and broadcasting (screen.ts,
 * screen-questions.ts), written before reading the pipeline and after products, shipping, rail
 * and clinical had all been used to tune it, through the held-out harness the other runners use
 * (../heldout/harness.ts: its header gives the procedure and the options), so the tables compare.
 *
 *   node --import tsx bench/rag/heldout3/run-heldout3.ts [--entities 10000] [--per-shape 72]
 *        [--variants text-only,vector-only,hybrid,full] [--mcp] [--misses]
 */

import { runHeldOut } from '../heldout/harness.js';
import { generateScreen, loadScreen } from './screen.js';
import { screenQuestions } from './screen-questions.js';

await runHeldOut({
  name: 'screen',
  build(db, entities, perShape) {
    const world = generateScreen(entities);
    loadScreen(db, world);
    return screenQuestions(db, world, perShape);
  },
});
