/* roofline marker API (C).
 *
 * Mark named regions of a program so `roofline measure` can time them, count
 * perf events in them, or hand them to roofline's Valgrind tool. Link with
 * libroofline_marker (CMake: roofline::marker; pkg-config: roofline).
 *
 * When the program is not run under `roofline measure` (no ROOFLINE_MARKER_OUT
 * in the environment, not under Valgrind) every call returns after one
 * predictable branch. Regions may nest and may be used from any thread; begin
 * and end of one region must happen on the same thread. Under `roofline measure`
 * the library first times its own calls at load (empty regions, about 0.3 ms),
 * which measure takes off each region. See src/measure/PROTOCOL.md for what is
 * recorded. */
#ifndef ROOFLINE_ROOFLINE_H
#define ROOFLINE_ROOFLINE_H

#if defined(__GNUC__) || defined(__clang__)
#define ROOFLINE_API __attribute__((visibility("default")))
#else
#define ROOFLINE_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Optional: reads the environment now instead of at the first begin. */
ROOFLINE_API void roofline_init(void);
/* Open region `name` on the calling thread. */
ROOFLINE_API void roofline_begin(const char* name);
/* Close region `name`; it must be the innermost open region of this thread
 * (otherwise the call is reported as an error in the output and ignored). */
ROOFLINE_API void roofline_end(const char* name);
/* Write the results now (they are otherwise written at exit). Regions still
 * open are closed and flagged. Later begin/end calls are not recorded. */
ROOFLINE_API void roofline_finalize(void);

/* Results so far for `name` on the calling thread: inclusive seconds, calls,
 * and up to *nevents counter values (*nevents is set to the number written).
 * All zero when nothing is recorded. Any pointer may be NULL. */
ROOFLINE_API void roofline_region_get(const char* name, int* nevents, double* events,
                                      double* seconds, int* calls);
/* Forget what the calling thread recorded for `name` (not while it is open). */
ROOFLINE_API void roofline_region_reset(const char* name);
/* Nonzero when calls are being recorded (timing or Valgrind tool). */
ROOFLINE_API int roofline_active(void);

#ifdef __cplusplus
}
#endif

#endif
