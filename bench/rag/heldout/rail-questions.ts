/**
 * Questions about the held-out rail network (rail.ts), in issue 32's five shapes, asked the many
 * ways people ask: questions and imperatives, the question word first, last or missing, railway
 * synonyms the schema never uses (train, set, shedded, calling points, head office), possessives
 * and relative clauses. Each question names its gold answers by a Cypher query run on the loaded
 * graph, so the gold is what the graph holds, observed facts only; questions whose gold comes out
 * empty are drawn again.
 */

import type { Database } from '../../../src/engine/database.js';
import { Seeded, type RailWorld } from './rail.js';

export type Shape = 'one-hop' | 'reverse' | 'value' | 'multi-hop' | 'listing';
export const SHAPES: readonly Shape[] = ['one-hop', 'reverse', 'value', 'multi-hop', 'listing'];

export interface Trust {
  /** The answer an observed fact gives. */
  observed: string;
  /** The answer a more confident predicted fact gives instead. */
  predicted: string;
}

export interface Question {
  shape: Shape;
  /** Which phrasing made it, for reading misses. */
  form: string;
  text: string;
  gold: Set<string>;
  trust?: Trust;
}

/** One phrasing: the question text, the Cypher that finds its gold names (column `name`), its parameters. */
interface Ask {
  text: string;
  gold: string;
  params: Record<string, unknown>;
  trust?: Trust;
}

type Template = (r: Seeded) => Ask;

// Only observed allocations count as truth; predicted ones are the distractors.
const OBSERVED = `a.observation_class <> 'predicted'`;

