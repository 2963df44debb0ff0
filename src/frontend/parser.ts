/**
 * The front door of the front end: query text in, typed AST (`ast.ts`) out. Runs the
 * antlr-ng generated lexer and parser in two stages — fast SLL prediction that bails at the
 * first problem, then full LL with error reporting only when SLL fails — and hands the
 * parse tree to the AST builder. Whatever goes wrong, callers only ever see a
 * QuerySyntaxError with a 1-based position.
 */

import {
  BailErrorStrategy,
  CharStream,
  type CommonTokenStream,
  DefaultErrorStrategy,
  ParseCancellationException,
  PredictionMode,
  type Token,
} from 'antlr4ng';
import { endsTheQuery, QuerySyntaxError } from '../errors.js';
import type { Query, Statement } from './ast.js';
import { buildStatement } from './astBuilder.js';
import { GqlLexer } from './generated/GqlLexer.js';
import { GqlParser, type StatementContext } from './generated/GqlParser.js';
import { ThrowingErrorListener } from './parseErrors.js';
import { DeadlineTokenStream } from './deadline-tokens.js';

/** Deeper bracket nesting than this is refused before parsing (it would only exhaust the stack). */
const MAX_NESTING = 400;

const listener = new ThrowingErrorListener();

function checkNesting(tokens: CommonTokenStream): void {
  let depth = 0;
  for (const token of tokens.getTokens()) {
    switch (token.type) {
      case GqlParser.LPAREN:
      case GqlParser.LBRACK:
      case GqlParser.LBRACE:
        if (++depth > MAX_NESTING) throw tooDeep(token);
        break;
      case GqlParser.RPAREN:
      case GqlParser.RBRACK:
      case GqlParser.RBRACE:
        depth--;
        break;
      default:
        break;
    }
  }
}

function tooDeep(token?: Token): QuerySyntaxError {
  const position = token ? { line: token.line, column: token.column + 1 } : undefined;
  return new QuerySyntaxError(`Query is nested too deeply to parse (more than ${MAX_NESTING} levels)`, position, 'InvalidSyntax');
}

/** Parses text into a parse tree; throws QuerySyntaxError on the first syntax error. */
function parseTree(text: string): StatementContext {
  const lexer = new GqlLexer(CharStream.fromString(text));
  lexer.removeErrorListeners();
  lexer.addErrorListener(listener);
  const tokens = new DeadlineTokenStream(lexer);
  tokens.fill();
  checkNesting(tokens);
  const parser = new GqlParser(tokens);
  parser.removeErrorListeners();
  parser.interpreter.predictionMode = PredictionMode.SLL;
  parser.errorHandler = new BailErrorStrategy();
  try {
    return parser.statement();
  } catch (err) {
    if (!(err instanceof ParseCancellationException)) throw err;
  }
  // SLL could not decide (or the text is wrong): retry with full LL and real error reports.
  tokens.seek(0);
  parser.reset();
  parser.addErrorListener(listener);
  parser.errorHandler = new DefaultErrorStrategy();
  parser.interpreter.predictionMode = PredictionMode.LL;
  return parser.statement();
}

function isStackOverflow(err: unknown): boolean {
  return err instanceof RangeError && /call stack/i.test(err.message);
}

/** Parses one statement: a query or schema command, optionally prefixed by EXPLAIN / PROFILE. */
export function parseStatement(text: string): Statement {
  try {
    return buildStatement(parseTree(text));
  } catch (err) {
    if (err instanceof QuerySyntaxError || endsTheQuery(err)) throw err;
    if (isStackOverflow(err)) throw tooDeep();
    const message = err instanceof Error ? err.message : String(err);
    throw new QuerySyntaxError(`Could not parse the query: ${message}`, undefined, 'InvalidSyntax');
  }
}

/** Parses text that must be a query (no schema command, no EXPLAIN / PROFILE prefix). */
export function parseQuery(text: string): Query {
  const statement = parseStatement(text);
  if (statement.body.kind !== 'Query' || statement.explain) {
    throw new QuerySyntaxError('Expected a query', statement.pos, 'UnexpectedSyntax');
  }
  return statement.body;
}
