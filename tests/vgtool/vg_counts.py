"""What the Valgrind tool tests share: running a program under the tool with the cache
simulation, and its output's counts as flat figures and sums of them."""
import json, os, subprocess, sys, tempfile

# The hierarchy the per-instruction and region tests simulate.
CACHE = "32768:8:64:1,1048576:8:64:1,33554432:16:64:8:victim"


def run_tool(tool_dir, options, argv, cache=CACHE):
    """The tool's output (parsed) for argv run with --roofline-cache=`cache` and `options`;
    exits with FAIL when the run fails."""
    fd, out = tempfile.mkstemp(prefix="rl-vg-", suffix=".json")
    os.close(fd)
    cmd = ["valgrind", "-q", "--tool=roofline", "--roofline-out=" + out, "--roofline-cache=" + cache,
           *options, *argv]
    p = subprocess.run(cmd, env=dict(os.environ, VALGRIND_LIB=tool_dir), capture_output=True, text=True)
    if p.returncode != 0:
        os.unlink(out)
        sys.exit("FAIL: %s exited %d\n%s" % (" ".join(cmd), p.returncode, p.stderr))
    with open(out) as f:
        doc = json.load(f)
    os.unlink(out)
    return doc


def flat(c):
    """The figures of a counts object, as one dict."""
    d = {"instructions": c["instructions"], "bytes_loaded": c["bytes_loaded"], "bytes_stored": c["bytes_stored"]}
    for p, kinds in c["flops"].items():
        for k, v in kinds.items():
            d["flops." + p + "." + k] = v
    for w, v in c["flops_by_width"].items():
        d["width." + w] = v
    for level, t in c.get("cache", {}).items():
        for k, v in t.items():
            d["cache." + level + "." + k] = v
    return d


def summed(entries):
    """The flat figures of several counts objects, added."""
    out = {}
    for e in entries:
        for k, v in flat(e).items():
            out[k] = out.get(k, 0) + v
    return out


def flops(c):
    """All FLOPs of a counts object."""
    return sum(sum(kinds.values()) for kinds in c["flops"].values())
