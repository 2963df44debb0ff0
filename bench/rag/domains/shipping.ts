/**
 * Development domain C for the by-shape graph_rag bench: merchant shipping. Written after the
 * pipeline was tuned on the products domain and before any change made for this one, so its
 * first run (bench/results/rag-domain-c.md) is a first-contact figure; after that it is a
 * development set like the others.
 *
 *   (:Vessel)-[:OPERATED_BY]->(:Carrier)-[:HEADQUARTERED_AT]->(:Port)-[:LIES_ON]->(:Sea)
 *   (:Vessel)-[:CALLS_AT]->(:Port)            (:Vessel)-[:CARRIES]->(:Commodity)
 *
 * Codes and values: IMO numbers, call signs, gross tonnage (a number), launch dates, UN/LOCODEs,
 * SCAC codes, HS codes. Every tenth vessel also has a more confident predicted operator (the
 * trust probes). Questions use words the schema does not (ship, harbour, shipping line, goods,
 * fleet, visit, haul), imperatives, fragments and the question word at the end.
 */

import type { Database } from '../../../src/engine/database.js';
import { embedAndIndex, LETTERS, Namer, type BuildOptions, type Domain, type Question, type Rng, type Shape } from '../domain.js';

const SYL = ['qua', 'rn', 'el', 'osk', 'vim', 'tal', 'bre', 'ung', 'sa', 'lo', 'fy', 'mord', 'ki', 'pel', 'dro', 'an', 'yst', 'go', 'har', 'iv'];

interface World {
  seas: { name: string }[];
  ports: { name: string; locode: string; sea: number }[];
  carriers: { name: string; scac: string; hq: number }[];
  commodities: { name: string; hs: string }[];
  vessels: { name: string; imo: string; callSign: string; tonnage: number; launched: string; operator: number; predicted: number; calls: number[]; cargo: number[] }[];
}

function generate(rng: Rng, namer: Namer, n: number): World {
  const nsea = 30;
  const nport = Math.round(n * 0.05);
  const ncar = Math.round(n * 0.02);
  const ncom = Math.round(n * 0.03);
  const nves = n - nsea - nport - ncar - ncom;
  const seas = Array.from({ length: nsea }, () => ({ name: `${namer.name(1)} ${rng.pick(['Sea', 'Gulf', 'Strait', 'Bight'])}` }));
  const ports = Array.from({ length: nport }, () => ({
    name: namer.name(1),
    locode: namer.code(() => Array.from({ length: 5 }, () => rng.pick([...LETTERS])).join('')),
    sea: rng.int(nsea),
  }));
  const carriers = Array.from({ length: ncar }, () => ({
    name: `${namer.name(1)} ${rng.pick(['Lines', 'Shipping', 'Maritime', 'Navigation'])}`,
    scac: namer.code(() => Array.from({ length: 4 }, () => rng.pick([...LETTERS])).join('')),
    hq: rng.int(nport),
  }));
  const commodities = Array.from({ length: ncom }, () => ({
    name: `${namer.name(1)} ${rng.pick(['Grain', 'Timber', 'Ore', 'Crude', 'Coffee', 'Cement'])}`,
    hs: namer.code(() => `${rng.digits(4)}.${rng.digits(2)}`),
  }));
  const vessels = Array.from({ length: nves }, (_, i) => {
    const operator = rng.int(ncar);
    const calls = new Set<number>();
    for (let k = 0, m = 2 + rng.int(3); k < m; k++) calls.add(rng.int(nport));
    const cargo = new Set<number>();
    for (let k = 0, m = 1 + rng.int(2); k < m; k++) cargo.add(rng.int(ncom));
    return {
      name: namer.name(2),
      imo: namer.code(() => `9${rng.digits(6)}`),
      callSign: namer.code(() => `${rng.pick([...LETTERS])}${rng.int(10)}${rng.pick([...LETTERS])}${rng.pick([...LETTERS])}${rng.int(10)}`),
      tonnage: Number(namer.code(() => String(5000 + rng.int(195000)))),
      launched: namer.code(() => `${1975 + rng.int(48)}-${String(1 + rng.int(12)).padStart(2, '0')}-${String(1 + rng.int(28)).padStart(2, '0')}`),
      operator,
      predicted: i % 10 === 0 ? (operator + 1 + rng.int(ncar - 1)) % ncar : -1,
      calls: [...calls],
      cargo: [...cargo],
    };
  });
  return { seas, ports, carriers, commodities, vessels };
}

