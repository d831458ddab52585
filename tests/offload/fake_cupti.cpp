// A stand-in libcupti for testing roofline-offload.so without a GPU: the activity API's entry
// points the library uses, delivering a fixed set of records (the real structs of the CUPTI
// headers it is built against) when the library flushes. Which kinds it delivers follows what
// the library enabled, so a kind the library forgot to enable shows up as missing bytes.
//   FAKE_CUPTI_KERNELS  kernel records to deliver (default 3)
//   FAKE_CUPTI_DROPPED  records to report as dropped (default 0)
//   FAKE_CUPTI_FAIL_UM  set: the unified-memory configuration fails (CUPTI_ERROR_NOT_SUPPORTED)
// As the real CUPTI did inside the driver's initialization on an H200 (driver 580, CUDA 13), the
// unified-memory counter's configuration succeeds there but enabling its activity answers
// CUPTI_ERROR_NOT_READY until a context exists: the stand-in driver says when one is created
// (fake_cupti_context_created), which calls the subscriber the resource domain enabled.
//   FAKE_CUPTI_NO_CALLBACKS  set: cuptiSubscribe fails (a libcupti without the callback API)
//   FAKE_CUPTI_READY_AT_CALL N  the counter's activity stays NOT_READY after the context too,
//                            until the Nth driver call (fake_cupti_driver_call) has begun
//   FAKE_CUPTI_REPORT FILE   after each driver call: how many reached the subscriber, and
//                            whether its driver domain and context callback are still on
#include "cupti_records.hpp"

#include <cupti.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>

namespace {

CUpti_BuffersCallbackRequestFunc requested = nullptr;
CUpti_BuffersCallbackCompleteFunc completed = nullptr;
std::set<int> enabled;
bool context_exists = false;
CUpti_CallbackFunc subscriber = nullptr;
void* subscriber_data = nullptr;
bool context_callback_enabled = false;
bool driver_domain_enabled = false;
long driver_calls = 0, driver_calls_delivered = 0;

using roofline_offload::KernelRecord;
using roofline_offload::MemcpyRecord;
using roofline_offload::MigrationRecord;
using roofline_offload::PeerCopyRecord;

std::size_t record_size(CUpti_ActivityKind kind) {
    switch (kind) {
    case CUPTI_ACTIVITY_KIND_MEMCPY: return sizeof(MemcpyRecord);
    case CUPTI_ACTIVITY_KIND_MEMCPY2: return sizeof(PeerCopyRecord);
    case CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER: return sizeof(MigrationRecord);
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: return sizeof(KernelRecord);
    default: return 0;
    }
}

long env_number(const char* name, long fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::strtol(v, nullptr, 10) : fallback;
}

struct Writer {
    uint8_t* at;
    uint8_t* end;
    template <typename R>
    R* add(CUpti_ActivityKind kind) {
        if (!enabled.count(kind) || at + sizeof(R) > end) return nullptr;
        auto* r = reinterpret_cast<R*>(at);
        std::memset(r, 0, sizeof(R));
        r->kind = kind;
        at += sizeof(R);
        return r;
    }
};

} // namespace

