// The atomic steps of PeerJS signalling over Redis (peerjs-redis.ts runs them by EVALSHA on the
// Redis ports' command connection). Each step that decides something (who holds an id, whether a
// cap or a queue bound has room) reads and writes in one script, so two instances never both
// win. Keys, under the prefix P (ARGV[1]):
//   pj:id:<id>        hash: node (the engine holding it: "<instance>.<n>"), epoch (that claim's
//                     own id), token, uid, sid, addr (the owner who first opened it; the caps count them)
//   pj:ids:<node>     set: the ids a node holds;   pj:hosts  set: nodes holding or having held one
//   pj:n:s:<session>, pj:n:u:<user>, pj:n:a:<address>   counts of ids held (the caps)
//   pj:q:<id>         list: messages waiting for an absent id, "<uid>|<bytes>|<frame>"
//   pj:qt             sorted set: id -> when its queue was made (ms; expiry counts from there)
//   pj:qb:<uid>, pj:qb   bytes waiting, charged to each sending user and in all
// Channel pj:<node>: "d<epoch>|<sender uid>|<frame>" (a frame for the client of that claim) and
// "m<epoch>" (that claim's id was taken over with its token on another node).
// A node is alive while its instance's heartbeat in `inst` (lua.ts, the presence tick) is newer
// than the TTL; times come from Redis's clock.

const NOW = "local t = redis.call('TIME') local now = t[1] * 1000 + math.floor(t[2] / 1000)";

const HELPERS = `
local function alive(P, node, now, ttl)
  local seen = redis.call('ZSCORE', P..'inst', string.match(node, '^[^.]*'))
  return seen ~= false and tonumber(seen) > now - ttl
end
local function uncount(P, key)
  if redis.call('DECR', P..'pj:n:'..key) <= 0 then redis.call('DEL', P..'pj:n:'..key) end
end
local function uncharge(P, key, bytes)
  if redis.call('DECRBY', P..key, bytes) <= 0 then redis.call('DEL', P..key) end
end
-- Everything waiting for id, uncharged: a flat list of uid, frame, uid, frame...
local function takeQueue(P, id)
  local q = P..'pj:q:'..id
  local out = {}
  for _, e in ipairs(redis.call('LRANGE', q, 0, -1)) do
    local b1 = string.find(e, '|', 1, true)
    local b2 = string.find(e, '|', b1 + 1, true)
    local uid = string.sub(e, 1, b1 - 1)
    local bytes = tonumber(string.sub(e, b1 + 1, b2 - 1))
    uncharge(P, 'pj:qb:'..uid, bytes)
    uncharge(P, 'pj:qb', bytes)
    out[#out + 1] = uid
    out[#out + 1] = string.sub(e, b2 + 1)
  end
  redis.call('DEL', q)
  redis.call('ZREM', P..'pj:qt', id)
  return out
end
-- Lets go of id (when held by node, if given): its place in every cap is free.
local function release(P, id, node)
  local k = P..'pj:id:'..id
  local h = redis.call('HMGET', k, 'node', 'uid', 'sid', 'addr')
  if h[1] == false or (node and h[1] ~= node) then return false end
  redis.call('SREM', P..'pj:ids:'..h[1], id)
  uncount(P, 's:'..h[3])
  uncount(P, 'u:'..h[2])
  uncount(P, 'a:'..h[4])
  redis.call('DEL', k)
  return true
end
-- Lets go of every id of a node (dead, or stopped).
local function releaseNode(P, node)
  for _, id in ipairs(redis.call('SMEMBERS', P..'pj:ids:'..node)) do release(P, id, node) end
  redis.call('DEL', P..'pj:ids:'..node)
  redis.call('SREM', P..'pj:hosts', node)
end
`;

