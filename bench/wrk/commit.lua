-- Requirement-free commits: each wrk thread sends set-properties commits to its own table,
-- c01 for the first thread, c02 for the second, ... under the .../tables/ URL given to wrk.
-- Run with as many connections as threads (-tN -cN) for N committers on N tables, each waiting
-- for its previous commit before sending the next. The property value changes every time, so
-- every commit writes new metadata, while the metadata does not grow.
count_statuses = true
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "common.lua")

local commits = 0

function request()
  commits = commits + 1
  local path = string.format("%sc%02d", wrk.path, thread_number)
  local body = string.format(
    '{"requirements": [], "updates": [{"action": "set-properties", ' ..
    '"updates": {"bench.commit": "%d-%d"}}]}', thread_number, commits)
  return json_post(path, body)
end
