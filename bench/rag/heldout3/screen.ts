/**
 * A third held-out world for graph_rag's evaluation (issue 32): film and broadcasting. Titles, the
 * people who direct and act in them, the production houses that make them, the festivals where
 * they premiere, the channels that air them, the broadcasters that run those channels, the talent
 * agencies that represent the people, and the cities they are all in. Written apart from the
 * pipeline (before reading src/rag/), after products, shipping, rail and clinical had all been
 * used to tune it. This module owns the world (entities, codes, facts) and loading it into a
 * Database; screen-questions.ts asks about it and run-heldout3.ts scores the answers.
 *
 * The schema mixes naming styles the way a merged media catalogue might:
 *
 *   (:Person)-[:ACTED_IN]->(:Title)-[:DIRECTED_BY]->(:Person)
 *   (:Title)-[:producedBy]->(:ProductionHouse)        (:Title)-[:premieredAt]->(:FILM_FESTIVAL)
 *   (:Title)-[:AIRS_ON]->(:Channel)-[:operatedBy]->(:BROADCASTER)-[:HQ_CITY]->(:City)
 *   (:FILM_FESTIVAL)-[:takesPlaceIn]->(:City)
 *   (:Person)-[:REPRESENTED_BY]->(:TalentAgency)-[:officeIn]->(:City)
 *
 * Key-like values: ISANs and release dates on titles, guild numbers (integers) and birth dates on
 * people, logical channel numbers (integers) and call signs on channels, licence references on
 * broadcasters, company numbers (digit strings) on production houses, festival codes, UN/LOCODEs
 * on cities, agency licences. Some are indexed, some not. Every tenth person also has a more
 * confident predicted agency, and every twelfth title a more confident predicted channel: the
 * trust probes. Prose lives in properties named differently per label (`synopsis`, `bio`,
 * `blurb`), the text the embeddings and full-text index read.
 */

import type { Database } from '../../../src/engine/database.js';
import { Rng, WorldDraws } from '../domain.js';

export interface City { name: string; locode: string; population: number }
export interface Broadcaster { name: string; licenceRef: string; founded: number; city: number }
export interface Channel { name: string; lcn: number; callSign: string; launched: string; broadcaster: number; genre: string }
export interface House { name: string; companyNo: string; founded: number }
export interface Festival { name: string; festivalCode: string; firstHeld: number; city: number }
export interface Agency { name: string; agencyLicence: string; city: number }
export interface Person { name: string; guildNo: number; born: string; profession: 'director' | 'actor'; agency: number; predicted: number }
export interface Title {
  name: string;
  isan: string;
  releaseDate: string;
  runtimeMin: number;
  genre: string;
  director: number;
  cast: number[];
  house: number;
  festival: number;
  channel: number;
  predicted: number;
}

export interface ScreenWorld {
  cities: City[];
  broadcasters: Broadcaster[];
  channels: Channel[];
  houses: House[];
  festivals: Festival[];
  agencies: Agency[];
  people: Person[];
  titles: Title[];
}

