#include "core/microarch.hpp"
#include "core/peak.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace roofline {
namespace {

constexpr const char* kAmd = "AuthenticAMD";
constexpr const char* kIntel = "GenuineIntel";

Microarch known(const std::string& vendor, int family, int model, bool avx512) {
    const std::optional<Microarch> m = microarch_for(vendor, family, model, avx512);
    EXPECT_TRUE(m.has_value()) << vendor << " family " << family << " model " << model;
    return m.value_or(Microarch{});
}

std::string name_of(const std::string& vendor, int family, int model) {
    const std::optional<Microarch> m = microarch_for(vendor, family, model, false);
    return m ? m->name : "(none)";
}

TEST(Microarch, Zen3HasTwoFmaAndTwoAddPipesOf256Bits) {
    const Microarch m = known(kAmd, 0x19, 0x01, false);
    EXPECT_EQ(m.name, "AMD Zen 3");
    EXPECT_EQ(m.fp.fma_pipes, 2);
    EXPECT_EQ(m.fp.add_pipes, 2);
    EXPECT_EQ(m.fp.fp_pipes, 4);
    EXPECT_EQ(m.fp.datapath_bits, 256);
    EXPECT_EQ(m.fp.fma_latency, 4);
    EXPECT_EQ(m.fp.add_latency, 3);
    EXPECT_DOUBLE_EQ(m.ports.l1_load_bytes_per_cycle, 64);
    EXPECT_DOUBLE_EQ(m.ports.l1_store_bytes_per_cycle, 32);
    EXPECT_DOUBLE_EQ(m.ports.l2_to_l1_bytes_per_cycle, 32);
    EXPECT_EQ(m.fp.description.rfind("AMD Zen 3: 2 FMA/MUL pipes + 2 ADD pipes, 256-bit datapath", 0), 0u);
}

TEST(Microarch, Zen2HasTheSlowerFma) {
    const Microarch m = known(kAmd, 0x17, 0x31, false);
    EXPECT_EQ(m.name, "AMD Zen 2");
    EXPECT_EQ(m.fp.fma_latency, 5);
    EXPECT_EQ(m.fp.add_latency, 3);
    EXPECT_EQ(m.fp.datapath_bits, 256);
}

TEST(Microarch, Zen1SplitsWideOpsOn128BitPipes) {
    const Microarch m = known(kAmd, 0x17, 0x01, false);
    EXPECT_EQ(m.name, "AMD Zen 1");
    EXPECT_EQ(m.fp.datapath_bits, 128);
    EXPECT_DOUBLE_EQ(m.ports.l1_load_bytes_per_cycle, 32);
}

TEST(Microarch, Zen4DoublePumps512BitOps) {
    const Microarch m = known(kAmd, 0x19, 0x11, true);
    EXPECT_EQ(m.name, "AMD Zen 4");
    EXPECT_EQ(m.fp.datapath_bits, 256);
    EXPECT_EQ(m.fp.fma_pipes, 2);
    EXPECT_EQ(m.fp.add_pipes, 2);
    EXPECT_DOUBLE_EQ(m.ports.l1_load_bytes_per_cycle, 64);
    EXPECT_NE(m.fp.description.find("two passes"), std::string::npos);
}

TEST(Microarch, Zen5HasA512BitDatapathAndDoubledCachePaths) {
    const Microarch m = known(kAmd, 0x1A, 0x02, true);
    EXPECT_EQ(m.name, "AMD Zen 5");
    EXPECT_EQ(m.fp.datapath_bits, 512);
    EXPECT_EQ(m.fp.fma_pipes, 2);
    EXPECT_EQ(m.fp.add_pipes, 2);
    EXPECT_EQ(m.fp.fp_pipes, 4);
    EXPECT_EQ(m.fp.add_latency, 2);
    EXPECT_DOUBLE_EQ(m.ports.l1_load_bytes_per_cycle, 128);
    EXPECT_DOUBLE_EQ(m.ports.l1_store_bytes_per_cycle, 64);
    EXPECT_DOUBLE_EQ(m.ports.l2_to_l1_bytes_per_cycle, 64);
    EXPECT_EQ(m.ports.load_vector_bits, 512);
}

TEST(Microarch, WithoutAvx512TheFiguresAreWhat256BitCodeReaches) {
    const Microarch zen5 = known(kAmd, 0x1A, 0x02, false);
    EXPECT_EQ(zen5.fp.datapath_bits, 512);  // the hardware's
    EXPECT_DOUBLE_EQ(zen5.ports.l1_load_bytes_per_cycle, 64);
    EXPECT_EQ(zen5.ports.load_vector_bits, 256);
    EXPECT_NE(zen5.fp.description.find("AVX-512 not usable"), std::string::npos);

    const Microarch skx = known(kIntel, 6, 0x55, false);
    EXPECT_DOUBLE_EQ(skx.ports.l1_load_bytes_per_cycle, 64);
    EXPECT_DOUBLE_EQ(skx.ports.l1_store_bytes_per_cycle, 32);

    // Sapphire Rapids at 256 bits: ADDs also go to the p1/p5 fast adders.
    const Microarch spr = known(kIntel, 6, 0x8F, false);
    EXPECT_EQ(spr.fp.fp_pipes, 3);
    EXPECT_DOUBLE_EQ(spr.ports.l1_load_bytes_per_cycle, 96);
}

TEST(Microarch, MobileZen5RunsAvx512OnA256BitDatapath) {
    for (int model : {0x24, 0x60}) {  // Strix Point, Krackan Point
        const Microarch m = known(kAmd, 0x1A, model, true);
        EXPECT_EQ(m.fp.datapath_bits, 256) << model;
        EXPECT_DOUBLE_EQ(m.ports.l1_load_bytes_per_cycle, 64) << model;
    }
    EXPECT_EQ(known(kAmd, 0x1A, 0x44, true).fp.datapath_bits, 512);  // Granite Ridge
    EXPECT_EQ(known(kAmd, 0x1A, 0x70, true).fp.datapath_bits, 512);  // Strix Halo
}

TEST(Microarch, SkylakeSpWithAvx512LoadsTwoCacheLinesPerCycle) {
    const Microarch m = known(kIntel, 6, 0x55, true);
    EXPECT_EQ(m.name, "Intel Skylake-SP");
    EXPECT_EQ(m.fp.fma_pipes, 2);
    EXPECT_EQ(m.fp.datapath_bits, 512);
    EXPECT_EQ(m.fp.fma_latency, 4);
    EXPECT_DOUBLE_EQ(m.ports.l1_load_bytes_per_cycle, 128);
    EXPECT_DOUBLE_EQ(m.ports.l1_store_bytes_per_cycle, 64);
    EXPECT_NE(m.fp.description.find("some"), std::string::npos);  // SKUs with one FMA unit
}

TEST(Microarch, SkylakeClientSharesTwoPortsForEveryFpOp) {
    for (int model : {0x4E, 0x5E, 0x8E, 0x9E, 0xA5, 0xA6}) {
        const Microarch m = known(kIntel, 6, model, false);
        EXPECT_EQ(m.name, "Intel Skylake") << model;
        EXPECT_EQ(m.fp.fma_pipes, 2);
        EXPECT_EQ(m.fp.add_pipes, 2);
        EXPECT_EQ(m.fp.fp_pipes, 2);
        EXPECT_EQ(m.fp.add_latency, 4);
        EXPECT_DOUBLE_EQ(m.ports.l1_load_bytes_per_cycle, 64);
    }
}

TEST(Microarch, GoldenCoveClientDescribesThePCore) {
    for (int model : {0x97, 0x9A, 0xB7, 0xBA, 0xBF}) {
        const Microarch m = known(kIntel, 6, model, false);
        EXPECT_EQ(m.fp.fma_pipes, 2) << model;
        EXPECT_EQ(m.fp.add_pipes, 2);
        EXPECT_EQ(m.fp.fp_pipes, 3);
        EXPECT_DOUBLE_EQ(m.ports.l1_load_bytes_per_cycle, 96);
        EXPECT_NE(m.name.find("P-core"), std::string::npos);
        EXPECT_NE(m.fp.description.find("P-core"), std::string::npos);
    }
}

TEST(Microarch, IntelServerAndClientCoresByModel) {
    EXPECT_EQ(name_of(kIntel, 6, 0x6A), "Intel Ice Lake-SP");
    EXPECT_EQ(name_of(kIntel, 6, 0x6C), "Intel Ice Lake-SP");
    EXPECT_EQ(name_of(kIntel, 6, 0x7D), "Intel Ice Lake (client)");
    EXPECT_EQ(name_of(kIntel, 6, 0x7E), "Intel Ice Lake (client)");
    EXPECT_EQ(name_of(kIntel, 6, 0x8C), "Intel Tiger Lake");
    EXPECT_EQ(name_of(kIntel, 6, 0x8D), "Intel Tiger Lake");
    EXPECT_EQ(name_of(kIntel, 6, 0x8F), "Intel Sapphire Rapids");
    EXPECT_EQ(name_of(kIntel, 6, 0xCF), "Intel Emerald Rapids");
    EXPECT_EQ(name_of(kIntel, 6, 0xAD), "Intel Granite Rapids");
    EXPECT_EQ(name_of(kIntel, 6, 0xAE), "Intel Granite Rapids");

    // Client Ice/Tiger Lake have one 512-bit FMA unit: p0/p1 at 256 bits each.
    const Microarch tgl = known(kIntel, 6, 0x8C, true);
    EXPECT_EQ(tgl.fp.datapath_bits, 256);
    EXPECT_EQ(tgl.fp.fma_pipes, 2);
    // Server Golden Cove at 512 bits: two FMA units, ADDs on the same two.
    const Microarch spr = known(kIntel, 6, 0x8F, true);
    EXPECT_EQ(spr.fp.datapath_bits, 512);
    EXPECT_EQ(spr.fp.fp_pipes, 2);
    EXPECT_DOUBLE_EQ(spr.ports.l1_load_bytes_per_cycle, 128);
}

TEST(Microarch, AmdModelRangeBoundaries) {
    EXPECT_EQ(name_of(kAmd, 0x17, 0x00), "AMD Zen 1");
    EXPECT_EQ(name_of(kAmd, 0x17, 0x2F), "AMD Zen 1");
    EXPECT_EQ(name_of(kAmd, 0x17, 0x30), "AMD Zen 2");
    EXPECT_EQ(name_of(kAmd, 0x17, 0x4F), "AMD Zen 2");
    EXPECT_EQ(name_of(kAmd, 0x17, 0x50), "AMD Zen 1");
    EXPECT_EQ(name_of(kAmd, 0x17, 0x5F), "AMD Zen 1");
    EXPECT_EQ(name_of(kAmd, 0x17, 0x60), "AMD Zen 2");
    EXPECT_EQ(name_of(kAmd, 0x17, 0x7F), "AMD Zen 2");
    EXPECT_EQ(name_of(kAmd, 0x17, 0x80), "(none)");
    EXPECT_EQ(name_of(kAmd, 0x17, 0x90), "AMD Zen 2");
    EXPECT_EQ(name_of(kAmd, 0x17, 0x91), "AMD Zen 2");
    EXPECT_EQ(name_of(kAmd, 0x17, 0x92), "(none)");
    EXPECT_EQ(name_of(kAmd, 0x17, 0xA0), "AMD Zen 2");
    EXPECT_EQ(name_of(kAmd, 0x17, 0xAF), "AMD Zen 2");
    EXPECT_EQ(name_of(kAmd, 0x17, 0xB0), "(none)");

    EXPECT_EQ(name_of(kAmd, 0x19, 0x00), "AMD Zen 3");
    EXPECT_EQ(name_of(kAmd, 0x19, 0x0F), "AMD Zen 3");
    EXPECT_EQ(name_of(kAmd, 0x19, 0x10), "AMD Zen 4");
    EXPECT_EQ(name_of(kAmd, 0x19, 0x1F), "AMD Zen 4");
    EXPECT_EQ(name_of(kAmd, 0x19, 0x20), "AMD Zen 3");
    EXPECT_EQ(name_of(kAmd, 0x19, 0x5F), "AMD Zen 3");
    EXPECT_EQ(name_of(kAmd, 0x19, 0x60), "AMD Zen 4");
    EXPECT_EQ(name_of(kAmd, 0x19, 0xAF), "AMD Zen 4");
    EXPECT_EQ(name_of(kAmd, 0x19, 0xB0), "(none)");

    EXPECT_EQ(name_of(kAmd, 0x1A, 0x00), "AMD Zen 5");
    EXPECT_EQ(name_of(kAmd, 0x1A, 0x1F), "AMD Zen 5");
    EXPECT_EQ(name_of(kAmd, 0x1A, 0x20), "AMD Zen 5 (mobile)");
    EXPECT_EQ(name_of(kAmd, 0x1A, 0x2F), "AMD Zen 5 (mobile)");
    EXPECT_EQ(name_of(kAmd, 0x1A, 0x30), "(none)");
    EXPECT_EQ(name_of(kAmd, 0x1A, 0x40), "AMD Zen 5");
    EXPECT_EQ(name_of(kAmd, 0x1A, 0x4F), "AMD Zen 5");
    EXPECT_EQ(name_of(kAmd, 0x1A, 0x50), "(none)");  // Zen 6
    EXPECT_EQ(name_of(kAmd, 0x1A, 0x60), "AMD Zen 5 (mobile)");
    EXPECT_EQ(name_of(kAmd, 0x1A, 0x6F), "AMD Zen 5 (mobile)");
    EXPECT_EQ(name_of(kAmd, 0x1A, 0x70), "AMD Zen 5");
    EXPECT_EQ(name_of(kAmd, 0x1A, 0x7F), "AMD Zen 5");
    EXPECT_EQ(name_of(kAmd, 0x1A, 0x80), "(none)");  // Zen 6
}

TEST(Microarch, HygonSharesAmdNumberingButOnlyDhyanaIsKnown) {
    EXPECT_EQ(name_of("HygonGenuine", 0x18, 0x01), "Hygon Dhyana");
    EXPECT_EQ(known("HygonGenuine", 0x18, 0x01, false).fp.datapath_bits, 128);
    EXPECT_EQ(name_of("HygonGenuine", 0x18, 0x04), "(none)");  // C86-4G: a core of its own
    EXPECT_EQ(name_of("HygonGenuine", 0x17, 0x31), "AMD Zen 2");
    EXPECT_EQ(name_of(kAmd, 0x18, 0x01), "(none)");
}

TEST(Microarch, UnknownCpusHaveNoEntry) {
    EXPECT_FALSE(microarch_for(kIntel, 6, 0x5C, false));      // Goldmont (Atom)
    EXPECT_FALSE(microarch_for(kIntel, 6, 0xBE, false));      // Alder Lake-N: E-cores only
    EXPECT_FALSE(microarch_for(kIntel, 6, 0x3F, false));      // Haswell-EP: older than the table
    EXPECT_FALSE(microarch_for(kIntel, 6, 0xC6, false));      // Arrow Lake: not described
    EXPECT_FALSE(microarch_for(kIntel, 19, 0x01, true));      // Diamond Rapids: future family
    EXPECT_FALSE(microarch_for(kIntel, 0x19, 0x01, false));   // AMD's numbers under Intel's name
    EXPECT_FALSE(microarch_for(kAmd, 0x15, 0x02, false));     // Bulldozer family
    EXPECT_FALSE(microarch_for(kAmd, 0x1B, 0x00, false));     // a future family
    EXPECT_FALSE(microarch_for(kAmd, 6, 0x55, true));         // Intel's numbers under AMD's name
    EXPECT_FALSE(microarch_for("SomeVendor", 0x19, 0x01, false));
    EXPECT_FALSE(microarch_for("", 6, 0x55, false));
    EXPECT_FALSE(microarch_for(kAmd, 0x19, -1, false));
}

TEST(Microarch, EveryEntryIsConsistent) {
    int entries = 0;
    for (const char* vendor : {"AuthenticAMD", "HygonGenuine", "GenuineIntel"})
        for (int family : {6, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x1B})
            for (int model = 0; model < 256; ++model)
                for (bool avx512 : {false, true}) {
                    const std::optional<Microarch> m = microarch_for(vendor, family, model, avx512);
                    if (!m) continue;
                    ++entries;
                    const std::string where = std::string(vendor) + " " + std::to_string(family) + "/" +
                                              std::to_string(model) + (avx512 ? " avx512" : "");
                    EXPECT_FALSE(m->name.empty()) << where;
                    EXPECT_FALSE(m->source.empty()) << where;
                    EXPECT_EQ(m->fp.description.rfind(m->name + ": ", 0), 0u) << where;
                    EXPECT_GT(m->fp.description.size(), m->name.size() + 2) << where;
                    EXPECT_GE(m->fp.fma_pipes, 1) << where;
                    EXPECT_GE(m->fp.add_pipes, 1) << where;
                    EXPECT_GE(m->fp.fp_pipes, std::max(m->fp.fma_pipes, m->fp.add_pipes)) << where;
                    EXPECT_LE(m->fp.fp_pipes, m->fp.fma_pipes + m->fp.add_pipes) << where;
                    EXPECT_TRUE(m->fp.datapath_bits == 128 || m->fp.datapath_bits == 256 ||
                                m->fp.datapath_bits == 512)
                        << where;
                    EXPECT_GE(m->fp.fma_latency, 2) << where;
                    EXPECT_GE(m->fp.add_latency, 2) << where;
                    EXPECT_GE(m->fp.mul_latency, 2) << where;
                    EXPECT_GT(m->ports.l1_load_bytes_per_cycle, 0) << where;
                    EXPECT_GT(m->ports.l1_store_bytes_per_cycle, 0) << where;
                    EXPECT_GE(m->ports.l2_to_l1_bytes_per_cycle, 0) << where;
                    EXPECT_LE(m->ports.l1_store_bytes_per_cycle, m->ports.l1_load_bytes_per_cycle) << where;
                    // The load width cannot be wider than what the code may use.
                    EXPECT_LE(m->ports.load_vector_bits, avx512 ? 512 : 256) << where;
                    EXPECT_GE(m->ports.load_vector_bits, 128) << where;
                }
    EXPECT_GT(entries, 0);
}

// Golden Cove server cores: 512-bit ops on two fused FMA units, narrower ops
// also on the p1/p5 fast adders (measured on an AMX Xeon core at 4.19 GHz: DP
// scalar fma10+add4 20.1 GF/s = 4.8 FLOP/cycle, add6+mul6 12.4 = 3 ops/cycle).
TEST(Microarch, RapidsNarrowOpsUseThreePipes) {
    const Microarch m = known(kIntel, 6, 0x8F, true);
    EXPECT_EQ(fp_pipes_for(m, 512).fp_pipes, 2);
    EXPECT_EQ(fp_pipes_for(m, 256).fp_pipes, 3);
    EXPECT_EQ(fp_pipes_for(m, 64).add_pipes, 2);
    EXPECT_DOUBLE_EQ(best_flops_per_cycle(fp_pipes_for(m, 64), true, true, false, 64, 64), 5);
    EXPECT_DOUBLE_EQ(best_flops_per_cycle(fp_pipes_for(m, 64), false, true, true, 64, 64), 3);
    EXPECT_DOUBLE_EQ(best_flops_per_cycle(fp_pipes_for(m, 512), true, true, false, 512, 64), 32);
    // Cores with the same pipes at every width have no separate entry.
    EXPECT_FALSE(known(kAmd, 0x1A, 0x02, true).fp_256.has_value());
}

// A hypervisor may show an older CPUID model than the hardware's (seen: a Xeon
// with AMX and AVX512-FP16 presented as family 6 model 0xA7, Rocket Lake): the
// table row is checked against the features before it is used.
const std::vector<std::string> kRapidsFeatures{"avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512vbmi",
                                               "avx512bf16", "avx512fp16", "avxvnni", "amx-tile"};

TEST(IdentifyMicroarch, AmxOverridesAMaskedClientModel) {
    const MicroarchLookup m = identify_microarch({kIntel, 6, 0xA7, kRapidsFeatures});
    ASSERT_TRUE(m.arch.has_value());
    EXPECT_EQ(m.arch->name, "Intel Sapphire Rapids class (identified by AMX)");
    EXPECT_EQ(m.arch->fp.datapath_bits, 512);  // two 512-bit FMA units, not Rocket Lake's one
    EXPECT_EQ(m.arch->fp.fma_pipes, 2);
    EXPECT_NE(m.note.find("model 0xa7 names Intel Rocket Lake, which has no avx512bf16"), std::string::npos) << m.note;
    EXPECT_NE(m.note.find("not the hardware's"), std::string::npos) << m.note;
}

TEST(IdentifyMicroarch, AContradictedRowWithoutAmxIsNotUsed) {
    const MicroarchLookup m = identify_microarch({kIntel, 6, 0xA7, {"avx2", "avx512f", "avx512fp16"}});
    EXPECT_FALSE(m.arch.has_value());
    EXPECT_NE(m.note.find("has avx512fp16, which Intel Rocket Lake lacks"), std::string::npos) << m.note;
    // An AMD row is checked too: Zen 3 has no AVX-512.
    const MicroarchLookup zen = identify_microarch({kAmd, 0x19, 0x01, {"avx2", "avx512f"}});
    EXPECT_FALSE(zen.arch.has_value());
    EXPECT_NE(zen.note.find("AMD Zen 3 lacks"), std::string::npos) << zen.note;
}

TEST(IdentifyMicroarch, AConsistentRowIsUsedAsIs) {
    const MicroarchLookup rkl = identify_microarch({kIntel, 6, 0xA7, {"avx2", "avx512f", "avx512vbmi", "avx512vnni"}});
    ASSERT_TRUE(rkl.arch.has_value());
    EXPECT_EQ(rkl.arch->name, "Intel Rocket Lake");
    EXPECT_EQ(rkl.arch->fp.datapath_bits, 256);
    EXPECT_TRUE(rkl.note.empty()) << rkl.note;
    const MicroarchLookup spr = identify_microarch({kIntel, 6, 0x8F, kRapidsFeatures});
    ASSERT_TRUE(spr.arch.has_value());
    EXPECT_EQ(spr.arch->name, "Intel Sapphire Rapids");
    EXPECT_TRUE(spr.note.empty());
    // Without AVX-512 usable the AVX2 variant of the row is described.
    const MicroarchLookup zen4 = identify_microarch({kAmd, 0x19, 0x11, {"avx2", "fma"}});
    ASSERT_TRUE(zen4.arch.has_value());
    EXPECT_EQ(zen4.arch->ports.load_vector_bits, 256);
}

TEST(IdentifyMicroarch, AmxIdentifiesAModelTheTableDoesNotKnowOnlyInFamilySix) {
    const MicroarchLookup m = identify_microarch({kIntel, 6, 0x01, kRapidsFeatures});
    ASSERT_TRUE(m.arch.has_value());
    EXPECT_NE(m.note.find("is not in the table"), std::string::npos) << m.note;
    EXPECT_FALSE(identify_microarch({kIntel, 19, 0x01, kRapidsFeatures}).arch.has_value());  // a future family
    EXPECT_FALSE(identify_microarch({kAmd, 6, 0x01, kRapidsFeatures}).arch.has_value());
    const MicroarchLookup unknown = identify_microarch({kIntel, 6, 0x01, {"avx2"}});
    EXPECT_FALSE(unknown.arch.has_value());
    EXPECT_TRUE(unknown.note.empty());  // plainly unknown: the caller says so
}

} // namespace
} // namespace roofline
