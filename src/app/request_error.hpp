// A request a use case cannot carry out as asked (a kernel that does not exist, more threads
// than cores): the asker's mistake, not the machine's. cli turns it into a usage error (exit 2)
// with the message as it is; the message names the option the request's field comes from, since
// every request is made on the command line (docs/ARCHITECTURE.md, Departures).
#pragma once

#include <stdexcept>

namespace roofline::app {

struct RequestError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

} // namespace roofline::app
