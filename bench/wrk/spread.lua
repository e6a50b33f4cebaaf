-- GET of one of N tables at random (loadTable): <URL given to wrk><prefix><index>, where the
-- index runs from 0 to BENCH_TABLES - 1, written with BENCH_DIGITS digits, and the prefix is
-- BENCH_PREFIX. Statuses are not counted, as for the hot load.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "common.lua")

local prefix = os.getenv("BENCH_PREFIX") or "s"
local tables = tonumber(os.getenv("BENCH_TABLES") or "100")
local digits = tonumber(os.getenv("BENCH_DIGITS") or "3")
local format = "%s%s%0" .. digits .. "d"

function init(args)
  -- A seed of each thread's own, so threads do not walk the same sequence of tables.
  math.randomseed(os.time() * 1000 + (thread_number or 0) * 7919 + math.floor(os.clock() * 1e6))
end

function request()
  local path = string.format(format, wrk.path, prefix, math.random(0, tables - 1))
  return wrk.format("GET", path)
end
