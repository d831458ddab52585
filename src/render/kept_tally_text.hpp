// The summary line of what a run kept (core/kept_tally.hpp), the one phrasing every such
// line uses.
#pragma once

#include "core/kept_tally.hpp"

#include <string>

namespace roofline {

// `noun` singular ("sample"); `of` follows the count (" of job 42"); `stored_where` follows
// "stored" (" in results.db as 'job 42 node1'"); `kept_where` names the file the ones not
// stored are in. Everything stored:
//   "6 samples of job 42 stored in results.db as 'job 42 node1'"
// otherwise:
//   "6 samples of job 42 taken: 2 stored in ..., 4 not stored (disk full); they are kept in F"
//   "1 sample of job 42 taken: 0 stored, 1 refused (flops: found -4); it is kept in F"
//   "... 3 not stored (disk full); 1 is kept in F, 2 are lost"
std::string kept_tally_text(const KeptTally& tally, const std::string& noun, const std::string& of,
                            const std::string& stored_where, const std::string& kept_where);

} // namespace roofline
