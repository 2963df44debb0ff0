import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { getCurrentSuite } from 'vitest/suite';
function stat(): number[] { const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' '); return [13, 14, 15, 16].map((i) => Number(f[i - 2]) * 10); }
const cur = getCurrentSuite() as unknown as { file?: { filepath?: string }; filepath?: string; task?: { file?: { filepath?: string } } };
const file = cur?.file?.filepath ?? cur?.task?.file?.filepath ?? cur?.filepath ?? '?';
let s0: number[] = []; let t0 = 0;
beforeAll(() => { s0 = stat(); t0 = performance.now(); });
afterAll(() => { const s = stat(); appendFileSync('/tmp/vt/cpu.log', `${file.replace(/.*\/test\//, 'test/')} wall=${((performance.now() - t0) / 1000).toFixed(1)} own=${((s[0] + s[1] - s0[0] - s0[1]) / 1000).toFixed(1)} child=${((s[2] + s[3] - s0[2] - s0[3]) / 1000).toFixed(1)}\n`); });
