/**
 * Small helpers the AST builder modules share: source positions of parse-tree nodes,
 * the source text a node covers, and the names that symbolic and schema name nodes stand
 * for (back-quoted names decoded, keywords kept as written).
 */

import type { ParserRuleContext, Token } from 'antlr4ng';
import { QuerySyntaxError } from '../errors.js';
import type { Pos } from './ast.js';
import type { SchemaNameContext, SymbolicNameContext, VariableContext } from './generated/GqlParser.js';
import { decodeEscapedName } from './parseLiterals.js';

/** 1-based line and column of a token. */
export function tokenPos(token: Token): Pos {
  return { line: token.line, column: token.column + 1 };
}

/** 1-based line and column where a parse-tree node starts. */
export function posOf(ctx: ParserRuleContext): Pos {
  const start = ctx.start;
  return start ? tokenPos(start) : { line: 1, column: 1 };
}

/** The exact source text a node covers, hidden-channel text (spaces, comments) included. */
export function sourceText(ctx: ParserRuleContext): string {
  const start = ctx.start;
  const stop = ctx.stop;
  if (!start || !stop || !start.inputStream) return ctx.getText();
  return start.inputStream.getTextFromRange(start.start, stop.stop);
}

export function symbolicNameText(ctx: SymbolicNameContext): string {
  const escaped = ctx.ESCAPED_NAME();
  if (escaped) return decodeEscapedName(escaped.getText());
  return ctx.getText();
}

export function schemaNameText(ctx: SchemaNameContext): string {
  const sym = ctx.symbolicName();
  return sym ? symbolicNameText(sym) : ctx.getText();
}

export function variableName(ctx: VariableContext): string {
  return symbolicNameText(ctx.symbolicName());
}

/** A syntax error found while building the AST (the grammar accepted more than the language). */
export function syntaxError(message: string, ctx: ParserRuleContext, detail = 'UnexpectedSyntax'): QuerySyntaxError {
  return new QuerySyntaxError(message, posOf(ctx), detail);
}

/** Decimal text of a small count (path lengths, quantifiers) as a number. */
export function smallInteger(token: Token, ctx: ParserRuleContext): number {
  const value = Number(token.text);
  if (!Number.isSafeInteger(value)) throw syntaxError(`Number ${token.text ?? ''} is too large here`, ctx, 'IntegerOverflow');
  return value;
}

/** The name of a `$param` token, backquotes decoded. */
export function paramName(text: string): string {
  const name = text.slice(1);
  return name.startsWith('`') ? decodeEscapedName(name) : name;
}
