/**
 * The TCK's value notation: parses the text of a result-table cell or parameter value
 * (`1`, `-2.5e3`, `NaN`, `'it\'s'`, `[1, 2]`, `{k: v}`, `(:A:B {k: v})`, `[:T {k: v}]`,
 * `<(:A)-[:T]->(:B)>`) into an `Expected` tree, and turns the plain part of that tree
 * (no nodes, relationships or paths) into engine values for parameters and procedure tables.
 *
 * Integers are kept as bigint here so that values beyond 2^53 survive exactly; floats are JS
 * numbers. Gherkin has already undone its own cell escapes (`\|`, `\\`, `\n`) by the time a
 * cell arrives; the backslash escapes left are those of Cypher string literals.
 */

import { FloatBox, intFromBigInt, type Value } from '../../runtime/values.js';

export interface ExpectedNode {
  k: 'node';
  labels: string[];
  props: Map<string, Expected>;
}

export interface ExpectedRel {
  k: 'rel';
  type: string;
  props: Map<string, Expected>;
}

/** One hop of an expected path: the relationship, its direction as written, and the node reached. */
export interface ExpectedPathStep {
  rel: ExpectedRel;
  /** `out` for `-[..]->` (from the previous node to the next), `in` for `<-[..]-`. */
  dir: 'out' | 'in';
  node: ExpectedNode;
}

export type Expected =
  | { k: 'null' }
  | { k: 'bool'; v: boolean }
  | { k: 'int'; v: bigint }
  | { k: 'float'; v: number }
  | { k: 'string'; v: string }
  | { k: 'list'; items: Expected[] }
  | { k: 'map'; entries: Map<string, Expected> }
  | ExpectedNode
  | ExpectedRel
  | { k: 'path'; start: ExpectedNode; steps: ExpectedPathStep[] };

export class LiteralSyntaxError extends Error {}

/** Parses one complete TCK value; throws LiteralSyntaxError on anything left over or malformed. */
export function parseLiteral(text: string): Expected {
  const p = new LiteralParser(text);
  const v = p.value();
  p.skipSpace();
  if (!p.atEnd()) p.fail('unexpected trailing text');
  return v;
}

class LiteralParser {
  private pos = 0;

  constructor(private readonly src: string) {}

  atEnd(): boolean {
    return this.pos >= this.src.length;
  }

  fail(msg: string): never {
    throw new LiteralSyntaxError(`${msg} at offset ${this.pos} in ${JSON.stringify(this.src)}`);
  }

  skipSpace(): void {
    while (this.pos < this.src.length && /\s/.test(this.src[this.pos]!)) this.pos++;
  }

  private peek(): string {
    return this.src[this.pos] ?? '';
  }

  private startsWith(s: string): boolean {
    return this.src.startsWith(s, this.pos);
  }

  private expect(s: string): void {
    this.skipSpace();
    if (!this.startsWith(s)) this.fail(`expected '${s}'`);
    this.pos += s.length;
  }

  private tryConsume(s: string): boolean {
    this.skipSpace();
    if (this.startsWith(s)) {
      this.pos += s.length;
      return true;
    }
    return false;
  }

  value(): Expected {
    this.skipSpace();
    const c = this.peek();
    if (c === '') this.fail('expected a value');
    if (c === "'" || c === '"') return { k: 'string', v: this.string() };
    if (c === '[') return this.bracketed();
    if (c === '{') return { k: 'map', entries: this.mapBody() };
    if (c === '(') return this.node();
    if (c === '<') return this.path();
    const word = /^[A-Za-z_][A-Za-z_0-9]*/.exec(this.src.slice(this.pos));
    if (word) {
      const w = word[0];
      const lower = w.toLowerCase();
      this.pos += w.length;
      if (lower === 'null') return { k: 'null' };
      if (lower === 'true') return { k: 'bool', v: true };
      if (lower === 'false') return { k: 'bool', v: false };
      if (w === 'NaN') return { k: 'float', v: NaN };
      if (w === 'Inf' || w === 'Infinity') return { k: 'float', v: Infinity };
      this.pos -= w.length;
      this.fail(`unknown word '${w}'`);
    }
    return this.number();
  }

  private number(): Expected {
    const rest = this.src.slice(this.pos);
    const special = /^([-+]?)(Inf(?:inity)?|NaN)\b/.exec(rest);
    if (special) {
      this.pos += special[0].length;
      if (special[2] === 'NaN') return { k: 'float', v: NaN };
      return { k: 'float', v: special[1] === '-' ? -Infinity : Infinity };
    }
    const hex = /^([-+]?)0x([0-9a-fA-F]+)/.exec(rest);
    if (hex) {
      this.pos += hex[0].length;
      const v = BigInt(`0x${hex[2]!}`);
      return { k: 'int', v: hex[1] === '-' ? -v : v };
    }
    const octal = /^([-+]?)0o([0-7]+)/.exec(rest);
    if (octal) {
      this.pos += octal[0].length;
      const v = BigInt(`0o${octal[2]!}`);
      return { k: 'int', v: octal[1] === '-' ? -v : v };
    }
    const m = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?/.exec(rest);
    if (!m) this.fail('expected a value');
    this.pos += m[0].length;
    const text = m[0];
    if (m[2] === undefined && m[3] === undefined && !text.includes('.')) {
      return { k: 'int', v: BigInt(text) };
    }
    return { k: 'float', v: Number(text) };
  }

