// The calls port's atomic steps in Redis (calls-redis.ts), each one Lua script: every decision
// (busy, answered, ended) is a compare-and-set, so two instances acting at once get one winner.
// Keys, under the prefix P (beside those of lua.ts, whose `inst` heartbeats, `pu:` present users
// and `su:` socket holders these scripts read):
//   c:<id>      hash: a caller, b callee, ai/as the caller's instance and socket, bi/bs the
//               answering tab's ('' while ringing), ans 0|1, sil 0|1 (rings no tab), away 0|1
//               (silent because no tab was open), push 0|1, peer (the caller's PeerJS id)
//   cu:<user>   the id of the call the user is in (one call per user)
//   cring       sorted set: ringing call -> when it rings out (Redis time, ms)
//   ci:<inst>   set: calls one of whose tabs the instance holds;  cinst: instances with such sets
//   cgone       set: written-back calls that ended since (60 s), so the other side's late
//               write-back does not bring one back
//   cseq        counter: call ids are "<cepoch>.<number>", so a call written back after a restart
//               never shares its id with one placed since
//   cepoch      a token set by the first call step or heartbeat after Redis started: a call kept
//               by an instance under another epoch was forgotten by a Redis that restarted empty,
//               and that instance writes it back
// Channel: cev ("e<id>": the call ended; "a<id>": it was answered), so each instance's copies of
// its calls (calls-redis.ts, for that write-back) follow what happened on the others.
// A call's keys live as long as the call: it ends by a step below, by ringing out, or when an
// instance holding one of its tabs stops heartbeating (callsTick). Nothing else is kept.

const NOW = "local t = redis.call('TIME') local now = t[1] * 1000 + math.floor(t[2] / 1000)";

/** fields(P, id): the call as HGETALL plus its id, or false. drop(P, id): the same, and the call is gone. */
const COMMON = `
local function fields(P, id)
  local all = redis.call('HGETALL', P..'c:'..id)
  if #all == 0 then return false end
  all[#all + 1] = 'id'
  all[#all + 1] = id
  return all
end
local function drop(P, id)
  local all = fields(P, id)
  if not all then return false end
  local c = redis.call('HMGET', P..'c:'..id, 'a', 'b', 'ai', 'bi')
  for i = 1, 2 do
    if redis.call('GET', P..'cu:'..c[i]) == id then redis.call('DEL', P..'cu:'..c[i]) end
  end
  for i = 3, 4 do
    if c[i] and c[i] ~= '' then redis.call('SREM', P..'ci:'..c[i], id) end
  end
  redis.call('ZREM', P..'cring', id)
  if redis.call('HGET', P..'c:'..id, 'rst') == '1' then
    redis.call('SADD', P..'cgone', id)
    redis.call('PEXPIRE', P..'cgone', 60000)
  end
  redis.call('DEL', P..'c:'..id)
  redis.call('PUBLISH', P..'cev', 'e'..id)
  return all
end
local function epochOf(P, candidate)
  local e = redis.call('GET', P..'cepoch')
  if not e then
    e = candidate
    redis.call('SET', P..'cepoch', e)
  end
  return e
end`;

