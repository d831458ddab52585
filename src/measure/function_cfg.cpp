#include "measure/function_cfg.hpp"

#include <capstone/capstone.h>
#include <fmt/core.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <memory>
#include <set>
#include <stdexcept>

namespace roofline::measure {

namespace {

// How an instruction passes control on.
enum class Flow {
    next,         // to the next instruction (also a call: its callee returns)
    jump,         // only to `target`
    branch,       // to `target` or the next instruction
    indirect,     // to a register's or memory's address: not followed
    stop,         // nowhere in this function (ret, ud2, hlt)
};

struct Decoded {
    std::uint64_t address = 0, end = 0;
    Flow flow = Flow::next;
    std::uint64_t target = 0;  // jump and branch; a direct call's callee
    bool call = false;
    unsigned id = 0;           // Capstone's instruction id, and its operands: for jump tables
    std::vector<cs_x86_op> operands;
};

class Disassembler {
public:
    Disassembler() {
        if (cs_open(CS_ARCH_X86, CS_MODE_64, &handle_) != CS_ERR_OK)
            throw std::runtime_error("the Capstone disassembler could not be opened for x86-64");
        cs_option(handle_, CS_OPT_DETAIL, CS_OPT_ON);
        insn_ = cs_malloc(handle_);
    }
    ~Disassembler() {
        if (insn_) cs_free(insn_, 1);
        cs_close(&handle_);
    }
    Disassembler(const Disassembler&) = delete;
    Disassembler& operator=(const Disassembler&) = delete;

    // An EVEX (AVX-512) instruction Capstone 4 does not know (vcvtqq2pd, vextractf64x2 of
    // -march=native's AVX-512 DQ code stopped whole functions' graphs): its length from its
    // encoding. EVEX instructions never jump or call: the code flows on. nullopt when not one.
    static std::optional<Decoded> evex_by_length(std::string_view bytes, std::uint64_t address) {
        const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(bytes[i]); };
        // 62 P0 P1 P2 opcode ModRM: in 64-bit mode 0x62 is only EVEX; P1 bit 2 is always 1.
        if (bytes.size() < 6 || byte(0) != 0x62 || !(byte(2) & 0x04)) return std::nullopt;
        const unsigned map = byte(1) & 0x07, opcode = byte(4), modrm = byte(5);
        const unsigned mod = modrm >> 6, rm = modrm & 7;
        std::size_t length = 6;
        if (mod != 3 && rm == 4) {  // a SIB byte
            if (bytes.size() < 7) return std::nullopt;
            if (mod == 0 && (byte(6) & 7) == 5) length += 4;  // no base: disp32
            ++length;
        }
        if (mod == 1) length += 1;  // disp8 (scaled by the operand size)
        if (mod == 2 || (mod == 0 && rm == 5)) length += 4;  // disp32, RIP-relative
        // An 8-bit immediate: every instruction of map 0F3A, and 0F's shuffles, shifts and compares.
        const bool imm8 = map == 3 || (map == 1 && ((opcode >= 0x70 && opcode <= 0x73) || opcode == 0xC2 ||
                                                    opcode == 0xC4 || opcode == 0xC5 || opcode == 0xC6));
        if (imm8) ++length;
        if (length > bytes.size()) return std::nullopt;
        Decoded d;
        d.address = address;
        d.end = address + length;
        return d;
    }

