#include "measure/job_counters.hpp"

#include <dirent.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

namespace roofline::measure {
namespace {

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The numeric entries of a /proc directory.
std::vector<pid_t> numeric_entries(const std::string& dir) {
    std::vector<pid_t> out;
    DIR* d = ::opendir(dir.c_str());
    if (!d) return out;
    while (const dirent* e = ::readdir(d)) {
        char* end = nullptr;
        const long v = std::strtol(e->d_name, &end, 10);
        if (end != e->d_name && *end == '\0' && v > 0) out.push_back(static_cast<pid_t>(v));
    }
    ::closedir(d);
    return out;
}

// Field 22 of /proc/PID/task/TID/stat (start time); 0 when the thread is gone. The command
// name (field 2) is in parentheses and may hold spaces: fields are counted after its ')'.
unsigned long long thread_start(pid_t pid, pid_t tid) {
    const std::string stat = read_file("/proc/" + std::to_string(pid) + "/task/" + std::to_string(tid) + "/stat");
    const auto close = stat.rfind(')');
    if (close == std::string::npos) return 0;
    std::istringstream fields(stat.substr(close + 1));
    std::string field;
    for (int i = 3; i <= 22 && (fields >> field); ++i)
        if (i == 22) return std::strtoull(field.c_str(), nullptr, 10);
    return 0;
}

} // namespace

std::string job_of_environment(const std::string& block) {
    std::string slurm, ours;
    std::size_t at = 0;
    while (at < block.size()) {
        const auto end = block.find('\0', at);
        const std::string entry = block.substr(at, end == std::string::npos ? std::string::npos : end - at);
        if (entry.rfind("ROOFLINE_JOB_ID=", 0) == 0) ours = entry.substr(16);
        else if (entry.rfind("SLURM_JOB_ID=", 0) == 0) slurm = entry.substr(13);
        if (end == std::string::npos) break;
        at = end + 1;
    }
    return !ours.empty() ? ours : slurm;
}

std::map<std::string, std::vector<pid_t>> job_processes(const std::string& only, int* unreadable) {
    std::map<std::string, std::vector<pid_t>> jobs;
    const pid_t self = ::getpid();
    if (unreadable) *unreadable = 0;
    for (const pid_t pid : numeric_entries("/proc")) {
        if (pid == self) continue;
        const std::string path = "/proc/" + std::to_string(pid) + "/environ";
        if (unreadable && ::access(path.c_str(), R_OK) != 0 && errno == EACCES) ++*unreadable;
        const std::string job = job_of_environment(read_file(path));
        if (job.empty() || (!only.empty() && job != only)) continue;
        jobs[job].push_back(pid);
    }
    return jobs;
}

void JobCounters::update(const std::vector<pid_t>& pids) {
    std::set<ThreadKey> seen;
    for (const pid_t pid : pids)
        for (const pid_t tid : numeric_entries("/proc/" + std::to_string(pid) + "/task")) {
            const unsigned long long start = thread_start(pid, tid);
            if (start == 0) continue;  // ended while we looked
            const ThreadKey key{tid, start};
            seen.insert(key);
            if (live_.count(key) || refused_.count(key)) continue;
            auto counters = std::make_unique<ThreadCounters>();
            counters->open(tid, events_);
            for (const auto& f : counters->failures()) failures_.insert(f);
            if (counters->empty()) {
                refused_.insert(key);
                ++unopened_;
                continue;
            }
            live_.emplace(key, std::move(counters));
        }
    for (auto it = live_.begin(); it != live_.end();) {
        if (seen.count(it->first)) {
            ++it;
            continue;
        }
        for (const auto& [alias, v] : it->second->read()) retired_[alias] += v.value;  // its final counts
        it = live_.erase(it);
    }
    std::erase_if(refused_, [&](const ThreadKey& k) { return !seen.count(k); });
}

std::map<std::string, double> JobCounters::totals() const {
    auto out = retired_;
    for (const auto& [key, counters] : live_)
        for (const auto& [alias, v] : counters->read()) out[alias] += v.value;
    return out;
}

} // namespace roofline::measure
