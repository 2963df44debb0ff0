/**
 * A small hand-bookbinding graph (tomes, the people who stitch them, the presses that issue them,
 * a book fair that shows them) for graph_rag's rules from the film domain's misses, built alike in
 * process (general-rules-heldout8.test.ts) and behind the MCP server (general-rules-heldout8-mcp.test.ts).
 */
export const BINDERY = `
  CREATE (quill:Press {name: 'Quill Volumes', blurb: 'Quill Volumes issues hand-set books'}),
         (harrow:Press {name: 'Harrow Volumes', blurb: 'Harrow Volumes issues hand-set books'}),
         (:Press {name: 'Inkwell Volumes', blurb: 'Inkwell Volumes issues hand-set books'}),
         (fair:BOOK_FAIR {name: 'Ely Book Fair'}),
         (ada:Person {name: 'Ada Finch'}), (zora:Person {name: 'Zora Penn'}),
         (abel:Person {name: 'Abel Hart'}), (bea:Person {name: 'Bea Lund'}),
         (t1:Tome {name: 'The Salt Ledger', shelfMark: 'SM-4471'})-[:STITCHED_BY]->(ada),
         (t2:Tome {name: 'Winter Almanac', shelfMark: 'SM-5120'})-[:STITCHED_BY]->(ada),
         (t3:Tome {name: 'Harbour Psalter', shelfMark: 'SM-6002'})-[:STITCHED_BY]->(zora),
         (t1)-[:issuedBy]->(quill), (t2)-[:issuedBy]->(harrow), (t3)-[:issuedBy]->(quill),
         (t1)-[:shownAt]->(fair), (t2)-[:shownAt]->(fair),
         (abel)-[:mentionedIn]->(t1), (bea)-[:mentionedIn]->(t1)`;
