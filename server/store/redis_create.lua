-- Create a campaign, whole or not at all.
--
-- KEYS[1] meta hash, KEYS[2] events stream, KEYS[3] decision point runs (all on the
-- campaign's slot)
-- ARGV[1] how many field/value words follow ARGV[3], ARGV[2] the first event's version,
-- ARGV[3] a decision point to record ('' for none), ARGV[4 .. 3 + ARGV[1]] the meta hash's
-- fields and values, then the events' payloads
--
-- Replies 1 when created, 0 when the meta hash exists: creating never overwrites a campaign.

if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local words = tonumber(ARGV[1])
local version = tonumber(ARGV[2])
for i = 4 + words, #ARGV do
  redis.call('XADD', KEYS[2], string.format('%d-0', version), 'e', ARGV[i])
  version = version + 1
end
redis.call('HSET', KEYS[1], unpack(ARGV, 4, 3 + words))
if ARGV[3] ~= '' then
  redis.call('ZADD', KEYS[3], ARGV[3], ARGV[3])
end
return 1
