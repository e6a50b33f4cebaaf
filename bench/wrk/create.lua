-- createTable: POST a new, uniquely named two-column table to the URL given to wrk, which is a
-- namespace's .../tables collection. Names are r<round>_t<thread>_<counter>, with the round from
-- the BENCH_ROUND environment variable, so every round of a run creates tables of its own.
count_statuses = true
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "common.lua")

local round = os.getenv("BENCH_ROUND") or "0"
local created = 0
local schema = '{"type": "struct", "schema-id": 0, "fields": [' ..
  '{"id": 1, "name": "id", "required": true, "type": "long"}, ' ..
  '{"id": 2, "name": "value", "required": false, "type": "string"}]}'

function request()
  created = created + 1
  local body = string.format('{"name": "r%s_t%d_%d", "stage-create": false, "schema": %s}',
    round, thread_number, created, schema)
  return json_post(wrk.path, body)
end
