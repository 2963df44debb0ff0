"""Reference answers for test/procedures/algo.networkx.test.ts, computed with networkx.

Reads {"graphs": [{"name", "n", "directed", "multi", "edges": [[u, v, w], ...], "source",
"target", "k", "coords"}]} on stdin and writes {name: {algorithm: answer}} on stdout.
Answers are keyed by vertex number (0..n-1) as strings. Runs under Debian's python3-networkx.
"""

import json
import math
import sys

import networkx as nx


def build(g, weighted=True):
    directed = g["directed"]
    multi = g.get("multi", False)
    if multi:
        G = nx.MultiDiGraph() if directed else nx.MultiGraph()
    else:
        G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(range(g["n"]))
    for u, v, w in sorted(g["edges"]):
        G.add_edge(u, v, w=w)
    return G


def simple(G):
    """The simple graph: no parallel edges (smallest weight kept), no self-loops."""
    S = nx.DiGraph() if G.is_directed() else nx.Graph()
    S.add_nodes_from(sorted(G.nodes()))
    for u, v, d in sorted(G.edges(data=True), key=lambda e: (e[0], e[1])):
        if u == v:
            continue
        if S.has_edge(u, v):
            S[u][v]["w"] = min(S[u][v]["w"], d["w"])
        else:
            S.add_edge(u, v, w=d["w"])
    return S


def keyed(d):
    return {str(k): v for k, v in d.items()}


def partition(communities):
    return sorted(sorted(c) for c in communities)


def article_rank(g, d=0.85, iters=2000):
    n = g["n"]
    out = {v: [] for v in range(n)}
    for u, v, _ in g["edges"]:
        out[u].append(v)
        if not g["directed"] and u != v:
            out[v].append(u)
    avg = sum(len(r) for r in out.values()) / n if n else 0
    x = [1 - d] * n
    for _ in range(iters):
        nxt = [1 - d] * n
        for u in range(n):
            if out[u]:
                share = d * x[u] / (len(out[u]) + avg)
                for v in out[u]:
                    nxt[v] += share
        x = nxt
    return {str(v): x[v] for v in range(n)}