export const peerScripts = {
  /**
   * ARGV: P, node, epoch, id, token, uid, sid, addr, capSession, capUser, capAddress, ttlMs.
   * Answers {"taken"}, {"session"|"user"|"address"} (a cap is full), or {"open"|"moved", then
   * what waited for the id as uid, frame pairs}. "moved": the same user's token took the id over
   * from another claim (peer sends no OPEN then; it keeps counting against its first owner), and
   * that claim's node is told. An id held by a dead node is let go first.
   */
  pjClaim: `${HELPERS}
local P, node, epoch, id, token, uid, sid, addr = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8]
local ttl = tonumber(ARGV[12])
${NOW}
local k = P..'pj:id:'..id
local h = redis.call('HMGET', k, 'node', 'epoch', 'token', 'uid')
if h[1] ~= false and not alive(P, h[1], now, ttl) then
  release(P, id, false)
  h = { false }
end
local result = 'open'
if h[1] ~= false then
  if h[3] ~= token or h[4] ~= uid then return { 'taken' } end
  redis.call('SREM', P..'pj:ids:'..h[1], id)
  redis.call('HSET', k, 'node', node, 'epoch', epoch)
  redis.call('PUBLISH', P..'pj:'..h[1], 'm'..h[2])
  result = 'moved'
else
  if tonumber(redis.call('GET', P..'pj:n:s:'..sid) or '0') >= tonumber(ARGV[9]) then return { 'session' } end
  if tonumber(redis.call('GET', P..'pj:n:u:'..uid) or '0') >= tonumber(ARGV[10]) then return { 'user' } end
  if tonumber(redis.call('GET', P..'pj:n:a:'..addr) or '0') >= tonumber(ARGV[11]) then return { 'address' } end
  redis.call('HSET', k, 'node', node, 'epoch', epoch, 'token', token, 'uid', uid, 'sid', sid, 'addr', addr)
  redis.call('INCR', P..'pj:n:s:'..sid)
  redis.call('INCR', P..'pj:n:u:'..uid)
  redis.call('INCR', P..'pj:n:a:'..addr)
end
redis.call('SADD', P..'pj:ids:'..node, id)
redis.call('SADD', P..'pj:hosts', node)
local out = { result }
for _, v in ipairs(takeQueue(P, id)) do out[#out + 1] = v end
return out`,

  /**
   * ARGV: P, dst, uid, queueable (1|0), frame, bytes, maxPerPeer, maxUserBytes, maxBytes, ttlMs,
   * mode ("r": to the holder if any, else queue; "q": queue only). Answers "sent" (published to
   * the holder's node), "gone" (the holder's node is dead: the id is let go, the sender is told
   * LEAVE as for a failed send), "queued", "dropped" (LEAVE and EXPIRE are never queued) or
   * "full" (a bound refused it: the sender is answered EXPIRE).
   */
  pjRoute: `${HELPERS}
local P, dst, uid, frame, bytes = ARGV[1], ARGV[2], ARGV[3], ARGV[5], tonumber(ARGV[6])
${NOW}
if ARGV[11] == 'r' then
  local h = redis.call('HMGET', P..'pj:id:'..dst, 'node', 'epoch')
  if h[1] ~= false then
    if alive(P, h[1], now, tonumber(ARGV[10])) then
      redis.call('PUBLISH', P..'pj:'..h[1], 'd'..h[2]..'|'..uid..'|'..frame)
      return 'sent'
    end
    release(P, dst, false)
    return 'gone'
  end
end
if ARGV[4] ~= '1' then return 'dropped' end
local q = P..'pj:q:'..dst
local n = redis.call('LLEN', q)
if n >= tonumber(ARGV[7]) then return 'full' end
if tonumber(redis.call('GET', P..'pj:qb:'..uid) or '0') + bytes > tonumber(ARGV[8]) then return 'full' end
if tonumber(redis.call('GET', P..'pj:qb') or '0') + bytes > tonumber(ARGV[9]) then return 'full' end
redis.call('RPUSH', q, uid..'|'..bytes..'|'..frame)
if n == 0 then redis.call('ZADD', P..'pj:qt', now, dst) end
redis.call('INCRBY', P..'pj:qb:'..uid, bytes)
redis.call('INCRBY', P..'pj:qb', bytes)
return 'queued'`,

  /** ARGV: P, id, epoch, dropQueue (1|0). Lets go of the id if that claim still holds it. */
  pjRelease: `${HELPERS}
local P, id = ARGV[1], ARGV[2]
if redis.call('HGET', P..'pj:id:'..id, 'epoch') ~= ARGV[3] then return 0 end
release(P, id, false)
if ARGV[4] == '1' then takeQueue(P, id) end
return 1`,

  /** ARGV: P, node. A node stopping: every id it holds is let go. */
  pjReleaseNode: `${HELPERS}
releaseNode(ARGV[1], ARGV[2])
return 0`,

  /**
   * ARGV: P, node, ttlMs, maxAgeMs, holding (1|0). Every node runs it each cleanup interval: the
   * ids of dead nodes are let go; queues older than maxAgeMs are taken (at most 200 a run). Answers
   * {1 when this node holds clients but Redis no longer lists it (reaped while it stalled, or Redis
   * restarted empty) while its instance's heartbeat is current again, else 0, then the expired frames}.
   */
  pjSweep: `${HELPERS}
local P, node, ttl = ARGV[1], ARGV[2], tonumber(ARGV[3])
${NOW}
for _, other in ipairs(redis.call('SMEMBERS', P..'pj:hosts')) do
  if other ~= node and not alive(P, other, now, ttl) then releaseNode(P, other) end
end
local out = { 0 }
-- Written back only once this instance's heartbeat lists it again: before that, another node's
-- sweep would take it for dead and let go of it anew.
if ARGV[5] == '1' and alive(P, node, now, ttl) and redis.call('SISMEMBER', P..'pj:hosts', node) == 0 then out[1] = 1 end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', P..'pj:qt', '-inf', now - tonumber(ARGV[4]), 'LIMIT', 0, 200)) do
  local taken = takeQueue(P, id)
  for i = 2, #taken, 2 do out[#out + 1] = taken[i] end
end
return out`,

  /**
   * ARGV: P, node, then id, epoch, token, uid, sid, addr for each client this node holds. Writes
   * them back (caps not checked: they were held); answers the ids someone else holds meanwhile.
   */
  pjRestore: `${HELPERS}
local P, node = ARGV[1], ARGV[2]
local lost = {}
for i = 3, #ARGV, 6 do
  local id = ARGV[i]
  local k = P..'pj:id:'..id
  local held = redis.call('HGET', k, 'epoch')
  if held == false then
    redis.call('HSET', k, 'node', node, 'epoch', ARGV[i + 1], 'token', ARGV[i + 2], 'uid', ARGV[i + 3], 'sid', ARGV[i + 4], 'addr', ARGV[i + 5])
    redis.call('INCR', P..'pj:n:s:'..ARGV[i + 4])
    redis.call('INCR', P..'pj:n:u:'..ARGV[i + 3])
    redis.call('INCR', P..'pj:n:a:'..ARGV[i + 5])
    redis.call('SADD', P..'pj:ids:'..node, id)
  elseif held ~= ARGV[i + 1] then
    lost[#lost + 1] = id
  end
end
redis.call('SADD', P..'pj:hosts', node)
return lost`,
} as const;

export type PeerScriptName = keyof typeof peerScripts;
