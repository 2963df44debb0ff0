/**
 * The Lucene query forms users type into `db.index.fulltext.queryNodes`: bare terms (any
 * may match), `"phrases"`, `AND` / `OR` / `NOT` (also `&&`, `||`, `!`, `+term`, `-term`),
 * parentheses, `prefix*`, `fuzzy~` / `fuzzy~1`, `field:term` / `field:"phrase"`, and `^boost`.
 * As in Lucene's classic parser, `a AND b` makes both required, `NOT a` prohibits, and
 * clauses with no operator are optional (at least one must match when nothing is required).
 */

import { ArgumentError, ResourceLimitError } from '../errors.js';

/**
 * Bounds checked while the text is read, before any clause is built: Lucene's own default for
 * clauses in one query (maxClauseCount) and a nesting depth no hand-written query comes near.
 * Without them a 450 KB query of `w* w* …` built a quarter of a million clauses whose score
 * maps filled the heap.
 */
export const MAX_FULLTEXT_CLAUSES = 1024;
export const MAX_FULLTEXT_NESTING = 32;

export type Occur = 'must' | 'should' | 'mustNot';

export type FtQuery =
  | { kind: 'term'; field?: string; text: string; boost: number }
  | { kind: 'phrase'; field?: string; text: string; boost: number }
  | { kind: 'prefix'; field?: string; prefix: string; boost: number }
  | { kind: 'fuzzy'; field?: string; text: string; maxEdits: number; boost: number }
  | { kind: 'bool'; clauses: { occur: Occur; query: FtQuery }[]; boost: number };

type Token =
  | { t: 'word'; text: string }
  | { t: 'phrase'; text: string }
  | { t: 'open' | 'close' | 'and' | 'or' | 'not' | 'plus' | 'minus' | 'colon' }
  | { t: 'suffix'; text: string };

function syntax(message: string): ArgumentError {
  return new ArgumentError(`Invalid full-text query: ${message}`, 'InvalidFulltextQuery');
}

function tooManyClauses(): ResourceLimitError {
  return new ResourceLimitError(`Full-text query has more than ${MAX_FULLTEXT_CLAUSES} terms, prefixes and phrases (the limit per query)`);
}

function tokenize(q: string): Token[] {
  const out: Token[] = [];
  let leaves = 0;
  let depth = 0;
  let i = 0;
  const isSpace = (c: string): boolean => /\s/u.test(c);
  const special = '()":^~*+-!&|';
  while (i < q.length) {
    const c = q[i];
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === '(') {
      if (++depth > MAX_FULLTEXT_NESTING) throw new ResourceLimitError(`Full-text query nests parentheses deeper than ${MAX_FULLTEXT_NESTING} (the limit)`);
      out.push({ t: 'open' });
    } else if (c === ')') {
      depth--;
      out.push({ t: 'close' });
    }
    else if (c === ':') out.push({ t: 'colon' });
    else if (c === '+') out.push({ t: 'plus' });
    else if (c === '-') out.push({ t: 'minus' });
    else if (c === '!') out.push({ t: 'not' });
    else if ((c === '&' || c === '|') && q[i + 1] === c) {
      out.push({ t: c === '&' ? 'and' : 'or' });
      i += 2;
      continue;
    } else if (c === '"') {
      const end = q.indexOf('"', i + 1);
      if (end < 0) throw syntax('a phrase has no closing quote');
      // Twice the limit here (a field name is a word too); the parser counts exactly.
      if (++leaves > 2 * MAX_FULLTEXT_CLAUSES) throw tooManyClauses();
      out.push({ t: 'phrase', text: q.slice(i + 1, end) });
      i = end + 1;
      continue;
    } else if (c === '^' || c === '~') {
      let j = i + 1;
      while (j < q.length && /[0-9.]/.test(q[j])) j++;
      out.push({ t: 'suffix', text: q.slice(i, j) });
      i = j;
      continue;
    } else {
      let j = i;
      let word = '';
      while (j < q.length && !isSpace(q[j]) && (!special.includes(q[j]) || q[j] === '*' || (q[j] === '-' && j > i))) {
        if (q[j] === '\\' && j + 1 < q.length) {
          word += q[j + 1];
          j += 2;
          continue;
        }
        word += q[j];
        j++;
      }
      if (word.length === 0) throw syntax(`unexpected '${c}'`);
      if (word === 'AND') out.push({ t: 'and' });
      else if (word === 'OR') out.push({ t: 'or' });
      else if (word === 'NOT') out.push({ t: 'not' });
      else {
        if (++leaves > 2 * MAX_FULLTEXT_CLAUSES) throw tooManyClauses();
        out.push({ t: 'word', text: word });
      }
      i = j;
      continue;
    }
    i++;
  }
  return out;
}

