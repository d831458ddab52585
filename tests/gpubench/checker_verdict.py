"""What ptx_check.py and sass_check.py end with: each problem printed, and the exit status, which
--expect-fail (the checker's own test on code built to fail it) inverts."""


def split_expect_fail(argv):
    """(the other arguments, whether --expect-fail was given)"""
    return [a for a in argv if a != "--expect-fail"], "--expect-fail" in argv


def verdict(problems, expect_fail, what):
    """Prints the problems; the exit status: 0 none (or some, with --expect-fail), 1 otherwise.
    `what`: what was built to fail, for the message when the checker accepts it."""
    for p in problems:
        print("FAIL: " + p)
    failed = bool(problems)
    if expect_fail:
        print("as expected, the checker refuses it" if failed else f"FAIL: the checker accepted {what} built to fail it")
        return 0 if failed else 1
    return 1 if failed else 0
