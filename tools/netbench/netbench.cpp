// roofline-netbench (issue 14): the network between a cluster's nodes, measured with MPI.
// Started by every rank of `roofline bench --mpi` as a child that joins the same MPI job
// (it is the rank's first MPI_Init). The ranks named by --leaders (one per node) take part:
//   - ping-pong between the first two leaders (two nodes), message sizes from 8 bytes up to
//     --max-bytes by x4: one-way bandwidth = bytes / half the round trip; latency at 8 bytes;
//   - all-to-all among all leaders, a block per pair from 1 KiB up: each rank's bytes sent to
//     the others / the time of MPI_Alltoall (the slowest rank's);
// each size the fastest of 5 batches.
// With one node and at least two ranks, the ping-pong runs between two ranks of that node
// ("within one node": shared memory, not a network). Rank 0 writes JSON to -o.
// usage: roofline-netbench -o FILE --leaders R0,R1,... [--max-bytes N] [--quick]
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Options {
    std::string output;
    std::vector<int> leaders;
    long max_bytes = 64L << 20;
    bool quick = false;
};

bool parse(int argc, char** argv, Options& o) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
        if (a == "-o") {
            const char* v = value();
            if (!v) return false;
            o.output = v;
        } else if (a == "--leaders") {
            const char* v = value();
            if (!v) return false;
            std::string s = v;
            for (std::size_t start = 0; start <= s.size();) {
                const auto comma = std::min(s.find(',', start), s.size());
                o.leaders.push_back(std::atoi(s.substr(start, comma - start).c_str()));
                start = comma + 1;
            }
        } else if (a == "--max-bytes") {
            const char* v = value();
            if (!v) return false;
            o.max_bytes = std::atol(v);
        } else if (a == "--quick") {
            o.quick = true;
        } else {
            return false;
        }
    }
    return !o.output.empty() && !o.leaders.empty() && o.max_bytes >= 8;
}

struct Sample {
    long bytes;
    double gbs;
    double seconds;  // one-way time (ping-pong) or one all-to-all
};

// Each size is timed in batches and the fastest batch counts (as bench takes the best samples):
// on a shared or oversubscribed node one descheduled rank would otherwise make a batch's
// round trips look like the network's.
constexpr int kBatches = 5;

// Repetitions so one batch runs for about `target` seconds (at least 3), from a first timing.
int repetitions(double first_seconds, double target) {
    if (!(first_seconds > 0)) return 1000;
    return std::max(3, std::min(100000, static_cast<int>(target / first_seconds)));
}

std::vector<Sample> ping_pong(MPI_Comm comm, int me, int a, int b, long max_bytes, double target) {
    std::vector<Sample> out;
    std::vector<char> buffer(static_cast<std::size_t>(max_bytes), 1);
    for (long bytes = 8; bytes <= max_bytes; bytes *= 4) {
        const int n = static_cast<int>(bytes);
        auto round_trips = [&](int count) {
            MPI_Barrier(comm);
            const double t0 = MPI_Wtime();
            for (int i = 0; i < count; ++i) {
                if (me == a) {
                    MPI_Send(buffer.data(), n, MPI_CHAR, b, 1, comm);
                    MPI_Recv(buffer.data(), n, MPI_CHAR, b, 2, comm, MPI_STATUS_IGNORE);
                } else if (me == b) {
                    MPI_Recv(buffer.data(), n, MPI_CHAR, a, 1, comm, MPI_STATUS_IGNORE);
                    MPI_Send(buffer.data(), n, MPI_CHAR, a, 2, comm);
                }
            }
            double t = MPI_Wtime() - t0;
            MPI_Bcast(&t, 1, MPI_DOUBLE, a, comm);  // a's clock decides for both
            return t;
        };
        round_trips(2);  // warm-up: connections, registration
        int count = repetitions(round_trips(3) / 3, target / kBatches);
        MPI_Bcast(&count, 1, MPI_INT, a, comm);
        double best = round_trips(count);
        for (int batch = 1; batch < kBatches; ++batch) best = std::min(best, round_trips(count));
        const double one_way = best / count / 2;
        out.push_back({bytes, bytes / one_way / 1e9, one_way});
    }
    return out;
}

