"""What the Valgrind tool tests share about its output: a counts object as flat figures,
and sums of them."""


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
