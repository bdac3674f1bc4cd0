-- Enter a campaign in the catalog, and in the listed campaigns when it is listed: both or neither.
--
-- KEYS[1] the catalog, KEYS[2] the listed campaigns (sorted sets on one slot)
-- ARGV[1] the campaign id, ARGV[2] its created_ms (the score), ARGV[3] '1' when it is listed

redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
if ARGV[3] == '1' then
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
end
return 1
