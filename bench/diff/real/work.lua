-- A workload for the case studies of bench/diff/real (our own script, not
-- Lua's): string building and formatting, table sorts with a Lua
-- comparator (a call back into the VM from C: a gprof cycle), closures,
-- recursion, pattern matching and a little GC pressure.
local n = tonumber(arg and arg[1]) or 1

local function fib(k)
  if k < 2 then return k end
  return fib(k - 1) + fib(k - 2)
end

local function strings(m)
  local parts = {}
  for i = 1, m do
    parts[#parts + 1] = string.format("%d:%s:%5.2f", i, tostring(i * 7), i / 3)
  end
  local s = table.concat(parts, ",")
  local count = 0
  for w in s:gmatch("%d+:") do count = count + #w end
  return count + #s:gsub("%d", function(d) return d end)
end

local function sorts(m)
  local t = {}
  local seed = 12345
  for i = 1, m do
    seed = (seed * 1103515245 + 12345) % 2147483648
    t[i] = { key = seed % 100000, name = "k" .. (seed % 977) }
  end
  table.sort(t, function(a, b)
    if a.key ~= b.key then return a.key < b.key end
    return a.name < b.name
  end)
  return t[1].key
end

local function tables(m)
  local h = {}
  for i = 1, m do h["x" .. (i % 5003)] = (h["x" .. (i % 5003)] or 0) + i end
  local sum = 0
  for _, v in pairs(h) do sum = sum + v end
  return sum
end

local total = 0
for _ = 1, n do
  total = total + fib(24)
  total = total + strings(20000)
  total = total + sorts(30000)
  total = total + tables(200000)
end
print(total)
