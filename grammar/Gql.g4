/*
 * graphdb query grammar: openCypher 9 clauses and expressions together with the GQL /
 * Neo4j 5 extensions the AST knows about (label expressions, quantified paths, path
 * selectors, FILTER / LET / INSERT, CALL subqueries, EXISTS / COUNT / COLLECT subqueries,
 * type predicates, schema commands). One combined lexer and parser grammar; the
 * TypeScript parser under src/frontend/generated/ is produced from it by antlr-ng.
 *
 * Keywords are case-insensitive. Words split into two groups: `hardKeyword`s structure
 * clauses and expressions and can only be used as schema names (labels, relationship
 * types, property and map keys); every other keyword is a `softKeyword` and also serves as
 * a variable, function or procedure name.
 */
grammar Gql;

options { caseInsensitive = true; }

@lexer::header {
import { isIdentifierPart, isIdentifierStart } from '../identifier-chars.js';
}

// ============================================================================ statements

statement
    : (EXPLAIN | PROFILE)? (schemaCommand | query (NEXT query)*) SEMI? EOF
    ;

query
    : singleQuery (unionJoin singleQuery)*
    ;

unionJoin
    : UNION (ALL | DISTINCT)?
    ;

singleQuery
    : clause+
    ;

clause
    : matchClause
    | unwindClause
    | withClause
    | returnClause
    | createClause
    | mergeClause
    | setClause
    | removeClause
    | deleteClause
    | subqueryCallClause
    | callClause
    | foreachClause
    | loadCsvClause
    | filterClause
    | letClause
    | orderByPageClause
    ;

// ============================================================================ reading clauses

matchClause
    : OPTIONAL? MATCH patternList whereClause?
    ;

whereClause
    : WHERE expression
    ;

unwindClause
    : UNWIND expression AS variable
    | FOR variable IN expression
    ;

withClause
    : WITH projectionBody whereClause?
    ;

returnClause
    : RETURN projectionBody
    ;

projectionBody
    : DISTINCT? projectionItems orderBy? skipPart? limitPart?
    ;

projectionItems
    : STAR (COMMA projectionItem)*
    | projectionItem (COMMA projectionItem)*
    ;

projectionItem
    : expression (AS variable)?
    ;

orderBy
    : ORDER BY sortItem (COMMA sortItem)*
    ;

sortItem
    : expression (ASC | ASCENDING | DESC | DESCENDING)?
    ;

skipPart
    : (SKIP_ | OFFSET) expression
    ;

limitPart
    : LIMIT expression
    ;

orderByPageClause
    : orderBy skipPart? limitPart?
    | skipPart limitPart?
    | limitPart
    ;

filterClause
    : FILTER WHERE? expression
    ;

letClause
    : LET letBinding (COMMA letBinding)*
    ;

letBinding
    : variable EQ expression
    ;

loadCsvClause
    : LOAD CSV (WITH HEADERS)? FROM expression AS variable (FIELDTERMINATOR STRING_LITERAL)?
    ;

// ============================================================================ updating clauses

createClause
    : (CREATE | INSERT) patternList
    ;

mergeClause
    : MERGE patternPart mergeAction*
    ;

mergeAction
    : ON (CREATE | MATCH) SET setItem (COMMA setItem)*
    ;

setClause
    : SET setItem (COMMA setItem)*
    ;

setItem
    : propertyTarget EQ expression                  # setPropertyItem
    | variable EQ expression                        # setAllPropertiesItem
    | variable PLUSEQ expression                    # mergePropertiesItem
    | variable nodeLabels                           # setLabelsItem
    ;

/** An expression ending in a property lookup or a dynamic key: the left side of SET / REMOVE. */
propertyTarget
    : atom targetSuffix+
    ;

targetSuffix
    : DOT schemaName
    | LBRACK expression RBRACK
    ;

nodeLabels
    : (COLON (schemaName | dynamicLabel))+
    ;

/** Neo4j 5's dynamic labels and types: `$(expr)`, `$all(expr)`, `$any(expr)` (a string or a list of strings). */
dynamicLabel
    : DOLLAR LPAREN expression RPAREN
    | PARAMETER LPAREN expression RPAREN
    ;

removeClause
    : REMOVE removeItem (COMMA removeItem)*
    ;

