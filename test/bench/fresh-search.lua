-- wrk script for `npm run bench`: a fresh search term on every request, so no cache of the mock's
-- (answers by URL, matches by term) ever sees one twice. The term is five hex digits: the request
-- counter through n -> n * 40503 mod 2^20, a bijection, so none repeats within 1,048,576 requests.
-- Ids are UUIDs, so about one to three of 10,000 alerts contain a given term.
-- Argument (after `--`): where the counter starts, so a warm-up and a measured run use other terms.
local counter = 0

function init(args)
  counter = tonumber(args[1] or "0")
end

function request()
  counter = counter + 1
  return wrk.format(nil, "/alert?search=" .. string.format("%05x", (counter * 40503) % 1048576))
end
