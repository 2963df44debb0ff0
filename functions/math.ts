/**
 * Numeric functions: abs, ceil, floor, round, sign, sqrt, exp, log, log10, e, pi, rand,
 * the trigonometric functions, degrees, radians, haversin, isNaN. Results are floats
 * except `abs` of an integer and `sign` (integers), as in openCypher.
 */

import { ArithmeticError } from '../src/errors.js';
import { FloatBox, MIN_INT64, type Value } from '../runtime/values.js';
import { nullSafe1, nullSafe2, pure, withContext } from './define.js';
import { badArg, fl, intArg, numArg, strArg, type FunctionDef } from './types.js';
import { parseRoundingMode, roundDecimal } from './rounding.js';

/** A float function of one number. */
function unary(name: string, description: string, f: (x: number) => number): FunctionDef {
  return pure(name, 'numeric', [1, 1], description, nullSafe1((x) => fl(f(numArg(name, x)))));
}

function round(...args: Value[]): Value {
  const [x = null, precision = null, mode = null] = args;
  if (x === null || (args.length > 1 && precision === null) || (args.length > 2 && mode === null)) return null;
  const v = numArg('round', x);
  if (args.length === 1) return fl(javaRound(v));
  const p = intArg('round', precision);
  if (args.length === 2) {
    if (p === 0) return fl(javaRound(v));
    return fl(roundDecimal(v, p, 'HALF_UP'));
  }
  return fl(roundDecimal(v, p, parseRoundingMode(strArg('round', mode))));
}

/** Java's Math.round for doubles (ties toward +∞), kept as a float; NaN and ±∞ unchanged. */
function javaRound(x: number): number {
  if (!Number.isFinite(x)) return x;
  // JS Math.round has the same tie rule; `+ 0` turns -0 into 0 as Java's long result does.
  return Math.round(x) + 0;
}

function abs(x: Value): Value {
  if (typeof x === 'number') return Math.abs(x);
  if (typeof x === 'bigint') {
    if (x === MIN_INT64) throw new ArithmeticError('Integer overflow in abs()', 'IntegerOverflow');
    return x < 0n ? -x : x;
  }
  if (x instanceof FloatBox) return new FloatBox(Math.abs(x.value));
  throw badArg('abs', x, 'a number');
}

function sign(x: Value): Value {
  if (typeof x === 'bigint') return x > 0n ? 1 : x < 0n ? -1 : 0;
  const v = numArg('sign', x);
  if (v !== v) return 0;
  return v > 0 ? 1 : v < 0 ? -1 : 0;
}

export const mathFunctions: FunctionDef[] = [
  pure('abs', 'numeric', [1, 1], 'Absolute value of a number (integer for integers)', nullSafe1(abs)),
  unary('ceil', 'Smallest integral float greater than or equal to a number', Math.ceil),
  unary('floor', 'Largest integral float less than or equal to a number', Math.floor),
  pure('round', 'numeric', [1, 3], 'Rounds a number, optionally to a precision with a rounding mode', round),
  pure('sign', 'numeric', [1, 1], 'Signum of a number: -1, 0 or 1', nullSafe1(sign)),
  pure('isNaN', 'numeric', [1, 1], 'Whether a number is NaN', nullSafe1((x) => Number.isNaN(numArg('isNaN', x)))),
  unary('sqrt', 'Square root', Math.sqrt),
  unary('exp', 'e raised to a power', Math.exp),
  unary('log', 'Natural logarithm', Math.log),
  unary('log10', 'Base-10 logarithm', Math.log10),
  pure('e', 'numeric', [0, 0], "Euler's number", () => Math.E),
  pure('pi', 'numeric', [0, 0], 'The constant pi', () => Math.PI),
  withContext('rand', 'numeric', [0, 0], 'A random float in [0, 1)', (ctx) => ctx.random()),
  unary('sin', 'Sine of an angle in radians', Math.sin),
  unary('cos', 'Cosine of an angle in radians', Math.cos),
  unary('tan', 'Tangent of an angle in radians', Math.tan),
  unary('cot', 'Cotangent of an angle in radians', (x) => 1 / Math.tan(x)),
  unary('asin', 'Arcsine, in radians', Math.asin),
  unary('acos', 'Arccosine, in radians', Math.acos),
  unary('atan', 'Arctangent, in radians', Math.atan),
  pure('atan2', 'numeric', [2, 2], 'Arctangent of y/x, in radians', nullSafe2((y, x) => fl(Math.atan2(numArg('atan2', y), numArg('atan2', x))))),
  unary('degrees', 'Radians to degrees', (x) => (x * 180) / Math.PI),
  unary('radians', 'Degrees to radians', (x) => (x * Math.PI) / 180),
  unary('haversin', 'Half the versine of an angle', (x) => (1 - Math.cos(x)) / 2),
];
