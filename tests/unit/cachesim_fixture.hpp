// The cache simulator of the Valgrind tool (tools/vgtool/rl_cachesim.c) as the unit
// tests drive it: initialized from a configuration, its memory freed at the end.
#pragma once

#include "rl_cachesim.h"

#include <cstdlib>
#include <stdexcept>

namespace roofline::testing {

inline void* zeroed(unsigned long long bytes) { return std::calloc(1, bytes); }

struct CacheSim {
    rl_cs cs{};
    explicit CacheSim(const rl_cs_config& c) {
        char err[200];
        if (rl_cs_init(&cs, &c, zeroed, err, sizeof err) != 0) throw std::runtime_error(err);
    }
    CacheSim(const CacheSim&) = delete;
    CacheSim& operator=(const CacheSim&) = delete;
    ~CacheSim() {
        for (int l = 0; l < cs.levels; ++l) {
            for (unsigned i = 0; i < cs.lv[l].instances; ++i) std::free(cs.lv[l].inst[i].ways);
            std::free(cs.lv[l].inst);
            std::free(cs.lv[l].of_core);
        }
    }
};

} // namespace roofline::testing
