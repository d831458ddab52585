#include <roofline/roofline.hpp>

int main() {
    roofline::Region r("consumer_region");
    return 0;
}
