-- wrk script for `npm run bench`: every request asks for a random page of 20 records of a random
-- collection (alerts or sensors), so the mock's answer cache (512 answers) almost never helps.
-- Arguments (after `--`): the number of pages of each collection, and the random seed.
local pages = 50000

function init(args)
  pages = tonumber(args[1] or "50000")
  math.randomseed(tonumber(args[2] or "1"))
end

function request()
  local collection = math.random(2) == 1 and "/alert" or "/sensor"
  return wrk.format(nil, collection .. "?page=" .. math.random(pages) .. "&pageSize=20")
end
