/**
 * Decimal rounding for `round(x, precision, mode)`: rounds the shortest decimal text of a
 * float (what the user sees, so `round(1.005, 2)` is `1.01`) to `precision` fractional
 * digits with one of the BigDecimal-style modes.
 */

import { ArgumentError } from '../src/errors.js';

export type RoundingMode = 'UP' | 'DOWN' | 'CEILING' | 'FLOOR' | 'HALF_UP' | 'HALF_DOWN' | 'HALF_EVEN';

const MODES = new Set<string>(['UP', 'DOWN', 'CEILING', 'FLOOR', 'HALF_UP', 'HALF_DOWN', 'HALF_EVEN']);

export function parseRoundingMode(s: string): RoundingMode {
  const m = s.toUpperCase();
  if (!MODES.has(m)) throw new ArgumentError(`Unknown rounding mode '${s}'; expected one of ${[...MODES].join(', ')}`, 'InvalidArgumentValue');
  return m as RoundingMode;
}

/** Rounds `x` to `precision` decimal places (negative: to tens, hundreds, …). */
export function roundDecimal(x: number, precision: number, mode: RoundingMode): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const negative = x < 0;
  const m = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(Math.abs(x)));
  if (!m) return x;
  // `allDigits` with the decimal point after its first `intLen` digits is |x|.
  const intLen = m[1].length + (m[3] ? Number(m[3]) : 0);
  const allDigits = m[1] + (m[2] ?? '');
  // Keep `intLen + precision` leading digits of allDigits.
  const keep = intLen + precision;
  if (keep >= allDigits.length) return x;
  let kept: bigint;
  let restDigits: string;
  if (keep <= 0) {
    kept = 0n;
    restDigits = '0'.repeat(-keep) + allDigits;
  } else {
    kept = BigInt(allDigits.slice(0, keep));
    restDigits = allDigits.slice(keep);
  }
  const restNonZero = /[1-9]/.test(restDigits);
  if (restNonZero) {
    const first = restDigits.charCodeAt(0) - 48;
    const beyondHalf = first > 5 || (first === 5 && /[1-9]/.test(restDigits.slice(1)));
    const exactlyHalf = first === 5 && !/[1-9]/.test(restDigits.slice(1));
    let up: boolean;
    switch (mode) {
      case 'UP':
        up = true;
        break;
      case 'DOWN':
        up = false;
        break;
      case 'CEILING':
        up = !negative;
        break;
      case 'FLOOR':
        up = negative;
        break;
      case 'HALF_UP':
        up = beyondHalf || exactlyHalf;
        break;
      case 'HALF_DOWN':
        up = beyondHalf;
        break;
      case 'HALF_EVEN':
        up = beyondHalf || (exactlyHalf && kept % 2n === 1n);
        break;
    }
    if (up) kept += 1n;
  }
  // kept × 10^(-precision)
  const text = `${kept}e${-precision}`;
  const r = Number(text);
  return negative ? -r : r;
}