removeItem
    : variable nodeLabels                           # removeLabelsItem
    | propertyTarget                                # removePropertyItem
    ;

deleteClause
    : DETACH? DELETE expression (COMMA expression)*
    ;

foreachClause
    : FOREACH LPAREN variable IN expression PIPE clause+ RPAREN
    ;

// ============================================================================ calls

callClause
    : CALL procedureName procedureArguments? yieldPart?
    ;

procedureName
    : schemaName (DOT schemaName)*
    ;

procedureArguments
    : LPAREN (expression (COMMA expression)*)? RPAREN
    ;

yieldPart
    : YIELD STAR
    | YIELD yieldItem (COMMA yieldItem)* whereClause?
    ;

yieldItem
    : symbolicName (AS variable)?
    ;

subqueryCallClause
    : OPTIONAL? CALL subqueryScope? LBRACE query RBRACE inTransactions?
    ;

subqueryScope
    : LPAREN (STAR | variable (COMMA variable)*)? RPAREN
    ;

inTransactions
    : IN TRANSACTIONS (OF expression (ROW | ROWS))?
    ;

// ============================================================================ patterns

patternList
    : patternPart (COMMA patternPart)*
    ;

patternPart
    : (variable EQ)? pathPatternBody
    ;

pathPatternBody
    : SHORTESTPATH LPAREN patternElement RPAREN          # shortestPathBody
    | ALLSHORTESTPATHS LPAREN patternElement RPAREN      # allShortestPathsBody
    | pathSelector? pathMode? patternElement             # plainPathBody
    ;

pathSelector
    : ANY SHORTEST (PATH | PATHS)?                       # anyShortestSelector
    | ALL SHORTEST (PATH | PATHS)?                       # allShortestSelector
    | SHORTEST DECIMAL_INTEGER (PATH | PATHS)? GROUPS?   # shortestKSelector
    | ANY DECIMAL_INTEGER? (PATH | PATHS)?               # anyKSelector
    ;

pathMode
    : (WALK | TRAIL | SIMPLE | ACYCLIC) (PATH | PATHS)?
    ;

patternElement
    : nodePattern patternStep*
    | LPAREN patternElement RPAREN
    ;

patternStep
    : relationshipPattern nodePattern
    | quantifiedGroup nodePattern
    ;

quantifiedGroup
    : LPAREN (variable EQ)? patternElement whereClause? RPAREN quantifier
    ;

quantifier
    : LBRACE lower=DECIMAL_INTEGER? COMMA upper=DECIMAL_INTEGER? RBRACE
    | LBRACE exact=DECIMAL_INTEGER RBRACE
    | PLUS
    | STAR
    ;

nodePattern
    : LPAREN variable? labelExpression? properties? whereClause? RPAREN
    ;

relationshipPattern
    : left=LT? MINUS relationshipDetail? MINUS right=GT? quantifier?
    ;

relationshipDetail
    : LBRACK variable? labelExpression? rangeLiteral? properties? whereClause? RBRACK
    ;

rangeLiteral
    : STAR lower=DECIMAL_INTEGER? (DOTDOT upper=DECIMAL_INTEGER?)?
    ;

properties
    : mapLiteral
    | PARAMETER
    ;

/** Labels or types of an element pattern: `:A:B`, `:A|B`, `:A&!B`, `:%`, `IS A`. */
labelExpression
    : COLON labelExpr
    | IS labelExpr
    ;

/** Label expressions: `!` binds tightest, then `&` (or `:`), then `|` (or `|:`). */
labelExpr
    : BANG labelExpr                                    # labelNegation
    | labelExpr (AMP | COLON) labelExpr                 # labelConjunction
    | labelExpr PIPE COLON? labelExpr                   # labelDisjunction
    | PERCENT                                           # labelWildcard
    | dynamicLabel                                      # labelDynamic
    | LPAREN labelExpr RPAREN                           # labelParenthesized
    | schemaName                                        # labelName
    ;

/** A path used as an expression: a node followed by at least one step. */
relationshipsChain
    : nodePattern patternStep+
    ;

// ============================================================================ expressions

