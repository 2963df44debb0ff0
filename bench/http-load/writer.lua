-- wrk script: a writer creating one :Event node per request; each 2xx answer is one node,
-- so the script can check afterwards that no write was lost.
wrk.method = "POST"
wrk.path = "/query"
wrk.headers["Content-Type"] = "text/plain"
wrk.body = "CREATE (:Event {at: timestamp()}) RETURN 1 AS ok"
done = function(summary, latency, requests)
  io.write(string.format("writer: %d requests, %d errors (connect %d, read %d, write %d, timeout %d, status %d)\n",
    summary.requests, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout + summary.errors.status,
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout, summary.errors.status))
end