function templates(w: RailWorld): Record<Shape, [string, Template][]> {
  const unitIx = (r: Seeded, probe: boolean): number => (probe ? r.int(Math.ceil(w.units.length / 10)) * 10 : r.int(w.units.length));
  const depotTrust = (u: number): Trust | undefined => {
    const unit = w.units[u];
    return unit.predicted >= 0 ? { observed: w.depots[unit.depot].name, predicted: w.depots[unit.predicted].name } : undefined;
  };
  const ownerTrust = (u: number): Trust | undefined => {
    const unit = w.units[u];
    if (unit.predicted < 0) return undefined;
    const observed = w.operators[w.depots[unit.depot].owner].name;
    const predicted = w.operators[w.depots[unit.predicted].owner].name;
    return observed === predicted ? undefined : { observed, predicted };
  };
  const besideTrust = (u: number): Trust | undefined => {
    const unit = w.units[u];
    if (unit.predicted < 0) return undefined;
    const observed = w.stations[w.depots[unit.depot].station].name;
    const predicted = w.stations[w.depots[unit.predicted].station].name;
    return observed === predicted ? undefined : { observed, predicted };
  };
  const unit = (r: Seeded, probe = false): [number, string] => {
    const u = unitIx(r, probe);
    return [u, w.units[u].name];
  };
  const station = (r: Seeded): string => r.pick(w.stations).name;
  const line = (r: Seeded): string => r.pick(w.lines).name;
  const depot = (r: Seeded): string => r.pick(w.depots).name;
  const op = (r: Seeded): string => r.pick(w.operators).name;
  const maker = (r: Seeded): string => r.pick(w.manufacturers).name;
  const muni = (r: Seeded): string => r.pick(w.municipalities).name;
  const hqMuni = (r: Seeded): string => w.municipalities[r.pick(w.operators).hq].name;
  // A date as people write it, not as the graph stores it.
  const spoken = (iso: string): string => {
    const [y, m, d] = iso.split('-').map(Number);
    const month = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'][m - 1];
    return `${d} ${month} ${y}`;
  };

  const depotOf = `MATCH (:RollingStockUnit {name: $x})-[a:AllocatedTo]->(d:Depot) WHERE ${OBSERVED} RETURN d.name AS name`;
  const builderOf = 'MATCH (:RollingStockUnit {name: $x})-[:BUILT_BY]->(m:Manufacturer) RETURN m.name AS name';
  const muniOfStation = 'MATCH (:Station {name: $x})-[:locatedIn]->(m:Municipality) RETURN m.name AS name';
  const opOfLine = 'MATCH (:Line {name: $x})-[:operated_by]->(o:Operator) RETURN o.name AS name';
  const hqOf = 'MATCH (:Operator {name: $x})-[:HQ_IN]->(m:Municipality) RETURN m.name AS name';
  const ownerOfDepot = 'MATCH (:Depot {name: $x})-[:ownedBy]->(o:Operator) RETURN o.name AS name';
  const stationByDepot = 'MATCH (:Depot {name: $x})-[:adjacent_to]->(s:Station) RETURN s.name AS name';
  const unitsAt = `MATCH (u:RollingStockUnit)-[a:AllocatedTo]->(:Depot {name: $x}) WHERE ${OBSERVED} RETURN u.name AS name`;
  const unitsBy = 'MATCH (u:RollingStockUnit)-[:BUILT_BY]->(:Manufacturer {name: $x}) RETURN u.name AS name';
  const stationsIn = 'MATCH (s:Station)-[:locatedIn]->(:Municipality {name: $x}) RETURN s.name AS name';
  const linesOf = 'MATCH (l:Line)-[:operated_by]->(:Operator {name: $x}) RETURN l.name AS name';
  const linesAt = 'MATCH (l:Line)-[:CALLS_AT]->(:Station {name: $x}) RETURN l.name AS name';
  const depotsBeside = 'MATCH (d:Depot)-[:adjacent_to]->(:Station {name: $x}) RETURN d.name AS name';
  const opsHqIn = 'MATCH (o:Operator)-[:HQ_IN]->(:Municipality {name: $x}) RETURN o.name AS name';
  const depotsOf = 'MATCH (d:Depot)-[:ownedBy]->(:Operator {name: $x}) RETURN d.name AS name';
  const stopsOf = 'MATCH (:Line {name: $x})-[:CALLS_AT]->(s:Station) RETURN s.name AS name';
  const byValue = (label: string, key: string): string => `MATCH (n:${label}) WHERE n.${key} = $x RETURN n.name AS name`;
  const byDate = (label: string, key: string): string => `MATCH (n:${label}) WHERE n.${key} = date($x) RETURN n.name AS name`;

  // Line names such as "The Kelby Loop" carry their own article; "the The …" reads as a typo.
  const the = (name: string): string => (name.startsWith('The ') ? name : `the ${name}`);
  const The = (name: string): string => (name.startsWith('The ') ? name : `The ${name}`);

  const ask = (text: string, gold: string, x: unknown, trust?: Trust): Ask => ({ text, gold, params: { x }, ...(trust ? { trust } : {}) });

  return {
    'one-hop': [
      ['depot?', (r) => { const [u, n] = unit(r, r.next() < 0.5); return ask(`Which depot is ${n} allocated to?`, depotOf, n, depotTrust(u)); }],
      ['shedded', (r) => { const [u, n] = unit(r, r.next() < 0.5); return ask(`Where is ${n} shedded?`, depotOf, n, depotTrust(u)); }],
      ['possessive depot', (r) => { const [u, n] = unit(r, r.next() < 0.5); return ask(`${n}'s home depot`, depotOf, n, depotTrust(u)); }],
      ['tell me depot', (r) => { const [u, n] = unit(r, r.next() < 0.5); return ask(`Tell me which maintenance base looks after the train ${n}`, depotOf, n, depotTrust(u)); }],
      ['who built', (r) => { const [, n] = unit(r); return ask(`Who built ${n}?`, builderOf, n); }],
      ['made by which', (r) => { const [, n] = unit(r); return ask(`${n} was manufactured by which company`, builderOf, n); }],
      ['station municipality', (r) => { const s = station(r); return ask(`In which municipality is ${s} station?`, muniOfStation, s); }],
      ['lies in what', (r) => { const s = station(r); return ask(`${s} lies in what local authority?`, muniOfStation, s); }],
      ['who runs line', (r) => { const l = line(r); return ask(`Who runs ${the(l)}?`, opOfLine, l); }],
      ['operated by which', (r) => { const l = line(r); return ask(`${The(l)} is operated by which train company?`, opOfLine, l); }],
      ['head office', (r) => { const o = op(r); return ask(`Give me the head office location of ${o}`, hqOf, o); }],
      ['owns depot', (r) => { const d = depot(r); return ask(`Which operator owns ${d}?`, ownerOfDepot, d); }],
      ['depot next to', (r) => { const d = depot(r); return ask(`${d} is next to which station?`, stationByDepot, d); }],
      ['name the TOC', (r) => { const l = line(r); return ask(`name the train operating company for ${the(l)}`, opOfLine, l); }],
    ],
    reverse: [
      ['units at depot', (r) => { const d = depot(r); return ask(`Which unit is allocated to ${d}?`, unitsAt, d); }],
      ['a train built by', (r) => { const m = maker(r); return ask(`Name a train built by ${m}`, unitsBy, m); }],
      ['station in', (r) => { const m = muni(r); return ask(`Which station is in ${m}?`, stationsIn, m); }],
      ['operates which line', (r) => { const o = op(r); return ask(`${o} operates which line?`, linesOf, o); }],
      ['line calls at', (r) => { const s = r.pick(w.lines.flatMap((l) => l.stops.slice(0, 1))); return ask(`What line calls at ${w.stations[s].name}?`, linesAt, w.stations[s].name); }],
      ['depot beside', (r) => { const s = w.stations[r.pick(w.depots).station].name; return ask(`Which depot is beside ${s}?`, depotsBeside, s); }],
      ['whose head office', (r) => { const m = hqMuni(r); return ask(`Whose head office is in ${m}?`, opsHqIn, m); }],
      ['depot belonging to', (r) => { const o = op(r); return ask(`Find a depot belonging to ${o}`, depotsOf, o); }],
      ['a station located in', (r) => { const m = muni(r); return ask(`A station located in ${m}, please`, stationsIn, m); }],
      ['built which units', (r) => { const m = maker(r); return ask(`${m} built which units?`, unitsBy, m); }],
      ['lines stop at', (r) => { const s = w.stations[r.pick(w.lines).stops[0]].name; return ask(`Which lines stop at ${s}`, linesAt, s); }],
      ['shedded at', (r) => { const d = depot(r); return ask(`What's shedded at ${d}?`, unitsAt, d); }],
    ],
    value: [
      ['CRS code', (r) => { const s = r.pick(w.stations); return ask(`Which station has the CRS code ${s.crs}?`, byValue('Station', 'crs_code'), s.crs); }],
      ['what station is CRS', (r) => { const s = r.pick(w.stations); return ask(`What station is ${s.crs}?`, byValue('Station', 'crs_code'), s.crs); }],
      ['UIC', (r) => { const s = r.pick(w.stations); return ask(`Station with UIC number ${s.uic}`, byValue('Station', 'uic'), s.uic); }],
      ['fleet number', (r) => { const u = r.pick(w.units); return ask(`Which unit carries fleet number ${u.fleet_number}?`, byValue('RollingStockUnit', 'fleet_number'), u.fleet_number); }],
      ['find train', (r) => { const u = r.pick(w.units); return ask(`Find train ${u.fleet_number}`, byValue('RollingStockUnit', 'fleet_number'), u.fleet_number); }],
      ['opened on', (r) => { const s = r.pick(w.stations); return ask(`Which station opened on ${s.opened}?`, byDate('Station', 'opened'), s.opened); }],
      ['entered service', (r) => { const u = r.pick(w.units); return ask(`Which unit entered service on ${u.entered_service}?`, byDate('RollingStockUnit', 'entered_service'), u.entered_service); }],
      ['shed code quoted', (r) => { const d = r.pick(w.depots); return ask(`Which depot has the shed code "${d.shed_code}"?`, byValue('Depot', 'shed_code'), d.shed_code); }],
      ['route id', (r) => { const l = r.pick(w.lines); return ask(`What is the line with route id ${l.route_id}?`, byValue('Line', 'route_id'), l.route_id); }],
      ['ONS code', (r) => { const m = r.pick(w.municipalities); return ask(`The municipality whose ONS code is ${m.ons_code} is called what?`, byValue('Municipality', 'ons_code'), m.ons_code); }],
      ['company number', (r) => { const m = r.pick(w.manufacturers); return ask(`Which manufacturer has company number ${m.company_number}?`, byValue('Manufacturer', 'company_number'), m.company_number); }],
      ['licence', (r) => { const o = r.pick(w.operators); return ask(`Look up the operator with licence ${o.licence_no}`, byValue('Operator', 'licence_no'), o.licence_no); }],
      ['which set is that', (r) => { const u = r.pick(w.units); return ask(`${u.fleet_number} — which set is that?`, byValue('RollingStockUnit', 'fleet_number'), u.fleet_number); }],
      ['spoken date', (r) => { const s = r.pick(w.stations); return ask(`Which station was opened on ${spoken(s.opened)}?`, byDate('Station', 'opened'), s.opened); }],
    ],
    'multi-hop': [
      ['operator of depot of unit', (r) => { const [u, n] = unit(r, r.next() < 0.5); return ask(`Which operator runs the depot that ${n} is allocated to?`, `MATCH (:RollingStockUnit {name: $x})-[a:AllocatedTo]->(:Depot)-[:ownedBy]->(o:Operator) WHERE ${OBSERVED} RETURN o.name AS name`, n, ownerTrust(u)); }],
      ['possessive chain', (r) => { const [u, n] = unit(r, r.next() < 0.5); return ask(`${n}'s depot belongs to which company?`, `MATCH (:RollingStockUnit {name: $x})-[a:AllocatedTo]->(:Depot)-[:ownedBy]->(o:Operator) WHERE ${OBSERVED} RETURN o.name AS name`, n, ownerTrust(u)); }],
      ['hq of line operator', (r) => { const l = line(r); return ask(`Where is the operator of ${the(l)} headquartered?`, 'MATCH (:Line {name: $x})-[:operated_by]->(:Operator)-[:HQ_IN]->(m:Municipality) RETURN m.name AS name', l); }],
      ['company running line head office', (r) => { const l = line(r); return ask(`In which municipality does the company running ${the(l)} have its head office?`, 'MATCH (:Line {name: $x})-[:operated_by]->(:Operator)-[:HQ_IN]->(m:Municipality) RETURN m.name AS name', l); }],
      ['operators serving station', (r) => { const s = w.stations[r.pick(w.lines).stops[0]].name; return ask(`Which operators serve ${s}?`, 'MATCH (:Station {name: $x})<-[:CALLS_AT]-(:Line)-[:operated_by]->(o:Operator) RETURN o.name AS name', s); }],
      ['companies calling at', (r) => { const s = w.stations[r.pick(w.lines).stops[0]].name; return ask(`What train companies run services calling at ${s}`, 'MATCH (:Station {name: $x})<-[:CALLS_AT]-(:Line)-[:operated_by]->(o:Operator) RETURN o.name AS name', s); }],
      ['municipalities line passes', (r) => { const l = line(r); return ask(`Which municipalities does ${the(l)} pass through?`, 'MATCH (:Line {name: $x})-[:CALLS_AT]->(:Station)-[:locatedIn]->(m:Municipality) RETURN m.name AS name', l); }],
      ['builders of depot units', (r) => { const d = depot(r); return ask(`Who built the units allocated to ${d}?`, `MATCH (:Depot {name: $x})<-[a:AllocatedTo]-(:RollingStockUnit)-[:BUILT_BY]->(m:Manufacturer) WHERE ${OBSERVED} RETURN m.name AS name`, d); }],
      ['station by home depot', (r) => { const [u, n] = unit(r, r.next() < 0.5); return ask(`What station is the home depot of ${n} next to?`, `MATCH (:RollingStockUnit {name: $x})-[a:AllocatedTo]->(:Depot)-[:adjacent_to]->(s:Station) WHERE ${OBSERVED} RETURN s.name AS name`, n, besideTrust(u)); }],
      ['three hops hq', (r) => { const [, n] = unit(r); return ask(`In which municipality is the head office of the operator whose depot ${n} is allocated to?`, `MATCH (:RollingStockUnit {name: $x})-[a:AllocatedTo]->(:Depot)-[:ownedBy]->(:Operator)-[:HQ_IN]->(m:Municipality) WHERE ${OBSERVED} RETURN m.name AS name`, n); }],
      ['three hops makers', (r) => { const o = op(r); return ask(`Which manufacturers built trains kept at depots owned by ${o}?`, `MATCH (:Operator {name: $x})<-[:ownedBy]-(:Depot)<-[a:AllocatedTo]-(:RollingStockUnit)-[:BUILT_BY]->(m:Manufacturer) WHERE ${OBSERVED} RETURN m.name AS name`, o); }],
      ['lines of hq operator', (r) => { const m = hqMuni(r); return ask(`Which lines are run by the operator headquartered in ${m}?`, 'MATCH (:Municipality {name: $x})<-[:HQ_IN]-(:Operator)<-[:operated_by]-(l:Line) RETURN l.name AS name', m); }],
    ],
    listing: [
      ['list stations on', (r) => { const l = line(r); return ask(`List the stations on ${the(l)}.`, stopsOf, l); }],
      ['calling points', (r) => { const l = line(r); return ask(`What are the calling points of ${the(l)}?`, stopsOf, l); }],
      ['every unit at', (r) => { const d = depot(r); return ask(`Show every unit allocated to ${d}`, unitsAt, d); }],
      ['all stations in', (r) => { const m = muni(r); return ask(`All stations in ${m}`, stationsIn, m); }],
      ['enumerate lines', (r) => { const o = op(r); return ask(`Enumerate the lines that ${o} operates`, linesOf, o); }],
      ['all trains built', (r) => { const m = maker(r); return ask(`Give me all the trains ${m} built`, unitsBy, m); }],
      ['every depot owned', (r) => { const o = op(r); return ask(`every depot owned by ${o}`, depotsOf, o); }],
      ['bare stops', (r) => { const l = line(r); return ask(`${l} stops`, stopsOf, l); }],
      ['serve list them all', (r) => { const l = line(r); return ask(`Which stations does ${the(l)} serve? List them all.`, stopsOf, l); }],
      ['allocation of depot', (r) => { const d = depot(r); return ask(`What is ${d}'s allocation?`, unitsAt, d); }],
      ['name all units built', (r) => { const m = maker(r); return ask(`Name all units built by ${m}`, unitsBy, m); }],
      ['possessive lines', (r) => { const o = op(r); return ask(`${o}'s lines, please`, linesOf, o); }],
    ],
  };
}

/**
 * `perShape` questions of each shape, cycling through that shape's phrasings, with gold answers
 * read from the graph in `db` (which must hold `w`, loaded by loadRail).
 */
export function railQuestions(db: Database, w: RailWorld, perShape: number, seed = 1128): Question[] {
  const r = new Seeded(seed);
  const all = templates(w);
  const qs: Question[] = [];
  for (const shape of SHAPES) {
    const forms = all[shape];
    for (let i = 0; i < perShape; i++) {
      const [form, make] = forms[i % forms.length];
      for (let tries = 0; ; tries++) {
        const a = make(r);
        const gold = new Set(db.executeSync(a.gold, a.params).records.map((rec) => String(rec[0])));
        if (gold.size > 0) {
          qs.push({ shape, form, text: a.text, gold, ...(a.trust ? { trust: a.trust } : {}) });
          break;
        }
        if (tries > 50) throw new Error(`no question with a gold answer for ${shape} / ${form}`);
      }
    }
  }
  return qs;
}