function load(db: Database, w: World): void {
  db.executeSync('UNWIND $rows AS r CREATE (:Sea {name: r.name, summary: r.name + " is a sea"})', { rows: w.seas });
  for (const [label, key] of [['Sea', 'name'], ['Port', 'name'], ['Carrier', 'name'], ['Commodity', 'name'], ['Vessel', 'name'], ['Vessel', 'imo_number'], ['Carrier', 'scac']]) {
    db.executeSync(`CREATE INDEX FOR (n:${label}) ON (n.${key})`);
  }
  db.executeSync(
    `UNWIND $rows AS r MATCH (s:Sea {name: r.sea})
     CREATE (:Port {name: r.name, unlocode: r.locode, summary: r.name + " is a port"})-[:LIES_ON]->(s)`,
    { rows: w.ports.map((p) => ({ ...p, sea: w.seas[p.sea].name })) },
  );
  db.executeSync(
    `UNWIND $rows AS r MATCH (p:Port {name: r.hq})
     CREATE (:Carrier {name: r.name, scac: r.scac, summary: r.name + " is a carrier"})-[:HEADQUARTERED_AT]->(p)`,
    { rows: w.carriers.map((c) => ({ ...c, hq: w.ports[c.hq].name })) },
  );
  db.executeSync('UNWIND $rows AS r CREATE (:Commodity {name: r.name, hs_code: r.hs, summary: r.name + " is a commodity"})', { rows: w.commodities });
  db.executeSync(
    `UNWIND $rows AS r MATCH (c:Carrier {name: r.operator})
     CREATE (:Vessel {name: r.name, imo_number: r.imo, call_sign: r.callSign, gross_tonnage: r.tonnage, launched: r.launched, summary: r.name + " is a vessel"})-[:OPERATED_BY {source: 'registry', confidence: 0.7}]->(c)`,
    { rows: w.vessels.map((v) => ({ ...v, operator: w.carriers[v.operator].name })) },
  );
  db.executeSync(
    `UNWIND $rows AS r MATCH (v:Vessel {name: r.vessel}), (c:Carrier {name: r.carrier})
     CREATE (v)-[:OPERATED_BY {observation_class: 'predicted', confidence: 0.96, source: 'model'}]->(c)`,
    { rows: w.vessels.filter((v) => v.predicted >= 0).map((v) => ({ vessel: v.name, carrier: w.carriers[v.predicted].name })) },
  );
  db.executeSync(
    `UNWIND $rows AS r MATCH (v:Vessel {name: r.vessel}), (p:Port {name: r.port}) CREATE (v)-[:CALLS_AT]->(p)`,
    { rows: w.vessels.flatMap((v) => v.calls.map((p) => ({ vessel: v.name, port: w.ports[p].name }))) },
  );
  db.executeSync(
    `UNWIND $rows AS r MATCH (v:Vessel {name: r.vessel}), (c:Commodity {name: r.commodity}) CREATE (v)-[:CARRIES]->(c)`,
    { rows: w.vessels.flatMap((v) => v.cargo.map((c) => ({ vessel: v.name, commodity: w.commodities[c].name }))) },
  );
  embedAndIndex(db, ['Sea', 'Port', 'Carrier', 'Commodity', 'Vessel']);
}

