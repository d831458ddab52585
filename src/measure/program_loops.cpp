#include "measure/process_code.hpp"
#include "measure/program_loops.hpp"

#include "measure/call_shares.hpp"
#include "measure/function_list.hpp"
#include "measure/merge.hpp"
#include "core/code_traits.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <set>

namespace roofline::measure {

namespace {

struct FunctionResult {
    double flops = 0, instructions = 0;
    MeasuredLoopFunction function;
    std::vector<MeasuredLoop> loops;
    FunctionKey key;
    double inside = 1;  // the share of its calls made inside --region-function's functions
    std::vector<std::vector<FunctionKey>> callees;  // per loop: the functions its body calls
};

// What was said of one counted function (an incomplete graph, a cycle that is no natural loop,
// counts that did not add up), with its size: said only for a function whose loops are listed or
// that holds --min-share of the program (a large program has hundreds of such functions: python3.11
// gave 412 notes of functions none of whose loops was listed).
struct FunctionNotes {
    FunctionKey key;
    double flops = 0, instructions = 0, samples = 0;
    std::vector<std::string> notes;
};

// A function of a counted file, its loops found and its counts split by them.
struct CountedFunction {
    FunctionKey key;    // its file and name
    std::string shown;  // its name, and a library's file: "sum_squares in libsq.so"
    FunctionLoops found;
    FunctionLoopCounts counts;
    std::vector<std::size_t> sites;  // its call sites' indices in the program's list
};

// The share `part` of a function's loops and counts: what ran inside the functions asked for.
void within_share(FunctionResult& fr, double part) {
    const auto scale = [part](RegionCounts& c) {
        RegionCounts share;
        share.name = c.name;
        share.object = c.object;
        add_counts(share, c, part);
        c = std::move(share);
    };
    const auto scale_samples = [part](long long& n) { n = std::llround(part * static_cast<double>(n)); };
    fr.flops *= part;
    fr.instructions *= part;
    scale(fr.function.counts);
    scale(fr.function.outside);
    scale_samples(fr.function.samples);
    scale_samples(fr.function.outside_samples);
    for (auto& m : fr.loops) {
        for (auto* c : {&m.counts.self, &m.counts.inclusive, &m.counts.calls}) scale(*c);
        m.counts.header_runs *= part;
        m.counts.iterations *= part;
        m.counts.back_edges *= part;
        m.counts.entries *= part;
        scale_samples(m.self_samples);
        scale_samples(m.inclusive_samples);
        m.call_samples *= part;
        if (m.top_call) {
            m.top_call->calls *= part;
            m.top_call->flops *= part;
            m.top_call->instructions *= part;
        }
    }
}

// Link-time address -> samples: whole ones, or a marker region's shares of them (SampleShares).
using SamplesByAddress = std::map<std::uint64_t, double>;

double samples_between(const SamplesByAddress& samples, std::uint64_t start, std::uint64_t end) {
    double n = 0;
    for (auto it = samples.lower_bound(start); it != samples.end() && it->first < end; ++it) n += it->second;
    return n;
}

// How often it was entered: its first instruction's runs, less its loop's iterations
// where its entry is a loop's header.
double entries_of(const FunctionLoops& found, const FunctionLoopCounts& counts, const std::vector<InstructionCounts>& mine) {
    for (std::size_t l = 0; l < found.forest.loops.size(); ++l)
        if (found.forest.loops[l].header == found.cfg.graph.entry) return counts.loops[l].entries;
    for (const auto& ic : mine)
        if (ic.address == found.cfg.start) return ic.counts.instructions;
    return 0;
}

// The share of each sample a marker region takes (LoopScope::region); 1 for the whole run.
class SampleShares {
public:
    SampleShares(const LoopScope& scope, const std::vector<InstructionCounts>& region_instructions,
                 const std::vector<RegionCounts>& region_functions, const RegionCounts& region_program)
        : region_(!scope.region.empty()) {
        if (!region_) return;
        std::map<std::pair<std::string, std::uint64_t>, double> inside;
        for (const auto& ic : region_instructions) inside[{canonical_file(ic.counts.object), ic.address}] += ic.counts.instructions;
        if (scope.whole_instructions)
            for (const auto& ic : *scope.whole_instructions) {
                const std::pair key{canonical_file(ic.counts.object), ic.address};
                counted_files_.insert(key.first);
                const auto it = inside.find(key);
                if (it != inside.end() && ic.counts.instructions > 0)
                    of_instruction_[key] = std::min(1.0, it->second / ic.counts.instructions);
            }
        if (scope.whole_functions)
            for (const auto& f : *scope.whole_functions)
                if (f.instructions > 0) whole_function_[{f.object, f.name}] = f.instructions;
        for (const auto& f : region_functions) region_function_[{f.object, f.name}] = f.instructions;
        if (scope.whole_program && scope.whole_program->instructions > 0)
            of_program_ = std::min(1.0, region_program.instructions / scope.whole_program->instructions);
    }

