/* gcc-plugin/shim/common/config/i386/i386-cpuinfo.h: stand-in for a header
 * that GCC 10's config/i386/i386.h includes but gcc-10-plugin-dev (Debian
 * bullseye) does not ship.  i386.h only needs the enum to be complete for a
 * class pfe never uses.  Searched after the real plugin include directory,
 * so GCC 11+ use their own copy. */
#ifndef PFE_SHIM_I386_CPUINFO_H
#define PFE_SHIM_I386_CPUINFO_H
enum feature_priority { P_NONE = 0 };
#endif
