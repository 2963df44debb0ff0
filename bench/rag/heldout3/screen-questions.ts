/**
 * Questions about the held-out film and broadcasting world (screen.ts) in issue 32's five shapes,
 * phrased the way viewers, programmers and bookers ask: questions and imperatives, the question
 * word first, last or missing, words the schema never uses (film, movie, picture, filmmaker,
 * helmed, studio, network, station, screened, shown, agent, star, cast, debuted), possessives,
 * quoted values and relative clauses. Each question's gold answers come from a Cypher query on
 * the loaded graph, observed facts only; a draw whose gold comes out empty is drawn again.
 */

import type { Database } from '../../../src/engine/database.js';
import { SHAPES, type Rng, type Shape } from '../domain.js';
import { type Ask, drawQuestions, MONTHS, type Question, type Template, type Trust } from '../held-out-questions.js';
import type { ScreenWorld } from './screen.js';

export { SHAPES, type Question, type Shape, type Trust };

// Agencies and channels can be predicted; only observed ones are truth.
const OBSERVED = `a.observation_class <> 'predicted'`;

/** A date as people in the trade write it ("March 4, 1998"), not as the graph stores it. */
export function spokenDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return `${MONTHS[m - 1]} ${d}, ${y}`;
}

function templates(w: ScreenWorld): Record<Shape, [string, Template][]> {
  const differ = (observed: string, predicted: string): Trust | undefined => (observed === predicted ? undefined : { observed, predicted });
  const directorCount = w.people.filter((p) => p.profession === 'director').length;
  // Half of the draws that can carry a trust probe land on an entity with a predicted rival.
  const person = (r: Rng): number => (r.next() < 0.5 ? r.int(Math.ceil(w.people.length / 10)) * 10 : r.int(w.people.length));
  const titleIx = (r: Rng): number => (r.next() < 0.5 ? r.int(Math.ceil(w.titles.length / 12)) * 12 : r.int(w.titles.length));
  const agencyOf = (p: number, predicted: boolean): number => (predicted ? w.people[p].predicted : w.people[p].agency);
  const channelOf = (t: number, predicted: boolean): number => (predicted ? w.titles[t].predicted : w.titles[t].channel);
  const agencyTrust = (p: number): Trust | undefined =>
    w.people[p].predicted < 0 ? undefined : differ(w.agencies[agencyOf(p, false)].name, w.agencies[agencyOf(p, true)].name);
  const agencyCityTrust = (p: number): Trust | undefined =>
    w.people[p].predicted < 0 ? undefined : differ(w.cities[w.agencies[agencyOf(p, false)].city].name, w.cities[w.agencies[agencyOf(p, true)].city].name);
  const channelTrust = (t: number): Trust | undefined =>
    w.titles[t].predicted < 0 ? undefined : differ(w.channels[channelOf(t, false)].name, w.channels[channelOf(t, true)].name);
  const networkTrust = (t: number): Trust | undefined =>
    w.titles[t].predicted < 0 ? undefined : differ(w.broadcasters[w.channels[channelOf(t, false)].broadcaster].name, w.broadcasters[w.channels[channelOf(t, true)].broadcaster].name);

  const title = (r: Rng): string => r.pick(w.titles).name;
  const director = (r: Rng): string => w.people[r.int(directorCount)].name;
  const actor = (r: Rng): string => w.people[r.pick(r.pick(w.titles).cast)].name;
  const channel = (r: Rng): string => r.pick(w.channels).name;
  const network = (r: Rng): string => r.pick(w.broadcasters).name;
  const house = (r: Rng): string => r.pick(w.houses).name;
  const festival = (r: Rng): string => r.pick(w.festivals).name;
  const agency = (r: Rng): string => r.pick(w.agencies).name;
  const city = (r: Rng): string => r.pick(w.cities).name;

  const directorOf = 'MATCH (:Title {name: $x})-[:DIRECTED_BY]->(p:Person) RETURN p.name AS name';
  const houseOf = 'MATCH (:Title {name: $x})-[:producedBy]->(h:ProductionHouse) RETURN h.name AS name';
  const festivalOf = 'MATCH (:Title {name: $x})-[:premieredAt]->(f:FILM_FESTIVAL) RETURN f.name AS name';
  const channelOfTitle = `MATCH (:Title {name: $x})-[a:AIRS_ON]->(c:Channel) WHERE ${OBSERVED} RETURN c.name AS name`;
  const agencyOfPerson = `MATCH (:Person {name: $x})-[a:REPRESENTED_BY]->(g:TalentAgency) WHERE ${OBSERVED} RETURN g.name AS name`;
  const networkOf = 'MATCH (:Channel {name: $x})-[:operatedBy]->(b:BROADCASTER) RETURN b.name AS name';
  const hqOf = 'MATCH (:BROADCASTER {name: $x})-[:HQ_CITY]->(c:City) RETURN c.name AS name';
  const festivalCity = 'MATCH (:FILM_FESTIVAL {name: $x})-[:takesPlaceIn]->(c:City) RETURN c.name AS name';
  const agencyCity = 'MATCH (:TalentAgency {name: $x})-[:officeIn]->(c:City) RETURN c.name AS name';
  const filmsOfActor = 'MATCH (:Person {name: $x})-[:ACTED_IN]->(t:Title) RETURN t.name AS name';
  const castOf = 'MATCH (p:Person)-[:ACTED_IN]->(:Title {name: $x}) RETURN p.name AS name';
  const directedBy = 'MATCH (t:Title)-[:DIRECTED_BY]->(:Person {name: $x}) RETURN t.name AS name';
  const madeBy = 'MATCH (t:Title)-[:producedBy]->(:ProductionHouse {name: $x}) RETURN t.name AS name';
  const premieredAt = 'MATCH (t:Title)-[:premieredAt]->(:FILM_FESTIVAL {name: $x}) RETURN t.name AS name';
  const airsOn = `MATCH (t:Title)-[a:AIRS_ON]->(:Channel {name: $x}) WHERE ${OBSERVED} RETURN t.name AS name`;
  const channelsOf = 'MATCH (c:Channel)-[:operatedBy]->(:BROADCASTER {name: $x}) RETURN c.name AS name';
  const clientsOf = `MATCH (p:Person)-[a:REPRESENTED_BY]->(:TalentAgency {name: $x}) WHERE ${OBSERVED} RETURN p.name AS name`;
  const festivalsIn = 'MATCH (f:FILM_FESTIVAL)-[:takesPlaceIn]->(:City {name: $x}) RETURN f.name AS name';
  const agenciesIn = 'MATCH (g:TalentAgency)-[:officeIn]->(:City {name: $x}) RETURN g.name AS name';
  const networksIn = 'MATCH (b:BROADCASTER)-[:HQ_CITY]->(:City {name: $x}) RETURN b.name AS name';
  const byValue = (label: string, key: string): string => `MATCH (n:${label}) WHERE n.${key} = $x RETURN n.name AS name`;
  const byDate = (label: string, key: string): string => `MATCH (n:${label}) WHERE n.${key} = date($x) RETURN n.name AS name`;

  const ask = (text: string, gold: string, x: unknown, trust?: Trust): Ask => ({ text, gold, x, ...(trust ? { trust } : {}) });
  const aboutPerson = (r: Rng, text: (n: string) => string, gold: string, trust: (p: number) => Trust | undefined): Ask => {
    const p = person(r);
    const n = w.people[p].name;
    return ask(text(n), gold, n, trust(p));
  };
  const aboutTitle = (r: Rng, text: (n: string) => string, gold: string, trust?: (t: number) => Trust | undefined): Ask => {
    const t = titleIx(r);
    const n = w.titles[t].name;
    return ask(text(n), gold, n, trust?.(t));
  };

  return {
    'one-hop': [
      ['who directed', (r) => { const t = title(r); return ask(`Who directed ${t}?`, directorOf, t); }],
      ['helmed by whom', (r) => { const t = title(r); return ask(`"${t}" was helmed by whom`, directorOf, t); }],
      ['studio behind', (r) => { const t = title(r); return ask(`Name the studio behind ${t}`, houseOf, t); }],
      ['where premiere', (r) => { const t = title(r); return ask(`Where did ${t} premiere?`, festivalOf, t); }],
      ['station shows', (r) => aboutTitle(r, (n) => `What station shows ${n}?`, channelOfTitle, channelTrust)],
      ['tv channel possessive', (r) => aboutTitle(r, (n) => `${n}'s TV channel`, channelOfTitle, channelTrust)],
      ['agent of', (r) => aboutPerson(r, (n) => `Who is ${n}'s agent?`, agencyOfPerson, agencyTrust)],
      ['represented by which', (r) => aboutPerson(r, (n) => `${n} is represented by which agency`, agencyOfPerson, agencyTrust)],
      ['network runs', (r) => { const c = channel(r); return ask(`Which network runs ${c}?`, networkOf, c); }],
      ['headquartered', (r) => { const b = network(r); return ask(`Where is ${b} headquartered?`, hqOf, b); }],
      ['festival city', (r) => { const f = festival(r); return ask(`In what city is the ${f} held?`, festivalCity, f); }],
      ['agency office', (r) => { const g = agency(r); return ask(`Tell me where ${g} has its office`, agencyCity, g); }],
      ['movie starred in', (r) => { const p = actor(r); return ask(`Which movie did ${p} star in?`, filmsOfActor, p); }],
    ],
    reverse: [
      ['films directed', (r) => { const d = director(r); return ask(`Which films did ${d} direct?`, directedBy, d); }],
      ['who acted in', (r) => { const t = title(r); return ask(`Who acted in ${t}?`, castOf, t); }],
      ['a picture from studio', (r) => { const h = house(r); return ask(`Name a picture from ${h}`, madeBy, h); }],
      ['debuted at', (r) => { const f = festival(r); return ask(`What debuted at the ${f}?`, premieredAt, f); }],
      ['channel owned by', (r) => { const b = network(r); return ask(`A channel owned by ${b}, please`, channelsOf, b); }],
      ['festival held in', (r) => { const c = city(r); return ask(`Which festival is held in ${c}?`, festivalsIn, c); }],
      ['agency in city', (r) => { const c = city(r); return ask(`Is there a talent agency in ${c}?`, agenciesIn, c); }],
      ['client of agency', (r) => { const g = agency(r); return ask(`Name a performer on the books of ${g}`, clientsOf, g); }],
      ['what is on', (r) => { const c = channel(r); return ask(`What's on ${c}?`, airsOn, c); }],
      ['network based in', (r) => { const c = city(r); return ask(`Which broadcaster is based in ${c}`, networksIn, c); }],
      ['filmmaker behind', (r) => { const d = director(r); return ask(`a movie by filmmaker ${d}`, directedBy, d); }],
      ['who appears in', (r) => { const t = title(r); return ask(`${t} features which actor?`, castOf, t); }],
    ],
    value: [
      ['ISAN', (r) => { const t = r.pick(w.titles); return ask(`Which film has the ISAN ${t.isan.slice(5)}?`, byValue('Title', 'isan'), t.isan); }],
      ['ISAN full', (r) => { const t = r.pick(w.titles); return ask(`Look up ${t.isan}`, byValue('Title', 'isan'), t.isan); }],
      ['guild number', (r) => { const p = r.pick(w.people); return ask(`Who holds guild membership number ${p.guildNo}?`, byValue('Person', 'guildNo'), p.guildNo); }],
      ['guild card', (r) => { const p = r.pick(w.people); return ask(`Find the performer with guild card ${p.guildNo}`, byValue('Person', 'guildNo'), p.guildNo); }],
      ['channel number', (r) => { const c = r.pick(w.channels); return ask(`Which channel sits at number ${c.lcn} on the guide?`, byValue('Channel', 'lcn'), c.lcn); }],
      ['call sign', (r) => { const c = r.pick(w.channels); return ask(`Which station uses the call sign ${c.callSign}?`, byValue('Channel', 'callSign'), c.callSign); }],
      ['licence', (r) => { const b = r.pick(w.broadcasters); return ask(`Which broadcaster holds licence ${b.licenceRef}?`, byValue('BROADCASTER', 'licenceRef'), b.licenceRef); }],
      ['company number', (r) => { const h = r.pick(w.houses); return ask(`Studio registered under company number ${h.companyNo}`, byValue('ProductionHouse', 'companyNo'), h.companyNo); }],
      ['festival code quoted', (r) => { const f = r.pick(w.festivals); return ask(`Which festival goes by the code '${f.festivalCode}'?`, byValue('FILM_FESTIVAL', 'festivalCode'), f.festivalCode); }],
      ['locode', (r) => { const c = r.pick(w.cities); return ask(`What city is UN/LOCODE ${c.locode}?`, byValue('City', 'locode'), c.locode); }],
      ['agency licence', (r) => { const g = r.pick(w.agencies); return ask(`The agency with employment licence ${g.agencyLicence} is called what?`, byValue('TalentAgency', 'agencyLicence'), g.agencyLicence); }],
      ['released on spoken', (r) => { const t = r.pick(w.titles); return ask(`Which movie was released on ${spokenDate(t.releaseDate)}?`, byDate('Title', 'releaseDate'), t.releaseDate); }],
      ['born on iso', (r) => { const p = r.pick(w.people); return ask(`Who was born on ${p.born}?`, byDate('Person', 'born'), p.born); }],
      ['launched on', (r) => { const c = r.pick(w.channels); return ask(`Which channel launched on ${c.launched}?`, byDate('Channel', 'launched'), c.launched); }],
    ],
    'multi-hop': [
      ['network airing title', (r) => aboutTitle(r, (n) => `Which broadcaster owns the channel that airs ${n}?`,
        `MATCH (:Title {name: $x})-[a:AIRS_ON]->(:Channel)-[:operatedBy]->(b:BROADCASTER) WHERE ${OBSERVED} RETURN b.name AS name`, networkTrust)],
      ['city of agent', (r) => aboutPerson(r, (n) => `In which city is the agency that represents ${n}?`,
        `MATCH (:Person {name: $x})-[a:REPRESENTED_BY]->(:TalentAgency)-[:officeIn]->(c:City) WHERE ${OBSERVED} RETURN c.name AS name`, agencyCityTrust)],
      ['city of premiere', (r) => { const t = title(r); return ask(`Which city hosted the festival where ${t} premiered?`,
        'MATCH (:Title {name: $x})-[:premieredAt]->(:FILM_FESTIVAL)-[:takesPlaceIn]->(c:City) RETURN c.name AS name', t); }],
      ['directors at festival', (r) => { const f = festival(r); return ask(`Who directed the films that premiered at the ${f}?`,
        'MATCH (:FILM_FESTIVAL {name: $x})<-[:premieredAt]-(:Title)-[:DIRECTED_BY]->(p:Person) RETURN p.name AS name', f); }],
      ['studios of actor', (r) => { const p = actor(r); return ask(`Which studios made the movies ${p} starred in?`,
        'MATCH (:Person {name: $x})-[:ACTED_IN]->(:Title)-[:producedBy]->(h:ProductionHouse) RETURN h.name AS name', p); }],
      ['actors of director', (r) => { const d = director(r); return ask(`Which actors appeared in films directed by ${d}?`,
        'MATCH (:Person {name: $x})<-[:DIRECTED_BY]-(:Title)<-[:ACTED_IN]-(p:Person) RETURN p.name AS name', d); }],
      ['channels of studio', (r) => { const h = house(r); return ask(`On which channels are ${h}'s films shown?`,
        `MATCH (:ProductionHouse {name: $x})<-[:producedBy]-(:Title)-[a:AIRS_ON]->(c:Channel) WHERE ${OBSERVED} RETURN c.name AS name`, h); }],
      ['hq of channel owner', (r) => { const c = channel(r); return ask(`Where is the company that runs ${c} based?`,
        'MATCH (:Channel {name: $x})-[:operatedBy]->(:BROADCASTER)-[:HQ_CITY]->(c:City) RETURN c.name AS name', c); }],
      ['networks of actor', (r) => { const p = actor(r); return ask(`Which networks broadcast films starring ${p}?`,
        `MATCH (:Person {name: $x})-[:ACTED_IN]->(:Title)-[a:AIRS_ON]->(:Channel)-[:operatedBy]->(b:BROADCASTER) WHERE ${OBSERVED} RETURN b.name AS name`, p); }],
      ['agency of director', (r) => { const t = title(r); return ask(`the agency representing the director of ${t}`,
        `MATCH (:Title {name: $x})-[:DIRECTED_BY]->(:Person)-[a:REPRESENTED_BY]->(g:TalentAgency) WHERE ${OBSERVED} RETURN g.name AS name`, t); }],
      ['festivals of studio', (r) => { const h = house(r); return ask(`At which festivals did films from ${h} premiere?`,
        'MATCH (:ProductionHouse {name: $x})<-[:producedBy]-(:Title)-[:premieredAt]->(f:FILM_FESTIVAL) RETURN f.name AS name', h); }],
      ['hq of network airing', (r) => aboutTitle(r, (n) => `Where is the network that shows ${n} headquartered?`,
        `MATCH (:Title {name: $x})-[a:AIRS_ON]->(:Channel)-[:operatedBy]->(:BROADCASTER)-[:HQ_CITY]->(c:City) WHERE ${OBSERVED} RETURN c.name AS name`)],
    ],
    listing: [
      ['full cast', (r) => { const t = title(r); return ask(`List the full cast of ${t}.`, castOf, t); }],
      ['filmography', (r) => { const d = director(r); return ask(`${d}'s filmography as director`, directedBy, d); }],
      ['all channels of', (r) => { const b = network(r); return ask(`All channels operated by ${b}`, channelsOf, b); }],
      ['line-up', (r) => { const f = festival(r); return ask(`Show the line-up of premieres at the ${f}`, premieredAt, f); }],
      ['every film from', (r) => { const h = house(r); return ask(`every film ${h} has produced`, madeBy, h); }],
      ['client list', (r) => { const g = agency(r); return ask(`Give me the client list of ${g}`, clientsOf, g); }],
      ['schedule of', (r) => { const c = channel(r); return ask(`What does ${c} broadcast? List them all.`, airsOn, c); }],
      ['everyone in', (r) => { const t = title(r); return ask(`Who is in ${t}? Everyone, please.`, castOf, t); }],
      ['all movies of actor', (r) => { const p = actor(r); return ask(`all the movies ${p} has been in`, filmsOfActor, p); }],
      ['festivals in city', (r) => { const c = city(r); return ask(`Enumerate the festivals in ${c}`, festivalsIn, c); }],
      ['bare roster', (r) => { const g = agency(r); return ask(`${g} roster`, clientsOf, g); }],
      ['which films did studio make', (r) => { const h = house(r); return ask(`Which films did ${h} make? All of them.`, madeBy, h); }],
    ],
  };
}

/**
 * `perShape` questions of each shape, cycling through that shape's phrasings, with gold answers
 * read from the graph in `db` (which must hold `w`, loaded by loadScreen).
 */
export function screenQuestions(db: Database, w: ScreenWorld, perShape: number, seed = 1129): Question[] {
  return drawQuestions(db, templates(w), perShape, seed);
}