    // A sample of the instruction at `address` of `file` (canonical): in a file counted
    // instruction by instruction, the share of its runs made inside the region; elsewhere, 1
    // (its function's share is taken where the function is known: of_function).
    double of_sample(const std::string& file, std::uint64_t address) const {
        if (!region_ || !counted_files_.count(file)) return 1;
        const auto it = of_instruction_.find({file, address});
        return it == of_instruction_.end() ? 0 : it->second;
    }
    bool counted_file(const std::string& file) const { return !region_ || counted_files_.count(file) > 0; }
    // A function of a file not counted instruction by instruction: the share of its instructions run inside.
    double of_function(const std::string& object, const std::string& name) const {
        if (!region_) return 1;
        const auto whole = whole_function_.find({object, name});
        const auto inside = region_function_.find({object, name});
        if (whole == whole_function_.end() || inside == region_function_.end()) return 0;
        return std::min(1.0, inside->second / whole->second);
    }
    // The region's share of the program's instructions: of the samples of code in no counted file.
    double of_program() const { return region_ ? of_program_ : 1; }

private:
    bool region_;
    std::set<std::string> counted_files_;
    std::map<std::pair<std::string, std::uint64_t>, double> of_instruction_;
    std::map<std::pair<std::string, std::string>, double> whole_function_, region_function_;
    double of_program_ = 0;
};

// The first step: every counted function's loops and counts, and every call it made with
// the function it called.
class ProgramCounter {
public:
    // `targets_from`: the instructions whose indirect calls' targets are taken (the whole run's);
    // `counted_files`: the files counted instruction by instruction (canonical).
    ProgramCounter(const std::vector<RegionCounts>& tool_functions, std::map<std::string, SamplesByAddress>& samples_in,
                   const SampleShares& shares, const std::vector<InstructionCounts>& targets_from,
                   std::set<std::string> counted_files, std::vector<std::string>& notes)
        : tool_(tool_functions), samples_in_(samples_in), shares_(shares), counted_files_(std::move(counted_files)),
          notes_(notes) {
        for (const auto& f : tool_functions)
            if (!f.object.empty()) tool_by_name_.emplace(f.name, &f);
        for (const auto& ic : targets_from)
            if (!ic.call_targets.empty()) targets_[{canonical_path(ic.counts.object), ic.address}] = &ic.call_targets;
    }

    // The functions of `object` that the tool counted instruction by instruction.
    void count_file(const std::string& object, const std::vector<const InstructionCounts*>& counted) {
        const ElfSymbols symbols(object);
        if (!symbols.loaded()) {
            notes_.push_back(fmt::format("{}: not a readable ELF file: its loops are not found", object));
            return;
        }
        const SourceLines lines(object);
        // Pointers, each function's copied only while it is counted (a copy of all of them was
        // the largest thing held: python3.11's 124,164 instructions).
        std::map<const ElfSymbols::Symbol*, std::vector<const InstructionCounts*>> by_function;
        std::vector<const InstructionCounts*> unnamed_code;  // in no function symbol
        for (const auto* ic : counted)
            if (const auto* symbol = symbols.symbol_at(ic->address))
                by_function[symbol].push_back(ic);
            else if (!symbols.in_plt(ic->address))  // a PLT stub's: its jump goes where the call went (plt_targets)
                unnamed_code.push_back(ic);
        // A stripped library's local functions have no symbol: their ranges from its unwind table.
        const auto unnamed = unnamed_code.empty() ? std::vector<ElfSymbols::Symbol>{} : symbols.unnamed_functions();
        RegionCounts nameless;  // and code not even there (start-up code has no unwind entry: said when it did FLOPs)
        for (const auto* ic : unnamed_code) {
            const auto after = std::upper_bound(unnamed.begin(), unnamed.end(), ic->address,
                                                [](std::uint64_t a, const ElfSymbols::Symbol& f) { return a < f.start; });
            if (after != unnamed.begin() && ic->address < std::prev(after)->start + std::prev(after)->size)
                by_function[&*std::prev(after)].push_back(ic);
            else
                add_counts(nameless, ic->counts);
        }
        for (const auto& [symbol, pointers] : by_function) {
            std::vector<InstructionCounts> mine;
            mine.reserve(pointers.size());
            for (const auto* ic : pointers) mine.push_back(*ic);
            count_function(symbols, lines, object, *symbol, mine);
        }
        if (nameless.total_flops() > 0)
            notes_.push_back(fmt::format("{}: {:.0f} instructions run ({:.0f} FLOPs) are in no function its symbols or "
                                         "its unwind table name: their loops are not found",
                                         object, nameless.instructions, nameless.total_flops()));
    }

    bool counted_file(const std::string& object) { return counted_files_.count(canonical_path(object)) > 0; }

