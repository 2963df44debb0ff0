/**
 * A held-out rail network for graph_rag's evaluation (issue 32): a fourth vocabulary, written
 * apart from the pipeline and never used to tune it. This module owns the world — its entities,
 * their codes, the facts between them — and loading it into a Database; rail-questions.ts asks
 * about it and run-heldout.ts scores the answers.
 *
 * The schema reads the way a real rail data team might have grown it, styles mixed:
 *
 *   (:RollingStockUnit)-[:AllocatedTo]->(:Depot)-[:ownedBy]->(:Operator)-[:HQ_IN]->(:Municipality)
 *   (:RollingStockUnit)-[:BUILT_BY]->(:Manufacturer)
 *   (:Line)-[:operated_by]->(:Operator)      (:Line)-[:CALLS_AT {stop_sequence}]->(:Station)
 *   (:Station)-[:locatedIn]->(:Municipality) (:Depot)-[:adjacent_to]->(:Station)
 *
 * with key-like values: CRS codes and UIC numbers on stations, fleet numbers on units, shed
 * codes on depots, route ids on lines, ONS codes on municipalities, licence and company
 * numbers, opening and in-service dates. Every tenth unit also carries a more confident
 * predicted allocation to another depot: the trust probes.
 */

import type { Database } from '../../../src/engine/database.js';

