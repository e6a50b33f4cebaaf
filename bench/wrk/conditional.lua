-- GET of the URL given to wrk with the If-None-Match header given by -H, counting each status
-- (a server with ETag support answers 304; one without answers 200 with the full body).
count_statuses = true
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "common.lua")