    std::vector<CountedFunction> functions;  // with loops
    std::vector<FunctionNotes> function_notes;  // every function counted, with loops or not
    std::vector<CallSite> sites;             // every call that ran
    std::vector<std::uint64_t> site_address;  // each site's call instruction
    std::map<FunctionKey, CalledFunction> called;  // every counted function, and the library functions called

private:
    void count_function(const ElfSymbols& symbols, const SourceLines& lines, const std::string& object,
                        const ElfSymbols::Symbol& symbol, const std::vector<InstructionCounts>& mine) {
        auto found = function_loops(symbols, lines, symbol);
        if (!found) return;
        // An incomplete graph may hide every loop of the function: said even when none was found
        // (when the function is large enough: program_loops).
        function_notes.push_back({{object, symbol.name}, 0, 0, 0, std::move(found->notes)});
        auto& said = function_notes.back();
        // A library's function is named with its file (its loops may have no lines to name them);
        // a function without a symbol has its file in its name.
        CountedFunction cf{{object, symbol.name},
                           symbols.shared_library() && !symbol.unnamed
                               ? fmt::format("{} in {}", symbol.name, std::filesystem::path(object).filename().string())
                               : symbol.name,
                           std::move(*found),
                           {},
                           {}};
        cf.counts = loop_counts(cf.found, mine);
        called[cf.key] = {cf.counts.function,
                          samples_between(samples_in_[canonical_path(object)], cf.found.cfg.start, cf.found.cfg.end),
                          entries_of(cf.found, cf.counts, mine)};
        said.flops = cf.counts.function.total_flops();
        said.instructions = cf.counts.function.instructions;
        said.samples = called[cf.key].samples;
        std::map<std::uint64_t, const InstructionCounts*> at;
        for (const auto& ic : mine) at[ic.address] = &ic;
        for (const auto& call : cf.found.cfg.calls) {
            const auto ic = at.find(call.at);
            if (ic == at.end()) continue;
            // A conditional tail call calls when its jump is taken.
            const double runs = call.conditional ? ic->second->taken : ic->second->counts.instructions;
            if (runs <= 0) continue;
            // A jump into the middle of another symbol is no call: the function's own .cold part.
            if (const auto* target = symbols.symbol_at(call.target); call.tail && target && target->start != call.target)
                continue;
            // A call through a pointer, or to a PLT stub: a site for each place the tool saw it (or
            // the stub's jump) go, with its share of the runs.
            const auto targets = call.target == 0 ? targets_at(object, call.at) : plt_targets(symbols, object, call.target);
            double seen = 0;
            for (const auto* t : targets) seen += t->calls;
            if (seen <= 0) {
                add_site(cf, call.at, callee_at(symbols, object, call.target), runs);
                continue;
            }
            for (const auto* t : targets) add_site(cf, call.at, indirect_callee(symbols, object, *t), runs * t->calls / seen);
        }
        if (cf.found.loops.empty()) return;
        if (cf.counts.unplaced > 0)
            said.notes.push_back(fmt::format("{}: {} counted instruction(s) start where the decoded code has none: "
                                         "counted outside its loops",
                                         symbol.name, cf.counts.unplaced));
        check_against_tool(cf, said.notes);
        functions.push_back(std::move(cf));
    }

    // Where the indirect call at `at` of `object` went, as the tool saw it (none: not seen).
    std::vector<const CallTarget*> targets_at(const std::string& object, std::uint64_t at) {
        std::vector<const CallTarget*> out;
        if (const auto it = targets_.find({canonical_path(object), at}); it != targets_.end())
            for (const auto& t : *it->second)
                if (t.calls > 0) out.push_back(&t);
        return out;
    }

    // Where the PLT stub at `stub` of `object` jumped to: the function a call to it reached (a
    // glibc function chosen at load time is named otherwise than the call names it). The stub's
    // jumps into its own PLT (lazy binding's first call goes through the resolver) are left out.
    std::vector<const CallTarget*> plt_targets(const ElfSymbols& symbols, const std::string& object, std::uint64_t stub) {
        std::vector<const CallTarget*> out;
        if (!symbols.in_plt(stub)) return out;
        const auto& file = canonical_path(object);
        for (auto it = targets_.lower_bound({file, stub}); it != targets_.end() && it->first.first == file &&
                                                           it->first.second < stub + kPltEntryBytes;
             ++it)
            for (const auto& t : *it->second)
                if (t.calls > 0 && !t.object.empty() && !(canonical_path(t.object) == file && symbols.in_plt(t.address)))
                    out.push_back(&t);
        return out;
    }
    static constexpr std::uint64_t kPltEntryBytes = 16;  // x86-64's PLT (and .plt.sec) entries

    void add_site(CountedFunction& cf, std::uint64_t at, FunctionKey callee, double runs) {
        cf.sites.push_back(sites.size());
        sites.push_back({cf.key, std::move(callee), runs});
        site_address.push_back(at);
    }

    // The function an indirect call of `object` went to: one of its own, one of another counted
    // file (by its symbols there), or one of another file (the tool's count of it by name).
    FunctionKey indirect_callee(const ElfSymbols& symbols, const std::string& object, const CallTarget& t) {
        if (t.object.empty()) return {object, ""};
        const auto& file = canonical_path(t.object);
        if (file == canonical_path(object)) return callee_at(symbols, object, t.address);
        const auto& other = symbols_of(t.object);
        const auto* symbol = other.loaded() ? other.symbol_at(t.address) : nullptr;
        if (symbol && symbol->start != t.address) symbol = nullptr;
        if (counted_files_.count(file))
            return {t.object, symbol ? symbol->name : ElfSymbols::unnamed_function_name(t.object, t.address)};
        const auto tool = std::find_if(tool_.begin(), tool_.end(), [&](const RegionCounts& f) {
            return f.name == t.function && canonical_path(f.object) == file;
        });
        if (tool == tool_.end()) return {"", t.function};
        return uncounted_function(*tool, symbol);
    }

