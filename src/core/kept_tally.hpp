// What became of the things a run produced (the monitor's samples): how many are in the
// store, how many it refused (their values cannot be stored: NaN, infinite, negative), how
// many it failed to take (disk full, locked, gone), and of those last two how many are kept
// elsewhere (a spool file the user can read). A summary line reads this, so it never says
// "stored" of what is not in the store. Pure.
#pragma once

#include <string>

namespace roofline {

struct KeptTally {
    long long stored = 0;
    long long refused = 0;         // the store refused the values themselves
    long long unstored = 0;        // the store failed
    long long kept_elsewhere = 0;  // of refused + unstored, kept in a file
    std::string refused_why;       // the latest reason of each
    std::string unstored_why;

    long long taken() const { return stored + refused + unstored; }
    long long not_stored() const { return refused + unstored; }
    long long lost() const { return not_stored() - kept_elsewhere; }
    bool all_stored() const { return not_stored() == 0; }

    void add_stored() { ++stored; }
    void add_refused(std::string why, bool kept) {
        ++refused;
        refused_why = std::move(why);
        kept_elsewhere += kept ? 1 : 0;
    }
    void add_unstored(std::string why, bool kept) {
        ++unstored;
        unstored_why = std::move(why);
        kept_elsewhere += kept ? 1 : 0;
    }
};

} // namespace roofline
