import { Database } from '/work/wt-boltsurface/src/engine/database.js';
import { toJs } from '/work/wt-boltsurface/runtime/format.js';
const db = Database.openInMemory();
db.executeSync("CREATE (a:Person {name:'Ann', age:30, emb:[1.0,0.0,0.0]})-[:KNOWS {since:2020}]->(b:Person {name:'Bob'}), (c:Movie {title:'M'})");
const qs = [
 "CALL dbms.components() YIELD name, versions, edition RETURN *",
 "CALL dbms.components()",
 "CALL dbms.clientConfig()",
 "SHOW DATABASES",
 "SHOW DATABASES YIELD *",
 "CALL db.labels()", "CALL db.relationshipTypes()", "CALL db.propertyKeys()",
 "CALL dbms.procedures() YIELD name RETURN count(*)",
 "CALL dbms.procedures() YIELD * RETURN * LIMIT 1",
 "CALL dbms.functions() YIELD * RETURN * LIMIT 1",
 "CREATE INDEX FOR (p:Person) ON (p.name)",
 "CREATE CONSTRAINT FOR (m:Movie) REQUIRE m.title IS UNIQUE",
 "SHOW INDEXES YIELD *",
 "SHOW INDEXES",
 "SHOW CONSTRAINTS",
 "SHOW CONSTRAINTS YIELD *",
 "CALL apoc.meta.data({sample:1000})",
 "CALL apoc.meta.data()",
 "CALL apoc.meta.graph()",
 "CALL apoc.meta.graphSample()",
 "CALL apoc.schema.nodes()",
 "CALL apoc.schema.properties.distinct('Person','name')",
 "MATCH (n:Person) RETURN apoc.any.property(n,'name')",
 "CALL apoc.merge.node(['Person'], {name:'Cy'}, {age:1}, {age:2}) YIELD node RETURN node",
 "MATCH (a:Person {name:'Ann'}),(b:Person {name:'Bob'}) CALL apoc.merge.relationship(a,'LIKES',{w:1},{x:2},b,{y:3}) YIELD rel RETURN rel",
 "MATCH (n:Movie) CALL apoc.create.addLabels(n, ['Film']) YIELD node RETURN labels(node)",
 "RETURN apoc.map.clean({a:1,b:null,c:'x'}, ['c'], [null])",
 "MATCH (n:Person {name:'Bob'}) CALL db.create.setNodeVectorProperty(n, 'emb', [0.0,1.0,0.0]) RETURN n.emb",
 "MATCH ()-[r:KNOWS]->() CALL db.create.setRelationshipVectorProperty(r, 'emb', [0.0,1.0,0.0]) RETURN r.emb",
 "CALL db.index.vector.createNodeIndex('pidx','Person','emb',3,'cosine')",
 "CALL db.index.vector.queryNodes('pidx', 2, [1.0,0.0,0.0]) YIELD node, score RETURN node.name, score",
 "CREATE VECTOR INDEX ridx IF NOT EXISTS FOR ()-[r:KNOWS]-() ON (r.emb) OPTIONS {indexConfig: {`vector.dimensions`: 3, `vector.similarity_function`: 'cosine'}}",
 "CALL db.index.vector.queryRelationships('ridx', 2, [0.0,1.0,0.0]) YIELD relationship, score RETURN relationship.since, score",
 "CREATE FULLTEXT INDEX ft FOR (n:Person) ON EACH [n.name]",
 "CALL db.index.fulltext.queryNodes('ft', 'Ann') YIELD node, score RETURN node.name, score",
 "RETURN vector.similarity.cosine([1.0,0.0],[1.0,1.0]) AS s",
 "MATCH (n:Person) RETURN elementId(n) LIMIT 1",
 "MATCH (a:Person {name:'Ann'}) WITH a, 1 AS y CALL (a, y) { RETURN a.name + y AS z } RETURN z",
 "MATCH (a:Person {name:'Ann'}) WITH a, 1 AS y CALL (*) { RETURN a.name + y AS z } RETURN z",
 "UNWIND range(1,5) AS i CALL { WITH i CREATE (:T {i:i}) } IN TRANSACTIONS OF 2 ROWS",
 "UNWIND range(1,5) AS i CALL (i) { CREATE (:T2 {i:i}) } IN TRANSACTIONS OF 2 ROWS",
 "MATCH (n:Movie) SET n:$('Dyn') RETURN labels(n)",
 "MATCH (n:$($l)) RETURN count(n)",
 "MATCH (n:$($l)) CREATE (n)-[:$($t)]->(:X) RETURN 1",
 "MATCH ()-[r:$($t)]->() RETURN count(r)",
 "MATCH (a:Person {name:'Ann'}) RETURN EXISTS { MATCH (a)-->(b) WITH b RETURN b } AS e, COUNT { MATCH (a)-->(b) WITH b RETURN b } AS c",
];
for (const q of qs) {
  try {
    const r = db.executeSync(q, { l: 'Movie', t: 'DYN_T' });
    console.log('OK  ', q, '\n   cols', JSON.stringify(r.columns), '\n   ', JSON.stringify(r.records.slice(0,4).map(row => row.map(v => toJs(v as never))), (k, v) => typeof v === 'bigint' ? String(v) : v).slice(0, 1200));
  } catch (e) { console.log('ERR ', q, '\n   ', (e as Error).constructor.name, (e as Error).message.slice(0, 300)); }
}
