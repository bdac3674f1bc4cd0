-- Append a batch of events to one campaign, atomically.
--
-- KEYS[1] meta hash, KEYS[2] events stream, KEYS[3] commands hash, KEYS[4] the shard channel
-- that announces appends, KEYS[5] the set of processes watching the campaign, KEYS[6] its
-- decision point runs (server/store/redis_points.py) (all on the campaign's slot)
-- ARGV[1] expected version, ARGV[2] command id ('' for none), ARGV[3] now (ms), ARGV[4] the
-- appending process's origin, ARGV[5] whether the last event is a decision point ('1', '0',
-- or '' when the caller does not say), ARGV[6..] events
--
-- Replies: {'ok', first, last} | {'duplicate', 'first:last'} | {'conflict', head}
--        | {'unknown'} | {'corrupt', head, stream top}
--
-- Every check and every read happens before the first write: Redis does not roll a script back,
-- so a failure after an XADD would leave part of a batch behind. Once the script has written,
-- Redis lets it finish even past maxmemory, so only the first write can be refused.

local meta = redis.call('HMGET', KEYS[1], 'head', 'updated_ms', 'fork_version', 'points_indexed')
if not meta[1] then
  return {'unknown'}
end

local command = ARGV[2]
if command ~= '' then
  local seen = redis.call('HGET', KEYS[3], command)
  if seen then
    return {'duplicate', seen}
  end
end

local head = tonumber(meta[1])
local expected = tonumber(ARGV[1])
if expected ~= head then
  return {'conflict', head}
end

local count = #ARGV - 5
local now = tonumber(ARGV[3])
if count < 1 or not now then
  return redis.error_reply('ERR append needs a numeric time and at least one event')
end

-- The stream's own top entry must lie below the first new version, or an XADD further down
-- would fail half-way; this also fails now (WRONGTYPE) if the key is not a stream.
local top = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)[1]
if top then
  local top_version = tonumber(string.match(top[1], '^(%d+)-'))
  if top_version > head then
    return {'corrupt', head, top_version}
  end
end

-- The decision point runs go on when they were complete up to the old head; the run to extend
-- is read here, before the first write.
local last = head + count
local point = ARGV[5]
local indexed = tonumber(meta[4]) or tonumber(meta[3]) or 0
local top = nil
if point == '1' and indexed == head then
  top = redis.call('ZRANGE', KEYS[6], '+inf', '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, 1, 'WITHSCORES')
end

local lengths = {}
for i = 1, count do
  redis.call('XADD', KEYS[2], string.format('%d-0', head + i), 'e', ARGV[5 + i])
  lengths[i] = #ARGV[5 + i]
end

if point ~= '' and indexed == head then
  if top and top[1] and tonumber(top[1]) == last - 1 then
    redis.call('ZREM', KEYS[6], top[1])
    redis.call('ZADD', KEYS[6], top[2], string.format('%d', last))
  elseif top then
    redis.call('ZADD', KEYS[6], last, string.format('%d', last))
  end
  redis.call('HSET', KEYS[1], 'points_indexed', string.format('%d', last))
end

local updated = math.max(now, tonumber(meta[2]) or 0)
redis.call('HSET', KEYS[1], 'head', string.format('%d', last), 'updated_ms', string.format('%d', updated))
if command ~= '' then
  redis.call('HSET', KEYS[3], command, string.format('%d:%d', head + 1, last))
end
-- Processes that watch the campaign apply these without reading the stream
-- (server/store/redis_feed.py); the appending process delivered them itself, so when nobody
-- else watches, nothing is published.
local others = redis.call('SCARD', KEYS[5])
if others > 0 and redis.call('SISMEMBER', KEYS[5], ARGV[4]) == 1 then
  others = others - 1
end
if others > 0 then
  redis.call('SPUBLISH', KEYS[4], string.format('%s %d %s\n', ARGV[4], head + 1,
    table.concat(lengths, ',')) .. table.concat(ARGV, '', 6, 5 + count))
end
return {'ok', head + 1, last}
