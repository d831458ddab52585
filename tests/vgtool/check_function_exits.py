#!/usr/bin/env python3
"""--roofline-function calls left or interrupted other than by their return
(function_exits.c; run by run.sh): a signal handler on an alternate stack above the
thread's stack is inside the call it interrupted (it was taken for the call's return,
and the rest of the call went uncounted); a handler that siglongjmps out of the call
ends it there, and a function region around the handler ends when it leaves the
alternate stack; a client-request region left open by a longjmp out of a function
region stays open to the end, as it does without the function region (the marker
library keeps it open, and its time runs to the end).

usage: check_function_exits.py TOOL_DIR BINARY"""
import sys

from vg_counts import run_tool

tool_dir, binary = sys.argv[1], sys.argv[2]
N, H, T, CALLS = 100000, 10000, 1000, 3  # as in function_exits.c
failures = []


def f64(region):
    return {k: v for k, v in region["flops"]["f64"].items() if v}


def regions(mode, *functions):
    doc = run_tool(tool_dir, ["--roofline-function=" + f for f in functions], [binary, mode])
    return {r["name"]: r for r in doc["regions"]}


def expect(what, got, want):
    if got != want:
        failures.append("%s: got %r, want %r" % (what, got, want))


r = regions("altstack", "work", "handler")
expect("altstack: (program)", f64(r["(program)"]), {"add": CALLS * N, "mul": CALLS * H})
expect("altstack: work (the handler interrupts it)", f64(r["<function work>"]), {"add": CALLS * N, "mul": CALLS * H})
expect("altstack: work calls", r["<function work>"]["calls"], CALLS)
expect("altstack: handler", f64(r["<function handler>"]), {"mul": CALLS * H})
expect("altstack: handler calls", r["<function handler>"]["calls"], CALLS)

r = regions("escape", "work", "handler")
expect("escape: (program)", f64(r["(program)"]), {"add": CALLS * N // 2, "mul": CALLS * H, "div": CALLS * T})
expect("escape: work (ends at the siglongjmp)", f64(r["<function work>"]), {"add": CALLS * N // 2, "mul": CALLS * H})
expect("escape: handler (ends at the siglongjmp)", f64(r["<function handler>"]), {"mul": CALLS * H})

alone = regions("region")["inner"]
r = regions("region", "work_region")
expect("region: work_region", f64(r["<function work_region>"]), {"add": CALLS * N})
expect("region: inner without a function region", f64(alone), {"add": CALLS * N, "div": CALLS * T})
expect("region: inner inside a function region left by longjmp", f64(r["inner"]), f64(alone))
expect("region: inner's bytes loaded, with and without", r["inner"]["bytes_loaded"], alone["bytes_loaded"])

if failures:
    print("FAIL:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("ok: function regions across an alternate signal stack, siglongjmp and open client regions")