extern "C" {

CUptiResult CUPTIAPI cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc req,
                                                    CUpti_BuffersCallbackCompleteFunc comp) {
    requested = req;
    completed = comp;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityEnable(CUpti_ActivityKind kind) {
    if (kind == CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER &&
        (!context_exists || driver_calls < env_number("FAKE_CUPTI_READY_AT_CALL", 0)))
        return CUPTI_ERROR_NOT_READY;
    enabled.insert(kind);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityConfigureUnifiedMemoryCounter(CUpti_ActivityUnifiedMemoryCounterConfig*, uint32_t) {
    return std::getenv("FAKE_CUPTI_FAIL_UM") ? CUPTI_ERROR_NOT_SUPPORTED : CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiSubscribe(CUpti_SubscriberHandle* handle, CUpti_CallbackFunc callback, void* data) {
    if (std::getenv("FAKE_CUPTI_NO_CALLBACKS")) return CUPTI_ERROR_NOT_SUPPORTED;
    subscriber = callback;
    subscriber_data = data;
    *handle = reinterpret_cast<CUpti_SubscriberHandle>(&subscriber);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle, CUpti_CallbackDomain domain,
                                         CUpti_CallbackId id) {
    if (domain == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_CONTEXT_CREATED)
        context_callback_enabled = enable != 0;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiEnableDomain(uint32_t enable, CUpti_SubscriberHandle, CUpti_CallbackDomain domain) {
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API) driver_domain_enabled = enable != 0;
    return CUPTI_SUCCESS;
}

// Called by the stand-in driver after the injection, as the driver creates the first context.
void fake_cupti_context_created() {
    context_exists = true;
    if (subscriber && context_callback_enabled)
        subscriber(subscriber_data, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED, nullptr);
}

// Called by the stand-in driver for each driver call it makes after the context: the entry
// goes to the subscriber while its driver domain is on.
void fake_cupti_driver_call(const char* name) {
    ++driver_calls;
    if (subscriber && driver_domain_enabled) {
        ++driver_calls_delivered;
        CUpti_CallbackData call{};
        call.callbackSite = CUPTI_API_ENTER;
        call.functionName = name;
        subscriber(subscriber_data, CUPTI_CB_DOMAIN_DRIVER_API, 0, &call);
    }
    if (const char* path = std::getenv("FAKE_CUPTI_REPORT"); path && *path)
        if (FILE* f = std::fopen(path, "w")) {
            std::fprintf(f, "calls %ld delivered %ld driver_domain %d context_callback %d\n", driver_calls,
                         driver_calls_delivered, driver_domain_enabled ? 1 : 0, context_callback_enabled ? 1 : 0);
            std::fclose(f);
        }
}

// Times in ns from 1'000'000: 2 copies of 64 MiB up (one a batch of 2 copies of 32 MiB), the
// kernels (1 ms each), 1 MiB device to device, 4 MiB migrated up, 2 MiB migrated down, 32 MiB
// down; the last activity ends at 1'000'000 + (4 + kernels + 3) ms.
CUptiResult CUPTIAPI cuptiActivityFlushAll(uint32_t) {
    if (!requested || !completed) return CUPTI_ERROR_INVALID_OPERATION;
    uint8_t* buffer = nullptr;
    size_t size = 0, max_records = 0;
    requested(&buffer, &size, &max_records);
    if (!buffer) return CUPTI_ERROR_OUT_OF_MEMORY;
    Writer w{buffer, buffer + size};
    const uint64_t ms = 1'000'000;
    uint64_t t = ms;
    auto copy = [&](uint8_t kind, uint64_t bytes, uint64_t count) {
        if (auto* m = w.add<MemcpyRecord>(CUPTI_ACTIVITY_KIND_MEMCPY)) {
            m->copyKind = kind;
            m->bytes = bytes;
            m->start = t;
            m->end = t + 2 * ms;
#if CUPTI_API_VERSION >= 130000
            m->copyCount = count;
#else
            (void)count;
#endif
        }
        t += 2 * ms;
    };
    copy(CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, 64 << 20, 1);
    copy(CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, 64 << 20, 2);
    for (long k = 0; k < env_number("FAKE_CUPTI_KERNELS", 3); ++k) {
        if (auto* r = w.add<KernelRecord>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)) {
            r->start = t;
            r->end = t + ms;
        }
        t += ms;
    }
    if (auto* m = w.add<PeerCopyRecord>(CUPTI_ACTIVITY_KIND_MEMCPY2)) {
        m->bytes = 1 << 20;  // between two devices: not bus bytes
        m->start = t;
        m->end = t + ms / 2;
    }
    auto migrate = [&](CUpti_ActivityUnifiedMemoryCounterKind kind, uint64_t bytes) {
        if (auto* u = w.add<MigrationRecord>(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER)) {
            u->counterKind = kind;
            u->value = bytes;
            u->start = t;
            u->end = t + ms / 2;
        }
        t += ms / 2;
    };
    migrate(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD, 4 << 20);
    migrate(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH, 2 << 20);
    copy(CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, 32 << 20, 1);
    completed(nullptr, 0, buffer, size, static_cast<size_t>(w.at - buffer));
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNextRecord(uint8_t* buffer, size_t valid, CUpti_Activity** record) {
    uint8_t* next = *record ? reinterpret_cast<uint8_t*>(*record) + record_size((*record)->kind) : buffer;
    if (next >= buffer + valid) return CUPTI_ERROR_MAX_LIMIT_REACHED;
    *record = reinterpret_cast<CUpti_Activity*>(next);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNumDroppedRecords(CUcontext, uint32_t, size_t* dropped) {
    *dropped = static_cast<size_t>(env_number("FAKE_CUPTI_DROPPED", 0));
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetResultString(CUptiResult, const char** text) {
    *text = "fake CUPTI error";
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetVersion(uint32_t* version) {
    *version = CUPTI_API_VERSION;
    return CUPTI_SUCCESS;
}

} // extern "C"