/**
 * One left-recursive rule for all operators, so that a plain atom costs few parse-tree
 * nodes. Alternatives are listed from the tightest binding to the loosest (openCypher
 * precedence): postfix lookups and label checks; unary + and -; ^; * / %; + -;
 * STARTS WITH / ENDS WITH / CONTAINS / =~ / IN; IS [NOT] NULL, type and IS-label
 * predicates; comparisons (chains are rebuilt by the AST builder); NOT; AND; XOR; OR.
 */
expression
    : atom                                                      # atomExpression
    | expression DOT schemaName                                 # propertyExpression
    | expression LBRACK from=expression? DOTDOT to=expression? RBRACK # sliceExpression
    | expression LBRACK index=expression RBRACK                 # indexExpression
    | expression COLON labelExpr                                # labelCheckExpression
    | (PLUS | MINUS) expression                                 # unaryExpression
    | expression CARET expression                               # powerExpression
    | expression (STAR | SLASH | PERCENT) expression            # multiplicativeExpression
    | expression (PLUS | MINUS) expression                      # additiveExpression
    | expression (STARTS WITH | ENDS WITH | CONTAINS | REGEQ | IN) expression # stringListExpression
    | expression IS NOT? NULL                                   # nullCheckExpression
    | expression IS NOT? TYPED cypherType                       # typedExpression
    | expression COLONCOLON cypherType                          # typeColonExpression
    | expression IS labelExpr                                   # isLabelExpression
    | expression comparisonOperator expression                  # comparisonExpression
    | NOT expression                                            # notExpression
    | expression AND expression                                 # andExpression
    | expression XOR expression                                 # xorExpression
    | expression OR expression                                  # orExpression
    ;

comparisonOperator
    : EQ | NE | LT | GT | LE | GE
    ;

/**
 * Order matters where alternatives overlap: `[x IN list]` is a list comprehension rather
 * than a list holding `x IN list`, and `(a)-->(b)` a pattern rather than arithmetic.
 */
atom
    : listComprehension                                 # listComprehensionAtom
    | patternComprehension                              # patternComprehensionAtom
    | literal                                           # literalAtom
    | PARAMETER                                         # parameterAtom
    | caseExpression                                    # caseAtom
    | COUNT LPAREN STAR RPAREN                          # countStarAtom
    | quantifierExpression                              # quantifierAtom
    | reduceExpression                                  # reduceAtom
    | EXISTS LBRACE subqueryBody RBRACE                 # existsAtom
    | COUNT LBRACE subqueryBody RBRACE                  # countSubqueryAtom
    | COLLECT LBRACE query RBRACE                       # collectAtom
    | (SHORTESTPATH | ALLSHORTESTPATHS) LPAREN patternElement RPAREN # shortestPathAtom
    | relationshipsChain                                # patternAtom
    | LPAREN expression RPAREN                          # parenthesizedAtom
    | functionInvocation                                # functionAtom
    | variable LBRACE (mapProjectionItem (COMMA mapProjectionItem)*)? RBRACE # mapProjectionAtom
    | variable                                          # variableAtom
    ;

/** The inside of EXISTS { } and COUNT { }: a full query, or patterns with an optional WHERE. */
subqueryBody
    : query
    | patternList whereClause?
    ;

literal
    : numberLiteral
    | STRING_LITERAL
    | TRUE
    | FALSE
    | NULL
    | listLiteral
    | mapLiteral
    ;

numberLiteral
    : DECIMAL_INTEGER
    | HEX_INTEGER
    | OCTAL_INTEGER
    | FLOAT_LITERAL
    | INVALID_NUMBER
    ;

listLiteral
    : LBRACK (expression (COMMA expression)*)? RBRACK
    ;

mapLiteral
    : LBRACE (mapEntry (COMMA mapEntry)*)? RBRACE
    ;

mapEntry
    : schemaName COLON expression
    ;

mapProjectionItem
    : DOT STAR                                          # allPropertiesSelector
    | DOT schemaName                                    # propertySelector
    | schemaName COLON expression                       # literalEntrySelector
    | variable                                          # variableSelector
    ;

caseExpression
    : CASE test=expression? caseAlternative+ (ELSE elseExpr=expression)? END
    ;

caseAlternative
    : WHEN expression THEN expression
    ;

listComprehension
    : LBRACK variable IN expression (WHERE where=expression)? (PIPE projection=expression)? RBRACK
    ;