    // The instruction at `address`, the start of `bytes`; nullopt when they do not decode.
    std::optional<Decoded> decode(std::string_view bytes, std::uint64_t address) {
        const auto* code = reinterpret_cast<const std::uint8_t*>(bytes.data());
        std::size_t size = bytes.size();
        std::uint64_t at = address;
        if (!cs_disasm_iter(handle_, &code, &size, &at, insn_)) return evex_by_length(bytes, address);
        Decoded d;
        d.address = address;
        d.end = at;
        d.id = insn_->id;
        d.operands.assign(insn_->detail->x86.operands, insn_->detail->x86.operands + insn_->detail->x86.op_count);
        const bool direct = insn_->detail->x86.op_count == 1 && insn_->detail->x86.operands[0].type == X86_OP_IMM;
        if (cs_insn_group(handle_, insn_, CS_GRP_JUMP)) {
            const bool unconditional = insn_->id == X86_INS_JMP || insn_->id == X86_INS_LJMP;
            if (!direct) {
                d.flow = Flow::indirect;
            } else {
                d.flow = unconditional ? Flow::jump : Flow::branch;
                d.target = static_cast<std::uint64_t>(insn_->detail->x86.operands[0].imm);
            }
        } else if (cs_insn_group(handle_, insn_, CS_GRP_CALL)) {
            d.call = true;  // flows on to the next instruction: its callee returns
            if (direct) d.target = static_cast<std::uint64_t>(insn_->detail->x86.operands[0].imm);
        } else if (cs_insn_group(handle_, insn_, CS_GRP_RET) || cs_insn_group(handle_, insn_, CS_GRP_IRET) ||
                   insn_->id == X86_INS_UD2 || insn_->id == X86_INS_HLT) {
            d.flow = Flow::stop;
        }
        return d;
    }

private:
    csh handle_ = 0;
    cs_insn* insn_ = nullptr;
};

bool ends_block(Flow flow) { return flow != Flow::next; }

bool is_reg(const Decoded& d, std::size_t i, x86_reg reg = X86_REG_INVALID) {
    return d.operands.size() > i && d.operands[i].type == X86_OP_REG && (reg == X86_REG_INVALID || d.operands[i].reg == reg);
}

// The targets of the jump table an indirect jump at code[at] reads, as GCC and Clang
// write a switch in position-independent code:
//     lea  TABLE(%rip), B          (anywhere before)
//     cmp  $LAST, X ; ja default   (the bound: LAST + 1 entries)
//     movslq (B, I, 4), R ; add B, R ; jmp *R
// each entry a 32-bit offset from TABLE. Empty when the code is not this pattern or the
// table cannot be read.
std::vector<std::uint64_t> jump_table_targets(const std::vector<Decoded>& code, std::size_t at,
                                              const CodeReader& read) {
    if (!read || !is_reg(code[at], 0)) return {};
    const x86_reg target = code[at].operands[0].reg;
    constexpr std::size_t window = 16;  // instructions looked back over
    const std::size_t first = at > window ? at - window : 0;
    std::size_t i = at;
    const auto back_to = [&](auto matches) {
        while (i > first) {
            --i;
            if (matches(code[i])) return true;
        }
        return false;
    };
    x86_reg base = X86_REG_INVALID;
    if (!back_to([&](const Decoded& d) { return d.id == X86_INS_ADD && is_reg(d, 0, target) && is_reg(d, 1); }))
        return {};
    base = code[i].operands[1].reg;
    if (!back_to([&](const Decoded& d) {
            return d.id == X86_INS_MOVSXD && is_reg(d, 0, target) && d.operands.size() > 1 &&
                   d.operands[1].type == X86_OP_MEM && d.operands[1].mem.base == base && d.operands[1].mem.scale == 4 &&
                   d.operands[1].mem.disp == 0;
        }))
        return {};
    const std::size_t load = i;
    // The table's address: the last rip-relative lea into the base register before the load.
    std::optional<std::uint64_t> table;
    for (std::size_t j = load; j-- > 0;) {
        const auto& d = code[j];
        if (d.id == X86_INS_LEA && is_reg(d, 0, base) && d.operands.size() > 1 && d.operands[1].type == X86_OP_MEM &&
            d.operands[1].mem.base == X86_REG_RIP && d.operands[1].mem.index == X86_REG_INVALID) {
            table = d.end + static_cast<std::uint64_t>(d.operands[1].mem.disp);
            break;
        }
        if (is_reg(d, 0, base) && d.id != X86_INS_CMP && d.id != X86_INS_TEST) break;  // the base was written otherwise
    }
    if (!table) return {};
    // The bound: the last compare with an immediate followed by an unsigned "above" jump.
    std::optional<std::uint64_t> entries;
    for (std::size_t j = load; j > first + 1 && !entries;) {
        --j;
        const auto& jump = code[j];
        if (jump.id != X86_INS_JA) continue;
        const auto& cmp = code[j - 1];
        if (cmp.id == X86_INS_CMP && cmp.operands.size() == 2 && cmp.operands[1].type == X86_OP_IMM &&
            cmp.operands[1].imm >= 0 && cmp.operands[1].imm < 4096)
            entries = static_cast<std::uint64_t>(cmp.operands[1].imm) + 1;
        else
            break;
    }
    if (!entries) return {};
    const auto bytes = read(*table, *entries * 4);
    if (bytes.size() != *entries * 4) return {};
    std::vector<std::uint64_t> targets;
    for (std::uint64_t e = 0; e < *entries; ++e) {
        std::int32_t offset = 0;
        std::memcpy(&offset, bytes.data() + 4 * e, 4);
        targets.push_back(*table + static_cast<std::uint64_t>(static_cast<std::int64_t>(offset)));
    }
    return targets;
}

} // namespace