const TOWN_HEAD = ['Port', 'Saint', 'New', 'Fort', 'Lake', 'Mount', 'North', 'West', 'East', 'South'];
const TOWN_BODY = ['Aldera', 'Brisa', 'Corvo', 'Delmar', 'Esterra', 'Faro', 'Galen', 'Halvor', 'Isola', 'Jarrow', 'Kessel', 'Lumen', 'Marisol', 'Norvik', 'Ostra', 'Pavona', 'Quill', 'Rivena', 'Solano', 'Tessaly', 'Umbria', 'Valdor', 'Wexford', 'Ysolde', 'Zarra', 'Arden', 'Bellamy', 'Calder', 'Dunmore', 'Elsinore'];
const GENRES = ['drama', 'comedy', 'thriller', 'documentary', 'animation', 'horror', 'romance', 'science fiction', 'western', 'musical', 'crime', 'war'];
const NET_HEAD = ['Albion', 'Meridian', 'Coastline', 'Northern Lights', 'Crescent', 'Pinnacle', 'Harbourside', 'Silverline', 'Evergreen', 'Lighthouse', 'Skyward', 'Redwood', 'Bluewater', 'Goldcrest', 'Ironbridge', 'Starling'];
const NET_TAIL = ['Broadcasting Corporation', 'Media Group', 'Television Network', 'Broadcast Holdings', 'Public Broadcaster', 'Networks'];
const CHAN_HEAD = ['Kestrel', 'Vista', 'Prism', 'Echo', 'Nova', 'Orbit', 'Pulse', 'Quartz', 'Signal', 'Tempo', 'Zenith', 'Cinder', 'Lumen', 'Halo', 'Fable', 'Mosaic', 'Reel', 'Spectra', 'Vantage', 'Arcade'];
const CHAN_TAIL = ['One', 'Two', 'Plus', 'Drama', 'Movies', 'Classics', 'Kids', 'Factual', 'Max', 'HD', 'Gold', 'Premiere', 'Screen', 'Extra'];
const HOUSE_HEAD = ['Foxglove', 'Blackthorn', 'Marrow', 'Quayside', 'Lanternfish', 'Kingsmere', 'Oakhollow', 'Saltmarsh', 'Tinderbox', 'Windrose', 'Brightfield', 'Copperleaf', 'Driftwood', 'Emberlight', 'Flintlock', 'Greenhouse', 'Highwater', 'Juniper', 'Longshadow', 'Moonrise'];
const HOUSE_TAIL = ['Pictures', 'Films', 'Productions', 'Studios', 'Entertainment', 'Film Company'];
const FEST_KIND = ['International Film Festival', 'Film Festival', 'Documentary Festival', 'Festival of New Cinema', 'Screen Awards', 'Short Film Week'];
const AGENCY_HEAD = ['Hartley', 'Crane', 'Ashdown', 'Belmont', 'Carrow', 'Devlin', 'Ellery', 'Fenwick', 'Garland', 'Hollis', 'Ingram', 'Kemble', 'Lorimer', 'Mercer', 'Nettleton', 'Oakes', 'Prentice', 'Quayle', 'Roscoe', 'Sallis'];
const AGENCY_TAIL = ['Talent', 'Artists', 'Management', 'Associates', 'Creative Agency', 'Talent Partners'];
const GIVEN = ['Adaeze', 'Benedikt', 'Carmela', 'Dorian', 'Elodie', 'Fabian', 'Ginevra', 'Horatio', 'Ilse', 'Jovan', 'Katalin', 'Leandro', 'Mireille', 'Nikolai', 'Ottilie', 'Pascal', 'Renata', 'Stellan', 'Tamsin', 'Ulrich', 'Valentina', 'Wendell', 'Ximena', 'Yorick', 'Zuzana', 'Anouk', 'Bastian', 'Cosima', 'Dashiell', 'Esperanza', 'Florian', 'Greta', 'Hugo', 'Ines', 'Jules', 'Kaspar', 'Liesel', 'Matteo', 'Noemi', 'Octavia', 'Piet', 'Rosalind', 'Severin', 'Thea', 'Umberto', 'Vesna', 'Wolfgang', 'Yara', 'Zeno', 'Amadou', 'Beatrix', 'Cyprian', 'Delphine', 'Emeric', 'Fenella', 'Gideon', 'Harriet', 'Ivo', 'Juno', 'Konstantin'];
const FAMILY = ['Albrecht', 'Baranski', 'Castellano', 'Delacroix', 'Eriksen', 'Fontaine', 'Gallardo', 'Halloran', 'Ivanova', 'Jablonski', 'Kovacs', 'Lindgren', 'Marchetti', 'Novak', 'Okafor', 'Petrov', 'Quintero', 'Rasmussen', 'Santoro', 'Takahashi', 'Urbano', 'Vasquez', 'Wojcik', 'Yilmaz', 'Zamora', 'Abernathy', 'Bergstrom', 'Cavendish', 'Dumont', 'Esposito', 'Fairweather', 'Grimaldi', 'Holmgren', 'Iglesias', 'Jovanovic', 'Kaminski', 'Laurent', 'Moreau', 'Nakashima', 'Oyelowo', 'Pellegrini', 'Rinaldi', 'Sorensen', 'Tanaka', 'Ulfsson', 'Varga', 'Whitaker', 'Xiong', 'Yamada', 'Zeller', 'Ashcroft', 'Bellweather', 'Corrigan', 'Dunleavy', 'Everhart', 'Featherstone', 'Gainsborough', 'Hawthorne', 'Isherwood', 'Kilbride', 'Lockhart', 'Montague', 'Northrop', 'Ormonde', 'Pemberton', 'Radcliffe', 'Stanhope', 'Thistlewood', 'Underhill', 'Vandermeer', 'Wetherby', 'Yelverton', 'Achebe', 'Bianchi', 'Costa', 'Dragomir', 'Ekberg', 'Ferreira', 'Gustafsson', 'Haddad', 'Iversen', 'Janssen', 'Kowalski', 'Lombardi', 'Mazur', 'Nilsson', 'Olsen', 'Popescu', 'Romero', 'Schultz'];
const T_ADJ = ['Silent', 'Crimson', 'Hollow', 'Distant', 'Broken', 'Golden', 'Last', 'Hidden', 'Burning', 'Frozen', 'Restless', 'Quiet', 'Wandering', 'Shattered', 'Velvet', 'Midnight', 'Paper', 'Glass', 'Iron', 'Salt', 'Wild', 'Lonely', 'Bitter', 'Electric', 'Forgotten', 'Sleeping', 'Northern', 'Painted', 'Savage', 'Tender'];
const T_NOUN = ['Harbour', 'Orchard', 'Lantern', 'Meridian', 'Tide', 'Carousel', 'Frontier', 'Garden', 'Mirror', 'Kingdom', 'Summer', 'Winter', 'Highway', 'Lighthouse', 'Circus', 'Archive', 'Parade', 'Tenant', 'Stranger', 'Widow', 'Compass', 'Signal', 'Horizon', 'Cathedral', 'Ballroom', 'Quarry', 'Vineyard', 'Junction', 'Observatory', 'Aviary'];
const T_SUFFIX = ['', '', '', ' II', ' Returns', ': Part One', ' of the North', ' at Dawn'];
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const HEX = '0123456789ABCDEF';

