// The atomic parts of the Redis ports, as small Lua scripts run by EVALSHA (ioredis's
// defineCommand loads them again by itself after a Redis restart empties the script cache).
// Every key starts with the deployment's prefix (ARGV[1]); times come from Redis's own clock
// (TIME), so instances whose clocks differ still agree on windows, leases and heartbeats.
// Keys, under the prefix P:
//   inst          sorted set: instance -> last heartbeat (ms); only the heartbeat (tick) lists an
//                 instance, so one reaped while it stalled learns it at its next tick
//   pu:<user>     set: instances holding a present socket of the user;  pi:<inst> its users
//   su:<user>     set: instances holding any socket of the user (fan-out); si:<inst> its users
//   ann           set: users announced online;  leave  sorted set: user -> when the grace ends
//   pany          set: users with a present socket on some instance (pu:<user> not empty); its
//                 changes are published on `all` as "q<1|0>|<number>|<user>" (numbered with annseq),
//                 so every instance keeps a copy for hub.isPresent with no round trip
//   annseq        counter: every change of `ann` takes the next number, published with it and
//                 answered to the instance that made it (redis.ts orders the two by it)
//   sl:<key>      hash: instance -> slots held (socket caps);  sli:<inst> the slot keys it holds
//   w:<name>:<key>  a fixed window's count (expires with the window)
//   z:<name>:<key>  a sliding window's events (sorted by time)
//   lease:<name>  the holder's token (expires unless renewed)
// Channels: ch:<inst> (frames for one instance), all (broadcasts and presence), bus.

const NOW = "local t = redis.call('TIME') local now = t[1] * 1000 + math.floor(t[2] / 1000)";

/** After a SREM from pu:<uid>: the user has no present socket left anywhere (pany, published on `all`). */
const PRESENT_GONE = `if redis.call('SCARD', P..'pu:'..uid) == 0 and redis.call('SREM', P..'pany', uid) == 1 then
  redis.call('PUBLISH', P..'all', 'q0|'..redis.call('INCR', P..'annseq')..'|'..uid)
end`;

