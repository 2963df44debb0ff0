/**
 * The TCK runner (test/tck/scenario.ts) inside a Web Worker, bundled for the browser as the
 * engine is (scripts/browser-bundle-options.mjs) by test/browser/tck.test.ts: it receives
 * parsed scenarios and the named graphs' texts, and answers each scenario's verdict.
 */
import type { TckScenario } from '../tck/features.js';
import { runScenario } from '../tck/scenario.js';
import { preloadLazyModules } from '../../src/lazy-module.js';

interface Batch {
  scenarios: TckScenario[];
  graphs: Record<string, string>;
  queryTimeoutMs: number;
}

self.onmessage = async (event: MessageEvent<Batch>) => {
  // The engine's lazy modules (the parser, the procedure families) load through import() in a page.
  await preloadLazyModules();
  const { scenarios, graphs, queryTimeoutMs } = event.data;
  const readGraph = (name: string): string => {
    const text = graphs[name];
    if (text === undefined) throw new Error(`no named graph ${name}`);
    return text;
  };
  const verdicts = scenarios.map((sc) => {
    const o = runScenario(sc, { graphsDir: '/graphs', queryTimeoutMs, readGraph });
    return { passed: o.passed, reason: o.reason };
  });
  self.postMessage(verdicts);
};
