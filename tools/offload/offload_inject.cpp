// roofline-offload.so: a CUPTI injection library (issue 13's whole-offload point). The CUDA
// driver loads it into a program when CUDA_INJECTION64_PATH names it and calls
// InitializeInjection at the program's first CUDA call; that works whether the program links
// the CUDA runtime statically (nvcc's default) or not, which an LD_PRELOAD of cudaMemcpy would
// not. It records CUPTI activity (copies, peer copies, unified-memory migrations, kernels),
// adds it up in a Tally and, at exit, writes the tally as JSON to $ROOFLINE_OFFLOAD_OUT.<pid>.
// `roofline measure --engine ncu --offload` sets both variables; nothing here is meant to be
// used by hand. It cannot run under ncu, which injects itself the same way.
// libcupti is opened at run time (dlopen), not linked: it comes with the CUDA toolkit, not as a
// distribution package, and the library must load (and say what is missing) without it.
#include "cupti_records.hpp"
#include "offload_tally.hpp"

#include <cupti.h>

#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <type_traits>

namespace {

using roofline_offload::Direction;
using roofline_offload::Tally;

using roofline_offload::KernelRecord;
using roofline_offload::MemcpyRecord;
using roofline_offload::MigrationRecord;
using roofline_offload::PeerCopyRecord;

constexpr std::size_t kBufferBytes = 8u << 20;
constexpr std::size_t kAlign = 8;

std::mutex tally_mutex;
Tally tally;
std::string note;  // what could not be recorded, for the JSON's "note"

// The CUPTI entry points used, from the libcupti found at run time.
struct Cupti {
    decltype(&cuptiActivityRegisterCallbacks) register_callbacks = nullptr;
    decltype(&cuptiActivityEnable) enable = nullptr;
    decltype(&cuptiActivityConfigureUnifiedMemoryCounter) configure_migrations = nullptr;
    decltype(&cuptiActivityGetNextRecord) next_record = nullptr;
    decltype(&cuptiActivityGetNumDroppedRecords) dropped_records = nullptr;
    decltype(&cuptiActivityFlushAll) flush_all = nullptr;
    decltype(&cuptiGetResultString) result_string = nullptr;
    decltype(&cuptiGetVersion) version = nullptr;
    // Optional: without them, migrations are configured at injection only.
    decltype(&cuptiSubscribe) subscribe = nullptr;
    decltype(&cuptiEnableCallback) enable_callback = nullptr;
    decltype(&cuptiEnableDomain) enable_domain = nullptr;
} cupti;

// $ROOFLINE_CUPTI_LIB, else the loader's search path, else the toolkit's usual places.
bool open_cupti(std::string& why) {
    const char* override_path = std::getenv("ROOFLINE_CUPTI_LIB");
    const char* candidates[] = {override_path,
                                "libcupti.so",
                                "libcupti.so.13",
                                "libcupti.so.12",
                                "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so",
                                "/usr/local/cuda/lib64/libcupti.so",
                                "/usr/local/cuda/lib/libcupti.so",
                                "/usr/local/cuda/targets/x86_64-linux/lib/libcupti.so"};
    void* lib = nullptr;
    for (const char* path : candidates) {
        if (!path || !*path) continue;
        if ((lib = dlopen(path, RTLD_NOW | RTLD_LOCAL))) break;
        if (path == override_path) {
            why = std::string("ROOFLINE_CUPTI_LIB: ") + dlerror();
            return false;
        }
    }
    if (!lib) {
        why = "libcupti (CUDA toolkit) not found: set ROOFLINE_CUPTI_LIB or LD_LIBRARY_PATH";
        return false;
    }
    bool all = true;
    auto get = [&](auto& fn, const char* name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
        all = all && fn;
    };
    get(cupti.register_callbacks, "cuptiActivityRegisterCallbacks");
    get(cupti.enable, "cuptiActivityEnable");
    get(cupti.configure_migrations, "cuptiActivityConfigureUnifiedMemoryCounter");
    get(cupti.next_record, "cuptiActivityGetNextRecord");
    get(cupti.dropped_records, "cuptiActivityGetNumDroppedRecords");
    get(cupti.flush_all, "cuptiActivityFlushAll");
    get(cupti.result_string, "cuptiGetResultString");
    get(cupti.version, "cuptiGetVersion");
    if (!all) why = "libcupti lacks the activity API this library uses";
    cupti.subscribe = reinterpret_cast<decltype(cupti.subscribe)>(dlsym(lib, "cuptiSubscribe"));
    cupti.enable_callback = reinterpret_cast<decltype(cupti.enable_callback)>(dlsym(lib, "cuptiEnableCallback"));
    cupti.enable_domain = reinterpret_cast<decltype(cupti.enable_domain)>(dlsym(lib, "cuptiEnableDomain"));
    return all;
}

// Memcpy records carry copyCount (batched copies) from CUPTI 13 on; older ones end before it.
bool records_have_copy_count() {
    uint32_t version = 0;
    return CUPTI_API_VERSION >= 130000 && cupti.version(&version) == CUPTI_SUCCESS && version >= 130000;
}
bool copy_count_known = false;

void add_text_note(const std::string& text) {
    std::lock_guard<std::mutex> lock(tally_mutex);
    if (!note.empty()) note += "; ";
    note += text;
    for (char& c : note)
        if (c == '"' || c == '\\' || c < 0x20) c = ' ';  // the note goes into a JSON string as is
}

void add_note(const char* what, CUptiResult r) {
    const char* text = nullptr;
    if (cupti.result_string) cupti.result_string(r, &text);
    add_text_note(std::string(what) + ": " + (text ? text : "CUPTI error"));
}

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
    void* p = nullptr;
    if (posix_memalign(&p, kAlign, kBufferBytes) != 0) p = nullptr;
    *buffer = static_cast<uint8_t*>(p);
    *size = p ? kBufferBytes : 0;
    *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream, uint8_t* buffer, size_t, size_t valid) {
    CUpti_Activity* record = nullptr;
    {
        std::lock_guard<std::mutex> lock(tally_mutex);
        while (cupti.next_record(buffer, valid, &record) == CUPTI_SUCCESS) {
            switch (record->kind) {
            case CUPTI_ACTIVITY_KIND_MEMCPY: {
                const auto* m = reinterpret_cast<const MemcpyRecord*>(record);
                std::uint64_t count = 1;
#if CUPTI_API_VERSION >= 130000
                if (copy_count_known && m->copyCount > 0) count = m->copyCount;  // batched copies
#endif
                tally.copy(roofline_offload::direction_of_cupti_copy_kind(m->copyKind), m->bytes, m->start, m->end,
                           count);
                break;
            }
            case CUPTI_ACTIVITY_KIND_MEMCPY2: {
                const auto* m = reinterpret_cast<const PeerCopyRecord*>(record);
                tally.copy(Direction::peer_to_peer, m->bytes, m->start, m->end);
                break;
            }
            case CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER: {
                const auto* u = reinterpret_cast<const MigrationRecord*>(record);
                if (u->counterKind == CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD)
                    tally.migration(true, u->value, u->start, u->end);
                else if (u->counterKind == CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH)
                    tally.migration(false, u->value, u->start, u->end);
                break;
            }
            case CUPTI_ACTIVITY_KIND_KERNEL:
            case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
                const auto* k = reinterpret_cast<const KernelRecord*>(record);
                tally.kernel(k->start, k->end);
                break;
            }
            default: break;
            }
        }
        size_t dropped = 0;
        if (cupti.dropped_records(context, stream, &dropped) == CUPTI_SUCCESS) tally.dropped(dropped);
    }
    std::free(buffer);
}

