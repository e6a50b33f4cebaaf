-- GET of the URL given to wrk (loadTable), with the headers given by -H. Statuses are not
-- counted, so the hot path costs the client as little as possible; wrk still counts non-2xx/3xx.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "common.lua")
