// The native run repeated for its time (measure --repeat): what the command line needs to
// know before the runs. The runs themselves are the engines' (engines_internal.hpp).
#pragma once

namespace roofline::measure {

// Standard input is a pipe or a socket: a second run would read what the first left of it,
// unless replay_stdin_for_every_run copies it first (which waits for its writer to finish).
bool stdin_is_stream();

} // namespace roofline::measure
