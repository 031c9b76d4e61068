-- wrk script for the live soak of `npm run bench` (see live-soak.ts): the mixed load a demo or a shared
-- frontend mock sees, a quarter each, in turn:
--   a fresh search term on alerts, a random page of a random size of alerts, a fresh search term on
--   sensors asking for page 2, and a forced error (`?__code=500` on alerts, `?__code=404` on sensors).
-- Terms never repeat: the nth term of a stream is v = (n * 40503 + offset) mod 2^24 in hex, at least five
-- digits (so three characters or more), a bijection of n; `offset` comes from the seed and the stream, so
-- alerts and sensors, and two seeds, ask for other terms.
-- Arguments (after `--`): where the counter starts (the requests sent to this server so far), the seed,
-- and the window's size (the alerts served), so a random page falls within it.
-- At the end it prints `status N: count` for each status answered, for the bench to judge.
local counter = 0
local seed = 1
local window = 20000

local threads = {}
statuses = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  counter = tonumber(args[1] or "0")
  seed = tonumber(args[2] or "1")
  window = tonumber(args[3] or "20000")
  math.randomseed(seed * 7919 + counter)
end

local function term(n, stream)
  return string.format("%05x", (n * 40503 + seed * 1000003 + stream * 8388608) % 16777216)
end

function request()
  counter = counter + 1
  local kind = counter % 4
  local n = math.floor(counter / 4)
  if kind == 0 then
    return wrk.format(nil, "/alert?search=" .. term(n, 0))
  elseif kind == 1 then
    local size = math.random(100)
    return wrk.format(nil, "/alert?page=" .. math.random(math.max(1, math.floor(window / size))) .. "&pageSize=" .. size)
  elseif kind == 2 then
    return wrk.format(nil, "/sensor?search=" .. term(n, 1) .. "&page=2")
  end
  return wrk.format(nil, n % 2 == 0 and "/alert?__code=500" or "/sensor?__code=404")
end

function response(status)
  statuses[status] = (statuses[status] or 0) + 1
end

function done()
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do
      io.write(string.format("status %d: %d\n", status, count))
    end
  end
end