pid_t injected_pid = 0;  // a child forked without exec runs our atexit too: only this process writes

// To $ROOFLINE_OFFLOAD_OUT.<pid>: every CUDA process of the run writes its own (a launcher's
// ranks, a script's workers), and roofline adds them up.
void write_tally() {
    if (::getpid() != injected_pid) return;
    if (cupti.flush_all) cupti.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    const char* prefix = std::getenv("ROOFLINE_OFFLOAD_OUT");
    if (!prefix || !*prefix) return;
    const std::string file = std::string(prefix) + "." + std::to_string(::getpid());
    const char* path = file.c_str();
    std::lock_guard<std::mutex> lock(tally_mutex);
    const std::string text = tally.json(note, ::getpid());
    if (FILE* f = std::fopen(path, "w")) {
        const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
        if (std::fclose(f) != 0 || !ok) std::fprintf(stderr, "roofline-offload: cannot write %s\n", path);
    } else {
        std::fprintf(stderr, "roofline-offload: cannot write %s: %s\n", path, std::strerror(errno));
    }
}

void enable(CUpti_ActivityKind kind, const char* what) {
    if (const CUptiResult r = cupti.enable(kind); r != CUPTI_SUCCESS) add_note(what, r);
}

// Both directions of managed-memory migration, then the activity that records them: CUPTI's
// answer to the first step that failed. On an H200 (driver 580, CUDA 13) the configuration
// succeeded inside InitializeInjection but enabling the activity there answered NOT_READY,
// which a program of its own, after its context, never saw: both are retried together.
CUptiResult configure_migrations() {
    CUpti_ActivityUnifiedMemoryCounterConfig config[2] = {};
    for (int i = 0; i < 2; ++i) {
        config[i].scope = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_SCOPE_PROCESS_SINGLE_DEVICE;
        config[i].kind = i == 0 ? CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD
                                : CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH;
        config[i].deviceId = 0;
        config[i].enable = 1;
    }
    const CUptiResult r = cupti.configure_migrations(config, 2);
    return r == CUPTI_SUCCESS ? cupti.enable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER) : r;
}