std::vector<Sample> all_to_all(MPI_Comm comm, long max_bytes, double target) {
    int n = 0;
    MPI_Comm_size(comm, &n);
    std::vector<Sample> out;
    const long max_block = std::min<long>(max_bytes / std::max(1, n), 4L << 20);
    std::vector<char> send(static_cast<std::size_t>(max_block) * n, 1), receive(send.size());
    for (long block = 1024; block <= max_block; block *= 4) {
        auto run = [&](int count) {
            MPI_Barrier(comm);
            const double t0 = MPI_Wtime();
            for (int i = 0; i < count; ++i)
                MPI_Alltoall(send.data(), static_cast<int>(block), MPI_CHAR, receive.data(), static_cast<int>(block),
                             MPI_CHAR, comm);
            double t = MPI_Wtime() - t0, slowest = 0;
            MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
            return slowest;
        };
        run(1);
        int count = repetitions(run(2) / 2, target / kBatches);
        MPI_Bcast(&count, 1, MPI_INT, 0, comm);
        double best = run(count);
        for (int batch = 1; batch < kBatches; ++batch) best = std::min(best, run(count));
        const double each = best / count;
        const long sent = block * (n - 1);  // each rank's bytes to the others
        out.push_back({block, sent / each / 1e9, each});
    }
    return out;
}

void write_samples(std::FILE* f, const char* name, const std::vector<Sample>& samples) {
    std::fprintf(f, "  \"%s\": [", name);
    for (std::size_t i = 0; i < samples.size(); ++i)
        std::fprintf(f, "%s\n    {\"bytes\": %ld, \"gbs\": %.6g, \"seconds\": %.6g}", i ? "," : "", samples[i].bytes,
                     samples[i].gbs, samples[i].seconds);
    std::fprintf(f, "%s]", samples.empty() ? "" : "\n  ");
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    if (!parse(argc, argv, o)) {
        std::fprintf(stderr, "usage: roofline-netbench -o FILE --leaders R0,R1,... [--max-bytes N] [--quick]\n");
        return 2;
    }
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int r : o.leaders)
        if (r < 0 || r >= size) {
            if (rank == 0) std::fprintf(stderr, "roofline-netbench: leader rank %d is not in a job of %d\n", r, size);
            MPI_Finalize();
            return 2;
        }
    const bool leader = std::find(o.leaders.begin(), o.leaders.end(), rank) != o.leaders.end();
    const double target = o.quick ? 0.01 : 0.05;
    std::vector<Sample> pp, a2a;
    std::string scope = "between nodes";
    if (o.leaders.size() >= 2) {
        MPI_Comm leaders;
        MPI_Comm_split(MPI_COMM_WORLD, leader ? 0 : MPI_UNDEFINED, rank, &leaders);
        if (leader) {
            int me = 0;
            MPI_Comm_rank(leaders, &me);
            pp = ping_pong(leaders, me, 0, 1, o.max_bytes, target);
            a2a = all_to_all(leaders, o.max_bytes, target);
            MPI_Comm_free(&leaders);
        }
    } else if (size >= 2) {
        scope = "within one node";
        pp = ping_pong(MPI_COMM_WORLD, rank, 0, 1, o.max_bytes, target);
    }
    int status = 0;
    if (rank == 0) {
        std::FILE* f = std::fopen(o.output.c_str(), "w");
        if (!f) {
            std::fprintf(stderr, "roofline-netbench: cannot write %s: %s\n", o.output.c_str(), std::strerror(errno));
            status = 1;
        } else {
            std::fprintf(f, "{\n  \"schema\": \"roofline.netbench/1\",\n  \"scope\": \"%s\",\n  \"ranks\": %d,\n  \"nodes\": %zu,\n",
                         scope.c_str(), size, o.leaders.size());
            write_samples(f, "pingpong", pp);
            std::fprintf(f, ",\n");
            write_samples(f, "alltoall", a2a);
            std::fprintf(f, "\n}\n");
            if (std::fclose(f) != 0) status = 1;
        }
    }
    MPI_Finalize();
    return status;
}