FunctionCfg decode_function_cfg(std::string_view code, std::uint64_t start, std::string name, const CodeReader& read) {
    FunctionCfg cfg;
    cfg.function = std::move(name);
    cfg.start = start;
    cfg.end = start + code.size();
    if (code.empty()) return cfg;
    const auto inside = [&](std::uint64_t a) { return a >= cfg.start && a < cfg.end; };

    // Decode linearly: a compiler's function is its instructions back to back (alignment
    // padding included, as no-ops).
    Disassembler disassembler;
    std::vector<Decoded> code_flow;
    for (std::uint64_t at = start; at < cfg.end;) {
        const auto d = disassembler.decode(code.substr(at - start), at);
        if (!d) {
            cfg.incomplete.push_back(fmt::format("bytes at {:#x} do not decode: the code after them is not read", at));
            cfg.end = at;  // what follows is not known
            break;
        }
        code_flow.push_back(*d);
        at = d->end;
    }

    // Leaders: the entry, every jump target inside, and whatever follows a block's end.
    std::set<std::uint64_t> leaders{start};
    std::set<std::uint64_t> at_instruction;
    for (const auto& d : code_flow) at_instruction.insert(d.address);
    std::map<std::uint64_t, std::vector<std::uint64_t>> table_jumps;  // indirect jump -> its table's targets
    std::vector<std::uint64_t> unfollowed;
    for (std::size_t i = 0; i < code_flow.size(); ++i) {
        const auto& d = code_flow[i];
        if (d.flow != Flow::indirect) continue;
        auto targets = jump_table_targets(code_flow, i, read);
        const bool all_inside = !targets.empty() && std::all_of(targets.begin(), targets.end(), [&](std::uint64_t t) {
            return inside(t) && at_instruction.count(t);
        });
        if (all_inside)
            table_jumps[d.address] = std::move(targets);
        else
            unfollowed.push_back(d.address);
    }
    // One reason for them all: an interpreter's computed gotos are hundreds (python3.11's
    // _PyEval_EvalFrameDefault: 212), one line each buried the loops' table.
    if (unfollowed.size() == 1) {
        cfg.incomplete.push_back(fmt::format(
            "indirect jump at {:#x}: its targets (a switch's jump table, most likely) are not followed", unfollowed[0]));
    } else if (unfollowed.size() > 1) {
        constexpr std::size_t kNamed = 3;
        std::string at;
        for (std::size_t j = 0; j < std::min(kNamed, unfollowed.size()); ++j)
            at += fmt::format("{}{:#x}", j == 0 ? "" : ", ", unfollowed[j]);
        if (unfollowed.size() > kNamed) at += fmt::format(" and {} more", unfollowed.size() - kNamed);
        cfg.incomplete.push_back(fmt::format("{} indirect jumps at {}: their targets (switches' jump tables or computed "
                                             "gotos, most likely) are not followed",
                                             unfollowed.size(), at));
    }
    for (const auto& [jump, targets] : table_jumps) leaders.insert(targets.begin(), targets.end());
    for (const auto& d : code_flow) {
        if (d.call) cfg.calls.push_back({d.address, d.target, false, false});
        if ((d.flow == Flow::jump || d.flow == Flow::branch) && !inside(d.target))
            cfg.calls.push_back({d.address, d.target, true, d.flow == Flow::branch});
        if (ends_block(d.flow) && d.end < cfg.end) leaders.insert(d.end);
        if ((d.flow == Flow::jump || d.flow == Flow::branch) && inside(d.target)) {
            cfg.jumps.push_back({d.address, d.target, d.flow == Flow::branch});
            if (at_instruction.count(d.target))
                leaders.insert(d.target);
            else
                cfg.incomplete.push_back(fmt::format("jump at {:#x} into the middle of an instruction ({:#x})",
                                                     d.address, d.target));
        }
    }

    // Blocks from leader to leader, then their edges.
    std::map<std::uint64_t, std::size_t> block_at;  // start address -> block
    for (std::size_t i = 0; i < code_flow.size(); ++i) {
        const auto& d = code_flow[i];
        cfg.instructions.push_back(d.address);
        if (leaders.count(d.address)) {
            block_at[d.address] = cfg.graph.blocks.size();
            cfg.graph.blocks.push_back({d.address, d.end, {}});
        }
        cfg.graph.blocks.back().end = d.end;
    }
    std::size_t block = 0;
    for (std::size_t i = 0; i < code_flow.size(); ++i) {
        const auto& d = code_flow[i];
        const bool last_of_block = i + 1 == code_flow.size() || leaders.count(code_flow[i + 1].address);
        if (!last_of_block) continue;
        auto& successors = cfg.graph.blocks[block].successors;
        if (const auto table = table_jumps.find(d.address); table != table_jumps.end())
            for (const auto t : table->second)
                if (std::find(successors.begin(), successors.end(), block_at.at(t)) == successors.end())
                    successors.push_back(block_at.at(t));
        if ((d.flow == Flow::jump || d.flow == Flow::branch) && inside(d.target) && block_at.count(d.target))
            successors.push_back(block_at.at(d.target));
        if ((d.flow == Flow::next || d.flow == Flow::branch) && block + 1 < cfg.graph.blocks.size() &&
            std::find(successors.begin(), successors.end(), block + 1) == successors.end())
            successors.push_back(block + 1);
        ++block;
    }
    return cfg;
}

std::optional<FunctionCfg> function_cfg(const ElfSymbols& symbols, const std::string& name) {
    const auto* symbol = symbols.symbol_named(name);
    return symbol ? function_cfg(symbols, *symbol) : std::nullopt;
}

std::optional<FunctionCfg> function_cfg(const ElfSymbols& symbols, const ElfSymbols::Symbol& symbol) {
    if (symbol.size == 0) return std::nullopt;
    const auto code = symbols.code_at(symbol.start, symbol.size);
    if (code.size() != symbol.size) return std::nullopt;
    return decode_function_cfg(code, symbol.start, symbol.name, [&symbols](std::uint64_t vaddr, std::size_t n) {
        return symbols.code_at(vaddr, n);
    });
}

} // namespace roofline::measure

namespace roofline::measure {

bool entry_is_jump_target(const FunctionCfg& cfg) {
    return std::any_of(cfg.jumps.begin(), cfg.jumps.end(),
                       [&](const FunctionCfg::Jump& j) { return j.target == cfg.start; });
}

} // namespace roofline::measure
