/** The full-text index kind's name in the schema, apart from its code so that naming the kind loads none of it (src/engine/retrieval-code.ts). */
export const FULLTEXT_INDEX_TYPE = 'FULLTEXT';