  private string(): string {
    const quote = this.peek();
    this.pos++;
    let out = '';
    for (;;) {
      if (this.atEnd()) this.fail('unterminated string');
      const c = this.src[this.pos++]!;
      if (c === quote) return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      if (this.atEnd()) this.fail('unterminated escape');
      const e = this.src[this.pos++]!;
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': {
          const hex = this.src.slice(this.pos, this.pos + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('bad \\u escape');
          out += String.fromCharCode(parseInt(hex, 16));
          this.pos += 4;
          break;
        }
        case 'U': {
          const hex = this.src.slice(this.pos, this.pos + 8);
          if (!/^[0-9a-fA-F]{8}$/.test(hex)) this.fail('bad \\U escape');
          out += String.fromCodePoint(parseInt(hex, 16));
          this.pos += 8;
          break;
        }
        default: out += e;
      }
    }
  }

  /** A name: an identifier or a backquoted name. */
  private name(): string {
    this.skipSpace();
    if (this.peek() === '`') {
      const end = this.src.indexOf('`', this.pos + 1);
      if (end < 0) this.fail('unterminated backquoted name');
      const n = this.src.slice(this.pos + 1, end);
      this.pos = end + 1;
      return n;
    }
    const m = /^[\p{L}_][\p{L}\p{N}_]*/u.exec(this.src.slice(this.pos));
    if (!m) this.fail('expected a name');
    this.pos += m[0].length;
    return m[0];
  }

  /** `[` starts either a list or a relationship (`[:T ...]`). */
  private bracketed(): Expected {
    const save = this.pos;
    this.pos++;
    this.skipSpace();
    if (this.peek() === ':') {
      this.pos = save;
      return this.rel();
    }
    const items: Expected[] = [];
    if (this.tryConsume(']')) return { k: 'list', items };
    for (;;) {
      items.push(this.value());
      if (this.tryConsume(']')) return { k: 'list', items };
      this.expect(',');
    }
  }

  private mapBody(): Map<string, Expected> {
    this.expect('{');
    const entries = new Map<string, Expected>();
    if (this.tryConsume('}')) return entries;
    for (;;) {
      const key = this.name();
      this.expect(':');
      entries.set(key, this.value());
      if (this.tryConsume('}')) return entries;
      this.expect(',');
    }
  }

  private optionalProps(): Map<string, Expected> {
    this.skipSpace();
    return this.peek() === '{' ? this.mapBody() : new Map();
  }

  private node(): ExpectedNode {
    this.expect('(');
    const labels: string[] = [];
    while (this.tryConsume(':')) labels.push(this.name());
    const props = this.optionalProps();
    this.expect(')');
    return { k: 'node', labels, props };
  }

  private rel(): ExpectedRel {
    this.expect('[');
    this.expect(':');
    const type = this.name();
    const props = this.optionalProps();
    this.expect(']');
    return { k: 'rel', type, props };
  }

  private path(): Expected {
    this.expect('<');
    const start = this.node();
    const steps: ExpectedPathStep[] = [];
    for (;;) {
      this.skipSpace();
      if (this.tryConsume('>')) return { k: 'path', start, steps };
      let dir: 'out' | 'in';
      if (this.tryConsume('<-')) {
        dir = 'in';
        const rel = this.rel();
        this.expect('-');
        steps.push({ rel, dir, node: this.node() });
      } else {
        this.expect('-');
        const rel = this.rel();
        this.expect('->');
        dir = 'out';
        steps.push({ rel, dir, node: this.node() });
      }
    }
  }
}

/** Converts a plain expected value into an engine value (for parameters and procedure tables). */
export function literalToValue(e: Expected): Value {
  switch (e.k) {
    case 'null': return null;
    case 'bool': return e.v;
    case 'int': return intFromBigInt(e.v);
    case 'float': return Number.isInteger(e.v) ? new FloatBox(e.v) : e.v;
    case 'string': return e.v;
    case 'list': return e.items.map(literalToValue);
    case 'map': {
      const m = new Map<string, Value>();
      for (const [k, v] of e.entries) m.set(k, literalToValue(v));
      return m;
    }
    default:
      throw new LiteralSyntaxError(`a ${e.k} cannot be used as a parameter or procedure value`);
  }
}