/** Entity counts for a world of about `n` entities, with floors so a small run still has every kind. */
export function screenCounts(n: number): Record<keyof ScreenWorld, number> {
  const cities = Math.max(12, Math.round(n * 0.008));
  const broadcasters = Math.min(NET_HEAD.length * NET_TAIL.length, Math.max(6, Math.round(n * 0.004)));
  const channels = Math.max(15, Math.round(n * 0.012));
  const houses = Math.min(HOUSE_HEAD.length * HOUSE_TAIL.length, Math.max(10, Math.round(n * 0.01)));
  const festivals = Math.max(8, Math.round(n * 0.004));
  const agencies = Math.min(AGENCY_HEAD.length * AGENCY_TAIL.length, Math.max(8, Math.round(n * 0.006)));
  const titles = Math.max(80, Math.round(n * 0.3));
  const people = Math.max(120, n - cities - broadcasters - channels - houses - festivals - agencies - titles);
  return { cities, broadcasters, channels, houses, festivals, agencies, people, titles };
}

/** The world for about `n` entities; the same `n` and `seed` give the same world. */
export function generateScreen(n: number, seed = 20261129): ScreenWorld {
  const r = new Rng(seed);
  const c = screenCounts(n);
  // Names are unique across the graph so each gold answer is one entity; codes, numbers and
  // dates are unique across the graph so a value names one entity.
  const { uname, ucode, chars, date, distinct } = new WorldDraws(r);

  const cities = Array.from({ length: c.cities }, (): City => ({
    name: uname(() => (r.next() < 0.4 ? `${r.pick(TOWN_HEAD)} ${r.pick(TOWN_BODY)}` : `${r.pick(TOWN_BODY)}${r.pick(['', ' City', ' Bay', 'ville', 'burg'])}`)),
    locode: ucode(() => `${chars(2, UPPER)} ${chars(3, UPPER)}`),
    population: 20000 + r.int(4000000),
  }));
  const broadcasters = Array.from({ length: c.broadcasters }, (): Broadcaster => ({
    name: uname(() => `${r.pick(NET_HEAD)} ${r.pick(NET_TAIL)}`),
    licenceRef: ucode(() => `TLCS-${r.digits(6)}`),
    founded: 1922 + r.int(90),
    city: r.int(c.cities),
  }));
  const channels = Array.from({ length: c.channels }, (): Channel => ({
    name: uname(() => `${r.pick(CHAN_HEAD)} ${r.pick(CHAN_TAIL)}`),
    lcn: ucode(() => 100 + r.int(900)),
    callSign: ucode(() => `${r.pick(['K', 'W', 'C', 'X'])}${chars(3, UPPER)}-TV`),
    launched: ucode(() => date(1955, 65)),
    broadcaster: r.int(c.broadcasters),
    genre: r.pick(GENRES),
  }));
  const houses = Array.from({ length: c.houses }, (): House => ({
    name: uname(() => `${r.pick(HOUSE_HEAD)} ${r.pick(HOUSE_TAIL)}`),
    companyNo: ucode(() => `0${r.digits(7)}`),
    founded: 1910 + r.int(110),
  }));
  const festivals = Array.from({ length: c.festivals }, (): Festival => {
    const city = r.int(c.cities);
    return {
      name: uname(() => `${r.next() < 0.5 ? cities[city].name : r.pick(TOWN_BODY) + ' Valley'} ${r.pick(FEST_KIND)}`),
      festivalCode: ucode(() => `${chars(3, UPPER)}${r.digits(2)}`),
      firstHeld: 1932 + r.int(90),
      city,
    };
  });
  const agencies = Array.from({ length: c.agencies }, (): Agency => ({
    name: uname(() => (r.next() < 0.5 ? `${r.pick(AGENCY_HEAD)} ${r.pick(AGENCY_TAIL)}` : `${r.pick(AGENCY_HEAD)} & ${r.pick(AGENCY_HEAD)} ${r.pick(AGENCY_TAIL)}`)),
    agencyLicence: ucode(() => `EA/${r.digits(5)}`),
    city: r.int(c.cities),
  }));
  // The first eighth of the people direct, the rest act.
  const directors = Math.max(10, Math.round(c.people / 8));
  const people = Array.from({ length: c.people }, (_, i): Person => {
    const agency = r.int(c.agencies);
    return {
      name: uname(() => `${r.pick(GIVEN)} ${r.next() < 0.25 ? `${chars(1, UPPER)}. ` : ''}${r.pick(FAMILY)}`),
      guildNo: ucode(() => 100000 + r.int(900000)),
      born: ucode(() => date(1935, 70)),
      profession: i < directors ? 'director' : 'actor',
      agency,
      predicted: i % 10 === 0 ? (agency + 1 + r.int(c.agencies - 1)) % c.agencies : -1,
    };
  });
  const titles = Array.from({ length: c.titles }, (_, i): Title => {
    const channel = r.int(c.channels);
    return {
      name: uname(() => {
        switch (r.int(4)) {
          case 0: return `The ${r.pick(T_ADJ)} ${r.pick(T_NOUN)}${r.pick(T_SUFFIX)}`;
          case 1: return `${r.pick(T_ADJ)} ${r.pick(T_NOUN)}${r.pick(T_SUFFIX)}`;
          case 2: return `${r.pick(T_NOUN)}s of ${r.pick(TOWN_BODY)}`;
          default: return `A ${r.pick(T_NOUN)} for ${r.pick(GIVEN)}`;
        }
      }),
      isan: ucode(() => `ISAN 0000-${chars(4, HEX)}-${chars(4, HEX)}-0000-${chars(1, UPPER)}`),
      releaseDate: ucode(() => date(1950, 75)),
      runtimeMin: 70 + r.int(110),
      genre: r.pick(GENRES),
      director: r.int(directors),
      cast: distinct(2 + r.int(5), c.people - directors, directors),
      house: r.int(c.houses),
      festival: r.int(c.festivals),
      channel,
      predicted: i % 12 === 0 ? (channel + 1 + r.int(c.channels - 1)) % c.channels : -1,
    };
  });
  return { cities, broadcasters, channels, houses, festivals, agencies, people, titles };
}

