-- wrk script: 2-hop neighbourhood of a random :Person (distinct friends of friends).
local ids = tonumber(os.getenv("IDS") or "500")
math.randomseed(os.time() + math.floor(os.clock() * 1e6) + 1)
wrk.method = "POST"
wrk.headers["Content-Type"] = "text/plain"
request = function()
  local id = math.random(0, ids - 1)
  return wrk.format(nil, "/query", nil,
    "MATCH (p:Person {id: " .. id .. "})-[:KNOWS]->()-[:KNOWS]->(f) RETURN count(DISTINCT f) AS fof")
end