    // The tool's own total of the function must be what its loops and the rest add up to.
    void check_against_tool(const CountedFunction& cf, std::vector<std::string>& notes) {
        const auto tool = std::find_if(tool_.begin(), tool_.end(),
                                       [&](const RegionCounts& f) { return f.name == cf.key.second; });
        if (tool != tool_.end() && (tool->instructions != cf.counts.function.instructions ||
                                    tool->total_flops() != cf.counts.function.total_flops()))
            notes.push_back(fmt::format(
                "{}: its loops and the code outside them hold {:.0f} instructions and {:.0f} FLOPs, the tool's "
                "total for the function {:.0f} and {:.0f} (another function of the same name?)",
                cf.key.second, cf.counts.function.instructions, cf.counts.function.total_flops(), tool->instructions,
                tool->total_flops()));
    }

    // The function a call to `target` (0: indirect) in `object` goes to: one of the file's own,
    // or one of another file's through the PLT; the name empty when not known.
    FunctionKey callee_at(const ElfSymbols& symbols, const std::string& object, std::uint64_t target) {
        if (target == 0) return {object, ""};
        if (const auto* symbol = symbols.symbol_at(target); symbol && symbol->start == target)
            return {object, symbol->name};
        if (const auto import = symbols.plt_import_at(target); !import.empty()) return imported(object, import);
        // No symbol starts there: a stripped file's local function, named as its unwind table's are.
        return {object, ElfSymbols::unnamed_function_name(object, target)};
    }

    // A function of another file called through the PLT: the tool's count of it by name, and its samples.
    FunctionKey imported(const std::string& object, const std::string& name) {
        const RegionCounts* f = nullptr;
        for (auto [it, end] = tool_by_name_.equal_range(name); it != end && !f; ++it)
            if (canonical_path(it->second->object) != canonical_path(object)) f = it->second;
        if (!f) return {"", name};
        const auto& file = symbols_of(f->object);
        return uncounted_function(*f, file.loaded() ? file.symbol_named(name) : nullptr);
    }

    // A function of a file not counted instruction by instruction: the tool's count `f` of it,
    // and the samples of its code (`symbol`: where it is in its file, when known).
    FunctionKey uncounted_function(const RegionCounts& f, const ElfSymbols::Symbol* symbol) {
        const FunctionKey key{f.object, f.name};
        if (called.count(key)) return key;
        double samples = 0;
        if (symbol)
            samples = samples_between(samples_in_[canonical_path(f.object)], symbol->start, symbol->start + symbol->size);
        if (!shares_.counted_file(canonical_path(f.object))) samples *= shares_.of_function(f.object, f.name);
        called[key] = {f, samples, -1};
        return key;
    }

    const ElfSymbols& symbols_of(const std::string& object) {
        auto& file = other_files_[object];
        if (!file) file = std::make_unique<ElfSymbols>(object);
        return *file;
    }

    const std::string& canonical_path(const std::string& path) {
        auto it = canonical_paths_.find(path);
        if (it == canonical_paths_.end()) it = canonical_paths_.emplace(path, canonical_file(path)).first;
        return it->second;
    }

    const std::vector<RegionCounts>& tool_;
    std::map<std::string, SamplesByAddress>& samples_in_;
    const SampleShares& shares_;
    std::set<std::string> counted_files_;
    std::vector<std::string>& notes_;
    std::map<std::pair<std::string, std::uint64_t>, const std::vector<CallTarget>*> targets_;  // by file and address
    std::multimap<std::string, const RegionCounts*> tool_by_name_;
    std::map<std::string, std::unique_ptr<ElfSymbols>> other_files_;  // the libraries called into, read once
    std::map<std::string, std::string> canonical_paths_;
};

// The functions of files not counted instruction by instruction whose counts a counted
// function's inclusive counts hold (through its calls and theirs): those functions' own counts
// only, not their callees'. A loop calling the counted function says so, as a loop calling the
// library function itself does: glibc's exp is a wrapper whose work (about 20 FLOPs a call) runs
// in __ieee754_exp_fma, which it calls, and a loop calling f, whose loop calls exp, held f's FLOPs
// and none of exp's with nothing said (the note was f's loop's, and f's loop had no point).
class UncountedReach {
public:
    UncountedReach(ProgramCounter& counter, const CallShares& shares) : counter_(counter), shares_(shares) {
        for (std::size_t s = 0; s < counter.sites.size(); ++s) by_caller_[counter.sites[s].caller].push_back(s);
    }

