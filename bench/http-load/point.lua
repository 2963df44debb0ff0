-- wrk script: point lookup of a random :Person by its indexed id (IDS distinct ids, so the
-- compiled plans stay in the engine's plan cache), sent as the raw POST /query body.
local ids = tonumber(os.getenv("IDS") or "500")
math.randomseed(os.time() + math.floor(os.clock() * 1e6))
wrk.method = "POST"
wrk.headers["Content-Type"] = "text/plain"
request = function()
  local id = math.random(0, ids - 1)
  return wrk.format(nil, "/query", nil, "MATCH (p:Person {id: " .. id .. "}) RETURN p.name AS name")
end
