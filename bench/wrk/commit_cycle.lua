-- Requirement-free set-properties commits, one table after another: <URL given to wrk>w00, w01,
-- ... up to BENCH_TABLES - 1, then again from w00. With -t1 -c1: one writer that commits to each
-- of N tables in turn (the writer of the mixed measurement).
count_statuses = true
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "common.lua")

local tables = tonumber(os.getenv("BENCH_TABLES") or "50")
local commits = 0

function request()
  local path = string.format("%sw%02d", wrk.path, commits % tables)
  commits = commits + 1
  local body = string.format(
    '{"requirements": [], "updates": [{"action": "set-properties", ' ..
    '"updates": {"bench.commit": "%d"}}]}', commits)
  return json_post(path, body)
end
