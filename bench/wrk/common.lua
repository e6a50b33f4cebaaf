-- Shared by every benchmark script: remembers wrk's threads and, when the run is done, writes
-- wrk's summary as one JSON object to the file named by the WRK_REPORT environment variable.
-- Also builds JSON POST requests that keep the headers given to wrk with -H.
-- Scripts that set `count_statuses = true` before loading this file also count the HTTP status
-- of every response (wrk then hands each response to Lua, which costs a little client CPU, the
-- same for every server).

local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("thread_number", #threads)
end

if count_statuses then
  statuses = {}
  function response(status, headers, body)
    statuses[status] = (statuses[status] or 0) + 1
  end
end

-- wrk.format replaces wrk.headers with the headers it is given, so they are copied first.
function json_post(path, body)
  local headers = {}
  for name, value in pairs(wrk.headers) do
    headers[name] = value
  end
  headers["Content-Type"] = "application/json"
  return wrk.format("POST", path, headers, body)
end

local function status_counts()
  local totals = {}
  for _, thread in ipairs(threads) do
    local counts = thread:get("statuses")
    if counts then
      for status, n in pairs(counts) do
        totals[status] = (totals[status] or 0) + n
      end
    end
  end
  local parts = {}
  for status, n in pairs(totals) do
    table.insert(parts, string.format('"%d": %d', status, n))
  end
  table.sort(parts)
  return "{" .. table.concat(parts, ", ") .. "}"
end

function done(summary, latency, requests)
  local e = summary.errors
  local json = string.format(
    '{"threads": %d, "requests": %d, "duration_us": %d, "bytes": %d, ' ..
    '"errors": {"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}, ' ..
    '"latency_us": {"mean": %.1f, "p50": %d, "p90": %d, "p99": %d, "max": %d}, ' ..
    '"statuses": %s}',
    #threads, summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency.max, status_counts())
  local path = os.getenv("WRK_REPORT")
  if path then
    local file = assert(io.open(path, "w"))
    file:write(json, "\n")
    file:close()
  else
    io.write(json, "\n")
  end
end
