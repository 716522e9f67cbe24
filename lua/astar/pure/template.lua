-- Source text specialised by `load` (kernel.lua's loops): slots filled,
-- lines kept or dropped by flags, the result compiled without globals. Works
-- on Lua 5.1 / LuaJIT (loadstring, setfenv) and 5.2+ (load with an env).
local M = {}

local concat, format = table.concat, string.format
local load, setfenv, pairs, ipairs, sort, error = load, setfenv, pairs, ipairs, table.sort, error
local unpack = table.unpack or unpack -- luacheck: ignore 113 (Lua 5.1, LuaJIT)
local loadstring = loadstring -- luacheck: ignore 113 (Lua 5.1, LuaJIT)

-- text with each $name replaced by slots[name] (the inserted text as it is).
function M.fill(text, slots)
  return (text:gsub("%$(%a+)", function(slot) return slots[slot] end))
end

-- The lines of text its "--@if key" / "--@else" / "--@end" lines keep for
-- flags (key -> true); name for the messages.
function M.select(text, flags, name)
  local out, keep = {}, { true }
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    local op, key = line:match("^%s*%-%-@(%a+)%s*([%w_]*)")
    if op == "if" then
      keep[#keep + 1] = keep[#keep] and flags[key] == true
    elseif op == "else" then
      keep[#keep] = keep[#keep - 1] and not keep[#keep]
    elseif op == "end" then
      keep[#keep] = nil
    elseif op then
      error(format("template %s: unknown directive --@%s", name, op))
    elseif keep[#keep] then
      out[#out + 1] = line
    end
  end
  if #keep ~= 1 then error(format("template %s: unbalanced --@if", name)) end
  return concat(out, "\n")
end

-- Compiles source text with the upvalues `uses` (name -> value), in an empty
-- environment: a generated loop reads no globals.
function M.compile(source, uses, name)
  local names, values = {}, {}
  for k in pairs(uses) do names[#names + 1] = k end
  sort(names)
  for i, k in ipairs(names) do values[i] = uses[k] end
  if #names > 0 then source = "local " .. concat(names, ", ") .. " = ...\n" .. source end
  local chunk, message
  if setfenv then
    chunk, message = loadstring(source, "=template " .. name)
    if chunk then setfenv(chunk, {}) end
  else
    chunk, message = load(source, "=template " .. name, "t", {})
  end
  if not chunk then error(message, 0) end
  return chunk(unpack(values, 1, #names))
end

return M