function questions(rng: Rng, w: World, perShape: number): Question[] {
  const qs: Question[] = [];
  const add = (shape: Shape, text: string, gold: Iterable<string>, trust?: Question['trust']): void => {
    const g = new Set(gold);
    if (g.size > 0) qs.push({ shape, text, gold: g, ...(trust ? { trust } : {}) });
  };
  const vesselsOf = (c: number): string[] => w.vessels.filter((v) => v.operator === c).map((v) => v.name);
  const callingAt = (p: number): number[] => w.vessels.flatMap((v, i) => (v.calls.includes(p) ? [i] : []));
  const carrying = (m: number): number[] => w.vessels.flatMap((v, i) => (v.cargo.includes(m) ? [i] : []));
  const operatorOf = (v: number): string => w.carriers[w.vessels[v].operator].name;
  const trustOf = (v: number): Question['trust'] =>
    w.vessels[v].predicted >= 0 ? { observed: operatorOf(v), predicted: w.carriers[w.vessels[v].predicted].name } : undefined;
  const hqPorts = [...new Set(w.carriers.map((c) => c.hq))];
  const usedCommodities = [...new Set(w.vessels.flatMap((v) => v.cargo))];

  for (let i = 0; i < perShape; i++) {
    // Half the subject questions ask about a vessel that has a predicted operator too.
    const v = i % 2 === 0 ? Math.floor(rng.int(w.vessels.length) / 10) * 10 : rng.int(w.vessels.length);
    const V = w.vessels[v];
    const port = rng.int(w.ports.length);
    const P = w.ports[port];
    const car = rng.int(w.carriers.length);
    const C = w.carriers[car];
    const sea = rng.int(w.seas.length);
    const com = rng.pick(usedCommodities);
    const hq = rng.pick(hqPorts);

    const oneHop: [string, Iterable<string>, Question['trust']?][] = [
      [`Who operates the ${V.name}?`, [operatorOf(v)], trustOf(v)],
      [`${V.name}: which shipping company runs her?`, [operatorOf(v)], trustOf(v)],
      [`the operator of ${V.name}`, [operatorOf(v)], trustOf(v)],
      [`Which sea does ${P.name} sit on?`, [w.seas[P.sea].name]],
      [`${P.name} is on which body of water`, [w.seas[P.sea].name]],
      [`Where does ${C.name} have its head office?`, [w.ports[C.hq].name]],
      [`Tell me where ${C.name} is headquartered`, [w.ports[C.hq].name]],
      [`What kind of cargo does the ship ${V.name} haul?`, V.cargo.map((m) => w.commodities[m].name)],
    ];
    const [t1, g1, tr1] = oneHop[i % oneHop.length];
    add('one-hop', t1, g1, tr1);

    const reverse: [string, Iterable<string>][] = [
      [`Which vessels are operated by ${C.name}?`, vesselsOf(car)],
      [`Name a ship that calls at ${P.name}`, callingAt(port).map((x) => w.vessels[x].name)],
      [`Which ports lie on the ${w.seas[sea].name}?`, w.ports.filter((p) => p.sea === sea).map((p) => p.name)],
      [`What vessel transports ${w.commodities[com].name}?`, carrying(com).map((x) => w.vessels[x].name)],
      [`${w.seas[sea].name}: harbours on it?`, w.ports.filter((p) => p.sea === sea).map((p) => p.name)],
      [`Which shipping lines are headquartered in ${w.ports[hq].name}?`, w.carriers.filter((c) => c.hq === hq).map((c) => c.name)],
      [`ships visiting ${P.name}`, callingAt(port).map((x) => w.vessels[x].name)],
    ];
    const [t2, g2] = reverse[i % reverse.length];
    add('reverse', t2, g2);

    const value: [string, Iterable<string>][] = [
      [`Which vessel has IMO number ${V.imo}?`, [V.name]],
      [`Find the ship with call sign ${V.callSign}`, [V.name]],
      [`What port has the UN/LOCODE ${P.locode}?`, [P.name]],
      [`SCAC ${C.scac} belongs to which carrier?`, [C.name]],
      [`Which commodity is HS code ${w.commodities[com].hs}?`, [w.commodities[com].name]],
      [`Which ship was launched on ${V.launched}?`, [V.name]],
      [`Which vessel has a gross tonnage of ${V.tonnage}?`, [V.name]],
      [`IMO ${V.imo}: what's the ship called?`, [V.name]],
      [`"${P.locode}" - which harbour is that?`, [P.name]],
    ];
    const [t3, g3] = value[i % value.length];
    add('value', t3, g3);

    const calling = callingAt(port);
    const multi: [string, Iterable<string>][] = [
      [`Where is the operator of ${V.name} headquartered?`, [w.ports[w.carriers[V.operator].hq].name]],
      [`Which sea is the headquarters of ${C.name} on?`, [w.seas[w.ports[C.hq].sea].name]],
      [`Which carriers run ships that call at ${P.name}?`, calling.map((x) => operatorOf(x))],
      [`What cargo do the vessels of ${C.name} carry?`, w.vessels.filter((x) => x.operator === car).flatMap((x) => x.cargo.map((m) => w.commodities[m].name))],
      [`Which seas do the ports that ${V.name} calls at lie on?`, V.calls.map((p) => w.seas[w.ports[p].sea].name)],
      [`On which sea is the head office of the company operating ${V.name}?`, [w.seas[w.ports[w.carriers[V.operator].hq].sea].name]],
      [`Which ports are visited by ships carrying ${w.commodities[com].name}?`, carrying(com).flatMap((x) => w.vessels[x].calls.map((p) => w.ports[p].name))],
      [`${V.name}'s operator is based in which port?`, [w.ports[w.carriers[V.operator].hq].name]],
    ];
    const [t4, g4] = multi[i % multi.length];
    add('multi-hop', t4, g4);

    const listing: [string, Iterable<string>][] = [
      [`List the ports ${V.name} calls at.`, V.calls.map((p) => w.ports[p].name)],
      [`All ships operated by ${C.name}`, vesselsOf(car)],
      [`Show every vessel carrying ${w.commodities[com].name}`, carrying(com).map((x) => w.vessels[x].name)],
      [`Enumerate the cargo of ${V.name}`, V.cargo.map((m) => w.commodities[m].name)],
      [`Enumerate the ports on the ${w.seas[sea].name}`, w.ports.filter((p) => p.sea === sea).map((p) => p.name)],
      [`Give me ${C.name}'s fleet`, vesselsOf(car)],
      [`Which harbours does ${V.name} stop at?`, V.calls.map((p) => w.ports[p].name)],
    ];
    const [t5, g5] = listing[i % listing.length];
    add('listing', t5, g5);
  }
  return qs;
}

const domain: Domain = {
  description: 'merchant shipping: vessels, carriers, ports, seas, commodities (development domain C)',
  build(db: Database, { entities, perShape, rng }: BuildOptions): Question[] {
    const namer = new Namer(rng, SYL);
    const world = generate(rng, namer, entities);
    load(db, world);
    return questions(rng, world, perShape);
  },
};
export default domain;
