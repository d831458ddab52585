// Names from outside (points files, symbols, spec sheets, the store) made safe
// for each kind of output, so a hostile or broken name cannot move the cursor,
// retitle or clear the terminal, reverse the text after it, split a table row
// or run as a spreadsheet formula. One function per output kind; HTML and SVG
// have theirs in markup_escape.hpp, JSON is escaped by its library.
#pragma once

#include <string>
#include <string_view>

namespace roofline {

// Terminal or plain text, one line: control characters (C0, DEL, C1; newline
// and tab too) become visible escapes (\x1b, \n, \t, \u0085), as do the bidi
// controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) and the line
// separators U+2028/U+2029 (\u202e); bytes that are not UTF-8 become \xNN.
// Everything else, non-ASCII letters included, is kept.
std::string terminal_text(std::string_view text);

// The same for a whole report of several lines: newlines are kept, everything
// else terminal_text would escape is escaped. A last guard on what a command prints.
std::string terminal_block(std::string_view text);

// Markdown, one table cell or list item: terminal_text, then a backslash before
// what Markdown reads as markup (\ ` * _ [ ] < > |), so a row stays one row.
std::string markdown_text(std::string_view text);

// CSV, one cell (unquoted): terminal_block (a newline stays, for csv_field to
// quote; CR and the rest are escaped), and a text cell that starts with
// = + - @ (or tab or CR) gets a leading single quote so a spreadsheet does not
// run it as a formula (OWASP "CSV injection"). A plain number (-1.5, +3e-2)
// is left a number.
std::string csv_text(std::string_view text);

// Printable ASCII only, one byte per column: other bytes become '?' (one per
// character). For the terminal chart, whose grid counts one column per byte.
std::string ascii_printable(std::string_view text);

} // namespace roofline
