/**
 * Turns ANTLR's syntax-error reports into QuerySyntaxErrors a user can act on: the
 * message names the offending input and what was expected there, in words
 * (`Invalid input 'RETURN': expected a pattern`, `Unexpected end of input: expected ')'`),
 * the position is 1-based, and the detail is the TCK's code where one applies.
 */

import {
  BaseErrorListener,
  type ATNSimulator,
  type IntervalSet,
  type Parser,
  type ParserRuleContext,
  type RecognitionException,
  type Recognizer,
  type Token,
} from 'antlr4ng';
import { QuerySyntaxError } from '../errors.js';
import { GqlParser } from './generated/GqlParser.js';

/** What a rule expects, in a user's words, when too many tokens could follow to list them. */
const RULE_PHRASES: ReadonlyMap<number, string> = new Map([
  [GqlParser.RULE_statement, 'a clause'],
  [GqlParser.RULE_query, 'a clause'],
  [GqlParser.RULE_singleQuery, 'a clause'],
  [GqlParser.RULE_clause, 'a clause'],
  [GqlParser.RULE_subqueryBody, 'a clause or a pattern'],
  [GqlParser.RULE_patternList, 'a pattern'],
  [GqlParser.RULE_patternPart, 'a pattern'],
  [GqlParser.RULE_pathPatternBody, 'a pattern'],
  [GqlParser.RULE_patternElement, 'a pattern'],
  [GqlParser.RULE_patternStep, 'a relationship pattern'],
  [GqlParser.RULE_relationshipsChain, 'a pattern'],
  [GqlParser.RULE_nodePattern, 'a node pattern'],
  [GqlParser.RULE_relationshipPattern, 'a relationship pattern'],
  [GqlParser.RULE_relationshipDetail, 'a relationship pattern'],
  [GqlParser.RULE_labelExpression, 'a label'],
  [GqlParser.RULE_labelExpr, 'a label'],
  [GqlParser.RULE_nodeLabels, 'a label'],
  [GqlParser.RULE_variable, 'a variable name'],
  [GqlParser.RULE_symbolicName, 'a name'],
  [GqlParser.RULE_schemaName, 'a name'],
  [GqlParser.RULE_setItem, 'a property, label or variable to set'],
  [GqlParser.RULE_removeItem, 'a property or label to remove'],
  [GqlParser.RULE_cypherType, 'a type'],
  [GqlParser.RULE_cypherTypeBase, 'a type'],
  [GqlParser.RULE_schemaCommand, 'an index or constraint definition'],
  [GqlParser.RULE_createIndex, 'an index definition'],
  [GqlParser.RULE_createConstraint, 'a constraint definition'],
  [GqlParser.RULE_mapLiteral, 'a map key'],
  [GqlParser.RULE_mapEntry, 'a map key'],
]);

const EXPRESSION_RULES: ReadonlySet<number> = new Set([
  GqlParser.RULE_expression,
  GqlParser.RULE_atom,
  GqlParser.RULE_literal,
  GqlParser.RULE_listLiteral,
  GqlParser.RULE_projectionItem,
  GqlParser.RULE_sortItem,
  GqlParser.RULE_functionInvocation,
  GqlParser.RULE_caseExpression,
  GqlParser.RULE_caseAlternative,
]);

const CLOSERS = [GqlParser.RPAREN, GqlParser.RBRACK, GqlParser.RBRACE];

/** The grammar's hard keywords (rule `hardKeyword`): listed by name when expected. */
const HARD_KEYWORDS: ReadonlySet<number> = new Set([
  GqlParser.ALLSHORTESTPATHS,
  GqlParser.AND,
  GqlParser.AS,
  GqlParser.ASC,
  GqlParser.ASCENDING,
  GqlParser.BY,
  GqlParser.CALL,
  GqlParser.CASE,
  GqlParser.CONTAINS,
  GqlParser.CREATE,
  GqlParser.DELETE,
  GqlParser.DESC,
  GqlParser.DESCENDING,
  GqlParser.DETACH,
  GqlParser.DISTINCT,
  GqlParser.ELSE,
  GqlParser.END,
  GqlParser.ENDS,
  GqlParser.FALSE,
  GqlParser.FOREACH,
  GqlParser.IN,
  GqlParser.IS,
  GqlParser.LIMIT,
  GqlParser.MATCH,
  GqlParser.MERGE,
  GqlParser.NOT,
  GqlParser.NULL,
  GqlParser.ON,
  GqlParser.OPTIONAL,
  GqlParser.OR,
  GqlParser.ORDER,
  GqlParser.REMOVE,
  GqlParser.RETURN,
  GqlParser.SET,
  GqlParser.SHORTESTPATH,
  GqlParser.SKIP_,
  GqlParser.STARTS,
  GqlParser.THEN,
  GqlParser.TRUE,
  GqlParser.UNION,
  GqlParser.UNWIND,
  GqlParser.WHEN,
  GqlParser.WHERE,
  GqlParser.WITH,
  GqlParser.XOR,
  GqlParser.YIELD,
]);

/** Identifiers and soft keywords, too many to list one by one: they are folded into `a name`. */
function isNameToken(type: number): boolean {
  if (type === GqlParser.IDENTIFIER || type === GqlParser.ESCAPED_NAME) return true;
  return type >= GqlParser.ACYCLIC && type <= GqlParser.YIELD && !HARD_KEYWORDS.has(type);
}