// ROOFLINE_OFFLOAD_TRACE set: each attempt to configure the migration counter, on stderr.
void trace_attempt(const char* where, CUptiResult r) {
    if (!std::getenv("ROOFLINE_OFFLOAD_TRACE")) return;
    const char* text = nullptr;
    if (cupti.result_string) cupti.result_string(r, &text);
    std::fprintf(stderr, "roofline-offload: migration counter, configured and enabled at %s: %s\n", where, text ? text : "?");
}

// Where the counter was last refused, and whether it is configured: the callbacks below retry
// until it is, each from the driver's thread of the moment.
std::mutex migrations_mutex;
std::atomic<bool> migrations_configured{false};  // read at every driver call until set
CUptiResult migrations_refusal = CUPTI_SUCCESS;
CUpti_SubscriberHandle migrations_subscriber = nullptr;  // set before its callbacks are enabled

// Once the counter is configured nothing more is wanted of the driver: the callbacks are turned
// off, so the rest of the run's driver calls are not dispatched to this library. From inside a
// callback, as Score-P's and VampirTrace's CUPTI adapters turn the runtime and driver domains off
// in their cudaMemcpyPeer handler while they make CUDA calls of their own. Called with
// migrations_mutex held.
void stop_driver_callbacks() {
    if (!migrations_subscriber) return;
    CUptiResult r = CUPTI_SUCCESS;
    if (cupti.enable_domain) r = cupti.enable_domain(0, migrations_subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
    const CUptiResult c =
        cupti.enable_callback(0, migrations_subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
    if (std::getenv("ROOFLINE_OFFLOAD_TRACE")) {
        const char* text = nullptr;
        if (cupti.result_string) cupti.result_string(r != CUPTI_SUCCESS ? r : c, &text);
        std::fprintf(stderr, "roofline-offload: driver callbacks turned off: %s\n", text ? text : "?");
    }
    migrations_subscriber = nullptr;
}

void try_configure_migrations(const char* where) {
    std::lock_guard<std::mutex> lock(migrations_mutex);
    if (migrations_configured) return;
    const CUptiResult r = configure_migrations();
    trace_attempt(where, r);
    migrations_configured = r == CUPTI_SUCCESS;
    migrations_refusal = r;
    if (migrations_configured) stop_driver_callbacks();
}

// After the injection: when the first context is created (the driver initialized, no managed
// memory allocated yet), and, should CUPTI still answer NOT_READY there (the callback runs
// inside the context's creation; which of the two succeeded on the H200 was not recorded:
// bench/gpu/device-check.sh now traces it), at the entry of every later driver call until it is
// configured: cuMemAllocManaged's entry comes before its allocation. Then the callbacks stop.
void CUPTIAPI on_driver_event(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
    if (domain == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) {
        try_configure_migrations("the first context's creation");
    } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
        const auto* call = static_cast<const CUpti_CallbackData*>(data);
        if (!call || call->callbackSite != CUPTI_API_ENTER) return;
        if (migrations_configured) return;
        try_configure_migrations(call->functionName ? call->functionName : "a driver call");
    }
}

// At exit: the counter never configured is said, with CUPTI's last answer.
void note_unconfigured_migrations() {
    std::lock_guard<std::mutex> lock(migrations_mutex);
    if (!migrations_configured && migrations_refusal != CUPTI_SUCCESS)
        add_note("unified-memory migrations not counted (CUPTI refused the counter at the injection, at the first "
                 "context and at every driver call after it)",
                 migrations_refusal);
}

} // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
    static bool done = false;
    if (done) return 1;
    done = true;
    injected_pid = ::getpid();
    std::atexit(write_tally);  // written whatever happens below: roofline reads the note
    std::string why;
    if (!open_cupti(why)) {
        add_text_note(why);
        return 1;
    }
    copy_count_known = records_have_copy_count();
    if (const CUptiResult r = cupti.register_callbacks(buffer_requested, buffer_completed); r != CUPTI_SUCCESS) {
        add_note("no activity buffers", r);
        return 1;
    }
    // Migrations of managed memory: the counter is configured once the driver is initialized,
    // then its activity enabled, before the first managed allocation (CUPTI's documentation
    // and its unified_memory sample: after cuInit). InitializeInjection runs inside the
    // driver's initialization, where CUPTI answers CUPTI_ERROR_NOT_READY (an H200 run: every
    // migration missed); then it is retried by on_driver_event.
    try_configure_migrations("the injection");
    if (migrations_refusal == CUPTI_ERROR_NOT_READY) {
        CUpti_SubscriberHandle subscriber = nullptr;
        const bool subscribed = cupti.subscribe && cupti.enable_callback &&
                                cupti.subscribe(&subscriber, on_driver_event, nullptr) == CUPTI_SUCCESS;
        if (subscribed) {
            std::lock_guard<std::mutex> lock(migrations_mutex);
            migrations_subscriber = subscriber;
        }
        const bool deferred = subscribed && cupti.enable_callback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                                                  CUPTI_CBID_RESOURCE_CONTEXT_CREATED) == CUPTI_SUCCESS;
        if (deferred && cupti.enable_domain) cupti.enable_domain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
        if (!deferred) add_note("unified-memory migrations not counted", migrations_refusal);
        else std::atexit(note_unconfigured_migrations);  // runs before write_tally (registered after it)
    } else if (migrations_refusal != CUPTI_SUCCESS) {
        add_note("unified-memory migrations not counted", migrations_refusal);
    }
    enable(CUPTI_ACTIVITY_KIND_MEMCPY, "copies not counted");
    enable(CUPTI_ACTIVITY_KIND_MEMCPY2, "peer copies not counted");
    enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "kernels not timed");
    return 1;
}
