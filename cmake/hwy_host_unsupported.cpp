// Configure-time probe: prints the SIMD targets Highway would compile that this host cannot run (a bit mask).
#include <hwy/targets.h>

#include <cstdint>
#include <cstdio>

int main() {
  const int64_t unsupported = static_cast<int64_t>(HWY_ATTAINABLE_TARGETS) & ~hwy::SupportedTargets();
  // The static (baseline) target is always kept: Highway needs one target compiled.
  std::printf("%lld", static_cast<long long>(unsupported & ~static_cast<int64_t>(HWY_STATIC_TARGET)));
  return 0;
}