function describeToken(type: number): string {
  switch (type) {
    case -1:
      return 'end of input';
    case GqlParser.IDENTIFIER:
    case GqlParser.ESCAPED_NAME:
      return 'a name';
    case GqlParser.STRING_LITERAL:
      return 'a string';
    case GqlParser.DECIMAL_INTEGER:
    case GqlParser.HEX_INTEGER:
    case GqlParser.OCTAL_INTEGER:
      return 'an integer';
    case GqlParser.FLOAT_LITERAL:
      return 'a number';
    case GqlParser.PARAMETER:
      return 'a parameter';
    default: {
      if (type >= GqlParser.ACYCLIC && type <= GqlParser.YIELD) return (GqlParser.symbolicNames[type] ?? '').replace(/_$/, '');
      const literal = GqlParser.literalNames[type];
      if (literal) return literal;
      const symbolic = GqlParser.symbolicNames[type] ?? `token ${type}`;
      return symbolic.replace(/_$/, '');
    }
  }
}

function joinAlternatives(items: string[]): string {
  if (items.length <= 1) return items[0] ?? 'something else';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** The expected tokens, said in words. */
export function describeExpected(expected: IntervalSet, context: ParserRuleContext | null): string {
  const types = expected.toArray();
  const closers = CLOSERS.filter((t) => types.includes(t)).map(describeToken);
  const names = types.filter(isNameToken);
  const others = types.filter((t) => !isNameToken(t) && !CLOSERS.includes(t));
  const listed: string[] = [...closers];
  if (names.length > 0 && names.length >= types.length / 2) listed.push('a name');
  else for (const t of names) listed.push(describeToken(t));
  for (const t of others) listed.push(describeToken(t));
  const unique = [...new Set(listed)];
  if (unique.length <= 4 && names.length === 0) return joinAlternatives(unique);
  if (closers.length > 0 && unique.length > 4) return joinAlternatives(closers);
  let ctx: ParserRuleContext | null = context;
  while (ctx) {
    if (EXPRESSION_RULES.has(ctx.ruleIndex)) return 'an expression';
    const phrase = RULE_PHRASES.get(ctx.ruleIndex);
    if (phrase) return phrase;
    ctx = ctx.parent;
  }
  return joinAlternatives(unique.slice(0, 5));
}

/** Whether the parser stopped inside the brackets of a relationship pattern (not in a nested expression). */
function insideRelationshipDetail(context: ParserRuleContext | null): boolean {
  let ctx = context;
  while (ctx) {
    if (ctx.ruleIndex === GqlParser.RULE_relationshipDetail || ctx.ruleIndex === GqlParser.RULE_rangeLiteral) return true;
    if (EXPRESSION_RULES.has(ctx.ruleIndex) || ctx.ruleIndex === GqlParser.RULE_mapLiteral) return false;
    ctx = ctx.parent;
  }
  return false;
}

function quoteInput(text: string): string {
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return `'${shown}'`;
}

/** Builds the QuerySyntaxError for a token the parser could not accept. */
export function syntaxErrorAt(
  offending: Token | null,
  expected: IntervalSet | null,
  context: ParserRuleContext | null,
  fallbackLine: number,
  fallbackColumn: number,
): QuerySyntaxError {
  const position = {
    line: offending?.line ?? fallbackLine,
    column: (offending?.column ?? fallbackColumn) + 1,
  };
  const wanted = expected && expected.length > 0 ? describeExpected(expected, context) : undefined;
  const suffix = wanted ? `: expected ${wanted}` : '';
  if (!offending || offending.type === -1) {
    return new QuerySyntaxError(`Unexpected end of input${suffix}`, position, 'UnexpectedSyntax');
  }
  const text = offending.text ?? '';
  if (offending.type === GqlParser.UNTERMINATED_COMMENT) {
    return new QuerySyntaxError("Unterminated comment: '/*' has no closing '*/'", position, 'UnexpectedSyntax');
  }
  if (offending.type === GqlParser.ERROR_CHAR) {
    if (text === "'" || text === '"') {
      return new QuerySyntaxError(`Unterminated string literal starting with ${text}`, position, 'UnexpectedSyntax');
    }
    if (text === '`') {
      return new QuerySyntaxError('Unterminated back-quoted name', position, 'UnexpectedSyntax');
    }
    const code = text.codePointAt(0) ?? 0;
    if (code > 0x7f) {
      const hex = code.toString(16).toUpperCase().padStart(4, '0');
      return new QuerySyntaxError(
        `Invalid character '${text}' (U+${hex}): it is not part of the query language`,
        position,
        'InvalidUnicodeCharacter',
      );
    }
    return new QuerySyntaxError(`Invalid input ${quoteInput(text)}${suffix}`, position, 'UnexpectedSyntax');
  }
  const detail = insideRelationshipDetail(context) ? 'InvalidRelationshipPattern' : 'UnexpectedSyntax';
  return new QuerySyntaxError(`Invalid input ${quoteInput(text)}${suffix}`, position, detail);
}

/** An error listener that throws at the first syntax error, instead of printing to the console. */
export class ThrowingErrorListener extends BaseErrorListener {
  override syntaxError<S extends Token, T extends ATNSimulator>(
    recognizer: Recognizer<T>,
    offendingSymbol: S | null,
    line: number,
    column: number,
    msg: string,
    e: RecognitionException | null,
  ): void {
    if (!(recognizer instanceof GqlParser)) {
      // The lexer (its catch-all token makes this rare): ANTLR's message quotes the text.
      const text = msg.replace(/^token recognition error at: /, '');
      throw new QuerySyntaxError(`Invalid input ${text}`, { line, column: column + 1 }, 'UnexpectedSyntax');
    }
    const parser: Parser = recognizer;
    const context: ParserRuleContext | null = parser.context;
    let expected: IntervalSet | null;
    try {
      expected = e?.getExpectedTokens() ?? parser.getExpectedTokens();
    } catch {
      expected = null;
    }
    throw syntaxErrorAt(offendingSymbol, expected, context, line, column);
  }
}