export const callScripts = {
  /**
   * ARGV: P, inst, caller, callee, socket, ringMs, silent (0|1), peer, epoch candidate, away (0|1). Registers
   * the call unless either is in one: answers its id and Redis's epoch, or nil (busy).
   */
  callStart: `${COMMON}
local P, inst, a, b = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
if redis.call('EXISTS', P..'cu:'..a) == 1 or redis.call('EXISTS', P..'cu:'..b) == 1 then return false end
local epoch = epochOf(P, ARGV[9])
local id = epoch..'.'..redis.call('INCR', P..'cseq')
${NOW}
redis.call('HSET', P..'c:'..id, 'a', a, 'b', b, 'ai', inst, 'as', ARGV[5], 'bi', '', 'bs', '', 'ans', '0', 'sil', ARGV[7], 'away', ARGV[10], 'push', '0', 'peer', ARGV[8])
redis.call('SET', P..'cu:'..a, id)
redis.call('SET', P..'cu:'..b, id)
redis.call('ZADD', P..'cring', now + tonumber(ARGV[6]), id)
redis.call('SADD', P..'ci:'..inst, id)
redis.call('SADD', P..'cinst', inst)
return { id, epoch }`,

  /** ARGV: P, user. The user's call, or nil. */
  callOf: `${COMMON}
local id = redis.call('GET', ARGV[1]..'cu:'..ARGV[2])
if not id then return false end
return fields(ARGV[1], id)`,

  /** ARGV: P, inst, caller, callee, socket, epoch candidate. The answer: the call (and 'ep', Redis's epoch), if it still rang; else nil. */
  callAnswer: `${COMMON}
local P, inst, a, b = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local id = redis.call('GET', P..'cu:'..b)
if not id then return false end
local c = redis.call('HMGET', P..'c:'..id, 'a', 'b', 'ans')
if c[1] ~= a or c[2] ~= b or c[3] ~= '0' then return false end
redis.call('HSET', P..'c:'..id, 'ans', '1', 'bi', inst, 'bs', ARGV[5])
redis.call('ZREM', P..'cring', id)
redis.call('SADD', P..'ci:'..inst, id)
redis.call('SADD', P..'cinst', inst)
redis.call('PUBLISH', P..'cev', 'a'..id)
local all = fields(P, id)
all[#all + 1] = 'ep'
all[#all + 1] = epochOf(P, ARGV[6])
return all`,

  /** ARGV: P, caller, callee. A decline: ends the call if it still rings; answers it, else nil. */
  callDecline: `${COMMON}
local P, a, b = ARGV[1], ARGV[2], ARGV[3]
local id = redis.call('GET', P..'cu:'..b)
if not id then return false end
local c = redis.call('HMGET', P..'c:'..id, 'a', 'b', 'ans')
if c[1] ~= a or c[2] ~= b or c[3] ~= '0' then return false end
return drop(P, id)`,

  /** ARGV: P, user, other ('' for anyone). Ends the user's call if its other side is `other`. */
  callEndWith: `${COMMON}
local P, u, other = ARGV[1], ARGV[2], ARGV[3]
local id = redis.call('GET', P..'cu:'..u)
if not id then return false end
if other ~= '' then
  local c = redis.call('HMGET', P..'c:'..id, 'a', 'b')
  local o = c[2]
  if c[2] == u then o = c[1] end
  if o ~= other then return false end
end
return drop(P, id)`,

  /** ARGV: P, inst, socket, id. A socket closed: ends the call if the socket is one of its tabs. */
  callEndHeld: `${COMMON}
local P, inst, s, id = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local c = redis.call('HMGET', P..'c:'..id, 'ai', 'as', 'bi', 'bs')
if (c[1] == inst and c[2] == s) or (c[3] == inst and c[4] == s) then return drop(P, id) end
return false`,

  /** ARGV: P, user. The call ringing for the user while no instance holds a socket of theirs, or nil. */
  callLastGone: `${COMMON}
local P, u = ARGV[1], ARGV[2]
local id = redis.call('GET', P..'cu:'..u)
if not id then return false end
local c = redis.call('HMGET', P..'c:'..id, 'b', 'ans')
if c[1] ~= u or c[2] ~= '0' or redis.call('SCARD', P..'su:'..u) > 0 then return false end
return fields(P, id)`,

  /** ARGV: P, id. Ends the call if it still rings (its ring time, a callee gone): answers it, else nil. */
  callEndRinging: `${COMMON}
if redis.call('HGET', ARGV[1]..'c:'..ARGV[2], 'ans') ~= '0' then return false end
return drop(ARGV[1], ARGV[2])`,

  /** ARGV: P, id. The call rings by push. */
  callPushed: `
if redis.call('EXISTS', ARGV[1]..'c:'..ARGV[2]) == 1 then redis.call('HSET', ARGV[1]..'c:'..ARGV[2], 'push', '1') end
return 0`,

  /** ARGV: P, user. A tab of the user opened: the call ringing for them by push, or placed while they had none, now rings in tabs. */
  callTabOpened: `${COMMON}
local P, u = ARGV[1], ARGV[2]
local id = redis.call('GET', P..'cu:'..u)
if not id then return false end
local c = redis.call('HMGET', P..'c:'..id, 'b', 'ans', 'push', 'peer', 'away')
if c[1] ~= u or c[2] ~= '0' or (c[3] ~= '1' and c[5] ~= '1') or c[4] == '' then return false end
redis.call('HSET', P..'c:'..id, 'sil', '0')
return fields(P, id)`,

  /**
   * ARGV: P, ttlMs, epoch. Run by every instance's calls heartbeat: calls whose ring time passed ring out
   * (at most 100 a beat), and the calls of instances silent for ttlMs (lua.ts `inst`) end. Answers
   * Redis's epoch (`cepoch`, set to ARGV[3] when missing: Redis started empty) and a list of
   * { 'r' | 'd', call } (rung out, or lost with a dead instance); each call once over every instance.
   */
  callsTick: `${COMMON}
local P, ttl = ARGV[1], tonumber(ARGV[2])
${NOW}
local epoch = epochOf(P, ARGV[3])
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', P..'cring', '-inf', now, 'LIMIT', 0, 100)) do
  redis.call('ZREM', P..'cring', id)
  if redis.call('HGET', P..'c:'..id, 'ans') == '0' then
    local all = drop(P, id)
    if all then out[#out + 1] = { 'r', all } end
  end
end
for _, d in ipairs(redis.call('SMEMBERS', P..'cinst')) do
  local seen = redis.call('ZSCORE', P..'inst', d)
  if not seen or tonumber(seen) < now - ttl then
    for _, id in ipairs(redis.call('SMEMBERS', P..'ci:'..d)) do
      local all = drop(P, id)
      if all then out[#out + 1] = { 'd', all } end
    end
    redis.call('DEL', P..'ci:'..d)
    redis.call('SREM', P..'cinst', d)
  end
end
return { epoch, out }`,

  /**
   * ARGV: P, inst, id, caller, callee, callerSocket ('' : not held here), answerSocket ('' : not
   * held here), answered 0|1, silent, pushed, peer, ringMs left, away. Writes back a call this instance
   * holds a tab of, after Redis restarted empty; the other side's instance writes its tab the same
   * way, and an answered copy wins over a ringing one. Answers 1 when written, -1 when this
   * instance is not listed by its heartbeat yet (callsTick would take it for dead: try again), 0
   * when it cannot be (either user is in another call by now, or it was written back and ended
   * since).
   */
  callRestore: `${COMMON}
local P, inst, id, a, b = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
if not redis.call('ZSCORE', P..'inst', inst) then return -1 end
if redis.call('SISMEMBER', P..'cgone', id) == 1 then return 0 end
local key = P..'c:'..id
for _, u in ipairs({ a, b }) do
  local held = redis.call('GET', P..'cu:'..u)
  if held and held ~= id then return 0 end
end
if redis.call('EXISTS', key) == 1 then
  local c = redis.call('HMGET', key, 'a', 'b')
  if c[1] ~= a or c[2] ~= b then return 0 end
else
  redis.call('HSET', key, 'a', a, 'b', b, 'ai', '', 'as', '', 'bi', '', 'bs', '', 'ans', '0', 'sil', ARGV[9], 'push', ARGV[10], 'peer', ARGV[11], 'away', ARGV[13], 'rst', '1')
end
if ARGV[6] ~= '' then redis.call('HSET', key, 'ai', inst, 'as', ARGV[6]) end
if ARGV[7] ~= '' then redis.call('HSET', key, 'bi', inst, 'bs', ARGV[7]) end
if ARGV[8] == '1' then
  redis.call('HSET', key, 'ans', '1')
  redis.call('ZREM', P..'cring', id)
elseif redis.call('HGET', key, 'ans') == '0' then
  ${NOW}
  redis.call('ZADD', P..'cring', 'NX', now + math.max(0, tonumber(ARGV[12])), id)
end
redis.call('SET', P..'cu:'..a, id)
redis.call('SET', P..'cu:'..b, id)
redis.call('SADD', P..'ci:'..inst, id)
redis.call('SADD', P..'cinst', inst)
return 1`,

  /**
   * ARGV: P, then pairs of a call id and the epoch it was written under. Answers the ids of those
   * written under the current epoch whose call is gone: they ended while the asking instance could
   * not hear \`cev\` (its subscriber reconnecting). A call of another epoch is left to the write-back.
   */
  callsGone: `
local P = ARGV[1]
local epoch = redis.call('GET', P..'cepoch')
local gone = {}
for i = 2, #ARGV - 1, 2 do
  if ARGV[i + 1] == epoch and redis.call('EXISTS', P..'c:'..ARGV[i]) == 0 then gone[#gone + 1] = ARGV[i] end
end
return gone`,

  /**
   * ARGV: P, inst, nonce, user. Asks every other instance holding a socket of the user whether
   * they are in Video Roulette there (calls-redis.ts answers on cr:<inst>); answers how many heard.
   */
  callRouletteAsk: `
local P, self = ARGV[1], ARGV[2]
local n = 0
for _, i in ipairs(redis.call('SMEMBERS', P..'su:'..ARGV[4])) do
  if i ~= self then n = n + redis.call('PUBLISH', P..'cr:'..i, 'q'..ARGV[3]..'|'..self..'|'..ARGV[4]) end
end
return n`,
} as const;

export type CallScriptName = keyof typeof callScripts;
