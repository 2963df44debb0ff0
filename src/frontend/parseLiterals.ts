/**
 * Decoding of literal tokens for the AST builder: integer literals (decimal, hexadecimal,
 * octal) as exact `bigint`s checked against the signed 64-bit range, float literals,
 * string literals with their escape sequences, and back-quoted names. Every problem is a
 * QuerySyntaxError carrying the TCK's detail code.
 */

import { QuerySyntaxError, type SourcePosition } from '../errors.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Parses the text of an integer token, negated when `negative`; rejects values outside 64 bits. */
export function decodeInteger(text: string, negative: boolean, pos: SourcePosition): bigint {
  let magnitude: bigint;
  const lower = text.toLowerCase();
  if (lower.startsWith('0x')) magnitude = BigInt('0x' + lower.slice(2));
  else if (lower.startsWith('0o')) magnitude = BigInt('0o' + lower.slice(2));
  else magnitude = BigInt(text);
  const value = negative ? -magnitude : magnitude;
  if (value < INT64_MIN || value > INT64_MAX) {
    throw new QuerySyntaxError(
      `Integer literal ${negative ? '-' : ''}${text} is outside the 64-bit integer range`,
      pos,
      'IntegerOverflow',
    );
  }
  return value;
}

/** Parses the text of a float token, negated when `negative`; rejects values too large for a double. */
export function decodeFloat(text: string, negative: boolean, pos: SourcePosition): number {
  const magnitude = Number(text);
  if (!Number.isFinite(magnitude)) {
    throw new QuerySyntaxError(`Float literal ${text} is too large to represent`, pos, 'FloatingPointOverflow');
  }
  return negative ? -magnitude : magnitude;
}

/** The error for a token such as `12ab` or `0x`: digits run together with letters. */
export function invalidNumber(text: string, pos: SourcePosition): QuerySyntaxError {
  return new QuerySyntaxError(`Invalid number literal '${text}'`, pos, 'InvalidNumberLiteral');
}

function isHex(s: string): boolean {
  return /^[0-9a-fA-F]+$/.test(s);
}

/**
 * Decodes a quoted string token (quotes included). Escapes: `\\ \' \" \b \f \n \r \t`,
 * `\uXXXX` and `\UXXXXXXXX` (letters in either case, as openCypher allows).
 */
export function decodeString(token: string, pos: SourcePosition): string {
  const body = token.slice(1, -1);
  if (!body.includes('\\')) return body;
  let out = '';
  let i = 0;
  while (i < body.length) {
    const ch = body[i];
    if (ch !== '\\') {
      out += ch;
      i++;
      continue;
    }
    const esc = body[i + 1];
    switch (esc) {
      case '\\':
      case "'":
      case '"':
        out += esc;
        i += 2;
        break;
      case 'b':
      case 'B':
        out += '\b';
        i += 2;
        break;
      case 'f':
      case 'F':
        out += '\f';
        i += 2;
        break;
      case 'n':
      case 'N':
        out += '\n';
        i += 2;
        break;
      case 'r':
      case 'R':
        out += '\r';
        i += 2;
        break;
      case 't':
      case 'T':
        out += '\t';
        i += 2;
        break;
      case 'u':
      case 'U': {
        const long = body.slice(i + 2, i + 10);
        const short = body.slice(i + 2, i + 6);
        let code: number;
        if (esc === 'U' && long.length === 8 && isHex(long)) {
          code = parseInt(long, 16);
          i += 10;
        } else if (short.length === 4 && isHex(short)) {
          code = parseInt(short, 16);
          i += 6;
        } else {
          throw new QuerySyntaxError(
            `Invalid Unicode escape '\\${esc}${body.slice(i + 2, i + 6)}' in string literal: expected hexadecimal digits`,
            pos,
            'InvalidUnicodeLiteral',
          );
        }
        if (code > 0x10ffff) {
          throw new QuerySyntaxError(`Unicode escape '\\${esc}${long}' is beyond the last code point`, pos, 'InvalidUnicodeLiteral');
        }
        out += String.fromCodePoint(code);
        break;
      }
      default:
        throw new QuerySyntaxError(
          `Invalid escape sequence '\\${esc ?? ''}' in string literal`,
          pos,
          'InvalidEscapeSequence',
        );
    }
  }
  return out;
}

/** The name a back-quoted token stands for: backquotes removed, doubled backquotes halved. */
export function decodeEscapedName(token: string): string {
  return token.slice(1, -1).replace(/``/g, '`');
}
