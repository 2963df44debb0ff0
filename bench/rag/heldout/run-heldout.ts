/**
 * Scores graph_rag on the rail domain (rail.ts, rail-questions.ts) through the shared held-out
 * harness (harness.ts: its header gives the procedure and the options). Rail was held out until
 * the raghop changes were tuned on it; bench/rag/heldout2 is the domain to report on now.
 *
 *   node --import tsx bench/rag/heldout/run-heldout.ts [--entities 10000] [--per-shape 72]
 *        [--variants text-only,vector-only,hybrid,full] [--mcp] [--misses]
 */

import { runHeldOut } from './harness.js';
import { generateRail, loadRail } from './rail.js';
import { railQuestions } from './rail-questions.js';

await runHeldOut({
  name: 'rail',
  build(db, entities, perShape) {
    const world = generateRail(entities);
    loadRail(db, world);
    return railQuestions(db, world, perShape);
  },
});
