-- Record a campaign's decision points among its own versions since < v <= through
-- (server/store/point_runs.py), if its runs are complete up to `since` and no further.
--
-- KEYS[1] meta hash, KEYS[2] the runs' sorted set (score: first point, member: last point)
-- ARGV[1] since, ARGV[2] through, ARGV[3..] the points, ascending
--
-- Replies 1 when recorded, 0 when the runs were not complete up to exactly `since` (or the
-- campaign's head is below `through`), -1 when the campaign does not exist.

local meta = redis.call('HMGET', KEYS[1], 'head', 'fork_version', 'points_indexed')
if not meta[1] then
  return -1
end
local since = tonumber(ARGV[1])
local through = tonumber(ARGV[2])
local indexed = tonumber(meta[3]) or tonumber(meta[2]) or 0
if indexed ~= since or through > tonumber(meta[1]) then
  return 0
end

local top = redis.call('ZRANGE', KEYS[2], '+inf', '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, 1, 'WITHSCORES')
local first, last = nil, nil
if top[1] then
  first, last = tonumber(top[2]), tonumber(top[1])
end
for i = 3, #ARGV do
  local point = tonumber(ARGV[i])
  if last and last == point - 1 then
    redis.call('ZREM', KEYS[2], string.format('%d', last))
    last = point
  else
    first, last = point, point
  end
  redis.call('ZADD', KEYS[2], first, string.format('%d', last))
end
redis.call('HSET', KEYS[1], 'points_indexed', string.format('%d', through))
return 1
