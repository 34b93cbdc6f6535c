-- work.lua: a Lua workload for bench/sampler (recursion, a sort with a Lua
-- comparison function, string matching), about a second of CPU per unit.
local n = tonumber(arg and arg[1]) or 1
local function fib(k) if k < 2 then return k end return fib(k - 1) + fib(k - 2) end
local total = 0
for _ = 1, n do
  total = total + fib(27)
  local t = {}
  for i = 1, 200000 do t[i] = (i * 7919) % 100003 end
  table.sort(t, function(a, b) return a > b end)
  local s = string.rep("alpha beta gamma delta ", 20000)
  local words = 0
  for w in s:gmatch("%a+") do words = words + #w end
  total = total + t[1] + words
end
print(total)
