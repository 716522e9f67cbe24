-- The version of the astar library: the one place it is written. The rockspec
-- of a release (make dist), astar._VERSION and the README follow it.
return "2.0.0"
