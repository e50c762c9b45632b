// The SIMD targets the kernels are compiled for (included by every kernel source before Highway's headers).
#pragma once

// Scalable-vector targets (SVE, RVV) are left out: the kernels keep arrays of vectors as register blocks, which
// sizeless vector types cannot form. Those machines use their fixed-width target (NEON) instead. SSSE3 is left out
// too: an x86 CPU without SSE4.1 (none made since about 2011) runs the portable fallback, and every other build
// compiles one target fewer.
// The sanitized tree keeps only the host's best target and the baseline (cmake/TpbisaBuildSpeed.cmake,
// TPBISA_HWY_HOST_UNSUPPORTED names the others).
#ifndef TPBISA_HWY_HOST_UNSUPPORTED
#define TPBISA_HWY_HOST_UNSUPPORTED 0
#endif
#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS \
  (HWY_SVE | HWY_SVE2 | HWY_SVE_256 | HWY_SVE2_128 | HWY_RVV | HWY_SSSE3 | TPBISA_HWY_HOST_UNSUPPORTED)
#endif