patternComprehension
    : LBRACK (variable EQ)? relationshipsChain (WHERE where=expression)? PIPE projection=expression RBRACK
    ;

quantifierExpression
    : (ALL | ANY | NONE | SINGLE) LPAREN variable IN expression (WHERE where=expression)? RPAREN
    ;

reduceExpression
    : REDUCE LPAREN acc=variable EQ init=expression COMMA item=variable IN source=expression PIPE body=expression RPAREN
    ;

functionInvocation
    : functionName LPAREN DISTINCT? (expression (COMMA expression)*)? RPAREN
    ;

/** After the first part any word may follow: `apoc.coll.union`, `apoc.map.merge`. */
functionName
    : symbolicName (DOT schemaName)*
    ;

/** GQL value types for `IS TYPED` and `::`. */
cypherType
    : cypherTypeAlternative (PIPE cypherTypeAlternative)*
    ;

cypherTypeAlternative
    : cypherTypeBase (NOT NULL | BANG)?
    ;

cypherTypeBase
    : NULL
    | symbolicName+ (LT cypherType GT)?
    ;

// ============================================================================ schema commands

schemaCommand
    : createIndex
    | dropIndex
    | createConstraint
    | dropConstraint
    | showCommand
    ;

createIndex
    : CREATE indexKind? INDEX indexName? (IF NOT EXISTS)? FOR schemaPattern ON indexProperties (OPTIONS mapLiteral)?
    | CREATE indexKind? INDEX ON COLON schemaName LPAREN schemaName (COMMA schemaName)* RPAREN
    ;

indexKind
    : RANGE | TEXT | POINT | LOOKUP | FULLTEXT | VECTOR | BTREE
    ;

indexName
    : symbolicName
    ;

indexProperties
    : LPAREN propertyRef (COMMA propertyRef)* RPAREN
    | EACH LBRACK propertyRef (COMMA propertyRef)* RBRACK
    | EACH functionInvocation
    ;

propertyRef
    : variable DOT schemaName
    ;

/** `(n:Label)` or `()-[r:TYPE]-()` in index and constraint definitions. */
schemaPattern
    : LPAREN variable schemaLabels? RPAREN                                              # nodeSchemaPattern
    | LPAREN RPAREN LT? MINUS LBRACK variable schemaLabels? RBRACK MINUS GT? LPAREN RPAREN # relSchemaPattern
    ;

schemaLabels
    : COLON schemaName (PIPE schemaName)*
    ;

dropIndex
    : DROP INDEX indexName (IF EXISTS)?
    ;

createConstraint
    : CREATE CONSTRAINT indexName? (IF NOT EXISTS)? (FOR | ON) schemaPattern (REQUIRE | ASSERT) constraintProperties IS constraintKind (OPTIONS mapLiteral)?
    ;

constraintProperties
    : propertyRef
    | LPAREN propertyRef (COMMA propertyRef)* RPAREN
    ;

constraintKind
    : (NODE | RELATIONSHIP | REL)? UNIQUE               # uniqueConstraint
    | NOT NULL                                          # notNullConstraint
    | (NODE | RELATIONSHIP | REL)? KEY                  # keyConstraint
    ;

dropConstraint
    : DROP CONSTRAINT indexName (IF EXISTS)?
    ;

showCommand
    : SHOW (ALL | indexKind)? (INDEX | INDEXES) showTail?          # showIndexes
    | SHOW ALL? (CONSTRAINT | CONSTRAINTS) showTail?              # showConstraints
    | SHOW (PROCEDURE | PROCEDURES) showTail?                     # showProcedures
    | SHOW (FUNCTION | FUNCTIONS) showTail?                       # showFunctions
    | SHOW (DATABASE | DATABASES) symbolicName? showTail?         # showDatabases
    ;

/** Neo4j 5's tail of SHOW commands: YIELD columns (with ORDER BY / SKIP / LIMIT), WHERE, RETURN. */
showTail
    : YIELD projectionBody whereClause? returnClause?
    | whereClause
    ;

// ============================================================================ names

variable
    : symbolicName
    ;

/** A name usable for variables, functions and procedures: an identifier or a soft keyword. */
symbolicName
    : IDENTIFIER
    | ESCAPED_NAME
    | softKeyword
    ;