/** A seeded generator, so a run can be repeated exactly. */
export class Seeded {
  private state: number;
  constructor(seed: number) {
    this.state = seed & 0x7fffffff;
  }
  next(): number {
    this.state = (Math.imul(this.state, 1103515245) + 12345) & 0x7fffffff;
    return this.state / 0x7fffffff;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
}

export interface Municipality { name: string; ons_code: string; population: number }
export interface Operator { name: string; licence_no: string; hq: number }
export interface Manufacturer { name: string; company_number: string }
export interface Station { name: string; crs: string; uic: string; opened: string; platforms: number; municipality: number }
export interface Line { name: string; route_id: string; length_km: number; electrified: boolean; operator: number; franchise_start: string; stops: number[] }
export interface Depot { name: string; shed_code: string; opened_year: number; owner: number; station: number }
export interface Unit { name: string; fleet_number: string; unit_class: number; entered_service: string; depot: number; predicted: number; builder: number }

export interface RailWorld {
  municipalities: Municipality[];
  operators: Operator[];
  manufacturers: Manufacturer[];
  stations: Station[];
  lines: Line[];
  depots: Depot[];
  units: Unit[];
}

const TOWN_HEAD = ['Ash', 'Brad', 'Carr', 'Dun', 'Elm', 'Fen', 'Glen', 'Hart', 'Ips', 'Kel', 'Lang', 'Mar', 'Nor', 'Oak', 'Pen', 'Rother', 'Sal', 'Thorn', 'Ux', 'Wold', 'Bex', 'Cran', 'Dray', 'Gos', 'Hals', 'Kirk', 'Mel', 'Stan', 'Wick', 'Brom'];
const TOWN_TAIL = ['ford', 'bury', 'ham', 'ton', 'wick', 'by', 'field', 'mouth', 'ley', 'thorpe', 'stead', 'well', 'bridge', 'minster', 'hurst', 'cliffe', 'dale', 'worth', 'ing', 'combe', 'gate', 'holme'];
const TOWN_MOD = ['', '', '', '', 'Upper ', 'Lower ', 'Great ', 'Little ', 'North ', 'South ', 'East ', 'West ', 'Kings ', 'Market '];
const STATION_SUFFIX = ['', '', '', 'Central', 'Parkway', 'Road', 'Junction', 'Halt', 'Street', 'Airport', 'Docks', 'Castle', 'Bridge', 'Town', 'Interchange', 'Riverside'];
const REGIONS = ['Wessex', 'Anglia', 'Mercia', 'Cambria', 'Pennine', 'Cumbrian', 'Solent', 'Severn', 'Chiltern', 'Weald', 'Fenland', 'Humber', 'Tyne', 'Lothian', 'Fife', 'Dales', 'Cotswold', 'Marches', 'Thames', 'Mendip', 'Exmoor', 'Broads', 'Peak', 'Border', 'Moray'];
const MAKER_HEAD = ['Hallworth', 'Brennmark', 'Castellan', 'Odenfeld', 'Varnholt', 'Kestrel', 'Marrow', 'Pellinger', 'Stroud', 'Ulverby', 'Tamsin', 'Greyfield'];
const MAKER_TAIL = ['Engineering', 'Rail Systems', 'Rolling Stock', 'Carriage Works', 'Traction', 'Mobility'];
const FIRST = ['Ada', 'Isambard', 'Nigel', 'Florence', 'George', 'Edith', 'Robert', 'Margaret', 'Thomas', 'Agnes', 'William', 'Beatrix', 'Joseph', 'Harriet', 'Oliver', 'Winifred', 'Samuel', 'Mabel', 'Arthur', 'Dorothy', 'Henry', 'Gwen', 'Alfred', 'Constance'];
const LAST = ['Gresley', 'Stanier', 'Brunel', 'Hackworth', 'Riddles', 'Collett', 'Peppercorn', 'Ivatt', 'Maunsell', 'Bulleid', 'Churchward', 'Fowler', 'Hughes', 'Drummond', 'Webb', 'Dean', 'Kirtley', 'Stroudley', 'Billinton', 'Urie', 'Raven', 'Worsdell', 'Holden', 'Johnson'];
const UNIT_ADJ = ['Northern', 'Silver', 'Royal', 'Golden', 'Midland', 'Coastal', 'Highland', 'Western', 'Eastern', 'Flying', 'Swift', 'Iron', 'Copper', 'Morning', 'Evening', 'Autumn'];
const UNIT_NOUN = ['Star', 'Arrow', 'Belle', 'Comet', 'Lark', 'Falcon', 'Heron', 'Voyager', 'Pioneer', 'Rover', 'Monarch', 'Harrier', 'Kestrel', 'Duchess', 'Warrior', 'Sentinel'];
const UNIT_CLASSES = [150, 156, 158, 170, 185, 195, 220, 221, 323, 333, 345, 350, 357, 360, 375, 377, 380, 385, 390, 444, 450, 700, 717, 745, 755, 800, 802, 805, 807, 810];
const LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';
// Three-letter codes a reader would take for words; real CRS codes include some, we keep them out
// so a code never reads as part of the sentence around it.
const WORDLIKE = new Set(['THE', 'AND', 'ARE', 'CAN', 'WAS', 'HAS', 'ANY', 'ALL', 'NEW', 'NOW', 'ONE', 'TWO', 'WHO', 'WHY', 'HOW', 'SET', 'RUN', 'BUY', 'GET', 'PUT', 'SEE', 'USE', 'WAY', 'DAY', 'YES', 'ERA', 'ART', 'CAR', 'BUS', 'VAN']);

/** Entity counts for a world of about `n` entities, with floors so a small smoke run still has every kind. */
export function railCounts(n: number): Record<keyof RailWorld, number> {
  const municipalities = Math.max(20, Math.round(n * 0.03));
  const operators = Math.max(8, Math.round(n * 0.006));
  const manufacturers = Math.min(MAKER_HEAD.length * MAKER_TAIL.length, Math.max(6, Math.round(n * 0.0024)));
  const depots = Math.max(10, Math.round(n * 0.015));
  const lines = Math.max(20, Math.round(n * 0.04));
  const stations = Math.max(100, Math.round(n * 0.25));
  const units = Math.max(100, n - municipalities - operators - manufacturers - depots - lines - stations);
  return { municipalities, operators, manufacturers, stations, lines, depots, units };
}

export function generateRail(n: number, seed = 20261128): RailWorld {
  const r = new Seeded(seed);
  const c = railCounts(n);
  const names = new Set<string>();
  const codes = new Set<string>();
  // Names are unique across the whole graph so each gold answer is one entity.
  const unique = (make: () => string, seen: Set<string> = names): string => {
    for (let tries = 0; ; tries++) {
      const v = make();
      const key = v.toLowerCase();
      if (!seen.has(key)) {
        seen.add(key);
        return v;
      }
      if (tries > 100000) throw new Error(`generator exhausted near ${v}`);
    }
  };
  const digits = (k: number): string => Array.from({ length: k }, () => String(r.int(10))).join('');
  const letters = (k: number): string => Array.from({ length: k }, () => r.pick([...LETTERS])).join('');
  const baseTown = (): string => r.pick(TOWN_HEAD) + r.pick(TOWN_TAIL);
  const town = (): string => r.pick(TOWN_MOD) + baseTown();
  const date = (from: number, span: number): string =>
    `${from + r.int(span)}-${String(1 + r.int(12)).padStart(2, '0')}-${String(1 + r.int(28)).padStart(2, '0')}`;

  const municipalities = Array.from({ length: c.municipalities }, (): Municipality => ({
    name: unique(() => {
      switch (r.int(4)) {
        case 0: return `${baseTown()} District`;
        case 1: return `Borough of ${baseTown()}`;
        case 2: return `${baseTown()} and ${baseTown()}`;
        default: return `${r.pick(['Vale of ', 'Forest of ', 'Isle of ', ''])}${baseTown()}${r.pick(['shire', ' Council', ' Unitary'])}`;
      }
    }),
    ons_code: unique(() => `${r.pick(['E06', 'E07', 'E08', 'W06', 'S12'])}000${digits(3)}`, codes),
    population: 8000 + r.int(600000),
  }));
  const operators = Array.from({ length: c.operators }, (): Operator => ({
    name: unique(() => {
      const region = r.pick(REGIONS);
      switch (r.int(6)) {
        case 0: return `${region} Rail`;
        case 1: return `${region} Trains`;
        case 2: return `${baseTown()} & ${baseTown()} Railway`;
        case 3: return `${region}link`;
        case 4: return `Grand ${region} Railway`;
        default: return `${region} Connect`;
      }
    }),
    licence_no: unique(() => `TOL-${digits(4)}`, codes),
    hq: r.int(c.municipalities),
  }));
  const manufacturers = Array.from({ length: c.manufacturers }, (): Manufacturer => ({
    name: unique(() => `${r.pick(MAKER_HEAD)} ${r.pick(MAKER_TAIL)}`),
    company_number: unique(() => `0${digits(7)}`, codes),
  }));
  const crsSeen = new Set([...WORDLIKE].map((w) => w.toLowerCase()));
  const stations = Array.from({ length: c.stations }, (): Station => ({
    name: unique(() => `${town()} ${r.pick(STATION_SUFFIX)}`.trim()),
    crs: unique(() => letters(3), crsSeen),
    uic: unique(() => `70${digits(5)}`, codes),
    opened: unique(() => date(1830, 160), codes),
    platforms: 1 + r.int(12),
    municipality: r.int(c.municipalities),
  }));
  // Shed codes are two letters and CRS codes three, so they cannot collide; recording the CRS
  // codes keeps the promise that every code names one entity anyway.
  for (const s of stations) codes.add(s.crs.toLowerCase());
  const lines = Array.from({ length: c.lines }, (): Line => {
    const stops = new Set<number>();
    for (let k = 0, m = 4 + r.int(7); k < m; k++) stops.add(r.int(c.stations));
    const ends = [...stops];
    const place = (i: number): string => stations[i].name.replace(/ (Central|Parkway|Road|Junction|Halt|Street|Airport|Docks|Castle|Bridge|Town|Interchange|Riverside)$/, '');
    return {
      name: unique(() => {
        switch (r.int(5)) {
          case 0: return `${place(ends[0])} Branch`;
          case 1: return `${place(ends[0])} to ${place(ends[ends.length - 1])} Line`;
          case 2: return `${r.pick(REGIONS)} ${r.pick(['Coast', 'Valley', 'Main', 'Cross-Country', 'Heritage'])} Line`;
          case 3: return `The ${place(ends[0])} Loop`;
          default: return `${r.pick(REGIONS)}${r.pick(['way', ' Express', ' Sprinter'])} ${r.pick(['North', 'South', 'East', 'West', 'Inner', 'Outer'])}`;
        }
      }),
      route_id: unique(() => `RT-${digits(4)}`, codes),
      length_km: 5 + r.int(300),
      electrified: r.next() < 0.4,
      operator: r.int(c.operators),
      franchise_start: date(1996, 28),
      stops: ends,
    };
  });
  const depots = Array.from({ length: c.depots }, (): Depot => ({
    name: unique(() => `${baseTown()} ${r.pick(['TMD', 'Traincare Depot', 'Carriage Sidings', 'Depot', 'Maintenance Centre'])}`),
    shed_code: unique(() => letters(2), codes),
    opened_year: 1870 + r.int(150),
    owner: r.int(c.operators),
    station: r.int(c.stations),
  }));
  const units = Array.from({ length: c.units }, (_, i): Unit => {
    const unitClass = r.pick(UNIT_CLASSES);
    const depot = r.int(c.depots);
    return {
      name: unique(() => {
        switch (r.int(4)) {
          case 0: return `${r.pick(['Spirit of', 'Pride of', 'Maid of', 'Heart of'])} ${town()}`;
          case 1: return `${r.pick(UNIT_ADJ)} ${r.pick(UNIT_NOUN)}${r.next() < 0.5 ? '' : ` ${r.pick(['II', 'III', 'IV'])}`}`;
          case 2: return `${r.pick(['Sir ', 'Dame ', ''])}${r.pick(FIRST)} ${r.pick(LAST)}`;
          default: return `${r.pick(['The ', ''])}${baseTown()} ${r.pick(['Flyer', 'Clipper', 'Mariner', 'Rambler', 'Courier', 'Wanderer'])}`;
        }
      }),
      fleet_number: unique(() => `${unitClass}${digits(3)}`, codes),
      unit_class: unitClass,
      entered_service: unique(() => date(1958, 66), codes),
      depot,
      predicted: i % 10 === 0 ? (depot + 1 + r.int(c.depots - 1)) % c.depots : -1,
      builder: r.int(c.manufacturers),
    };
  });
  return { municipalities, operators, manufacturers, stations, lines, depots, units };
}

/** Every label in the world, for indexes and embeddings. */
export const RAIL_LABELS = ['Municipality', 'Operator', 'Manufacturer', 'Station', 'Line', 'Depot', 'RollingStockUnit'] as const;

/** Loads the world: nodes with prose descriptions, facts, name and code indexes, embeddings, a full-text index. */
export function loadRail(db: Database, w: RailWorld): void {
  const run = (cypher: string, rows: readonly object[]): void => {
    for (let i = 0; i < rows.length; i += 2000) db.executeSync(cypher, { rows: rows.slice(i, i + 2000) });
  };
  for (const label of RAIL_LABELS) db.executeSync(`CREATE INDEX FOR (n:${label}) ON (n.name)`);
  // Some value properties are indexed and some are not, so both grounding paths are asked.
  for (const [label, key] of [['Station', 'crs_code'], ['RollingStockUnit', 'fleet_number'], ['Depot', 'shed_code']]) {
    db.executeSync(`CREATE INDEX FOR (n:${label}) ON (n.${key})`);
  }
  run(
    `UNWIND $rows AS r CREATE (:Municipality {name: r.name, ons_code: r.ons_code, population: r.population,
       description: r.name + ' is a local authority area with about ' + toString(r.population) + ' residents'})`,
    w.municipalities,
  );
  run(
    `UNWIND $rows AS r MATCH (m:Municipality {name: r.hq})
     CREATE (:Operator {name: r.name, licence_no: r.licence_no, description: r.name + ' is a train operating company'})-[:HQ_IN]->(m)`,
    w.operators.map((o) => ({ ...o, hq: w.municipalities[o.hq].name })),
  );
  run(
    `UNWIND $rows AS r CREATE (:Manufacturer {name: r.name, company_number: r.company_number,
       description: r.name + ' builds trains and carriages'})`,
    w.manufacturers,
  );
  run(
    `UNWIND $rows AS r MATCH (m:Municipality {name: r.municipality})
     CREATE (:Station {name: r.name, crs_code: r.crs, uic: r.uic, opened: date(r.opened), platforms: r.platforms,
       description: r.name + ' is a railway station with ' + toString(r.platforms) + ' platforms'})-[:locatedIn]->(m)`,
    w.stations.map((s) => ({ ...s, municipality: w.municipalities[s.municipality].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (o:Operator {name: r.operator})
     CREATE (:Line {name: r.name, route_id: r.route_id, length_km: r.length_km, electrified: r.electrified,
       description: r.name + ' is a ' + toString(r.length_km) + ' km passenger route'})-[:operated_by {franchise_start: date(r.franchise_start)}]->(o)`,
    w.lines.map((l) => ({ ...l, operator: w.operators[l.operator].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (l:Line {name: r.line}), (s:Station {name: r.station}) CREATE (l)-[:CALLS_AT {stop_sequence: r.seq}]->(s)`,
    w.lines.flatMap((l) => l.stops.map((s, seq) => ({ line: l.name, station: w.stations[s].name, seq: seq + 1 }))),
  );
  run(
    `UNWIND $rows AS r MATCH (o:Operator {name: r.owner}), (s:Station {name: r.station})
     CREATE (d:Depot {name: r.name, shed_code: r.shed_code, opened_year: r.opened_year,
       description: r.name + ' is a traction maintenance depot'})-[:ownedBy]->(o), (d)-[:adjacent_to]->(s)`,
    w.depots.map((d) => ({ ...d, owner: w.operators[d.owner].name, station: w.stations[d.station].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (d:Depot {name: r.depot}), (m:Manufacturer {name: r.builder})
     CREATE (u:RollingStockUnit {name: r.name, fleet_number: r.fleet_number, unit_class: r.unit_class,
       entered_service: date(r.entered_service), description: r.name + ' is a class ' + toString(r.unit_class) + ' multiple unit'})
       -[:AllocatedTo {observation_class: 'observed', confidence: 0.65, source: 'TOPS'}]->(d),
       (u)-[:BUILT_BY]->(m)`,
    w.units.map((u) => ({ ...u, depot: w.depots[u.depot].name, builder: w.manufacturers[u.builder].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (u:RollingStockUnit {name: r.unit}), (d:Depot {name: r.depot})
     CREATE (u)-[:AllocatedTo {observation_class: 'predicted', confidence: 0.96, source: 'allocation-model'}]->(d)`,
    w.units.filter((u) => u.predicted >= 0).map((u) => ({ unit: u.name, depot: w.depots[u.predicted].name })),
  );
  for (const label of RAIL_LABELS) {
    const index = `${label.toLowerCase()}_vec`;
    db.executeSync(`CALL graphdb.embed.nodes({label: '${label}', textProperty: 'description', vectorProperty: 'embedding', batchSize: 256}) YIELD nodes RETURN nodes`);
    db.executeSync(`CREATE VECTOR INDEX ${index} FOR (n:${label}) ON (n.embedding) OPTIONS {indexConfig: {\`vector.dimensions\`: 384}}`);
    db.executeSync(`CALL db.awaitIndex('${index}')`);
  }
  db.executeSync(`CREATE FULLTEXT INDEX rail_text FOR (n:${RAIL_LABELS.join('|')}) ON EACH [n.name, n.description]`);
  // Populated in the background otherwise: questions asked at once would fall back to the text scan.
  db.executeSync("CALL db.awaitIndex('rail_text')");
}
