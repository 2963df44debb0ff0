/**
 * Text form of floats, shared by printing (format.ts), `toString()` and string
 * concatenation. A float always reads as a float: `1.0`, `0.5`, `1e-7`, `1e21`, `NaN`,
 * `Infinity`, `-0.0` — the shortest round-trip digits, as the openCypher TCK writes them.
 */

export function formatFloat(x: number): string {
  if (Number.isInteger(x)) {
    if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
    const s = String(x);
    return s.includes('e') ? s.replace('e+', 'e') : s + '.0';
  }
  if (x !== x) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  const s = String(x);
  return s.includes('e+') ? s.replace('e+', 'e') : s;
}