/** A name of a label, relationship type, property or map key: any word at all. */
schemaName
    : symbolicName
    | hardKeyword
    ;

hardKeyword
    : ALLSHORTESTPATHS | AND | AS | ASC | ASCENDING | BY | CALL | CASE | CONTAINS | CREATE
    | DELETE | DESC | DESCENDING | DETACH | DISTINCT | ELSE | END | ENDS | FALSE | FOREACH
    | IN | IS | LIMIT | MATCH | MERGE | NOT | NULL | ON | OPTIONAL | OR | ORDER | REMOVE
    | RETURN | SET | SHORTESTPATH | SKIP_ | STARTS | THEN | TRUE | UNION | UNWIND | WHEN
    | WHERE | WITH | XOR | YIELD
    ;

softKeyword
    : ACYCLIC | ALL | ANY | ASSERT | BTREE | COLLECT | CONSTRAINT | CONSTRAINTS | COUNT | CSV
    | DATABASE | DATABASES | DROP | EACH | EXISTS | EXPLAIN | FIELDTERMINATOR | FILTER | FOR | FROM | FULLTEXT
    | FUNCTION | FUNCTIONS | GROUPS | HEADERS | IF | INDEX | INDEXES | INSERT | KEY | LET
    | LOAD | LOOKUP | NEXT | NODE | NONE | OF | OFFSET | OPTIONS | PATH | PATHS | POINT | PROCEDURE
    | PROCEDURES | PROFILE | RANGE | REDUCE | REL | RELATIONSHIP | REQUIRE | ROW | ROWS
    | SHORTEST | SHOW | SIMPLE | SINGLE | TEXT | TRAIL | TRANSACTIONS | TYPED | UNIQUE
    | VECTOR | WALK
    ;

// ============================================================================ lexer

ACYCLIC          : 'acyclic';
ALL              : 'all';
ALLSHORTESTPATHS : 'allshortestpaths';
AND              : 'and';
ANY              : 'any';
AS               : 'as';
ASC              : 'asc';
ASCENDING        : 'ascending';
ASSERT           : 'assert';
BTREE            : 'btree';
BY               : 'by';
CALL             : 'call';
CASE             : 'case';
COLLECT          : 'collect';
CONSTRAINT       : 'constraint';
CONSTRAINTS      : 'constraints';
CONTAINS         : 'contains';
COUNT            : 'count';
CREATE           : 'create';
CSV              : 'csv';
DATABASE         : 'database';
DATABASES        : 'databases';
DELETE           : 'delete';
DESC             : 'desc';
DESCENDING       : 'descending';
DETACH           : 'detach';
DISTINCT         : 'distinct';
DROP             : 'drop';
EACH             : 'each';
ELSE             : 'else';
END              : 'end';
ENDS             : 'ends';
EXISTS           : 'exists';
EXPLAIN          : 'explain';
FALSE            : 'false';
FIELDTERMINATOR  : 'fieldterminator';
FILTER           : 'filter';
FOR              : 'for';
FOREACH          : 'foreach';
FROM             : 'from';
FULLTEXT         : 'fulltext';
FUNCTION         : 'function';
FUNCTIONS        : 'functions';
GROUPS           : 'groups';
HEADERS          : 'headers';
IF               : 'if';
IN               : 'in';
INDEX            : 'index';
INDEXES          : 'indexes';
INSERT           : 'insert';
IS               : 'is';
KEY              : 'key';
LET              : 'let';
LIMIT            : 'limit';
LOAD             : 'load';
LOOKUP           : 'lookup';
MATCH            : 'match';
MERGE            : 'merge';
NODE             : 'node';
NEXT             : 'next';
NONE             : 'none';
NOT              : 'not';
NULL             : 'null';
OF               : 'of';
OFFSET           : 'offset';
ON               : 'on';
OPTIONAL         : 'optional';
OPTIONS          : 'options';
OR               : 'or';
ORDER            : 'order';
PATH             : 'path';
PATHS            : 'paths';
POINT            : 'point';
PROCEDURE        : 'procedure';
PROCEDURES       : 'procedures';
PROFILE          : 'profile';
RANGE            : 'range';
REDUCE           : 'reduce';
REL              : 'rel';
RELATIONSHIP     : 'relationship';
REMOVE           : 'remove';
REQUIRE          : 'require';
RETURN           : 'return';
ROW              : 'row';
ROWS             : 'rows';
SET              : 'set';
SHORTEST         : 'shortest';
SHORTESTPATH     : 'shortestpath';
SHOW             : 'show';
SIMPLE           : 'simple';
SINGLE           : 'single';
SKIP_            : 'skip';
STARTS           : 'starts';
TEXT             : 'text';
THEN             : 'then';
TRAIL            : 'trail';
TRANSACTIONS     : 'transactions';
TRUE             : 'true';
TYPED            : 'typed';
UNION            : 'union';
UNIQUE           : 'unique';
UNWIND           : 'unwind';
VECTOR           : 'vector';
WALK             : 'walk';
WHEN             : 'when';
WHERE            : 'where';
WITH             : 'with';
XOR              : 'xor';
YIELD            : 'yield';

