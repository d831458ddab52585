/* Client requests the marker library sends to roofline's Valgrind tool
 * (see src/measure/PROTOCOL.md). Shared by both sides. */
#ifndef ROOFLINE_VG_REQUESTS_H
#define ROOFLINE_VG_REQUESTS_H

#include <valgrind/valgrind.h>

enum {
    ROOFLINE_VG_REGION_BEGIN = VG_USERREQ_TOOL_BASE('R', 'L') + 0, /* arg1: const char* name */
    ROOFLINE_VG_REGION_END = VG_USERREQ_TOOL_BASE('R', 'L') + 1,   /* arg1: const char* name */
    /* the library's calibration regions are made (or none will be): a region of the program
     * under their names is the program's from now on */
    ROOFLINE_VG_CALIBRATED = VG_USERREQ_TOOL_BASE('R', 'L') + 2
};

#endif
