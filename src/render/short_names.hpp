// Names shortened for a table column or a chart label, each still told apart from the
// others. A C++ function's demangled name runs to hundreds of characters (a template
// instantiation's parameter list spells out every allocator); 300 instantiations of one
// template differ in one template argument, which a plain cut of the middle removes.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace roofline {

// Each name at most `width` characters (bytes) where that keeps the names apart: a C++ name's
// parameter list first becomes "(...)" and template arguments inside template arguments "<...>"
// (where no two names then read the same), then the middle is cut ("..."), keeping the part where
// it differs from the name most like it. A name that cannot be shortened without reading like
// another is kept whole. Names of `width` or fewer characters are kept as they are.
std::vector<std::string> short_names(const std::vector<std::string>& names, std::size_t width);

} // namespace roofline
