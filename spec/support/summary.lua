-- busted output handler: the usual terminal output, then one closing line
-- "<lua version>[/<backend>-backend]: N passed, N failed" that CI systems read.
return function(options)
  local busted = require "busted"
  local handler = require "busted.outputHandlers.utfTerminal"(options)

  busted.subscribe({ "suite", "end" }, function()
    local failed = handler.failuresCount + handler.errorsCount
    local version = (jit and jit.version or _VERSION):gsub("%s", "-")
    local backend = os.getenv("ASTAR_BACKEND")
    if backend and backend ~= "" then version = version .. "/" .. backend .. "-backend" end
    io.write(("%s: %d passed, %d failed\n"):format(version, handler.successesCount, failed))
    return nil, true
  end)
  return handler
end
