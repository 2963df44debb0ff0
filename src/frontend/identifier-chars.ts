/**
 * Which non-ASCII code points may start or continue an identifier (Unicode's ID_Start and
 * ID_Continue, as openCypher says): the lexer's predicates for characters outside its ASCII
 * sets (grammar/Gql.g4, fragments ID_START and ID_PART).
 */

const ID_START = /^\p{ID_Start}$/u;
const ID_CONTINUE = /^\p{ID_Continue}$/u;

export function isIdentifierStart(codePoint: number): boolean {
  return codePoint >= 0 && ID_START.test(String.fromCodePoint(codePoint));
}

export function isIdentifierPart(codePoint: number): boolean {
  return codePoint >= 0 && ID_CONTINUE.test(String.fromCodePoint(codePoint));
}