// ---------------------------------------------------------------- literals

/** Integers are checked for range by the AST builder. */
HEX_INTEGER     : '0x' [0-9a-f]+;
OCTAL_INTEGER   : '0o' [0-7]+;
FLOAT_LITERAL
    : [0-9]+ '.' [0-9]+ EXPONENT?
    | '.' [0-9]+ EXPONENT?
    | [0-9]+ EXPONENT
    ;
DECIMAL_INTEGER : [0-9]+;
/** Digits run together with letters (`12ab`, `0x`, `0x1G`): reported as an invalid number. */
INVALID_NUMBER  : [0-9] [0-9a-z_]*;

fragment EXPONENT : 'e' [+-]? [0-9]+;

/** Escapes are validated (and decoded) by the AST builder. */
STRING_LITERAL
    : '\'' (~['\\] | '\\' .)* '\''
    | '"' (~["\\] | '\\' .)* '"'
    ;

PARAMETER
    : '$' (ID_START ID_PART* | [0-9]+ | ESCAPED_NAME)
    ;

ESCAPED_NAME : '`' (~'`' | '``')* '`';

IDENTIFIER : ID_START ID_PART*;

/*
 * Identifier characters: ASCII ones by sets, which the lexer's DFA caches; any other code
 * point by a predicate testing Unicode's ID_Start / ID_Continue (src/frontend/identifier-chars.ts).
 * The Unicode sets written out (about 700 intervals each) made building the lexer cost more
 * than lexing most queries.
 */
fragment ID_START  : [a-z_] | NON_ASCII {isIdentifierStart(this.inputStream.LA(-1))}?;
fragment ID_PART   : [a-z0-9_] | NON_ASCII {isIdentifierPart(this.inputStream.LA(-1))}?;
fragment NON_ASCII : [\u0080-\u{10FFFF}];

// ---------------------------------------------------------------- symbols

LPAREN     : '(';
DOLLAR     : '$';
RPAREN     : ')';
LBRACK     : '[';
RBRACK     : ']';
LBRACE     : '{';
RBRACE     : '}';
COMMA      : ',';
DOTDOT     : '..';
DOT        : '.';
COLONCOLON : '::';
COLON      : ':';
SEMI       : ';';
PLUSEQ     : '+=';
REGEQ      : '=~';
EQ         : '=';
NE         : '<>';
LE         : '<=';
GE         : '>=';
LT         : '<';
GT         : '>';
PLUS       : '+';
MINUS      : '-';
STAR       : '*';
SLASH      : '/';
PERCENT    : '%';
CARET      : '^';
PIPE       : '|';
AMP        : '&';
BANG       : '!';

// ---------------------------------------------------------------- skipped

WHITESPACE
    : [ \t\r\n\f\u000B\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF\u001C-\u001F]+ -> channel(HIDDEN)
    ;

LINE_COMMENT  : '//' ~[\r\n]* -> channel(HIDDEN);
BLOCK_COMMENT : '/*' .*? '*/' -> channel(HIDDEN);

/** A comment still open at the end of the text: the parser reports it. */
UNTERMINATED_COMMENT : '/*' (~'*' | '*'+ ~[*/])* '*'* EOF;

/** Any other character: the parser reports it as invalid input. */
ERROR_CHAR : .;
