/**
 * Scores graph_rag on the fourth held-out domain, software packages (software.ts,
 * software-questions.ts), written before reading the pipeline and after products, shipping, rail,
 * clinical and film had all been used to tune it, through the held-out harness the other runners
 * use (../heldout/harness.ts: its header gives the procedure and the options), so the tables compare.
 *
 *   node --import tsx bench/rag/heldout4/run-heldout4.ts [--entities 10000] [--per-shape 72]
 *        [--variants text-only,vector-only,hybrid,full] [--mcp] [--misses]
 */

import { runHeldOut } from '../heldout/harness.js';
import { generateSoftware, loadSoftware } from './software.js';
import { softwareQuestions } from './software-questions.js';

await runHeldOut({
  name: 'software',
  build(db, entities, perShape) {
    const world = generateSoftware(entities);
    loadSoftware(db, world);
    return softwareQuestions(db, world, perShape);
  },
});
