// C++ API: RAII regions on std::threads, recursion of one region, string names,
// roofline_region_get on the calling thread.
#include <roofline/roofline.hpp>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "common.h"

static void recurse(int n) {
    roofline::Region r("rec");
    if (n == 0)
        sleep_ms(20);
    else
        recurse(n - 1);
}

int main() {
    roofline::Session session;
    std::vector<std::thread> team;
    for (int t = 0; t < 3; ++t)
        team.emplace_back([] {
            for (int i = 0; i < 2; ++i) {
                ROOFLINE_SCOPE("parallel");
                sleep_ms(10);
            }
        });
    for (auto& t : team) t.join();
    {
        ROOFLINE_SCOPE("rec_outer");
        recurse(3);  // 4 nested "rec": time counted once, not 4 times
    }
    for (int i = 0; i < 2; ++i) {
        roofline::Region r(std::string("dyn_") + std::to_string(i));
        sleep_ms(1);
    }
    double seconds = 0;
    int calls = 0, nev = 0;
    roofline_region_get("rec", &nev, nullptr, &seconds, &calls);
    std::printf("get rec calls=%d seconds=%.6f active=%d\n", calls, seconds, int(roofline::active()));
    if (roofline::active() && (calls != 4 || seconds < 0.02)) return 3;
    return 0;
}