/** Parses a query; errors are ArgumentError `InvalidFulltextQuery`. */
export function parseFulltextQuery(text: string): FtQuery {
  const tokens = tokenize(text);
  let pos = 0;
  let leaves = 0;
  const leaf = <Q extends FtQuery>(q: Q): Q => {
    if (++leaves > MAX_FULLTEXT_CLAUSES) throw tooManyClauses();
    return q;
  };
  const peek = (): Token | undefined => tokens[pos];

  function clauseList(closing: boolean): FtQuery {
    const clauses: { occur: Occur; query: FtQuery; joinedByAnd: boolean }[] = [];
    let pendingAnd = false;
    let pendingOr = false;
    for (;;) {
      const tok = peek();
      if (tok === undefined) {
        if (closing) throw syntax('a parenthesis is not closed');
        break;
      }
      if (tok.t === 'close') {
        if (!closing) throw syntax("unexpected ')'");
        pos++;
        break;
      }
      if (tok.t === 'and' || tok.t === 'or') {
        if (clauses.length === 0) throw syntax(`${tok.t.toUpperCase()} needs a clause before it`);
        pos++;
        if (tok.t === 'and') pendingAnd = true;
        else pendingOr = true;
        continue;
      }
      let occur: Occur = 'should';
      if (tok.t === 'plus') {
        occur = 'must';
        pos++;
      } else if (tok.t === 'minus' || tok.t === 'not') {
        occur = 'mustNot';
        pos++;
      }
      const query = primary();
      if (pendingAnd) {
        const prev = clauses[clauses.length - 1];
        if (prev.occur === 'should') prev.occur = 'must';
        if (occur === 'should') occur = 'must';
      }
      clauses.push({ occur, query, joinedByAnd: pendingAnd });
      void pendingOr;
      pendingAnd = false;
      pendingOr = false;
    }
    if (pendingAnd || pendingOr) throw syntax('an operator has no clause after it');
    if (clauses.length === 0) throw syntax('the query is empty');
    if (clauses.length === 1 && clauses[0].occur !== 'mustNot') return clauses[0].query;
    return { kind: 'bool', clauses: clauses.map(({ occur, query }) => ({ occur, query })), boost: 1 };
  }

  function applySuffixes(q: FtQuery): FtQuery {
    for (let tok = peek(); tok?.t === 'suffix'; tok = peek()) {
      pos++;
      const n = tok.text.slice(1);
      if (tok.text[0] === '^') {
        const boost = Number(n);
        if (n === '' || !Number.isFinite(boost) || boost < 0) throw syntax(`bad boost '${tok.text}'`);
        q = { ...q, boost };
      } else {
        if (q.kind === 'term') {
          const edits = n === '' ? 2 : Number(n);
          if (!Number.isFinite(edits) || edits < 0) throw syntax(`bad fuzziness '${tok.text}'`);
          q = { kind: 'fuzzy', field: q.field, text: q.text, maxEdits: Math.min(2, Math.round(edits < 1 ? (1 - edits) * 2 : edits)), boost: q.boost };
        }
        // Phrase slop (`"a b"~2`) is accepted and ignored: phrases match exactly.
      }
    }
    return q;
  }

  function primary(): FtQuery {
    let tok = peek();
    let field: string | undefined;
    if (tok?.t === 'word' && tokens[pos + 1]?.t === 'colon') {
      field = tok.text;
      pos += 2;
      tok = peek();
    }
    if (tok === undefined) throw syntax('a clause is missing');
    pos++;
    if (tok.t === 'open') {
      if (field !== undefined) throw syntax('a field name before parentheses is not supported');
      return applySuffixes(clauseList(true));
    }
    if (tok.t === 'phrase') return applySuffixes(leaf({ kind: 'phrase', field, text: tok.text, boost: 1 }));
    if (tok.t === 'word') {
      const w = tok.text;
      if (w.endsWith('*') && w.length > 1 && !w.slice(0, -1).includes('*')) return applySuffixes(leaf({ kind: 'prefix', field, prefix: w.slice(0, -1), boost: 1 }));
      if (w.includes('*')) throw syntax(`wildcards are supported at the end of a term only ('${w}')`);
      return applySuffixes(leaf({ kind: 'term', field, text: w, boost: 1 }));
    }
    throw syntax(`unexpected '${tok.t}'`);
  }

  return clauseList(false);
}
