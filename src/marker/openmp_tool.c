/* An OpenMP tool (OMPT, OpenMP 5.0), for runtimes that offer the interface (LLVM's libomp,
 * Intel's): clang's parallel regions start through __kmpc_fork_call, which cannot be wrapped
 * (openmp_wrappers.c wraps libgomp's). The runtime finds ompt_start_tool in the program and
 * calls it at its start; it is started only while the library times regions (`roofline
 * measure`'s native runs), and then stands before any tool OMP_TOOL_LIBRARIES names. Its
 * callbacks do what libgomp's wrappers do: parallel begin on the forking thread
 * (roofline_marker_fork, nothing when no region is open), each implicit task's begin and end
 * on its thread (the team's threads counted, counters under the perf engine, paused over
 * barriers), parallel end (the join). The types are the specification's, written out: omp-tools.h is not everywhere. */
#include <stddef.h>
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

void* roofline_marker_fork(void);
void* roofline_marker_team_enter(void* fork);
void roofline_marker_team_leave(void* body);
void roofline_marker_team_pause(void* body);
void roofline_marker_team_resume(void* body);
void roofline_marker_join(void* fork);
int roofline_marker_timing(void);

typedef union ompt_data_t {
    uint64_t value;
    void* ptr;
} ompt_data_t;
typedef struct ompt_frame_t ompt_frame_t;
typedef void (*ompt_interface_fn_t)(void);
typedef ompt_interface_fn_t (*ompt_function_lookup_t)(const char* interface_function_name);
typedef void (*ompt_callback_t)(void);
typedef int (*ompt_set_callback_t)(int event, ompt_callback_t callback);
typedef int (*ompt_initialize_t)(ompt_function_lookup_t lookup, int initial_device_num, ompt_data_t* tool_data);
typedef void (*ompt_finalize_t)(ompt_data_t* tool_data);
typedef struct ompt_start_tool_result_t {
    ompt_initialize_t initialize;
    ompt_finalize_t finalize;
    ompt_data_t tool_data;
} ompt_start_tool_result_t;

enum {
    ompt_callback_parallel_begin = 3,
    ompt_callback_parallel_end = 4,
    ompt_callback_implicit_task = 7,
    ompt_callback_sync_region = 23,
    ompt_scope_begin = 1,
    ompt_scope_end = 2,
    ompt_task_initial = 0x1,
    ompt_set_always = 5
};

static void on_parallel_begin(ompt_data_t* encountering_task_data, const ompt_frame_t* encountering_task_frame,
                              ompt_data_t* parallel_data, unsigned int requested_parallelism, int flags,
                              const void* codeptr_ra) {
    (void)encountering_task_data, (void)encountering_task_frame, (void)requested_parallelism, (void)flags,
        (void)codeptr_ra;
    parallel_data->ptr = roofline_marker_fork();
}

static void on_parallel_end(ompt_data_t* parallel_data, ompt_data_t* encountering_task_data, int flags,
                            const void* codeptr_ra) {
    (void)encountering_task_data, (void)flags, (void)codeptr_ra;
    if (parallel_data && parallel_data->ptr) roofline_marker_join(parallel_data->ptr);
    if (parallel_data) parallel_data->ptr = NULL;
}

/* The team body's state lives in the implicit task's data: at its end the runtime passes no
 * parallel data, and the join may come before a worker's end. */
static void on_implicit_task(int endpoint, ompt_data_t* parallel_data, ompt_data_t* task_data,
                             unsigned int actual_parallelism, unsigned int index, int flags) {
    (void)actual_parallelism, (void)index;
    if (flags & ompt_task_initial) return;
    if (endpoint == ompt_scope_begin) {
        task_data->ptr = parallel_data && parallel_data->ptr ? roofline_marker_team_enter(parallel_data->ptr) : NULL;
    } else if (endpoint == ompt_scope_end && task_data->ptr) {
        roofline_marker_team_leave(task_data->ptr);
        task_data->ptr = NULL;
    }
}

/* Barriers inside a team body: their waits are not the body's work, and a worker's last one
 * ends only when it next wakes (its implicit task's end with it): counting pauses meanwhile. */
static void on_sync_region(int kind, int endpoint, ompt_data_t* parallel_data, ompt_data_t* task_data,
                           const void* codeptr_ra) {
    (void)kind, (void)parallel_data, (void)codeptr_ra;
    if (!task_data || !task_data->ptr) return;
    if (endpoint == ompt_scope_begin) roofline_marker_team_pause(task_data->ptr);
    else if (endpoint == ompt_scope_end) roofline_marker_team_resume(task_data->ptr);
}

static int started;  /* the runtime initialized the tool */

__attribute__((visibility("hidden"))) int roofline_marker_ompt_started(void) {
    return __atomic_load_n(&started, __ATOMIC_ACQUIRE);
}

static int initialize(ompt_function_lookup_t lookup, int initial_device_num, ompt_data_t* tool_data) {
    (void)initial_device_num, (void)tool_data;
    ompt_set_callback_t set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
    if (!set_callback) return 0;
    __atomic_store_n(&started, 1, __ATOMIC_RELEASE);
    set_callback(ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin);
    set_callback(ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end);
    set_callback(ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task);
    set_callback(ompt_callback_sync_region, (ompt_callback_t)on_sync_region);
    return 1;  /* nonzero: the tool stays active */
}

static void finalize(ompt_data_t* tool_data) { (void)tool_data; }

EXPORT ompt_start_tool_result_t* ompt_start_tool(unsigned int omp_version, const char* runtime_version) {
    (void)omp_version, (void)runtime_version;
    static ompt_start_tool_result_t result = {initialize, finalize, {0}};
    return roofline_marker_timing() ? &result : NULL;
}
