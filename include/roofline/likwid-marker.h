/* LIKWID marker API on top of roofline's marker library.
 *
 * Code instrumented for LIKWID keeps working unchanged: compile with
 * -DLIKWID_PERFMON, point the include path at roofline's headers and link
 * libroofline_marker instead of liblikwid. Without -DLIKWID_PERFMON every
 * macro expands to nothing, as with LIKWID. */
#ifndef ROOFLINE_LIKWID_MARKER_H
#define ROOFLINE_LIKWID_MARKER_H

#ifdef LIKWID_PERFMON

#include "roofline.h"

#define LIKWID_MARKER_INIT roofline_init()
/* roofline sets up each thread on its first region; nothing to do. */
#define LIKWID_MARKER_THREADINIT ((void)0)
/* Event groups are chosen by `roofline measure`, not by the program. */
#define LIKWID_MARKER_SWITCH ((void)0)
#define LIKWID_MARKER_REGISTER(regionTag) ((void)(regionTag))
#define LIKWID_MARKER_START(regionTag) roofline_begin(regionTag)
#define LIKWID_MARKER_STOP(regionTag) roofline_end(regionTag)
#define LIKWID_MARKER_CLOSE roofline_finalize()
#define LIKWID_MARKER_RESET(regionTag) roofline_region_reset(regionTag)
#define LIKWID_MARKER_GET(regionTag, nevents, events, time, count) \
    roofline_region_get((regionTag), (nevents), (events), (time), (count))

#else

#define LIKWID_MARKER_INIT
#define LIKWID_MARKER_THREADINIT
#define LIKWID_MARKER_SWITCH
#define LIKWID_MARKER_REGISTER(regionTag)
#define LIKWID_MARKER_START(regionTag)
#define LIKWID_MARKER_STOP(regionTag)
#define LIKWID_MARKER_CLOSE
#define LIKWID_MARKER_RESET(regionTag)
#define LIKWID_MARKER_GET(regionTag, nevents, events, time, count)

#endif

#endif
