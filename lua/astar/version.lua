-- The version of the astar library: the one place it is written. The rockspec
-- of a release (make dist), astar._VERSION and the README follow it.
return "1.0.0"
