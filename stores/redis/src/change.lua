-- Applies changes of store keys, all of them or none (see change.rs).
--
-- Each change takes 4 ARGV: its op (`set`, `append` or `del`), the number n of its index sets,
-- the store key (the member of those sets) and, for `append`, the bytes to append; and 4 + n
-- KEYS: its value, its staged bytes (`set`: the string to rename onto the value), its own
-- mark, its folder's mark and its n index sets.
--
-- Every key is checked before the first command that changes one: a mark must be absent or a
-- string holding an integer below 2^63 - 1 (INCR takes it), an index absent or a set,
-- and the value of an `append` absent or a string. The first that is not gives the reply
-- {key, what it holds, `mark` | `index` | `value`}, the staged bytes are dropped and nothing
-- else changes. Otherwise every change applies and the reply is the number of values `del`
-- removed.

local function counts(text)
  if text == '0' or text:match('^%-?[1-9]%d*$') == nil then
    return text == '0'
  end
  -- An integer INCR can add one to: below 2^63 - 1.
  return #text < 19 or (#text == 19 and text <= '9223372036854775806')
end

local function check(name, role)
  if role == 'mark' then
    local text = redis.pcall('GET', name)
    if type(text) == 'string' then
      return not counts(text) and {name, 'text', role} or nil
    elseif not text then
      return nil
    end
  end
  local held = redis.call('TYPE', name).ok
  if held == 'none' or held == (role == 'index' and 'set' or 'string') then
    return nil
  end
  return {name, held, role}
end

local function refusal()
  local k, a = 1, 1
  while a <= #ARGV do
    local n = tonumber(ARGV[a + 1])
    local bad = (ARGV[a] == 'append' and check(KEYS[k], 'value'))
      or check(KEYS[k + 2], 'mark') or check(KEYS[k + 3], 'mark')
    for i = k + 4, k + 3 + n do
      bad = bad or check(KEYS[i], 'index')
    end
    if bad then
      return bad
    end
    k, a = k + 4 + n, a + 4
  end
  return nil
end

local bad = refusal()
local removed = 0
local k, a = 1, 1
while a <= #ARGV do
  local op, n, member = ARGV[a], tonumber(ARGV[a + 1]), ARGV[a + 2]
  if bad then
    if op == 'set' then
      redis.call('DEL', KEYS[k + 1])
    end
  else
    if op == 'set' then
      redis.call('RENAME', KEYS[k + 1], KEYS[k])
    elseif op == 'append' then
      redis.call('APPEND', KEYS[k], ARGV[a + 3])
    else
      removed = removed + redis.call('DEL', KEYS[k])
    end
    for i = k + 4, k + 3 + n do
      redis.call(op == 'del' and 'SREM' or 'SADD', KEYS[i], member)
    end
    redis.call('INCR', KEYS[k + 2])
    redis.call('INCR', KEYS[k + 3])
  end
  k, a = k + 4 + n, a + 4
end
return bad or removed
