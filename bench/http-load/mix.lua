-- wrk script: a 95/5 read/write mix. Each request is a point lookup of a random :Person by
-- its indexed id (as point.lua) with probability 0.95, else the creation of one :Mix node
-- (a write, on the same connections as the reads), sent as the raw POST /query body.
local ids = tonumber(os.getenv("IDS") or "500")
math.randomseed(os.time() + math.floor(os.clock() * 1e6))
wrk.method = "POST"
wrk.headers["Content-Type"] = "text/plain"
request = function()
  if math.random() < 0.05 then
    return wrk.format(nil, "/query", nil, "CREATE (:Mix {at: timestamp()}) RETURN 1 AS ok")
  end
  local id = math.random(0, ids - 1)
  return wrk.format(nil, "/query", nil, "MATCH (p:Person {id: " .. id .. "}) RETURN p.name AS name")
end
