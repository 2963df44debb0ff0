/**
 * The small sailing-harbour graphs the general-rules tests of branch rag12 ask about (general-rules-heldout9.test.ts
 * through the query language, general-rules-heldout9-mcp.test.ts through the MCP SDK client): one constant per graph, so
 * the two tests ask about the same data. Their words (skippers, yards, moorings, regattas, charts, almanacs) are none of
 * the held-out domains'.
 */

/**
 * Sailors, their boats and what joins them: a consultancy advising one sailor, owners and hirers of boats a yard built, a boat's
 * skipper and the many aboard it, the events a sailor entered, the class a boat is rated for, a club sailors enlisted
 * with (and fittings that belong to their boat), surveys of a reef and the reports that use or critique them, almanac editions,
 * charts filed to an archive, boats moored at a marina whose authority is seated in a town, and voyages' navigators.
 */
export const HARBOUR = `
  CREATE (abe:Sailor {name: 'Abe Quist'}), (ben:Sailor {name: 'Ben Osei'}), (cy:Sailor {name: 'Cy Varga'}),
         (dee:Sailor {name: 'Dee Lind'}), (eli:Sailor {name: 'Eli Ruiz'}), (fay:Sailor {name: 'Fay Holt'}),
         (ridge:Consultancy {name: 'Ridge Advisory Partners'}), (:Consultancy {name: 'Aardvark Advisory'}),
         (ben)-[:ADVISED_BY]->(ridge),
         (yard:Yard {name: 'Kestrel Yard'}), (ayard:Yard {name: 'Aardvark Yard'}), (elmton:Town {name: 'Elmton'}), (yard)-[:basedIn]->(elmton),
         (petrel:Boat {name: 'Petrel'}), (skua:Boat {name: 'Skua'}), (tern:Boat {name: 'Tern'}),
         (petrel)-[:BUILT_BY {confidence: 0.7}]->(yard), (skua)-[:BUILT_BY {confidence: 0.7}]->(yard), (tern)-[:BUILT_BY {confidence: 0.7}]->(ayard),
         (cy)-[:OWNS]->(petrel), (dee)-[:OWNS]->(skua), (fay)-[:OWNS]->(tern), (ben)-[:HIRES]->(petrel), (fay)-[:HIRES]->(skua),
         (petrel)-[:hasSkipper]->(abe), (dee)-[:ABOARD {confidence: 0.7}]->(petrel), (eli)-[:ABOARD {confidence: 0.7}]->(petrel),
         (fay)-[:ABOARD {confidence: 0.7}]->(petrel), (ben)-[:ABOARD]->(skua),
         (cy)-[:ENTERED_IN]->(:Race {name: 'Autumn Cup'}), (club:Club {name: 'Aardvark Sailing Club'}), (cy)-[:memberOf]->(club),
         (petrel)-[:ratedFor]->(:BoatClass {name: 'Offshore Class'}),
         (gull:Club {name: 'Gull Point Sailors Club'}), (ben)-[:ENLISTED_WITH]->(gull), (eli)-[:ENLISTED_WITH]->(gull),
         (puffin:Boat {name: 'Puffin'}), (ben)-[:OWNS]->(puffin), (eli)-[:OWNS]->(puffin),
         (:Fitting {name: 'Winch 3'})-[:belongsTo]->(puffin), (:Fitting {name: 'Winch 4'})-[:belongsTo]->(puffin),
         (reef:Reef {name: 'Zephyr Reef'}), (s1:Survey {name: 'Survey 4'})-[:CHARTED]->(reef), (s2:Survey {name: 'Survey 5'})-[:CHARTED]->(reef),
         (:Report {name: 'Reef Health Report'})-[:USES_FINDINGS_OF {confidence: 0.7}]->(s1),
         (:Report {name: 'Coral Watch Report'})-[:USES_FINDINGS_OF {confidence: 0.7}]->(s2),
         (:Report {name: 'Atoll Critique Report'})-[:CRITIQUES]->(s2),
         (almanac:Almanac {name: 'Tide Almanac'}),
         (:Edition {name: 'Tide Almanac 2024', edition: '2024'})-[:editionOf]->(almanac),
         (:Edition {name: 'Tide Almanac 2025', edition: '2025'})-[:editionOf]->(almanac),
         (chart:Chart {name: 'Reef Chart 9'})-[:FILED_TO]->(:Archive {name: 'Harbour Archive'}), (chart)-[:drawnBy]->(dee),
         (dee)-[:livesIn]->(:Town {name: 'Ashby'}),
         (marina:Marina {name: 'North Marina'}), (auth:Authority {name: 'Bay Harbour Authority'}),
         (tern)-[:mooredAt]->(marina), (marina)-[:runBy]->(auth), (auth)-[:SEATED_IN]->(:Town {name: 'Port Wenlow'}),
         (tern)-[:launchedIn]->(:Town {name: 'Aldmouth'}),
         (mo:Navigator {name: 'Mo Kerr'}), (lu:Navigator {name: 'Lu Park'}),
         (v1:Voyage {name: 'Voyage 101'})-[:NAVIGATED_BY]->(mo), (v2:Voyage {name: 'Voyage 102'})-[:NAVIGATED_BY]->(mo),
         (v1)-[:NAVIGATED_BY]->(lu), (:Voyage {name: 'Voyage 103'})-[:NAVIGATED_BY]->(lu)`;

/**
 * A regatta, the drink it offers and the firm that drink is licensed by, beside the firm that sponsors the regatta and
 * its judge: "who" may ask for a firm, through the drink the question mentions. Harbours that host boats, by their blurbs.
 */
export const REGATTA = `
  CREATE (r:Regatta {name: 'Autumn Regatta'}), (ale:Drink {name: 'Storm Ale'}), (r)-[:offers]->(ale),
         (ale)-[:licensedBy]->(:BrewingCompany {name: 'Hollow Brewing Company'}),
         (r)-[:SPONSORED_BY]->(:BrewingCompany {name: 'Aardvark Brewing Company'}),
         (r)-[:hasJudge]->(:Sailor {name: 'Ivo Brandt'}), (:Sailor {name: 'Una Pell'}), (:Sailor {name: 'Tom Reyes'}),
         (ben:Sailor {name: 'Ben Osei'}), (b1:Boat {name: 'Petrel'})-[:hasSkipper]->(ben), (b2:Boat {name: 'Skua'})-[:hasSkipper]->(ben),
         (h1:Harbour {name: 'Kelp Cove', blurb: 'Kelp Cove hosts boats all year'}), (h2:Harbour {name: 'Gannet Bay', blurb: 'Gannet Bay hosts boats in summer'}),
         (:Harbour {name: 'Seal Haven', blurb: 'Seal Haven hosts boats from the coast'}),
         (b1)-[:BERTHED_AT]->(h1), (b2)-[:BERTHED_AT]->(h2)`;
