/**
 * The editor's Cypher support: a small stream tokenizer for highlighting (keywords, strings,
 * numbers, comments, parameters, labels), completion from the live schema (labels, types,
 * property keys, procedures, functions) and keywords, and the mark that shows a server error
 * at its line and column.
 */

import { type Completion, type CompletionContext, type CompletionResult, type CompletionSource } from '@codemirror/autocomplete';
import { StreamLanguage, type StringStream } from '@codemirror/language';
import { type EditorState, StateEffect, StateField } from '@codemirror/state';
import { Decoration, type DecorationSet, EditorView } from '@codemirror/view';

export const KEYWORDS = [
  'MATCH', 'OPTIONAL', 'WHERE', 'RETURN', 'WITH', 'UNWIND', 'AS', 'ORDER', 'BY', 'ASC', 'DESC', 'SKIP', 'LIMIT',
  'CREATE', 'MERGE', 'ON', 'SET', 'DELETE', 'DETACH', 'REMOVE', 'CALL', 'YIELD', 'UNION', 'ALL', 'DISTINCT',
  'AND', 'OR', 'XOR', 'NOT', 'IN', 'IS', 'NULL', 'TRUE', 'FALSE', 'CASE', 'WHEN', 'THEN', 'ELSE', 'END',
  'EXISTS', 'COUNT', 'STARTS', 'ENDS', 'CONTAINS', 'EXPLAIN', 'PROFILE', 'INDEX', 'CONSTRAINT', 'FOR', 'REQUIRE',
  'DROP', 'SHOW', 'FOREACH', 'LOAD', 'CSV', 'FROM', 'HEADERS', 'USE', 'FILTER', 'LET', 'NEXT', 'INSERT', 'FINISH',
];
const KEYWORD_SET = new Set(KEYWORDS);

interface TokenState {
  /** The last significant character: a word after `:` is a label or type. */
  afterColon: boolean;
  inComment: boolean;
}

function token(stream: StringStream, state: TokenState): string | null {
  if (state.inComment) {
    if (stream.skipTo('*/')) {
      stream.next();
      stream.next();
      state.inComment = false;
    } else stream.skipToEnd();
    return 'comment';
  }
  if (stream.eatSpace()) return null;
  if (stream.match('//')) {
    stream.skipToEnd();
    return 'comment';
  }
  if (stream.match('/*')) {
    state.inComment = true;
    return 'comment';
  }
  const ch = stream.peek() ?? '';
  if (ch === '"' || ch === "'") {
    stream.next();
    let escaped = false;
    for (let c = stream.next(); c !== undefined; c = stream.next()) {
      if (c === ch && !escaped) break;
      escaped = !escaped && c === '\\';
    }
    state.afterColon = false;
    return 'string';
  }
  if (ch === '`') {
    stream.next();
    stream.skipTo('`');
    stream.next();
    const was = state.afterColon;
    state.afterColon = false;
    return was ? 'typeName' : 'variableName';
  }
  if (stream.match(/^\d+(\.\d+)?([eE][+-]?\d+)?/)) {
    state.afterColon = false;
    return 'number';
  }
  if (stream.match(/^\$\w+/)) {
    state.afterColon = false;
    return 'special(variableName)';
  }
  if (stream.match(/^[A-Za-z_][\w]*/)) {
    const word = stream.current();
    const was = state.afterColon;
    state.afterColon = false;
    if (was) return 'typeName';
    if (KEYWORD_SET.has(word.toUpperCase())) return 'keyword';
    return stream.peek() === '(' ? 'function(variableName)' : 'variableName';
  }
  stream.next();
  state.afterColon = ch === ':';
  return /[-+*/%=<>|]/.test(ch) ? 'operator' : 'punctuation';
}

export const cypherLanguage = StreamLanguage.define<TokenState>({
  name: 'cypher',
  startState: () => ({ afterColon: false, inComment: false }),
  token,
  languageData: { commentTokens: { line: '//', block: { open: '/*', close: '*/' } } },
});

/** The names completion offers, read from the live database. */
export interface Schema {
  labels: string[];
  relationshipTypes: string[];
  propertyKeys: string[];
  procedures: string[];
  functions: string[];
}

export const emptySchema = (): Schema => ({ labels: [], relationshipTypes: [], propertyKeys: [], procedures: [], functions: [] });