    // By file: the functions reached. A function calling back into one being followed adds nothing more.
    std::map<std::string, std::set<std::string>> of(const FunctionKey& key) {
        if (const auto done = done_.find(key); done != done_.end()) return done->second;
        std::map<std::string, std::set<std::string>> out;
        if (!active_.insert(key).second) return out;
        if (const auto mine = by_caller_.find(key); mine != by_caller_.end())
            for (const std::size_t s : mine->second) {
                const auto& callee = counter_.sites[s].callee;
                if (shares_.share[s] <= 0 || callee.first.empty() || is_marker_library(callee.first)) continue;
                if (!counter_.counted_file(callee.first)) out[callee.first].insert(callee.second);
                else
                    for (const auto& [file, names] : of(callee)) out[file].insert(names.begin(), names.end());
            }
        active_.erase(key);
        return done_[key] = std::move(out);
    }

private:
    ProgramCounter& counter_;
    const CallShares& shares_;
    std::map<FunctionKey, std::vector<std::size_t>> by_caller_;
    std::map<FunctionKey, std::map<std::string, std::set<std::string>>> done_;
    std::set<FunctionKey> active_;
};

// What each call made from a loop brought, added to the loop's calls and inclusive counts (and
// those of the loops around it); the samples it brought, per loop. Calls whose callee is not
// known or not counted, and callees shared among several places, are said (once each).
struct LoopCalls {
    std::vector<double> samples;                  // per loop: what its calls brought
    std::vector<std::vector<std::string>> notes;  // per loop: calls not in its counts (said when it is kept)
    std::vector<std::vector<FunctionKey>> callees;  // per loop: the functions its body (inner loops too) calls
    std::vector<std::map<FunctionKey, MeasuredLoop::TopCall>> by_callee;  // per loop: calls, FLOPs, instructions
};
LoopCalls add_calls(CountedFunction& cf, ProgramCounter& counter, const CallShares& shares, UncountedReach& reach) {
    const auto& found = cf.found;
    LoopCalls out{std::vector<double>(found.loops.size(), 0), std::vector<std::vector<std::string>>(found.loops.size()),
                  std::vector<std::vector<FunctionKey>>(found.loops.size()),
                  std::vector<std::map<FunctionKey, MeasuredLoop::TopCall>>(found.loops.size())};
    auto& call_samples = out.samples;
    for (const std::size_t s : cf.sites) {
        std::size_t l = loop_at(found, counter.site_address[s]);
        if (l == kNoLoop) continue;
        const auto& site = counter.sites[s];
        const auto where = fmt::format("{}: the call at +{:#x} in its loop {}", cf.key.second,
                                       counter.site_address[s] - found.cfg.start, found.loops[l].name);
        if (site.callee.second.empty())
            out.notes[l].push_back(fmt::format("{} is indirect ({:.0f} calls): what it called is not in the loop's "
                                               "counts with calls",
                                               where, site.runs));
        else if (shares.share[s] <= 0)
            out.notes[l].push_back(fmt::format("{} goes to {}, which was not counted by that name ({:.0f} calls): "
                                               "not in the loop's counts with calls",
                                               where, site.callee.second, site.runs));
        else if (!site.callee.first.empty() && !counter.counted_file(site.callee.first) &&
                 !is_marker_library(site.callee.first))  // the markers' own work is no one's
            out.notes[l].push_back(fmt::format(
                "{} goes to {} in {}, a file not counted instruction by instruction: the loop's counts with calls "
                "hold that function's own, not those of the functions it calls (--loops-library {} adds them)",
                where, site.callee.second, std::filesystem::path(site.callee.first).filename().string(),
                site.callee.first));
        else if (!site.callee.first.empty() && counter.counted_file(site.callee.first))
            for (const auto& [file, names] : reach.of(site.callee))
                out.notes[l].push_back(fmt::format(
                    "{} goes to {}, whose counts with calls hold {} in {}, a file not counted instruction by "
                    "instruction: the loop's counts with calls hold {} own, not those of the functions {} "
                    "(--loops-library {} adds them)",
                    where, site.callee.second, fmt::join(names, ", "), std::filesystem::path(file).filename().string(),
                    names.size() == 1 ? "that function's" : "those functions'",
                    names.size() == 1 ? "it calls" : "they call", file));
        // Said with the loop (so only when it is listed; once however many loops call it).
        if (shares.share[s] > 0 && shares.sites_of.at(site.callee) > 1 && shares.counts[s].instructions > 0 &&
            !is_marker_library(site.callee.first))
            out.notes[l].push_back(fmt::format("{} is called from {} places: its counts are shared among them by "
                                        "their calls, each call taken to do the same work",
                                        site.callee.second, shares.sites_of.at(site.callee)));
        for (; l != kNoLoop; l = found.forest.loops[l].parent) {
            if (!site.callee.second.empty()) out.callees[l].push_back(site.callee);
            if (!site.callee.second.empty() && shares.share[s] > 0) {
                auto& tally = out.by_callee[l][site.callee];
                tally.calls += site.runs;
                tally.flops += shares.counts[s].total_flops();
                tally.instructions += static_cast<double>(shares.counts[s].instructions);
            }
            add_counts(cf.counts.loops[l].calls, shares.counts[s]);
            add_counts(cf.counts.loops[l].inclusive, shares.counts[s]);
            call_samples[l] += shares.samples[s];
        }
    }
    return out;
}

// A counted function with its loops' counts and samples (its own code's, and its calls').
FunctionResult measured_function(const CountedFunction& cf, const SamplesByAddress& samples, LoopCalls calls) {
    const auto& found = cf.found;
    const auto& counts = cf.counts;
    FunctionResult fr{counts.function.total_flops(), counts.function.instructions,
                      {cf.shown, cf.key.first, counts.function, counts.outside, found.loops.size(), 0, 0},
                      {}, cf.key, 1, std::move(calls.callees)};
    // A marker region's samples are shares of whole ones: summed, then rounded.
    std::vector<double> self_samples(found.loops.size(), 0), inclusive_samples(found.loops.size(), 0);
    double function_samples = 0, outside_samples = 0;
    for (auto it = samples.lower_bound(found.cfg.start); it != samples.end() && it->first < found.cfg.end; ++it) {
        std::size_t l = loop_at(found, it->first);
        function_samples += it->second;
        if (l != kNoLoop) self_samples[l] += it->second;
        else outside_samples += it->second;
        for (; l != kNoLoop; l = found.forest.loops[l].parent) inclusive_samples[l] += it->second;
    }
    fr.function.samples = std::llround(function_samples);
    fr.function.outside_samples = std::llround(outside_samples);
    for (std::size_t l = 0; l < found.loops.size(); ++l) {
        const auto& shape = found.forest.loops[l];
        MeasuredLoop m;
        m.function = cf.shown;
        m.object = cf.key.first;
        m.loop = found.loops[l];
        m.depth = shape.depth;
        if (shape.parent != kNoLoop) m.parent = found.loops[shape.parent].name;
        m.counts = counts.loops[l];
        m.self_samples = std::llround(self_samples[l]);
        m.inclusive_samples = std::llround(inclusive_samples[l]);
        m.call_samples = calls.samples[l];
        for (const auto& [key, tally] : calls.by_callee[l])
            if (tally.flops > 0 && (!m.top_call || tally.flops > m.top_call->flops)) {
                m.top_call = tally;
                m.top_call->callee = key.second;
                m.top_call->object = key.first;
            }
        m.notes = std::move(calls.notes[l]);
        fr.loops.push_back(std::move(m));
    }
    return fr;
}

// Each counted function's share of work done inside the calls of `within` (--region-function's
// functions); empty without them.
std::map<FunctionKey, double> inside_shares(const ProgramCounter& counter, const std::vector<std::string>& within,
                                            std::vector<std::string>& notes) {
    if (within.empty()) return {};
    std::set<FunctionKey> roots;
    for (const auto& [key, f] : counter.called)
        if (std::find(within.begin(), within.end(), key.second) != within.end()) roots.insert(key);
    if (roots.empty())
        notes.push_back("no function --region-function names is in the code counted instruction by instruction "
                        "(the program's own, and --loops-library's): no loop is inside it");
    return shares_inside(counter.sites, counter.called, roots);
}

} // namespace

ProgramLoops program_loops(const std::vector<InstructionCounts>& instructions,
                           const std::vector<RegionCounts>& functions, const RegionCounts& program,
                           const SamplingResult* sampling, double min_share, const LoopScope& scope) {
    ProgramLoops out;
    out.sampled = sampling != nullptr;
    out.sample_period_seconds = sampling ? sampling->period_seconds : 0;
    out.sampled_runs = sampling ? sampling->runs : 1;
    const auto& within_functions = scope.within_functions;
    out.within_functions = within_functions;
    out.region = scope.region;
    out.cache_scope.cache_llc_bytes = program.cache_llc_bytes;
    out.cache_scope.cache_llc_level = program.cache_llc_level;
    out.cache_scope.cache_llc_instances = program.cache_llc_instances;
    out.cache_scope.cache_llc_cores_per_instance = program.cache_llc_cores_per_instance;
    // A marker region opened several times: the data one opening's re-reads span, not the union of
    // every opening's (an older tool: the union).
    out.cache_scope.cache_enclosing_touched_bytes =
        program.cache_working_set_bytes > 0 ? program.cache_working_set_bytes : program.cache_touched_bytes;
    out.cache_scope.cache_enclosing_region = !scope.region.empty();
    out.cache_scope.cache_enclosing_threads = program.threads;

    // Samples by file (canonical) and link-time address (a marker region's: their shares).
    const SampleShares sample_shares(scope, instructions, functions, program);
    std::map<std::string, SamplesByAddress> samples_in;
    double all_samples = 0;
    if (sampling)
        for (const auto& [at, n] : sampling->code_addresses) {
            // A file not counted by instruction keeps its samples whole here: its functions take
            // their shares where they are called (ProgramCounter::imported).
            const auto file = canonical_file(at.first);
            const double share = sample_shares.of_sample(file, at.second);
            samples_in[file][at.second] += share * static_cast<double>(n);
            all_samples += (sample_shares.counted_file(file) ? share : sample_shares.of_program()) * static_cast<double>(n);
        }

    std::map<std::string, std::vector<const InstructionCounts*>> by_object;
    for (const auto& ic : instructions)
        if (!ic.counts.object.empty()) by_object[ic.counts.object].push_back(&ic);
    std::set<std::string> counted_files;
    for (const auto& [object, counted] : by_object) counted_files.insert(canonical_file(object));
    // A region's instructions carry no call targets: the whole run's say where its indirect calls went.
    const auto& targets_from = !scope.region.empty() && scope.whole_instructions ? *scope.whole_instructions : instructions;
    ProgramCounter counter(functions, samples_in, sample_shares, targets_from, counted_files, out.notes);
    for (const auto& [object, counted] : by_object) counter.count_file(object, counted);

    const auto shares = share_calls(counter.sites, counter.called);
    std::vector<std::string> scope_notes;
    const auto inside = inside_shares(counter, within_functions, scope_notes);
    std::vector<FunctionResult> results;
    UncountedReach reach(counter, shares);
    for (auto& cf : counter.functions) {
        auto calls = add_calls(cf, counter, shares, reach);
        auto fr = measured_function(cf, samples_in[canonical_file(cf.key.first)], std::move(calls));
        if (!within_functions.empty()) {
            fr.inside = inside.count(cf.key) ? inside.at(cf.key) : 0.0;
            if (fr.inside <= 0) continue;  // never run inside the functions asked for
            if (fr.inside < 1) within_share(fr, fr.inside);
        }
        results.push_back(std::move(fr));
    }
    std::stable_sort(results.begin(), results.end(), [](const FunctionResult& a, const FunctionResult& b) {
        return std::pair(a.flops, a.instructions) > std::pair(b.flops, b.instructions);
    });

    const auto share_of = [](double part, double whole) { return whole > 0 ? part / whole : 0.0; };
    std::set<FunctionKey> listed, called_from_listed;  // functions with listed loops; what those loops call
    std::vector<std::string> loop_notes, within_notes;
    ListedShareTally tally(program.total_flops());
    for (auto& fr : results) {
        bool kept = false;
        for (std::size_t i = 0; i < fr.loops.size(); ++i) {
            auto& m = fr.loops[i];
            ++out.loops_found;
            const double share = std::max({share_of(m.counts.inclusive.total_flops(), program.total_flops()),
                                           share_of(m.counts.inclusive.instructions, program.instructions),
                                           share_of(static_cast<double>(m.inclusive_samples) + m.call_samples,
                                                    all_samples)});
            tally.add(share >= min_share, m.counts.self.total_flops(), static_cast<double>(m.self_samples), share);
            if (share >= min_share) {
                loop_notes.insert(loop_notes.end(), m.notes.begin(), m.notes.end());
                called_from_listed.insert(fr.callees[i].begin(), fr.callees[i].end());
                out.loops.push_back(std::move(m));
                kept = true;
            }
        }
        if (!kept) continue;
        listed.insert(fr.key);
        if (fr.inside < 1)
            within_notes.push_back(fmt::format(
                "{}: {:.1f}% of its calls are made inside --region-function's functions: its loops' counts and "
                "samples are that share (each of its calls taken to do the same work)",
                fr.function.function, 100 * fr.inside));
        out.functions.push_back(std::move(fr.function));
    }
    out.kept_share = tally.finish(sampling ? std::optional<double>(all_samples) : std::nullopt, out.seconds_per_sample());

    // What is said of a function: where its loops are listed, or it holds --min-share of the
    // program (an incomplete graph may hide a hot function's loops); the rest only counted.
    std::size_t unsaid = 0, unsaid_functions = 0;
    for (const auto& f : counter.function_notes) {
        if (f.notes.empty()) continue;
        const double part = within_functions.empty() ? 1.0 : (inside.count(f.key) ? inside.at(f.key) : 0.0);
        const double share = part * std::max({share_of(f.flops, program.total_flops()),
                                              share_of(f.instructions, program.instructions),
                                              share_of(f.samples, all_samples)});
        if (listed.count(f.key) || (part > 0 && share >= min_share)) {
            out.notes.insert(out.notes.end(), f.notes.begin(), f.notes.end());
        } else {
            unsaid += f.notes.size();
            ++unsaid_functions;
        }
    }
    // Recursion changes what a listed loop's calls bring: said for the functions those calls reach.
    std::map<FunctionKey, std::vector<FunctionKey>> calls_of;
    for (const auto& site : counter.sites)
        if (!site.callee.second.empty()) calls_of[site.caller].push_back(site.callee);
    std::set<FunctionKey> reached;
    std::vector<FunctionKey> todo(called_from_listed.begin(), called_from_listed.end());
    while (!todo.empty()) {
        const auto key = std::move(todo.back());
        todo.pop_back();
        if (!reached.insert(key).second) continue;
        if (const auto it = calls_of.find(key); it != calls_of.end())
            for (const auto& callee : it->second)
                if (!reached.count(callee)) todo.push_back(callee);
    }
    std::vector<std::size_t> recursion;
    for (std::size_t i = 0; i < shares.notes.size(); ++i) {
        if (reached.count(shares.called_back[i])) {
            recursion.push_back(i);
        } else {
            ++unsaid;
            ++unsaid_functions;
        }
    }
    if (recursion.size() == 1) {
        out.notes.push_back(shares.notes[recursion[0]]);
    } else if (recursion.size() > 1) {  // one note, not one a function (python3.11: 52)
        constexpr std::size_t kNamed = 5;
        std::string names;
        for (std::size_t j = 0; j < std::min(kNamed, recursion.size()); ++j)
            names += (j == 0 ? "" : ", ") + shares.called_back[recursion[j]].second;
        if (recursion.size() > kNamed) names += fmt::format(" and {} more", recursion.size() - kNamed);
        out.notes.push_back(fmt::format("{} functions the listed loops' calls reach are called back by a function they "
                                        "call ({}): the counts of those cycles of calls are shared by call counts once, "
                                        "and may be counted twice in a loop's counts with calls",
                                        recursion.size(), names));
    }
    out.notes.insert(out.notes.end(), scope_notes.begin(), scope_notes.end());
    out.notes.insert(out.notes.end(), within_notes.begin(), within_notes.end());
    // A callee shared by several listed loops is said once.
    std::set<std::string> once;
    for (auto& n : loop_notes)
        if (once.insert(n).second) out.notes.push_back(std::move(n));
    if (unsaid > 0)
        out.notes.push_back(fmt::format(
            "{} more note(s) on {} function(s) none of whose loops is listed and that hold less than {:g}% of the {}'s "
            "FLOPs, instructions and samples (incomplete control-flow graphs, cycles that are no natural loop, "
            "recursion) are left out: --min-share 0 says them all",
            unsaid, unsaid_functions, 100 * min_share, scope.region.empty() ? "program" : "region"));
    return out;
}

std::vector<Point> loop_points(const ProgramLoops& loops) {
    std::vector<Point> points;
    if (!loops.sampled) return points;
    const auto timed = [&](Point& p, const std::string& series, const RegionCounts& counts, long long samples) {
        p.series = series;
        apply_counts(p, counts);
        apply_llc_context(p, loops.cache_scope);
        p.seconds = static_cast<double>(samples) * loops.seconds_per_sample();
        p.threads = 1;  // CPU time summed over threads: compare with one thread's roofline
        p.source = PointOrigin::instrument_sampling;
        p.details["samples"] = static_cast<double>(samples);
        p.details["sample_period_seconds"] = loops.sample_period_seconds;
        p.details["sampled_runs"] = loops.sampled_runs;  // the runs whose samples were pooled into it
    };
    const auto lines = [](Point& p, const MeasuredLoop& m) {
        if (!m.loop.source) return;
        p.details["loop_first_line"] = m.loop.source->first_line;
        p.details["loop_last_line"] = m.loop.source->last_line;
    };
    for (const auto& f : loops.functions) {
        const auto mine = [&](const MeasuredLoop& m) { return m.function == f.function && m.object == f.object; };
        // A loop with FLOPs but no samples (a vectorized loop's remainder, seldom run) has no
        // time and no point: its FLOPs are said on its function's point.
        double unsampled_flops = 0;
        for (const auto& m : loops.loops)
            if (mine(m) && m.self_samples <= 0) unsampled_flops += m.counts.self.total_flops();
        // The function's own point first: its series is drawn from it to its loops.
        if (f.samples > 0 && f.counts.total_flops() > 0) {
            Point p;
            p.name = f.function;
            p.label = f.function;
            timed(p, f.function, f.counts, f.samples);
            p.details["loop_function_loops"] = static_cast<double>(f.loops);
            p.details["loop_outside_flops"] = f.outside.total_flops();
            p.details["loop_outside_instructions"] = f.outside.instructions;
            p.details["loop_outside_samples"] = static_cast<double>(f.outside_samples);
            p.details["loop_unsampled_flops"] = unsampled_flops;
            points.push_back(std::move(p));
        }
        for (const auto& m : loops.loops) {
            if (!mine(m)) continue;
            // A point needs a time and work: a loop of no FLOPs of its own (an outer loop's
            // control, a copy) has no place on the chart, and stays in the table.
            if (m.self_samples <= 0 || m.counts.self.total_flops() <= 0) continue;
            Point p;
            p.name = m.function + ": " + m.loop.name;
            p.label = m.loop.name;
            timed(p, m.function, m.counts.self, m.self_samples);
            p.details["loop_depth"] = m.depth;
            p.details["loop_iterations"] = m.counts.iterations;
            p.details["loop_back_edges"] = m.counts.back_edges;
            p.details["loop_entries"] = m.counts.entries;
            p.details["loop_inclusive_flops"] = m.counts.inclusive.total_flops();  // with its calls'
            if (m.counts.calls.total_flops() > 0) p.details["loop_call_flops"] = m.counts.calls.total_flops();
            p.details["loop_inclusive_samples"] = static_cast<double>(m.inclusive_samples);
            lines(p, m);
            points.push_back(std::move(p));
        }
        // The loops whose calls did FLOPs, with what they called: where the work of a loop that
        // calls a function for each element is.
        for (const auto& m : loops.loops) {
            const double samples = static_cast<double>(m.inclusive_samples) + m.call_samples;
            if (!loops.calls_timed || !mine(m) || m.counts.calls.total_flops() <= 0 || samples <= 0) continue;
            Point p;
            p.name = m.function + ": " + m.loop.name + " with its calls";
            p.label = m.loop.name + " with its calls";
            timed(p, m.function, m.counts.inclusive, 0);
            p.seconds = samples * loops.seconds_per_sample();
            p.details["samples"] = samples;  // its calls' shares are fractions of samples
            p.details["loop_depth"] = m.depth;
            p.details["loop_with_calls"] = 1;
            p.details["loop_call_flops"] = m.counts.calls.total_flops();
            p.details["loop_self_flops"] = m.counts.self.total_flops();
            // The function its calls did most of its FLOPs in, as a program's main function: its calls
            // and their work per call (core/code_traits), so that a loop calling a tiny function per
            // element is told to inline or batch it, not to vectorize (no compiler vectorizes across calls).
            // Not a library's function (libm's exp): the user cannot inline it.
            if (const auto& top = m.top_call; top && top->calls > 0 && !installed_library(top->object) &&
                                              top->flops >= kMainWorkShare * m.counts.inclusive.total_flops()) {
                p.main_function = top->callee;
                p.details[kMainFunctionFlops] = top->flops;
                p.details[kMainFunctionCalls] = top->calls;
                if (top->instructions > 0) p.details[kMainFunctionInstructions] = top->instructions;
            }
            p.details["loop_iterations"] = m.counts.iterations;
            p.details["loop_back_edges"] = m.counts.back_edges;
            p.details["loop_entries"] = m.counts.entries;
            lines(p, m);
            points.push_back(std::move(p));
        }
    }
    // A marker region's loops: named and grouped with it, apart from another region's.
    if (!loops.region.empty())
        for (auto& p : points) {
            p.name = loops.region + ": " + p.name;
            p.series = loops.region + ": " + p.series;
        }
    return points;
}

} // namespace roofline::measure