export const scripts = {
  /**
   * ARGV: P, inst, user. Answers the change's number (above 0) when the user is newly announced
   * online (this instance tells people), else 0. Every change of `ann` is published on `all` as
   * "p<1|0>|<number>|<user>".
   */
  presenceUp: `
local P, inst, uid = ARGV[1], ARGV[2], ARGV[3]
redis.call('SADD', P..'pu:'..uid, inst)
redis.call('SADD', P..'pi:'..inst, uid)
if redis.call('SADD', P..'pany', uid) == 1 then
  redis.call('PUBLISH', P..'all', 'q1|'..redis.call('INCR', P..'annseq')..'|'..uid)
end
redis.call('ZREM', P..'leave', uid)
if redis.call('SADD', P..'ann', uid) == 1 then
  local seq = redis.call('INCR', P..'annseq')
  redis.call('PUBLISH', P..'all', 'p1|'..seq..'|'..uid)
  return seq
end
return 0`,

  /** ARGV: P, inst, user, graceMs. Answers the change's number when the user went offline now (grace 0), else 0. */
  presenceDown: `
local P, inst, uid, grace = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
redis.call('SREM', P..'pu:'..uid, inst)
redis.call('SREM', P..'pi:'..inst, uid)
${PRESENT_GONE}
if redis.call('SCARD', P..'pu:'..uid) > 0 or redis.call('SISMEMBER', P..'ann', uid) == 0 then return 0 end
if grace == 0 then
  redis.call('SREM', P..'ann', uid)
  local seq = redis.call('INCR', P..'annseq')
  redis.call('PUBLISH', P..'all', 'p0|'..seq..'|'..uid)
  return seq
end
${NOW}
redis.call('ZADD', P..'leave', 'NX', now + grace, uid)
return 0`,

  /** ARGV: P, user. A ban: offline now. Answers the change's number when the user was announced, else 0. */
  presenceOff: `
local P, uid = ARGV[1], ARGV[2]
redis.call('ZREM', P..'leave', uid)
if redis.call('SREM', P..'ann', uid) == 1 then
  local seq = redis.call('INCR', P..'annseq')
  redis.call('PUBLISH', P..'all', 'p0|'..seq..'|'..uid)
  return seq
end
return 0`,

  /**
   * ARGV: P, inst, ttlMs. The heartbeat: this instance is alive; instances silent for ttlMs are
   * dead and everything they held is let go (their users enter the leave list at once); users
   * whose grace ended go offline. Answers 1 when this instance was not listed (new, or reaped
   * while it stalled: it then writes back what it holds), then the users it announces offline,
   * each followed by its change's number.
   */
  tick: `
local P, inst, ttl = ARGV[1], ARGV[2], tonumber(ARGV[3])
${NOW}
local out = { redis.call('ZADD', P..'inst', now, inst) }
for _, d in ipairs(redis.call('ZRANGEBYSCORE', P..'inst', '-inf', now - ttl)) do
  for _, uid in ipairs(redis.call('SMEMBERS', P..'pi:'..d)) do
    redis.call('SREM', P..'pu:'..uid, d)
    ${PRESENT_GONE}
    if redis.call('SCARD', P..'pu:'..uid) == 0 and redis.call('SISMEMBER', P..'ann', uid) == 1 then
      redis.call('ZADD', P..'leave', 'NX', now, uid)
    end
  end
  for _, uid in ipairs(redis.call('SMEMBERS', P..'si:'..d)) do redis.call('SREM', P..'su:'..uid, d) end
  for _, k in ipairs(redis.call('SMEMBERS', P..'sli:'..d)) do redis.call('HDEL', k, d) end
  redis.call('DEL', P..'pi:'..d, P..'si:'..d, P..'sli:'..d)
  redis.call('ZREM', P..'inst', d)
end
for _, uid in ipairs(redis.call('ZRANGEBYSCORE', P..'leave', '-inf', now, 'LIMIT', 0, 1000)) do
  redis.call('ZREM', P..'leave', uid)
  if redis.call('SCARD', P..'pu:'..uid) == 0 and redis.call('SREM', P..'ann', uid) == 1 then
    local seq = redis.call('INCR', P..'annseq')
    redis.call('PUBLISH', P..'all', 'p0|'..seq..'|'..uid)
    out[#out + 1] = uid
    out[#out + 1] = seq
  end
end
return out`,

  /**
   * ARGV: P. Who is announced (and who is present anywhere), read whole with the number of the last change it includes: the
   * number orders the copy against the changes the `all` channel brings (redis.ts loadAnnounced).
   */
  announcedNow: `
local P = ARGV[1]
return { tonumber(redis.call('GET', P..'annseq') or '0'), redis.call('SMEMBERS', P..'ann'), redis.call('SMEMBERS', P..'pany') }`,

  /** ARGV: P, inst, user, 1|0. This instance holds a socket of the user, or none any more. */
  hold: `
local P, inst, uid = ARGV[1], ARGV[2], ARGV[3]
if ARGV[4] == '1' then
  redis.call('SADD', P..'su:'..uid, inst)
  redis.call('SADD', P..'si:'..inst, uid)
else
  redis.call('SREM', P..'su:'..uid, inst)
  redis.call('SREM', P..'si:'..inst, uid)
end
return 0`,

  /** ARGV: P, inst, user, payload. Publishes to every other instance holding a socket of the user. */
  toUser: `
local P, self = ARGV[1], ARGV[2]
local n = 0
for _, i in ipairs(redis.call('SMEMBERS', P..'su:'..ARGV[3])) do
  if i ~= self then
    redis.call('PUBLISH', P..'ch:'..i, ARGV[4])
    n = n + 1
  end
end
return n`,

  /** ARGV: P, inst, key1, cap1, key2, cap2... Answers 1 when a slot was taken in every key. */
  slotsAcquire: `
local P, inst = ARGV[1], ARGV[2]
for i = 3, #ARGV, 2 do
  local total = 0
  for _, v in ipairs(redis.call('HVALS', P..'sl:'..ARGV[i])) do total = total + tonumber(v) end
  if total >= tonumber(ARGV[i + 1]) then return 0 end
end
for i = 3, #ARGV, 2 do
  redis.call('HINCRBY', P..'sl:'..ARGV[i], inst, 1)
  redis.call('SADD', P..'sli:'..inst, P..'sl:'..ARGV[i])
end
return 1`,

  /** ARGV: P, inst, key... Gives one slot back in each key. */
  slotsRelease: `
local P, inst = ARGV[1], ARGV[2]
for i = 3, #ARGV do
  local k = P..'sl:'..ARGV[i]
  if redis.call('HINCRBY', k, inst, -1) <= 0 then
    redis.call('HDEL', k, inst)
    redis.call('SREM', P..'sli:'..inst, k)
  end
end
return 0`,

  /** ARGV: P, inst, key, count. After a Redis restart: this instance holds `count` slots of a key. */
  slotsSet: `
local P, inst, k = ARGV[1], ARGV[2], ARGV[1]..'sl:'..ARGV[3]
redis.call('HSET', k, inst, ARGV[4])
redis.call('SADD', P..'sli:'..inst, k)
return 0`,

  /**
   * ARGV: key, limit, windowMs, amount, write (1|0). A fixed window: answers 0 when `amount` fits
   * (recording it when `write`), else the milliseconds until the window ends.
   */
  window: `
local k, limit, window, amount = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local count = tonumber(redis.call('GET', k) or '0')
if count + amount > limit then
  if count == 0 then return window end
  local left = redis.call('PTTL', k)
  if left < 1 then left = 1 end
  return left
end
if ARGV[5] == '1' then
  if count == 0 then redis.call('SET', k, amount, 'PX', window) else redis.call('INCRBY', k, amount) end
end
return 0`,

  /**
   * ARGV: prefix, windowMs, id, key1, limit1, key2, limit2... A sliding window of single events:
   * answers 0 when one more fits in every key (recorded under `id`), else the longest wait in ms.
   */
  slidingReserve: `
local prefix, window, id = ARGV[1], tonumber(ARGV[2]), ARGV[3]
${NOW}
local wait = 0
for i = 4, #ARGV, 2 do
  local k, limit = prefix..ARGV[i], tonumber(ARGV[i + 1])
  redis.call('ZREMRANGEBYSCORE', k, '-inf', now - window)
  local count = redis.call('ZCARD', k)
  if count >= limit then
    local oldest = redis.call('ZRANGE', k, count - limit, count - limit, 'WITHSCORES')
    local w = tonumber(oldest[2]) + window - now
    if w < 1 then w = 1 end
    if w > wait then wait = w end
  end
end
if wait > 0 then return wait end
for i = 4, #ARGV, 2 do
  local k = prefix..ARGV[i]
  redis.call('ZADD', k, now, id)
  redis.call('PEXPIRE', k, window)
end
return 0`,

  /** ARGV: key, token, ttlMs. Takes or renews a lease; answers 1 when this token holds it. */
  leaseHold: `
local v = redis.call('GET', ARGV[1])
if v == false then
  redis.call('SET', ARGV[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
if v == ARGV[2] then
  redis.call('PEXPIRE', ARGV[1], ARGV[3])
  return 1
end
return 0`,

  /** ARGV: key, token. Lets go of a lease this token holds. */
  leaseRelease: `
if redis.call('GET', ARGV[1]) == ARGV[2] then redis.call('DEL', ARGV[1]) end
return 0`,
} as const;

export type ScriptName = keyof typeof scripts;