/** Every label in the world with the property its prose lives in, for indexes and embeddings. */
export const SCREEN_LABELS: readonly (readonly [string, string])[] = [
  ['City', 'blurb'], ['BROADCASTER', 'blurb'], ['Channel', 'blurb'], ['ProductionHouse', 'blurb'],
  ['FILM_FESTIVAL', 'blurb'], ['TalentAgency', 'blurb'], ['Person', 'bio'], ['Title', 'synopsis'],
];

export interface LoadOptions {
  /** Embed each node's prose and build vector indexes (default true; the generator's test skips it). */
  vectors?: boolean;
}

/** Loads the world: nodes with prose, facts, name and some value indexes, embeddings, a full-text index. */
export function loadScreen(db: Database, w: ScreenWorld, options: LoadOptions = {}): void {
  const run = (cypher: string, rows: readonly object[]): void => {
    for (let i = 0; i < rows.length; i += 2000) db.executeSync(cypher, { rows: rows.slice(i, i + 2000) });
  };
  for (const [label] of SCREEN_LABELS) db.executeSync(`CREATE INDEX FOR (n:${label}) ON (n.name)`);
  // Some key-like properties are indexed and the rest are not, so both grounding paths are asked.
  for (const [label, key] of [['Title', 'isan'], ['Person', 'guildNo'], ['Channel', 'callSign'], ['City', 'locode']]) {
    db.executeSync(`CREATE INDEX FOR (n:${label}) ON (n.${key})`);
  }
  run(
    `UNWIND $rows AS r CREATE (:City {name: r.name, locode: r.locode, population: r.population,
       blurb: r.name + ' is a city of about ' + toString(r.population) + ' people'})`,
    w.cities,
  );
  run(
    `UNWIND $rows AS r MATCH (c:City {name: r.city})
     CREATE (:BROADCASTER {name: r.name, licenceRef: r.licenceRef, founded: r.founded,
       blurb: r.name + ' has been on air since ' + toString(r.founded)})-[:HQ_CITY]->(c)`,
    w.broadcasters.map((b) => ({ ...b, city: w.cities[b.city].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (b:BROADCASTER {name: r.broadcaster})
     CREATE (:Channel {name: r.name, lcn: r.lcn, callSign: r.callSign, launched: date(r.launched),
       blurb: r.name + ' is a ' + r.genre + ' channel'})-[:operatedBy]->(b)`,
    w.channels.map((x) => ({ ...x, broadcaster: w.broadcasters[x.broadcaster].name })),
  );
  run(
    `UNWIND $rows AS r CREATE (:ProductionHouse {name: r.name, companyNo: r.companyNo, founded: r.founded,
       blurb: r.name + ' has developed and financed features since ' + toString(r.founded)})`,
    w.houses,
  );
  run(
    `UNWIND $rows AS r MATCH (c:City {name: r.city})
     CREATE (:FILM_FESTIVAL {name: r.name, festivalCode: r.festivalCode, firstHeld: r.firstHeld,
       blurb: r.name + ' has shown new work every year since ' + toString(r.firstHeld)})-[:takesPlaceIn]->(c)`,
    w.festivals.map((f) => ({ ...f, city: w.cities[f.city].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (c:City {name: r.city})
     CREATE (:TalentAgency {name: r.name, agencyLicence: r.agencyLicence,
       blurb: r.name + ' looks after performers and filmmakers'})-[:officeIn]->(c)`,
    w.agencies.map((a) => ({ ...a, city: w.cities[a.city].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (a:TalentAgency {name: r.agency})
     CREATE (:Person {name: r.name, guildNo: r.guildNo, born: date(r.born), profession: r.profession,
       bio: r.name + ' is a ' + r.profession + ' born in ' + substring(r.born, 0, 4)})-[:REPRESENTED_BY {observation_class: 'observed', confidence: 0.7, source: 'guild-register'}]->(a)`,
    w.people.map((p) => ({ ...p, agency: w.agencies[p.agency].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (p:Person {name: r.name}), (a:TalentAgency {name: r.agency})
     CREATE (p)-[:REPRESENTED_BY {observation_class: 'predicted', confidence: 0.93, source: 'press-miner'}]->(a)`,
    w.people.filter((p) => p.predicted >= 0).map((p) => ({ name: p.name, agency: w.agencies[p.predicted].name })),
  );
  // The ISAN and release date stay out of the synopsis, so a question quoting them must find the property.
  run(
    `UNWIND $rows AS r MATCH (d:Person {name: r.director}), (h:ProductionHouse {name: r.house}), (f:FILM_FESTIVAL {name: r.festival}), (c:Channel {name: r.channel})
     CREATE (t:Title {name: r.name, isan: r.isan, releaseDate: date(r.releaseDate), runtimeMin: r.runtimeMin, genre: r.genre,
       synopsis: r.name + ' is a ' + toString(r.runtimeMin) + '-minute ' + r.genre + ' feature'}),
       (t)-[:DIRECTED_BY]->(d), (t)-[:producedBy]->(h), (t)-[:premieredAt]->(f),
       (t)-[:AIRS_ON {observation_class: 'observed', confidence: 0.7, source: 'schedule'}]->(c)`,
    w.titles.map((t) => ({ ...t, director: w.people[t.director].name, house: w.houses[t.house].name, festival: w.festivals[t.festival].name, channel: w.channels[t.channel].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (t:Title {name: r.title}), (c:Channel {name: r.channel})
     CREATE (t)-[:AIRS_ON {observation_class: 'predicted', confidence: 0.95, source: 'epg-guess'}]->(c)`,
    w.titles.filter((t) => t.predicted >= 0).map((t) => ({ title: t.name, channel: w.channels[t.predicted].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (p:Person {name: r.person}), (t:Title {name: r.title}) CREATE (p)-[:ACTED_IN {billing: r.billing}]->(t)`,
    w.titles.flatMap((t) => t.cast.map((p, i) => ({ person: w.people[p].name, title: t.name, billing: i + 1 }))),
  );
  if (options.vectors !== false) {
    for (const [label, prose] of SCREEN_LABELS) {
      const index = `${label.toLowerCase()}_vec`;
      db.executeSync(`CALL graphdb.embed.nodes({label: '${label}', textProperty: '${prose}', vectorProperty: 'embedding', batchSize: 256}) YIELD nodes RETURN nodes`);
      db.executeSync(`CREATE VECTOR INDEX ${index} FOR (n:${label}) ON (n.embedding) OPTIONS {indexConfig: {\`vector.dimensions\`: 384}}`);
      db.executeSync(`CALL db.awaitIndex('${index}')`);
    }
  }
  const labels = SCREEN_LABELS.map(([l]) => l).join('|');
  db.executeSync(`CREATE FULLTEXT INDEX screen_text FOR (n:${labels}) ON EACH [n.name, n.synopsis, n.bio, n.blurb]`);
  // Populated in the background otherwise: questions asked at once would fall back to the text scan.
  db.executeSync("CALL db.awaitIndex('screen_text')");
}