function quoted(name: string): string {
  return /^[A-Za-z_][\w]*$/.test(name) ? name : '`' + name.replace(/`/g, '``') + '`';
}

/** Completion sources over `schema()` (read at each completion, so a refreshed schema is seen at once). */
export function cypherCompletions(schema: () => Schema): CompletionSource[] {
  const afterColon = (context: CompletionContext): CompletionResult | null => {
    const m = context.matchBefore(/:`?\w*/);
    if (!m) return null;
    const s = schema();
    const options: Completion[] = [
      ...s.labels.map((l) => ({ label: quoted(l), type: 'class', detail: 'label' })),
      ...s.relationshipTypes.map((t) => ({ label: quoted(t), type: 'type', detail: 'relationship type' })),
    ];
    return { from: m.from + 1, options, validFor: /^`?\w*$/ };
  };
  const afterDot = (context: CompletionContext): CompletionResult | null => {
    const m = context.matchBefore(/[A-Za-z_]\w*\.\w*/);
    if (!m) return null;
    const dot = m.text.indexOf('.');
    const options = schema().propertyKeys.map((k) => ({ label: quoted(k), type: 'property', detail: 'property key' }));
    return { from: m.from + dot + 1, options, validFor: /^\w*$/ };
  };
  const names = (context: CompletionContext): CompletionResult | null => {
    const m = context.matchBefore(/[A-Za-z_][\w.]*/);
    if (!m || (m.from === m.to && !context.explicit)) return null;
    const before = context.state.sliceDoc(Math.max(0, m.from - 1), m.from);
    if (before === ':' || before === '`') return null;
    const s = schema();
    const options: Completion[] = [
      ...s.procedures.map((p) => ({ label: p, type: 'method', detail: 'procedure' })),
      ...s.functions.map((f) => ({ label: f, type: 'function', detail: 'function', apply: f + '(' })),
    ];
    if (!m.text.includes('.')) options.push(...KEYWORDS.map((k) => ({ label: k, type: 'keyword' })));
    return { from: m.from, options, validFor: /^[\w.]*$/ };
  };
  return [afterColon, afterDot, names];
}

// ---------------------------------------------------------------- error position

/** Sets (a range) or clears (null) the error mark. */
export const setErrorMark = StateEffect.define<{ from: number; to: number } | null>();

const errorMark = Decoration.mark({ class: 'cm-error-mark' });

export const errorMarkField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, tr) {
    for (const e of tr.effects) {
      if (e.is(setErrorMark)) return e.value === null ? Decoration.none : Decoration.set([errorMark.range(e.value.from, e.value.to)]);
    }
    // Editing clears the mark: it pointed at text that has changed.
    return tr.docChanged ? Decoration.none : marks;
  },
  provide: (f) => EditorView.decorations.from(f),
});

/** The `(line L, column C)` a server error message ends with, if any (both 1-based). */
export function errorPosition(message: string): { line: number; column: number } | undefined {
  const m = /\(line (\d+), column (\d+)\)/.exec(message);
  return m ? { line: Number(m[1]), column: Number(m[2]) } : undefined;
}

/** The document range to mark at `offset`: the word there, or one character. */
export function errorRange(state: EditorState, offset: number): { from: number; to: number } | undefined {
  const line = state.doc.lineAt(Math.min(offset, state.doc.length));
  const from = Math.min(offset, line.to);
  const word = /^\w+/.exec(state.sliceDoc(from, line.to));
  const to = word ? from + word[0].length : Math.min(from + 1, line.to);
  return to > from ? { from, to } : from > line.from ? { from: from - 1, to: from } : undefined;
}

// ---------------------------------------------------------------- statements

/** One statement of the editor's text and where it starts in the document. */
export interface Statement {
  text: string;
  from: number;
}

/** The editor's text cut at each `;` outside strings, quoted names and comments; empty pieces dropped. */
export function splitStatements(doc: string): Statement[] {
  const out: Statement[] = [];
  let start = 0;
  const push = (end: number): void => {
    const piece = doc.slice(start, end);
    const lead = piece.length - piece.trimStart().length;
    if (piece.trim() !== '') out.push({ text: piece.trim(), from: start + lead });
  };
  for (let i = 0; i < doc.length; i++) {
    const ch = doc[i];
    if (ch === '"' || ch === "'" || ch === '`') {
      for (i++; i < doc.length && doc[i] !== ch; i++) if (doc[i] === '\\' && ch !== '`') i++;
    } else if (ch === '/' && doc[i + 1] === '/') {
      while (i < doc.length && doc[i] !== '\n') i++;
    } else if (ch === '/' && doc[i + 1] === '*') {
      const end = doc.indexOf('*/', i + 2);
      i = end < 0 ? doc.length : end + 1;
    } else if (ch === ';') {
      push(i);
      start = i + 1;
    }
  }
  push(doc.length);
  return out;
}

/** The offset in `text` of a 1-based line and column (clamped to the text). */
export function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', offset);
    if (nl < 0) return text.length;
    offset = nl + 1;
  }
  const lineEnd = text.indexOf('\n', offset);
  return Math.min(offset + Math.max(0, column - 1), lineEnd < 0 ? text.length : lineEnd);
}