def answers(g):
    G = build(g)
    S = simple(G)
    U = S.to_undirected() if S.is_directed() else S
    directed = g["directed"]
    src = g.get("source", 0)
    r = {}
    n = g["n"]
    if g.get("negative"):
        r["negativeCycle"] = nx.negative_edge_cycle(G, weight="w")
        if not r["negativeCycle"]:
            r["bellmanFord"] = keyed(nx.single_source_bellman_ford_path_length(G, src, weight="w"))
        return r
    r["pageRank"] = keyed(nx.pagerank(G, alpha=0.85, tol=1e-13, max_iter=10000, weight=None)) if n else {}
    if n:
        r["personalised"] = keyed(nx.pagerank(G, alpha=0.85, personalization={src: 1}, tol=1e-13, max_iter=10000, weight=None))
    r["articleRank"] = article_rank(g)
    r["betweenness"] = keyed(nx.betweenness_centrality(S, normalized=False))
    r["betweennessWeighted"] = keyed(nx.betweenness_centrality(S, normalized=False, weight="w"))
    rev = S.reverse() if directed else S
    r["closeness"] = keyed(nx.closeness_centrality(rev, wf_improved=False))
    r["closenessWF"] = keyed(nx.closeness_centrality(rev, wf_improved=True))
    r["harmonic"] = keyed(nx.harmonic_centrality(rev))
    r["closenessWeighted"] = keyed(nx.closeness_centrality(rev, distance="w", wf_improved=False))
    if directed:
        r["wcc"] = partition(nx.weakly_connected_components(G))
        r["scc"] = partition(nx.strongly_connected_components(G))
    else:
        r["wcc"] = partition(nx.connected_components(G))
        r["scc"] = r["wcc"]
    r["kCore"] = keyed(nx.core_number(U))
    r["triangles"] = keyed(nx.triangles(U))
    r["lcc"] = keyed(nx.clustering(U))
    if n:
        r["bfs"] = keyed(nx.single_source_shortest_path_length(G, src))
        r["dfs"] = list(nx.dfs_preorder_nodes(S, src))
        r["sssp"] = keyed(nx.single_source_dijkstra_path_length(G, src, weight="w"))
    if "target" in g:
        t = g["target"]
        try:
            r["ssspTarget"] = nx.dijkstra_path_length(G, src, t, weight="w")
            paths = nx.shortest_simple_paths(S, src, t, weight="w")
            costs = []
            for p in paths:
                costs.append(sum(S[a][b]["w"] for a, b in zip(p, p[1:])))
                if len(costs) == g.get("k", 3):
                    break
            r["yens"] = costs
        except nx.NetworkXNoPath:
            r["ssspTarget"] = None
            r["yens"] = []
        if "coords" in g:
            c = g["coords"]
            h = lambda a, b: math.dist(c[a], c[b])
            r["astar"] = nx.astar_path_length(G, src, t, heuristic=h, weight="w")
    if not directed:
        r["articulationPoints"] = sorted(nx.articulation_points(U))
        r["bridges"] = sorted(sorted(e) for e in nx.bridges(U))
        r["mstMin"] = nx.minimum_spanning_tree(simple(G), weight="w", algorithm="prim").size(weight="w")
        r["mstMax"] = nx.maximum_spanning_tree(simple(G), weight="w", algorithm="prim").size(weight="w")
        if U.number_of_edges() > 0:
            best = max(nx.community.modularity(U, c) for c in (nx.community.louvain_communities(U, seed=s) for s in range(3)))
            r["louvainModularity"] = best
        r["eigenvector"] = keyed(nx.eigenvector_centrality(U, max_iter=100000, tol=1e-12)) if nx.is_connected(U) and n > 1 else None
        if r["eigenvector"] is None and n > 1:
            # Disconnected: the centrality is not unique (each component of the largest spectral
            # radius may take any share), but any answer must be an eigenvector of the adjacency
            # matrix for its largest eigenvalue. The test checks A x = radius x on our scores.
            import numpy
            r["eigenRadius"] = float(max(abs(numpy.linalg.eigvalsh(nx.to_numpy_array(U, nodelist=sorted(U))))))
            r["neighbours"] = {str(v): sorted(U[v]) for v in U}
        r["jaccard"] = {f"{a},{b}": p for a, b, p in nx.jaccard_coefficient(U, [(a, b) for a in U for b in U if a != b and set(U[a]) & set(U[b])])}
        pairs = [(src, b) for b in U if b != src]
        r["adamicAdar"] = {f"{a},{b}": p for a, b, p in nx.adamic_adar_index(U, pairs)}
        r["resourceAllocation"] = {f"{a},{b}": p for a, b, p in nx.resource_allocation_index(U, pairs)}
        r["preferentialAttachment"] = {f"{a},{b}": p for a, b, p in nx.preferential_attachment(U, pairs)}
        r["commonNeighbours"] = {f"{a},{b}": len(list(nx.common_neighbors(U, a, b))) for a, b in pairs}
        r["totalNeighbours"] = {f"{a},{b}": len(set(U[a]) | set(U[b])) for a, b in pairs}
    else:
        if S.number_of_edges() > 0:
            h, a = nx.hits(G, max_iter=100000, tol=1e-14)
            r["hits"] = {"hub": keyed(h), "authority": keyed(a)}
    return r


def main():
    req = json.load(sys.stdin)
    out = {}
    for g in req["graphs"]:
        out[g["name"]] = answers(g)
    for q in req.get("partitions", []):
        g = next(x for x in req["graphs"] if x["name"] == q["graph"])
        U = build(g)
        U = U.to_undirected() if U.is_directed() else U
        comms = [set(c) for c in q["communities"]]
        out.setdefault("partitions", []).append(
            {
                "modularity": nx.community.modularity(nx.Graph(U), comms),
                "connected": all(nx.is_connected(nx.Graph(U).subgraph(c)) for c in comms),
            }
        )
    json.dump(out, sys.stdout)


main()
